//! One verdict per algorithm across every problem: did the change help overall? A CI gate has
//! many problems and few seeds, and with fewer than six seeds a problem's own test can conclude
//! nothing, while the evidence of all problems together can.
//!
//! The test is the stratified Wilcoxon signed-rank test ([`stratified_signed_rank`]) with one
//! stratum per problem: each problem's paired improvements (A − B where lower is better, B − A
//! where higher is) are ranked within the problem, and the ranks of the positive ones are added
//! over the problems. It uses every pair, not one summary per problem, so that 2 problems × 6
//! seeds are 12 pairs (p can reach 2/2¹²) where a test over the problems' medians would have 2;
//! and ranking within problems makes it blind to the problems' scales, where a test on raw or
//! normalised values would let the problem with the largest regrets decide. Holm's correction
//! runs over the algorithms at each budget fraction.

use bosweep_core::stats::{SignedRank, holm, signed_rank_pairs_needed, stratified_signed_rank};

use super::{Tested, Verdict};
use crate::report::BestBy;
use crate::report::compare::ALPHA;

/// One algorithm over every problem it was compared on, at one budget fraction.
#[derive(Clone, Debug, PartialEq)]
pub struct PooledRow {
    /// The algorithm's display label.
    pub algorithm: String,
    /// The fraction of the budget.
    pub budget_fraction: f64,
    /// Problems whose metric is known, pooled.
    pub problems: usize,
    /// Their pairs with a value at this budget.
    pub pairs: usize,
    /// Problems where B's median is better than A's, and where it is worse.
    pub problems_better: usize,
    /// Problems where B's median is worse.
    pub problems_worse: usize,
    /// The stratified test of the improvements (W+ counts B's improvements); `None` where
    /// every pair is equal.
    pub test: Option<SignedRank>,
    /// The ranks of B's worsenings, added: with W+, every rank of every problem.
    pub w_minus: Option<f64>,
    /// Holm-adjusted over the algorithms at this budget fraction.
    pub p_holm: Option<f64>,
    /// What it concludes.
    pub verdict: Verdict,
}

