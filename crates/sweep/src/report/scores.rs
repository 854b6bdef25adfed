//! Scores that put problems of different scales on one axis: Bayesmark's normalised score
//! against random search, and COCO's expected running time (ERT) to precision targets.
//!
//! The normalised score of a run is `100 · (1 − r / r̄_random)`, with `r` the run's final simple
//! regret (its cumulative regret where the report compares those) and `r̄_random` random
//! search's mean of the same on the same problem: 100
//! at the optimum, 0 at random search's mean, below 0 worse than it (Turner et al., "Bayesian
//! optimization is superior to random search for machine learning hyperparameter tuning",
//! 2021, Bayesmark's normalised score). An algorithm's score on a problem is the mean over its
//! runs; across problems, the mean and median of those.
//!
//! The ERT to a target Δf is the evaluations all runs spent until their best evaluated point
//! first reached Δf — COCO's runtime, the first evaluation whose noise-free f − f_opt is at most
//! Δf, whatever the method recommends — (a run that never did counts all its evaluations)
//! divided by the runs that reached it (Hansen et al., "COCO: performance assessment", 2021);
//! infinite where none did.

use bosweep_core::stats::{describe, mean};

use super::compare::metric;
use super::load::{CompletedRun, Trace};
use super::{BestBy, Metric};

/// The algorithm whose runs normalise the scores.
pub(crate) const REFERENCE_ALGORITHM: &str = "random";

/// The precision targets Δf of the ERT tables.
pub(crate) const ERT_TARGETS: [f64; 4] = [10.0, 1e-1, 1e-3, 1e-5];

/// What a score normalises: the regret the report compares, its simple regret where the
/// report compares best values (a best value has no scale to normalise by).
pub(crate) fn scored_by(metric: Metric) -> BestBy {
    BestBy::regret_of(metric).unwrap_or(BestBy::SimpleRegret)
}

/// Bayesmark's normalised score of a final simple regret against the reference's mean final
/// simple regret on the same problem; `None` where that mean is not positive (random search
/// solved the problem: nothing to normalise by) or either is not finite.
pub(crate) fn normalised_score(regret: f64, reference: f64) -> Option<f64> {
    (reference > 0.0 && reference.is_finite() && regret.is_finite())
        .then(|| 100.0 * (1.0 - regret / reference))
}

/// The display label and mean final `regret` of the reference's runs among `cells` (each
/// algorithm's completed runs on one problem): the plain `random` setting where there is one,
/// else the first setting of `random`. `None` without a completed reference run with a known
/// regret.
pub(crate) fn reference_regret(
    cells: &[&[&CompletedRun]],
    regret: BestBy,
) -> Option<(String, f64)> {
    let label_of = |runs: &[&CompletedRun]| {
        runs.first()
            .filter(|r| r.spec.algorithm.name == REFERENCE_ALGORITHM)
            .map(|r| r.spec.algorithm.label())
    };
    let runs = cells
        .iter()
        .find(|runs| label_of(runs).as_deref() == Some(REFERENCE_ALGORITHM))
        .or_else(|| cells.iter().find(|runs| label_of(runs).is_some()))?;
    let finals: Vec<f64> = runs
        .iter()
        .filter_map(|r| metric(r.trace.last(), regret))
        .collect();
    Some((runs[0].spec.algorithm.display_label(), mean(&finals)?))
}

/// The mean normalised score of `traces` (one algorithm's runs on one problem) on their final
/// `regret` against the reference's mean of it; `None` where no run has a known regret. The
/// score is linear in the regret, so this is the score of the mean regret, which makes the
/// reference's own score exactly 0.
pub(crate) fn mean_score(traces: &[&Trace], regret: BestBy, reference: f64) -> Option<f64> {
    let finals: Vec<f64> = traces
        .iter()
        .filter_map(|t| metric(t.last(), regret))
        .collect();
    normalised_score(mean(&finals)?, reference)
}

/// One algorithm's expected running time on one problem to one target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Ert {
    pub target: f64,
    /// Runs whose regrets are known.
    pub runs: usize,
    /// Of those, the runs that reached the target.
    pub successes: usize,
    /// Evaluations spent per success; `None` (infinite) without one.
    pub evaluations: Option<f64>,
}

/// The ERT of `traces` to `target` (runs without known regrets left out, but for a run of a
/// constrained problem that found no feasible point where the others' regrets are known: it
/// spent its whole budget without success).
pub(crate) fn expected_running_time(traces: &[&Trace], target: f64) -> Ert {
    let unknown = |t: &Trace| t.steps.iter().all(|s| s.best_evaluated_regret.is_none());
    let regrets_known = traces.iter().any(|t| !unknown(t));
    let (mut runs, mut successes, mut spent) = (0, 0, 0usize);
    for trace in traces {
        if unknown(trace) && !(trace.never_feasible() && regrets_known) {
            continue;
        }
        runs += 1;
        match trace
            .steps
            .iter()
            .find(|s| s.best_evaluated_regret.is_some_and(|r| r <= target))
        {
            Some(step) => {
                successes += 1;
                spent += step.evals;
            }
            None => spent += trace.last().evals,
        }
    }
    Ert {
        target,
        runs,
        successes,
        evaluations: (successes > 0).then(|| spent as f64 / successes as f64),
    }
}

/// One algorithm's normalised scores across problems.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AlgorithmScores {
    /// Palette index and display label.
    pub color: usize,
    pub algorithm: String,
    /// Its mean score on each problem where it has one, highest first.
    pub per_problem: Vec<f64>,
    pub mean: f64,
    pub median: f64,
}

