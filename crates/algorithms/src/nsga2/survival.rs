//! NSGA-II's ranking of a set of points: non-dominated rank and crowding distance, the survival
//! of the best `n` (Deb et al. 2002, Sec. III), and the comparison its tournaments use (pymoo's:
//! dominance, then crowding distance).

use bosweep_core::pareto::{self, Front, ParetoError};

/// A point's place in its set: its non-dominated rank (0 for the first front) and its crowding
/// distance within its front (infinite at a front's extremes) among the feasible points, and
/// its total constraint violation (0 where feasible; an infeasible point has no rank, and
/// `usize::MAX` stands for it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Standing {
    pub rank: usize,
    pub crowding: f64,
    pub violation: f64,
}

impl Standing {
    /// pymoo's NSGA-II tournament (`comp_by_dom_and_crowding`) between `self`, of minimised
    /// objectives `values`, and `other`, of `other_values`: where either is infeasible, the
    /// smaller violation wins (Deb's constraint domination); else the one that
    /// Pareto-dominates, else the larger crowding distance; `None` on a tie.
    pub fn beats(&self, values: &[f64], other: &Standing, other_values: &[f64]) -> Option<bool> {
        if self.violation > 0.0 || other.violation > 0.0 {
            return (self.violation != other.violation).then_some(self.violation < other.violation);
        }
        if pareto::dominates(values, other_values) {
            return Some(true);
        }
        if pareto::dominates(other_values, values) {
            return Some(false);
        }
        if self.crowding != other.crowding {
            return Some(self.crowding > other.crowding);
        }
        None
    }
}

/// The standing of every row of `values` (row-major, `m` minimised objectives).
pub(super) fn standings(values: &[f64], m: usize) -> Result<Vec<Standing>, ParetoError> {
    let front = Front::new(values, m)?;
    let mut out = vec![
        Standing {
            rank: 0,
            crowding: 0.0,
            violation: 0.0,
        };
        front.len()
    ];
    for (rank, members) in pareto::non_dominated_sort(front).into_iter().enumerate() {
        let rows: Vec<f64> = members
            .iter()
            .flat_map(|&i| front.point(i).iter().copied())
            .collect();
        let crowding = pareto::crowding_distance(Front::new(&rows, m)?);
        for (&i, c) in members.iter().zip(crowding) {
            out[i] = Standing {
                rank,
                crowding: c,
                violation: 0.0,
            };
        }
    }
    Ok(out)
}

