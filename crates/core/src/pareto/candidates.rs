//! The points that can add volume below a reference point.

use super::dominance::non_dominated;
use super::{Front, lexicographic};

/// The rows of `front` strictly better than `reference` in every objective, copied row-major:
/// the only points that dominate any volume below it.
pub(super) fn inside(front: Front<'_>, reference: &[f64]) -> Vec<f64> {
    front
        .points()
        .filter(|p| p.iter().zip(reference).all(|(x, r)| x < r))
        .flatten()
        .copied()
        .collect()
}

/// The distinct non-dominated points strictly better than a reference point: the points whose
/// removal can change the hypervolume (with their owners), and the only ones a box
/// decomposition needs.
pub(super) struct Candidates {
    /// One row per distinct point, row-major.
    pub(super) rows: Vec<f64>,
    /// For each row, the index in the front of the point it copies, or `None` where the front
    /// holds it more than once (removing one copy then changes nothing).
    pub(super) owners: Vec<Option<usize>>,
}

impl Candidates {
    /// The candidates of `front` below `reference` (of the front's width).
    pub(super) fn of(front: Front<'_>, reference: &[f64]) -> Self {
        let m = front.m();
        let index: Vec<usize> = (0..front.len())
            .filter(|&i| front.point(i).iter().zip(reference).all(|(x, r)| x < r))
            .collect();
        let values: Vec<f64> = index
            .iter()
            .flat_map(|&i| front.point(i))
            .copied()
            .collect();
        let within = Front { values: &values, m };
        let mut kept = non_dominated(within);
        kept.sort_by(|&a, &b| lexicographic(within.point(a), within.point(b)));
        let mut rows = Vec::with_capacity(kept.len() * m);
        let mut owners = Vec::with_capacity(kept.len());
        for (k, &i) in kept.iter().enumerate() {
            let p = within.point(i);
            let repeats_previous = k > 0 && within.point(kept[k - 1]) == p;
            if repeats_previous {
                *owners.last_mut().expect("a previous row") = None;
            } else {
                rows.extend_from_slice(p);
                owners.push(Some(index[i]));
            }
        }
        Self { rows, owners }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_non_dominated_points_inside_with_their_owners() {
        // (2, 2) twice, (3, 3) dominated, (1, 3) alone, (5, 0) outside, (3, 1) alone.
        let values = [2.0, 2.0, 3.0, 3.0, 1.0, 3.0, 2.0, 2.0, 5.0, 0.0, 3.0, 1.0];
        let front = Front::new(&values, 2).unwrap();
        let candidates = Candidates::of(front, &[4.0, 4.0]);
        assert_eq!(candidates.rows, [1.0, 3.0, 2.0, 2.0, 3.0, 1.0]);
        assert_eq!(candidates.owners, [Some(2), None, Some(5)]);
        assert_eq!(inside(front, &[4.0, 4.0]).len(), 2 * 5);
    }
}
