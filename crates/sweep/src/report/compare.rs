//! The statistics that compare a sweep's algorithms (Demšar 2006): per problem, every algorithm
//! against the best by the Wilcoxon signed-rank test on the final metric ([`super::Metric`]),
//! runs paired by replicate where they share their initial design and budget (the algorithms
//! of one replicate of a sweep do; an archived run beside it may not),
//! Holm-corrected over the problem's comparisons; across problems, average ranks of the mean
//! final metric with the Nemenyi critical difference.
//!
//! The pairs share the replicate's initial design and, for a problem with a random instance,
//! the instance ([`bosweep_problems::Problem::draw_instance`]); the runs' own seeds (noise,
//! the algorithms' randomness) differ.

use bosweep_core::stats::{
    SignedRank, critical_difference, holm, mean_ranks, signed_rank, signed_rank_pairs_needed,
};

use super::BestBy;
use super::load::{CompletedRun, Step};
use bosweep_problems::Sense;

/// The significance level of the verdicts.
pub(crate) const ALPHA: f64 = 0.05;

/// One algorithm against its problem's best.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PairedComparison {
    pub problem: String,
    pub algorithm: String,
    pub best: String,
    /// Replicates both completed.
    pub pairs: usize,
    /// Median over the pairs of (algorithm − best) in the metric as reported (a regret, or the
    /// best value in the problem's sense).
    pub median_difference: Option<f64>,
    /// `None` where every pair is equal (or there is no pair).
    pub test: Option<SignedRank>,
    /// Holm-adjusted over the problem's comparisons.
    pub p_holm: Option<f64>,
    /// The fewest pairs with which any verdict is possible: the exact test's smallest p over n
    /// pairs is 2/2ⁿ, and Holm's correction over the problem's m comparisons asks the smallest
    /// of them for p < α/m.
    pub pairs_needed: usize,
}

impl PairedComparison {
    /// "worse", "better" or "not distinguishable" at [`ALPHA`] after Holm's correction; with
    /// too few pairs for the corrected test ever to reach p < α
    /// ([`PairedComparison::pairs_needed`]), "cannot conclude (< N pairs)" instead of a "not
    /// distinguishable" that only says the sweep was too small.
    pub fn verdict(&self, by: BestBy) -> String {
        let needed = self.pairs_needed;
        match (self.p_holm, self.median_difference) {
            (Some(p), Some(d)) if p < ALPHA && d != 0.0 => {
                let better = (d > 0.0) == by.higher_is_better();
                if better { "better" } else { "worse" }.to_owned()
            }
            _ if self.pairs < needed => format!("cannot conclude (< {needed} pairs)"),
            _ => "not distinguishable".to_owned(),
        }
    }
}

/// The metric of a run at `step` (its last, for the final metric), as the report shows it.
pub(crate) fn metric(step: &Step, by: BestBy) -> Option<f64> {
    match by {
        BestBy::SimpleRegret => step.simple_regret,
        BestBy::BestEvaluatedRegret => step.best_evaluated_regret,
        BestBy::CumulativeRegret => step.cumulative_regret,
        BestBy::BestValue(_) => step.best_value,
        BestBy::Undecided => None,
    }
}

/// A run's final metric for pairing: as the report shows it, or, on a constrained problem
/// where the run found no feasible point, the worst there is (an infinite regret, the best
/// value infinitely bad), so that the pair counts against it rather than vanishing.
fn final_metric(run: &CompletedRun, by: BestBy) -> Option<f64> {
    metric(run.trace.last(), by).or_else(|| {
        let worst = match by {
            BestBy::BestValue(Sense::Maximize) => f64::NEG_INFINITY,
            _ => f64::INFINITY,
        };
        run.trace.never_feasible().then_some(worst)
    })
}