/// The `n` rows of `values` that survive, each with its standing, as pymoo's `RankAndCrowding`
/// chooses them: the feasible rows (`violations` 0) first, whole fronts in rank order, the
/// front that does not fit whole cut to its members of largest crowding distance (ties by
/// index, so that a run repeats from its seed); then, where fewer than `n` are feasible, the
/// infeasible rows of least violation. The standings the next tournaments compare are those
/// computed on the pool's feasible rows, not recomputed on the survivors: a cut front keeps the
/// crowding distances it had before the cut.
pub(super) fn survivors(
    values: &[f64],
    violations: &[f64],
    m: usize,
    n: usize,
) -> Result<Vec<(usize, Standing)>, ParetoError> {
    let feasible: Vec<usize> = (0..violations.len())
        .filter(|&i| violations[i] <= 0.0)
        .collect();
    let feasible_values: Vec<f64> = feasible
        .iter()
        .flat_map(|&i| values[i * m..(i + 1) * m].iter().copied())
        .collect();
    let standing = standings(&feasible_values, m)?;
    let mut order: Vec<usize> = (0..feasible.len()).collect();
    order.sort_by(|&a, &b| {
        let (sa, sb) = (standing[a], standing[b]);
        sa.rank
            .cmp(&sb.rank)
            .then(sb.crowding.total_cmp(&sa.crowding))
            .then(a.cmp(&b))
    });
    let mut kept: Vec<(usize, Standing)> = order
        .into_iter()
        .take(n)
        .map(|k| (feasible[k], standing[k]))
        .collect();
    let mut infeasible: Vec<usize> = (0..violations.len())
        .filter(|&i| violations[i] > 0.0)
        .collect();
    infeasible.sort_by(|&a, &b| violations[a].total_cmp(&violations[b]).then(a.cmp(&b)));
    let room = n.saturating_sub(kept.len());
    kept.extend(infeasible.into_iter().take(room).map(|i| {
        (
            i,
            Standing {
                rank: usize::MAX,
                crowding: 0.0,
                violation: violations[i],
            },
        )
    }));
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pymoo 0.6.2's ranks, crowding distances (Deb's sum) and `RankAndCrowding` survivors on
    /// random sets of 2 to 4 objectives (`benches/peers/nsga2_survival_reference.py`).
    #[test]
    fn ranks_crowding_and_survivors_are_pymoos() {
        let data: serde_json::Value =
            serde_json::from_str(include_str!("testdata/pymoo_survival.json")).unwrap();
        let cases = data["cases"].as_array().unwrap();
        assert_eq!(cases.len(), 12);
        for (k, case) in cases.iter().enumerate() {
            let m = case["m"].as_u64().unwrap() as usize;
            let keep = case["keep"].as_u64().unwrap() as usize;
            let values: Vec<f64> = case["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let standing = standings(&values, m).unwrap();
            for (i, s) in standing.iter().enumerate() {
                assert_eq!(
                    s.rank as u64,
                    case["ranks"][i].as_u64().unwrap(),
                    "case {k}"
                );
                match case["crowding"][i].as_f64() {
                    None => assert!(s.crowding.is_infinite(), "case {k} point {i}"),
                    Some(c) => assert!((s.crowding - c).abs() < 1e-12, "case {k} point {i}"),
                }
            }
            let mut kept: Vec<usize> = survivors(&values, &vec![0.0; values.len() / m], m, keep)
                .unwrap()
                .into_iter()
                .map(|(i, kept_standing)| {
                    assert_eq!(kept_standing, standing[i], "case {k} point {i}");
                    i
                })
                .collect();
            kept.sort_unstable();
            let expected: Vec<usize> = case["survivors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as usize)
                .collect();
            assert_eq!(kept, expected, "case {k}");
        }
    }

    #[test]
    fn survival_keeps_whole_fronts_then_the_least_crowded() {
        // Front 0: (0, 4), (1, 3), (2, 2), (4, 0); front 1: (3, 3); front 2: (4, 4).
        let values = [0.0, 4.0, 4.0, 4.0, 1.0, 3.0, 3.0, 3.0, 2.0, 2.0, 4.0, 0.0];
        let s = standings(&values, 2).unwrap();
        let ranks: Vec<usize> = s.iter().map(|s| s.rank).collect();
        assert_eq!(ranks, vec![0, 2, 0, 1, 0, 0]);
        // Crowding in front 0 (sorted by f1: rows 0, 2, 4, 5; ranges 4 and 4): the extremes
        // infinite, row 2: (2 − 0)/4 + (4 − 2)/4 = 1, row 4: (4 − 1)/4 + (3 − 0)/4 = 1.5.
        assert!(s[0].crowding.is_infinite() && s[5].crowding.is_infinite());
        assert!((s[2].crowding - 1.0).abs() < 1e-12);
        assert!((s[4].crowding - 1.5).abs() < 1e-12);
        let kept = |n| -> Vec<usize> {
            survivors(&values, &[0.0; 6], 2, n)
                .unwrap()
                .into_iter()
                .map(|(i, _)| i)
                .collect()
        };
        assert_eq!(kept(3), vec![0, 5, 4]);
        assert_eq!(kept(5), vec![0, 5, 4, 2, 3]);
        // Row 4 keeps the crowding distance it had in the whole front (1.5), as pymoo's
        // survival stores it, not the one it would have among the three kept (2).
        let cut = survivors(&values, &[0.0; 6], 2, 3).unwrap();
        assert_eq!(cut[2], (4, s[4]));
        let row = |i: usize| &values[2 * i..2 * i + 2];
        // Rows 4 and 2 share front 0: the larger crowding distance wins.
        assert_eq!(s[4].beats(row(4), &s[2], row(2)), Some(true));
        // Row 3 (3, 3) dominates row 1 (4, 4).
        assert_eq!(s[3].beats(row(3), &s[1], row(1)), Some(true));
        assert_eq!(s[1].beats(row(1), &s[3], row(3)), Some(false));
        // Row 2 (1, 3) and row 3 (3, 3): dominance decides though the crowding favours row 3
        // (infinite, alone in its front).
        assert_eq!(s[2].beats(row(2), &s[3], row(3)), Some(true));
        assert_eq!(s[0].beats(row(0), &s[5], row(5)), None);
    }

    /// Deb's constraint domination: feasible rows survive first (ranked among themselves),
    /// infeasible ones fill what room is left by least violation; in a tournament an infeasible
    /// entrant loses to a feasible one, and of two infeasible the smaller violation wins.
    #[test]
    fn feasible_points_survive_first_then_the_least_violating() {
        // Rows: 0 (0, 4) feasible; 1 (1, 1) violation 2; 2 (3, 3) feasible; 3 (0, 0) violation
        // 0.5; 4 (2, 2) feasible.
        let values = [0.0, 4.0, 1.0, 1.0, 3.0, 3.0, 0.0, 0.0, 2.0, 2.0];
        let violations = [0.0, 2.0, 0.0, 0.5, 0.0];
        let kept = |n| -> Vec<usize> {
            survivors(&values, &violations, 2, n)
                .unwrap()
                .into_iter()
                .map(|(i, _)| i)
                .collect()
        };
        // Feasible fronts: {0, 4} then {2}; then row 3 (0.5) before row 1 (2).
        assert_eq!(kept(2), vec![0, 4]);
        assert_eq!(kept(4), vec![0, 4, 2, 3]);
        assert_eq!(kept(5), vec![0, 4, 2, 3, 1]);
        let all = survivors(&values, &violations, 2, 5).unwrap();
        let standing = |row: usize| all.iter().find(|(i, _)| *i == row).unwrap().1;
        let row = |i: usize| &values[2 * i..2 * i + 2];
        assert_eq!(standing(3).violation, 0.5);
        // Row 3 would dominate everything, but it is infeasible.
        assert_eq!(standing(2).beats(row(2), &standing(3), row(3)), Some(true));
        assert_eq!(standing(3).beats(row(3), &standing(1), row(1)), Some(true));
        assert_eq!(standing(1).beats(row(1), &standing(1), row(1)), None);
    }
}