/// The pooled rows of `rows`, per algorithm and budget fraction in the order of `rows`.
pub(super) fn pool(rows: &[Tested]) -> Vec<PooledRow> {
    let mut keys: Vec<(String, u64)> = Vec::new();
    for t in rows {
        let key = (t.row.algorithm.clone(), t.row.budget_fraction.to_bits());
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    let mut pooled: Vec<PooledRow> = keys
        .into_iter()
        .map(|(algorithm, fraction)| {
            let cells: Vec<&Tested> = rows
                .iter()
                .filter(|t| {
                    t.row.algorithm == algorithm
                        && t.row.budget_fraction.to_bits() == fraction
                        && t.by != BestBy::Undecided
                })
                .collect();
            pooled_row(algorithm, f64::from_bits(fraction), &cells)
        })
        .collect();
    holm_over_algorithms(&mut pooled);
    let needed = signed_rank_pairs_needed(ALPHA);
    for row in &mut pooled {
        row.verdict = verdict(row, needed);
    }
    pooled
}

/// The row of one algorithm at one budget fraction from its problems' `cells`.
fn pooled_row(algorithm: String, budget_fraction: f64, cells: &[&Tested]) -> PooledRow {
    let improvements: Vec<Vec<f64>> = cells
        .iter()
        .map(|t| {
            t.values
                .iter()
                .map(|&(a, b)| {
                    if t.by.higher_is_better() {
                        b - a
                    } else {
                        a - b
                    }
                })
                .collect()
        })
        .collect();
    // A problem's median B − A favours B where its sign is the better direction.
    let favours_b = |t: &Tested| {
        t.row
            .median_difference
            .filter(|d| *d != 0.0)
            .map(|d| (d > 0.0) == t.by.higher_is_better())
    };
    let test = stratified_signed_rank(&improvements);
    // Each problem's n non-zero improvements hold the ranks 1..=n: n(n + 1)/2 in all.
    let ranks: f64 = improvements
        .iter()
        .map(|i| {
            let n = i.iter().filter(|d| **d != 0.0).count() as f64;
            n * (n + 1.0) / 2.0
        })
        .sum();
    PooledRow {
        algorithm,
        budget_fraction,
        problems: cells.len(),
        pairs: improvements.iter().map(Vec::len).sum(),
        problems_better: cells.iter().filter(|t| favours_b(t) == Some(true)).count(),
        problems_worse: cells.iter().filter(|t| favours_b(t) == Some(false)).count(),
        w_minus: test.map(|t| ranks - t.w_plus),
        test,
        p_holm: None,
        // Given once every algorithm is tested.
        verdict: Verdict::NotDistinguishable,
    }
}

/// Holm over the algorithms tested at each budget fraction.
fn holm_over_algorithms(rows: &mut [PooledRow]) {
    let mut fractions: Vec<u64> = rows.iter().map(|r| r.budget_fraction.to_bits()).collect();
    fractions.sort_unstable();
    fractions.dedup();
    for fraction in fractions {
        let tested: Vec<usize> = (0..rows.len())
            .filter(|&i| rows[i].budget_fraction.to_bits() == fraction && rows[i].test.is_some())
            .collect();
        let p: Vec<f64> = tested
            .iter()
            .map(|&i| rows[i].test.map_or(1.0, |t| t.p_value))
            .collect();
        for (&i, adjusted) in tested.iter().zip(holm(&p)) {
            rows[i].p_holm = Some(adjusted);
        }
    }
}

/// B better where the improvements' ranks lean positive at p (Holm) < α, worse where they lean
/// negative; too few pairs in all can conclude nothing.
fn verdict(row: &PooledRow, needed: usize) -> Verdict {
    if row.problems == 0 {
        return Verdict::UnknownMetric;
    }
    if row.pairs < needed {
        return Verdict::CannotConclude {
            pairs: row.pairs,
            needed,
        };
    }
    match (row.p_holm, row.test) {
        (Some(p), Some(test)) if p < ALPHA && test.w_plus != test.statistic => Verdict::Better,
        (Some(p), Some(_)) if p < ALPHA => Verdict::Worse,
        _ => Verdict::NotDistinguishable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::CompareRow;
    use bosweep_problems::Sense;

    /// A row of `problem` for `algorithm` at the final budget with the median difference of
    /// `values`' B − A.
    fn cell(algorithm: &str, problem: &str, by: BestBy, values: Vec<(f64, f64)>) -> Tested {
        let mut differences: Vec<f64> = values.iter().map(|(a, b)| b - a).collect();
        differences.sort_by(f64::total_cmp);
        let row = CompareRow {
            algorithm: algorithm.into(),
            problem: problem.into(),
            budget_fraction: 1.0,
            evals: 10,
            metric: by.column(),
            pairs: values.len(),
            median_a: None,
            median_b: None,
            median_difference: crate::report::compare::median(&differences),
            rank_biserial: None,
            test: None,
            p_holm: None,
            verdict: Verdict::NotDistinguishable,
        };
        Tested { row, by, values }
    }

    #[test]
    fn two_problems_of_six_seeds_conclude_where_neither_alone_can() {
        // Regrets 10× apart in scale, B lower in every pair on both: each problem alone has
        // p = 2/2⁶ = 0.03125 before Holm over two problems (0.0625); pooled, 2/2¹².
        let lower = |scale: f64| -> Vec<(f64, f64)> {
            (1..=6)
                .map(|i| (scale * (1.0 + i as f64), scale * i as f64))
                .collect()
        };
        let rows = vec![
            cell("gp-ucb", "branin", BestBy::SimpleRegret, lower(1.0)),
            cell("gp-ucb", "hartmann3", BestBy::SimpleRegret, lower(10.0)),
        ];
        let pooled = pool(&rows);
        assert_eq!(pooled.len(), 1);
        let row = &pooled[0];
        assert_eq!((row.problems, row.pairs), (2, 12));
        assert_eq!((row.problems_better, row.problems_worse), (2, 0));
        let test = row.test.unwrap();
        assert_eq!((test.n, test.w_plus, row.w_minus), (12, 42.0, Some(0.0)));
        assert_eq!(test.p_value, 2.0 / 4096.0);
        assert_eq!(row.p_holm, Some(2.0 / 4096.0));
        assert_eq!(row.verdict, Verdict::Better);
    }

    #[test]
    fn improvements_follow_each_problems_sense_and_holm_runs_over_algorithms() {
        // "a": a maximised problem where B is higher (better) in all 6 pairs, and a regret
        // where B is higher (worse) in 1 of 6: W+ = 21 + (21 − 1) = 41 of 42, p = 2·2/4096.
        let higher: Vec<(f64, f64)> = (1..=6).map(|i| (i as f64, i as f64 + 1.0)).collect();
        let mut mostly_lower: Vec<(f64, f64)> =
            (2..=6).map(|i| (i as f64 + 1.0, i as f64)).collect();
        mostly_lower.push((1.0, 1.5));
        // "b": no difference anywhere.
        let equal: Vec<(f64, f64)> = (1..=6).map(|i| (i as f64, i as f64)).collect();
        let rows = vec![
            cell(
                "a",
                "max",
                BestBy::BestValue(Sense::Maximize),
                higher.clone(),
            ),
            cell("a", "regret", BestBy::SimpleRegret, mostly_lower),
            cell("b", "max", BestBy::BestValue(Sense::Maximize), equal),
            cell("b", "unknown", BestBy::Undecided, higher),
        ];
        let pooled = pool(&rows);
        let a = &pooled[0];
        let test = a.test.unwrap();
        assert_eq!((test.n, test.w_plus, test.statistic), (12, 41.0, 1.0));
        assert_eq!(a.w_minus, Some(1.0));
        assert_eq!(test.p_value, 4.0 / 4096.0);
        // The only tested algorithm: Holm over one test leaves p as it is.
        assert_eq!(a.p_holm, Some(4.0 / 4096.0));
        assert_eq!(a.verdict, Verdict::Better);
        let b = &pooled[1];
        assert_eq!((b.problems, b.pairs, b.test, b.p_holm), (1, 6, None, None));
        assert_eq!(b.verdict, Verdict::NotDistinguishable);

        // Worse: the same pairs read the other way.
        let flipped: Vec<(f64, f64)> = (1..=6).map(|i| (i as f64 + 1.0, i as f64)).collect();
        let worse = pool(&[cell(
            "c",
            "max",
            BestBy::BestValue(Sense::Maximize),
            flipped,
        )]);
        assert_eq!(worse[0].verdict, Verdict::Worse);
        let few = pool(&[cell(
            "d",
            "regret",
            BestBy::SimpleRegret,
            vec![(2.0, 1.0); 5],
        )]);
        assert_eq!(
            few[0].verdict,
            Verdict::CannotConclude {
                pairs: 5,
                needed: 6
            }
        );
        let unknown = pool(&[cell("e", "p", BestBy::Undecided, vec![(2.0, 1.0); 6])]);
        assert_eq!(unknown[0].verdict, Verdict::UnknownMetric);
    }
}