/// The normalised scores of a report: per algorithm across problems, best mean first.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Scores {
    /// What was scored: `"simple regret"` or `"cumulative regret"`.
    pub regret: &'static str,
    /// The reference's display labels, as the problems name them (usually one).
    pub reference: Vec<String>,
    pub algorithms: Vec<AlgorithmScores>,
}

/// [`Scores`] from every problem's (palette index, algorithm label, mean score) entries and the
/// reference labels; `None` without any score.
pub(crate) fn across_problems(
    entries: &[(usize, String, f64)],
    regret: &'static str,
    reference: Vec<String>,
) -> Option<Scores> {
    let mut algorithms: Vec<AlgorithmScores> = Vec::new();
    for (color, label, score) in entries {
        match algorithms.iter_mut().find(|a| a.color == *color) {
            Some(a) => a.per_problem.push(*score),
            None => algorithms.push(AlgorithmScores {
                color: *color,
                algorithm: label.clone(),
                per_problem: vec![*score],
                mean: 0.0,
                median: 0.0,
            }),
        }
    }
    for a in &mut algorithms {
        a.per_problem.sort_by(|x, y| y.total_cmp(x));
        let d = describe(&a.per_problem)?;
        (a.mean, a.median) = (d.mean, d.median);
    }
    algorithms.sort_by(|a, b| b.mean.total_cmp(&a.mean).then(a.color.cmp(&b.color)));
    (!algorithms.is_empty()).then_some(Scores {
        regret,
        reference,
        algorithms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::load::Step;

    fn trace(regrets: &[f64]) -> Trace {
        Trace::of_regrets(regrets)
    }

    #[test]
    fn the_score_is_100_at_the_optimum_and_0_at_random_searchs_mean() {
        assert_eq!(normalised_score(0.0, 4.0), Some(100.0));
        assert_eq!(normalised_score(4.0, 4.0), Some(0.0));
        assert_eq!(normalised_score(1.0, 4.0), Some(75.0));
        assert_eq!(normalised_score(6.0, 4.0), Some(-50.0));
        assert_eq!(normalised_score(1.0, 0.0), None, "random search solved it");
        assert_eq!(normalised_score(f64::NAN, 1.0), None);
        // Runs ending at regrets 1 and 3 against a reference mean of 4: (75 + 25) / 2.
        let (a, b) = (trace(&[5.0, 1.0]), trace(&[3.0]));
        let simple = scored_by(Metric::SimpleRegret);
        assert_eq!(mean_score(&[&a, &b], simple, 4.0), Some(50.0));
        assert_eq!(metric(a.last(), scored_by(Metric::BestValue)), Some(1.0));
        assert_eq!(
            metric(a.last(), scored_by(Metric::CumulativeRegret)),
            None,
            "these steps know only their simple regret"
        );
    }

    #[test]
    fn ert_divides_every_runs_evaluations_by_the_successes() {
        // Reaches 1 at its 2nd evaluation, of 4.
        let a = trace(&[5.0, 1.0, 0.5, 0.01]);
        // Never reaches 1: all 3 evaluations count.
        let b = trace(&[9.0, 8.0, 7.0]);
        // Reaches 1 at its 1st evaluation.
        let c = trace(&[1.0, 1.0]);
        let ert = expected_running_time(&[&a, &b, &c], 1.0);
        assert_eq!((ert.runs, ert.successes), (3, 2));
        assert_eq!(ert.evaluations, Some((2.0 + 3.0 + 1.0) / 2.0));
        // 0.01: only a, at its 4th; b and c spend 3 and 2.
        assert_eq!(
            expected_running_time(&[&a, &b, &c], 0.01).evaluations,
            Some(9.0)
        );
        let none = expected_running_time(&[&b], 1.0);
        assert_eq!((none.runs, none.successes, none.evaluations), (1, 0, None));
    }

    #[test]
    fn across_problems_the_mean_and_median_rank_the_algorithms() {
        let entries = [
            (0, "random".to_owned(), 0.0),
            (1, "ei".to_owned(), 80.0),
            (0, "random".to_owned(), 0.0),
            (1, "ei".to_owned(), 20.0),
            (1, "ei".to_owned(), 90.0),
        ];
        let scores = across_problems(&entries, "simple regret", vec!["random".into()]).unwrap();
        let ei = &scores.algorithms[0];
        assert_eq!(ei.algorithm, "ei");
        assert_eq!(ei.per_problem, [90.0, 80.0, 20.0]);
        assert!((ei.mean - 190.0 / 3.0).abs() < 1e-12);
        assert_eq!(ei.median, 80.0);
        assert_eq!(scores.algorithms[1].mean, 0.0);
        assert!(across_problems(&[], "simple regret", Vec::new()).is_none());
    }

    /// A constrained run without a feasible point has no regret, yet counts as a run that spent
    /// its budget without success where the other runs' regrets are known.
    #[test]
    fn a_run_without_a_feasible_point_is_an_unsuccessful_run() {
        let found = Trace {
            constrained: true,
            first_feasible: Some(1),
            ..trace(&[2.0, 0.5])
        };
        let none = Trace {
            constrained: true,
            first_feasible: None,
            ..Trace::of_steps((1..=2).map(|e| Step {
                simple_regret: None,
                best_evaluated_regret: None,
                ..Step::with_regret(e, 0.0)
            }))
        };
        let ert = expected_running_time(&[&found, &none], 1.0);
        assert_eq!(
            (ert.runs, ert.successes, ert.evaluations),
            (2, 1, Some(4.0))
        );
        // Alone, nothing says its problem's regrets are known: it is left out.
        assert_eq!(expected_running_time(&[&none], 1.0).runs, 0);
    }
}
