//! The refinement stage every grid-then-refine maximiser shares: bounded L-BFGS-B ascents from
//! several starts, run in parallel, each with its own objective state.

use rayon::prelude::*;

use super::lbfgsb::{self, LbfgsbOptions, Termination};

/// One ascent of [`ascend_from_starts`].
#[derive(Clone, Debug, PartialEq)]
pub struct Ascent {
    /// The best point of this ascent, inside the box.
    pub x: Vec<f64>,
    /// The objective at `x` (maximised).
    pub value: f64,
    /// L-BFGS-B iterations run.
    pub iterations: usize,
    /// Objective calls.
    pub evaluations: usize,
    /// Why the ascent stopped.
    pub termination: Termination,
}

/// Maximises an objective in the box `[lo, hi]` from each of `starts`, in parallel: `objective`
/// makes one value-and-gradient function per start (so each may keep its own scratch space or
/// cache). Returns the ascents in the order of `starts`; the first error ends the search.
pub fn ascend_from_starts<E, F, G>(
    starts: &[Vec<f64>],
    lo: &[f64],
    hi: &[f64],
    options: &LbfgsbOptions,
    objective: F,
) -> Result<Vec<Ascent>, E>
where
    E: Send,
    F: Fn() -> G + Sync,
    G: FnMut(&[f64]) -> Result<(f64, Vec<f64>), E>,
{
    starts
        .par_iter()
        .map(|start| {
            let mut value_gradient = objective();
            let run = lbfgsb::minimize(
                |x: &[f64]| {
                    let (v, g) = value_gradient(x)?;
                    Ok((-v, g.into_iter().map(|d| -d).collect()))
                },
                start,
                lo,
                hi,
                options,
            )?;
            Ok(Ascent {
                x: run.x,
                value: -run.f,
                iterations: run.iterations,
                evaluations: run.evaluations,
                termination: run.termination,
            })
        })
        .collect()
}

/// The index of the ascent of largest value, the earliest among ties; `None` when empty.
pub fn best_ascent(ascents: &[Ascent]) -> Option<usize> {
    (0..ascents.len()).reduce(|b, i| {
        if ascents[i].value > ascents[b].value {
            i
        } else {
            b
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `−(x − 0.3)² − (y − 0.8)²` from three starts: every ascent reaches the maximum, whose
    /// value is 0; a start on the maximum stays there.
    #[test]
    fn every_start_climbs_to_the_maximum_of_a_concave_bowl() {
        let starts = vec![vec![0.0, 0.0], vec![1.0, 1.0], vec![0.3, 0.8]];
        let options = LbfgsbOptions::default();
        let ascents = ascend_from_starts(&starts, &[0.0, 0.0], &[1.0, 1.0], &options, || {
            |x: &[f64]| {
                let (a, b) = (x[0] - 0.3, x[1] - 0.8);
                Ok::<_, ()>((-(a * a) - b * b, vec![-2.0 * a, -2.0 * b]))
            }
        })
        .unwrap();
        assert_eq!(ascents.len(), 3);
        for a in &ascents {
            assert!(
                (a.x[0] - 0.3).abs() < 1e-6 && (a.x[1] - 0.8).abs() < 1e-6,
                "{a:?}"
            );
            assert!(a.value > -1e-12);
        }
        assert_eq!(best_ascent(&ascents[..1]), Some(0));
        assert_eq!(best_ascent(&[]), None);
    }
}
