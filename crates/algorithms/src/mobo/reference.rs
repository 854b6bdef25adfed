//! The hypervolume's reference point where the problem declares none: BoTorch's
//! `infer_reference_point` (Ishibuchi et al. 2011's scaled nadir).

use bosweep_core::pareto::{Front, non_dominated};

/// The smallest range BoTorch allows an objective (`MIN_Y_RANGE`).
const MIN_Y_RANGE: f64 = 1e-7;

/// How far below the nadir the point sits, as a fraction of the front's range.
const SCALE: f64 = 0.1;

/// BoTorch's `infer_reference_point` of the observed values (`m` per point, maximisation): the
/// nadir of their front less a tenth of its range in each objective (of `max(|y|, 1e-7)` for a
/// front of one point). `None` without values.
pub(super) fn infer_reference_point(values: &[f64], m: usize) -> Option<Vec<f64>> {
    if values.is_empty() {
        return None;
    }
    let negated: Vec<f64> = values.iter().map(|v| -v).collect();
    let front = non_dominated(Front::new(&negated, m).ok()?);
    let point = |i: usize| &values[i * m..(i + 1) * m];
    if let [only] = front[..] {
        return Some(
            point(only)
                .iter()
                .map(|y| y - SCALE * y.abs().max(MIN_Y_RANGE))
                .collect(),
        );
    }
    Some(
        (0..m)
            .map(|j| {
                let column = front.iter().map(|&i| point(i)[j]);
                let nadir = column.clone().fold(f64::INFINITY, f64::min);
                let ideal = column.fold(f64::NEG_INFINITY, f64::max);
                nadir - SCALE * (ideal - nadir).max(MIN_Y_RANGE)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BoTorch's examples by hand: a front of (1, 3), (2, 2), (3, 1) with a dominated (0, 0)
    /// has nadir (1, 1) and range (2, 2), so (0.8, 0.8); one point y gives y − 0.1|y|.
    #[test]
    fn nadir_less_a_tenth_of_the_range() {
        let values = [1.0, 3.0, 2.0, 2.0, 3.0, 1.0, 0.0, 0.0];
        let r = infer_reference_point(&values, 2).unwrap();
        assert!(
            (r[0] - 0.8).abs() < 1e-15 && (r[1] - 0.8).abs() < 1e-15,
            "{r:?}"
        );
        assert_eq!(
            infer_reference_point(&[2.0, -4.0], 2).unwrap(),
            vec![1.8, -4.4]
        );
        assert_eq!(
            infer_reference_point(&[0.0, 1.0], 2).unwrap(),
            vec![-1e-8, 0.9]
        );
        assert_eq!(infer_reference_point(&[], 2), None);
    }
}