/// The signed-rank test on paired differences, some of them infinite (a run without a feasible
/// point against one with): ranks only need their order, so each infinite difference becomes
/// one larger in magnitude than every finite one.
fn signed_rank_of(differences: &[f64]) -> Option<SignedRank> {
    let largest = differences
        .iter()
        .filter(|d| d.is_finite())
        .fold(0.0, |m: f64, d| m.max(d.abs()));
    let ranked: Vec<f64> = differences
        .iter()
        .map(|&d| {
            if d.is_finite() {
                d
            } else {
                d.signum() * (2.0 * largest + 1.0)
            }
        })
        .collect();
    signed_rank(&ranked)
}

/// Each algorithm of `cells` (palette index, label and completed runs) but `best` against
/// `best`.
pub(crate) fn against_best(
    problem: &str,
    cells: &[(usize, String, Vec<&CompletedRun>)],
    best: &str,
    by: BestBy,
) -> Vec<PairedComparison> {
    let Some((_, _, best_runs)) = cells.iter().find(|(_, a, _)| a.as_str() == best) else {
        return Vec::new();
    };
    // A run's partner: the best's run of its replicate, from the same design and budget
    // (`RunSpec::design_differs`; an archived run may have neither).
    let best_at = |run: &CompletedRun| {
        best_runs
            .iter()
            .find(|r| r.spec.replicate == run.spec.replicate)
            .filter(|r| r.spec.design_differs(&run.spec).is_none())
            .and_then(|r| final_metric(r, by))
    };
    let mut comparisons: Vec<PairedComparison> = cells
        .iter()
        .filter(|(_, a, _)| a.as_str() != best)
        .map(|(_, algorithm, runs)| {
            let mut differences: Vec<f64> = runs
                .iter()
                .filter_map(|r| {
                    let (own, best) = (final_metric(r, by)?, best_at(r)?);
                    // Two runs without a feasible point tie (∞ − ∞ is no number).
                    Some(if own == best { 0.0 } else { own - best })
                })
                .collect();
            differences.sort_by(f64::total_cmp);
            PairedComparison {
                problem: problem.to_owned(),
                algorithm: algorithm.clone(),
                best: best.to_owned(),
                pairs: differences.len(),
                median_difference: median(&differences),
                test: signed_rank_of(&differences),
                p_holm: None,
                pairs_needed: 0,
            }
        })
        .collect();
    let needed = signed_rank_pairs_needed(ALPHA / comparisons.len().max(1) as f64);
    for c in &mut comparisons {
        c.pairs_needed = needed;
    }
    let tested: Vec<usize> = (0..comparisons.len())
        .filter(|&i| comparisons[i].test.is_some())
        .collect();
    let p: Vec<f64> = tested
        .iter()
        .map(|&i| comparisons[i].test.map_or(1.0, |t| t.p_value))
        .collect();
    for (&i, adjusted) in tested.iter().zip(holm(&p)) {
        comparisons[i].p_holm = Some(adjusted);
    }
    comparisons
}

/// The median of `sorted` (ascending); `None` when empty.
pub(crate) fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// Average ranks across problems.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ranks {
    /// (algorithm, average rank), best first.
    pub ranks: Vec<(String, f64)>,
    /// The problems ranked: those with a decided metric on which every ranked algorithm has
    /// a value.
    pub problems: Vec<String>,
    /// Nemenyi's critical difference at α = 0.05 (`None` beyond ten algorithms).
    pub critical_difference: Option<f64>,
}

/// One problem's mean final metric per algorithm, and how it is read.
pub(crate) struct ProblemScores {
    pub problem: String,
    pub by: BestBy,
    pub means: Vec<(String, Option<f64>)>,
    /// On a constrained problem, each algorithm's runs without a feasible point (as
    /// [`super::SummaryRow::infeasible_runs`]), which rank it before its mean does; empty on an
    /// unconstrained one.
    pub infeasible_runs: Vec<(String, usize)>,
}

