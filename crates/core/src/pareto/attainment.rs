//! Empirical attainment surfaces of two objectives (Fonseca, Grunert da Fonseca & Hall 2001,
//! "Inferential performance assessment of stochastic optimisers and the attainment function";
//! computed as López-Ibáñez, Paquete & Stützle's EAF tools and moocore's `eaf` compute them).
//!
//! A run *attains* a point `z` when one of its points weakly dominates `z`. Over `r` runs the
//! **k-attainment surface** is the boundary of the region attained by at least `k` of them: the
//! 1-surface bounds what the best runs reached, the r-surface what every run reached, and the
//! ⌈r/2⌉-surface is the median one. It is what a report draws to show how a method's final
//! fronts spread over its replicates, where one front per run would be unreadable.
//!
//! In two objectives each surface is a staircase whose corners are given as points: sorted by
//! the first objective ascending, the second then strictly descending, each the minimal point
//! of the attained region at that first objective. The sweep runs once over the distinct first
//! objectives of all points, keeping each run's least second objective so far; the k-th least
//! of those is the k-surface's height there. `O(N log N + D · r log r)` for `N` points with `D`
//! distinct first objectives.

use super::{Front, ParetoError, ascending};

/// The corners of one attainment surface (minimisation form): `[f1, f2]` pairs, `f1`
/// ascending, `f2` strictly descending.
pub type Surface = Vec<[f64; 2]>;

/// The k-attainment surfaces of `runs` (each run's points, two objectives, minimisation form),
/// for k = 1, …, r in order: element `k − 1` is the boundary of the region at least `k` runs
/// attain. Dominated points and duplicates within a run change nothing (a run attains a point
/// or not); a run with no points attains nothing, so surfaces for k above the number of
/// non-empty runs are empty. Equal to moocore's `eaf` at percentiles `100 · k / r`.
///
/// # Errors
///
/// [`ParetoError::NotTwoObjectives`] when a run's points do not have two objectives: the
/// surfaces of three or more are not staircases, and nothing here needs them.
pub fn attainment_surfaces(runs: &[Front<'_>]) -> Result<Vec<Surface>, ParetoError> {
    if let Some(run) = runs.iter().find(|run| run.m() != 2) {
        return Err(ParetoError::NotTwoObjectives { m: run.m() });
    }
    let r = runs.len();
    // Every point with its run, by first objective; ties in any order (all are taken in at once).
    let mut points: Vec<(f64, f64, usize)> = runs
        .iter()
        .enumerate()
        .flat_map(|(run, front)| front.points().map(move |p| (p[0] + 0.0, p[1] + 0.0, run)))
        .collect();
    points.sort_by(|a, b| ascending(a.0, b.0));

    // Each run's least second objective among its points taken in so far.
    let mut lowest = vec![f64::INFINITY; r];
    let mut surfaces: Vec<Surface> = vec![Vec::new(); r];
    let mut heights = vec![0.0; r];
    let mut at = 0;
    while at < points.len() {
        let x = points[at].0;
        while at < points.len() && points[at].0 == x {
            let (_, y, run) = points[at];
            lowest[run] = lowest[run].min(y);
            at += 1;
        }
        heights.copy_from_slice(&lowest);
        heights.sort_by(|a, b| ascending(*a, *b));
        // The k-surface's height at x is the k-th least; a corner where it drops.
        for (surface, &y) in surfaces.iter_mut().zip(&heights) {
            let drops = y.is_finite() && surface.last().is_none_or(|last| y < last[1]);
            if drops {
                surface.push([x, y]);
            }
        }
    }
    Ok(surfaces)
}

/// The median attainment surface's level for `r` runs: ⌈r/2⌉, the least k attained by at least
/// half of them (moocore's percentile 50). `None` for no runs.
pub fn median_level(r: usize) -> Option<usize> {
    (r > 0).then(|| r.div_ceil(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn surfaces(runs: &[&[f64]]) -> Vec<Surface> {
        let fronts: Vec<Front> = runs.iter().map(|v| Front::new(v, 2).unwrap()).collect();
        attainment_surfaces(&fronts).unwrap()
    }

    #[test]
    fn three_runs_by_hand() {
        // moocore.eaf on these sets gives exactly these rows (percentiles 33.3, 66.7, 100).
        let s = surfaces(&[
            &[1.0, 5.0, 2.0, 3.0, 4.0, 1.0],
            &[2.0, 4.0, 3.0, 2.0, 5.0, 0.5],
            &[1.0, 5.0],
        ]);
        assert_eq!(
            s[0],
            [[1.0, 5.0], [2.0, 3.0], [3.0, 2.0], [4.0, 1.0], [5.0, 0.5]]
        );
        assert_eq!(
            s[1],
            [[1.0, 5.0], [2.0, 4.0], [3.0, 3.0], [4.0, 2.0], [5.0, 1.0]]
        );
        assert_eq!(s[2], [[2.0, 5.0]]);
    }

    #[test]
    fn one_run_is_its_non_dominated_set() {
        // (3, 3) is dominated by (2, 2); (2, 2) appears twice; (4, 2) is weakly dominated.
        let s = surfaces(&[&[3.0, 3.0, 1.0, 4.0, 2.0, 2.0, 2.0, 2.0, 4.0, 2.0, 5.0, 0.0]]);
        assert_eq!(s, [vec![[1.0, 4.0], [2.0, 2.0], [5.0, 0.0]]]);
    }

    #[test]
    fn identical_runs_give_identical_surfaces() {
        let run: &[f64] = &[1.0, 2.0, 2.0, 1.0];
        let s = surfaces(&[run, run, run]);
        assert_eq!(s.len(), 3);
        for surface in &s {
            assert_eq!(surface, &[[1.0, 2.0], [2.0, 1.0]]);
        }
    }

    #[test]
    fn ties_in_the_first_objective_across_runs() {
        // Both runs have a point at f1 = 1; the second surface is the worse of the two there.
        let s = surfaces(&[&[1.0, 3.0], &[1.0, 1.0, 2.0, 0.0]]);
        assert_eq!(s[0], [[1.0, 1.0], [2.0, 0.0]]);
        assert_eq!(s[1], [[1.0, 3.0]]);
    }

    #[test]
    fn an_empty_run_attains_nothing_and_negative_zero_is_zero() {
        let s = surfaces(&[&[-0.0, 1.0], &[]]);
        assert_eq!(s, [vec![[0.0, 1.0]], vec![]]);
        assert!(s[0][0][0].is_sign_positive());
        assert!(surfaces(&[]).is_empty());
    }

    #[test]
    fn three_objectives_are_refused() {
        let front = Front::new(&[1.0, 2.0, 3.0], 3).unwrap();
        assert_eq!(
            attainment_surfaces(&[front]),
            Err(ParetoError::NotTwoObjectives { m: 3 })
        );
    }

    #[test]
    fn median_levels() {
        assert_eq!(median_level(0), None);
        assert_eq!(median_level(1), Some(1));
        assert_eq!(median_level(3), Some(2));
        assert_eq!(median_level(4), Some(2));
        assert_eq!(median_level(5), Some(3));
    }
}