/// Ranks the algorithms present with a value on every decided problem; `None` with fewer than
/// two such algorithms or no such problem.
pub(crate) fn average_ranks(scores: &[ProblemScores]) -> Option<Ranks> {
    let decided: Vec<&ProblemScores> = scores
        .iter()
        .filter(|s| s.by != BestBy::Undecided)
        .collect();
    let first = decided.first()?;
    let algorithms: Vec<&String> = first
        .means
        .iter()
        .map(|(a, _)| a)
        .filter(|a| {
            decided.iter().all(|s| {
                s.means.iter().any(|(b, m)| b == *a && m.is_some()) || infeasible(s, a).is_some()
            })
        })
        .collect();
    if algorithms.len() < 2 {
        return None;
    }
    // Lower is better: regrets and minimised values as they are, maximised values negated; an
    // algorithm with every run infeasible has no mean and the worst loss.
    let loss = |s: &ProblemScores, a: &String| {
        let m = s.means.iter().find(|(b, _)| b == a).and_then(|(_, m)| *m);
        match m {
            Some(m) if s.by.higher_is_better() => -m,
            Some(m) => m,
            None => f64::INFINITY,
        }
    };
    let rows: Vec<Vec<f64>> = decided
        .iter()
        .map(|s| {
            let keys: Vec<(usize, f64)> = algorithms
                .iter()
                .map(|a| (infeasible(s, a).unwrap_or(0), loss(s, a)))
                .collect();
            ordinal_losses(&keys)
        })
        .collect();
    let mut ranks: Vec<(String, f64)> = algorithms
        .iter()
        .map(|a| (*a).clone())
        .zip(mean_ranks(&rows))
        .collect();
    ranks.sort_by(|a, b| a.1.total_cmp(&b.1));
    Some(Ranks {
        critical_difference: critical_difference(ranks.len(), rows.len()),
        ranks,
        problems: decided.iter().map(|s| s.problem.clone()).collect(),
    })
}

/// Algorithm `a`'s runs without a feasible point on problem `s`, where it is constrained.
fn infeasible(s: &ProblemScores, a: &str) -> Option<usize> {
    s.infeasible_runs
        .iter()
        .find(|(b, _)| b == a)
        .map(|&(_, n)| n)
}

/// Losses that order `keys` (runs without a feasible point, then loss) lexicographically, equal
/// keys equal: each key's place among the distinct ones, which the ranks then read. Without
/// infeasible runs (every count 0) the order is the losses' own.
fn ordinal_losses(keys: &[(usize, f64)]) -> Vec<f64> {
    let order = |a: &(usize, f64), b: &(usize, f64)| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1));
    let mut distinct: Vec<(usize, f64)> = keys.to_vec();
    distinct.sort_by(order);
    distinct.dedup_by(|a, b| order(a, b).is_eq());
    keys.iter()
        .map(|k| distinct.partition_point(|d| order(d, k).is_lt()) as f64)
        .collect()
}

/// Groups of algorithms (indices into the ranks, best first) whose average ranks lie within the
/// critical difference of each other: the maximal runs, each drawn as one bar.
pub(crate) fn cliques(ranks: &[(String, f64)], cd: f64) -> Vec<(usize, usize)> {
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for i in 0..ranks.len() {
        let mut j = i;
        while j + 1 < ranks.len() && ranks[j + 1].1 - ranks[i].1 <= cd {
            j += 1;
        }
        if j > i && groups.last().is_none_or(|&(_, end)| j > end) {
            groups.push((i, j));
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(problem: &str, by: BestBy, means: &[(&str, f64)]) -> ProblemScores {
        ProblemScores {
            problem: problem.into(),
            by,
            means: means
                .iter()
                .map(|(a, m)| (a.to_string(), Some(*m)))
                .collect(),
            infeasible_runs: Vec::new(),
        }
    }

    #[test]
    fn ranks_read_each_problem_in_its_sense() {
        let all = [
            scores(
                "a",
                BestBy::SimpleRegret,
                &[("x", 0.1), ("y", 0.3), ("z", 0.2)],
            ),
            // Maximised: the largest best value ranks first.
            scores(
                "b",
                BestBy::BestValue(Sense::Maximize),
                &[("x", 5.0), ("y", 9.0), ("z", 1.0)],
            ),
            scores(
                "c",
                BestBy::Undecided,
                &[("x", 1.0), ("y", 0.0), ("z", 0.0)],
            ),
        ];
        let ranks = average_ranks(&all).unwrap();
        assert_eq!(ranks.problems, vec!["a", "b"]);
        // x: 1, 2; y: 3, 1; z: 2, 3.
        assert_eq!(
            ranks.ranks,
            vec![("x".into(), 1.5), ("y".into(), 2.0), ("z".into(), 2.5)]
        );
        assert!(
            (ranks.critical_difference.unwrap() - 2.343 * (12.0f64 / 12.0).sqrt()).abs() < 1e-12
        );
    }

    #[test]
    fn cliques_are_the_maximal_runs_within_the_critical_difference() {
        let r = |v: &[f64]| -> Vec<(String, f64)> {
            v.iter()
                .enumerate()
                .map(|(i, x)| (i.to_string(), *x))
                .collect()
        };
        assert_eq!(
            cliques(&r(&[1.0, 1.5, 2.2, 3.5, 3.9]), 1.0),
            vec![(0, 1), (1, 2), (3, 4)]
        );
        assert_eq!(cliques(&r(&[1.0, 3.0]), 1.0), vec![]);
    }

    #[test]
    fn verdicts_follow_the_sign_and_the_sense() {
        let c = |d: f64, p: f64| PairedComparison {
            problem: "p".into(),
            algorithm: "a".into(),
            best: "b".into(),
            pairs: 10,
            median_difference: Some(d),
            test: None,
            p_holm: Some(p),
            pairs_needed: 6,
        };
        assert_eq!(c(0.5, 0.01).verdict(BestBy::SimpleRegret), "worse");
        assert_eq!(
            c(0.5, 0.2).verdict(BestBy::SimpleRegret),
            "not distinguishable"
        );
        assert_eq!(
            c(-0.5, 0.01).verdict(BestBy::BestValue(Sense::Maximize)),
            "worse"
        );
        assert_eq!(c(-0.5, 0.01).verdict(BestBy::SimpleRegret), "better");
        // Five pairs can never reach p < 0.05 (the smallest p is 2/2⁵): the sweep is too small
        // to tell, which is not evidence that the two are alike.
        let few = PairedComparison {
            pairs: 5,
            ..c(0.5, 0.0625)
        };
        assert_eq!(
            few.verdict(BestBy::SimpleRegret),
            "cannot conclude (< 6 pairs)"
        );
    }

    /// Three comparisons Holm-corrected ask the smallest p for p < 0.05/3: 2/2⁶ = 0.031 is not,
    /// 2/2⁷ = 0.0156 is, so six pairs cannot conclude where one comparison could.
    #[test]
    fn the_pairs_needed_grow_with_the_comparisons_corrected() {
        // One run per replicate of `algorithm`, each ending at the regret `values[replicate]`.
        let runs = |algorithm: &str, values: &[f64]| -> (usize, String, Vec<CompletedRun>) {
            let of = |replicate: usize, regret: f64| CompletedRun {
                spec: spec(algorithm, "branin", replicate),
                trace: crate::report::load::Trace::of_regrets(&[regret]),
            };
            let done = values.iter().enumerate().map(|(r, &v)| of(r, v)).collect();
            (0, algorithm.to_owned(), done)
        };
        let six = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let worse: Vec<f64> = six.iter().map(|v| v + 10.0).collect();
        for (others, needed) in [(1, 6), (2, 7), (3, 7), (6, 8)] {
            let mut owned = vec![runs("best", &six)];
            for k in 0..others {
                owned.push(runs(&format!("a{k}"), &worse));
            }
            let cells: Vec<(usize, String, Vec<&CompletedRun>)> = owned
                .iter()
                .map(|(c, a, r)| (*c, a.clone(), r.iter().collect()))
                .collect();
            let comparisons = against_best("p", &cells, "best", BestBy::SimpleRegret);
            assert_eq!(comparisons.len(), others);
            for c in &comparisons {
                assert_eq!(c.pairs_needed, needed, "{others} comparisons");
                let verdict = c.verdict(BestBy::SimpleRegret);
                if needed > 6 {
                    assert_eq!(verdict, format!("cannot conclude (< {needed} pairs)"));
                } else {
                    assert_eq!(verdict, "worse");
                }
            }
        }
    }

    /// A constrained run of `replicate` ending at `regret`, or, with `None`, one that found no
    /// feasible point (no regret at all).
    fn constrained_run(algorithm: &str, replicate: usize, regret: Option<f64>) -> CompletedRun {
        let mut trace = match regret {
            Some(r) => crate::report::load::Trace::of_regrets(&[r]),
            None => crate::report::load::Trace::of_steps([Step {
                simple_regret: None,
                best_evaluated_regret: None,
                ..Step::with_regret(1, 0.0)
            }]),
        };
        trace.constrained = true;
        trace.first_feasible = regret.map(|_| 1);
        CompletedRun {
            spec: spec(algorithm, "constrained-gramacy", replicate),
            trace,
        }
    }

    /// The one-evaluation run of `algorithm` on `problem` in `replicate`, its seeds the
    /// replicate's.
    fn spec(algorithm: &str, problem: &str, replicate: usize) -> crate::plan::RunSpec {
        crate::plan::RunSpec {
            index: replicate,
            algorithm: crate::plan::Setting::new(algorithm, vec![]),
            problem: crate::plan::Setting::new(problem, vec![]),
            replicate,
            budget: 1,
            init: 1,
            seed: replicate as u64,
            design_seed: replicate as u64,
            parallel: Default::default(),
        }
    }

    /// On a constrained problem a run without a feasible point is the worse of its pair, not
    /// left out: its difference ranks above every finite one (and the median shows it as ∞),
    /// and two such runs tie.
    #[test]
    fn a_run_without_a_feasible_point_loses_its_pair() {
        let best: Vec<CompletedRun> = (0..8)
            .map(|r| constrained_run("best", r, Some(1.0)))
            .collect();
        // Better than the best's on replicates 0–2 by 0.5, no feasible point on 3–7.
        let other: Vec<CompletedRun> = (0..8)
            .map(|r| constrained_run("other", r, (r < 3).then_some(0.5)))
            .collect();
        let cells = vec![
            (0, "best".to_owned(), best.iter().collect::<Vec<_>>()),
            (1, "other".to_owned(), other.iter().collect()),
        ];
        let comparisons = against_best("p", &cells, "best", BestBy::SimpleRegret);
        let c = &comparisons[0];
        assert_eq!(c.pairs, 8);
        assert_eq!(c.median_difference, Some(f64::INFINITY));
        // W+ sums the ranks of the five infinite differences, 4 + 5 + … + 8 = 30 of 36.
        assert_eq!(c.test.unwrap().w_plus, 30.0);
        let tie = against_best(
            "p",
            &[
                (0, "best".to_owned(), vec![&other[5]]),
                (1, "other".to_owned(), vec![&other[5]]),
            ],
            "best",
            BestBy::SimpleRegret,
        );
        assert_eq!(tie[0].median_difference, Some(0.0));
    }

    /// Across problems, runs without a feasible point rank an algorithm before its mean does,
    /// and an algorithm with every run infeasible (no mean) still ranks, last.
    #[test]
    fn infeasible_runs_rank_before_the_mean() {
        let constrained = ProblemScores {
            infeasible_runs: vec![("x".into(), 2), ("y".into(), 0), ("z".into(), 4)],
            means: vec![
                ("x".into(), Some(0.1)),
                ("y".into(), Some(0.3)),
                ("z".into(), None),
            ],
            ..scores("a", BestBy::SimpleRegret, &[])
        };
        let plain = scores(
            "b",
            BestBy::SimpleRegret,
            &[("x", 0.1), ("y", 0.2), ("z", 0.3)],
        );
        let ranks = average_ranks(&[constrained, plain]).unwrap();
        // x: 2, 1; y: 1, 2; z: 3, 3.
        assert_eq!(
            ranks.ranks,
            vec![("x".into(), 1.5), ("y".into(), 1.5), ("z".into(), 3.0)]
        );
    }
}
