//! `summary.csv`'s rows: per problem and algorithm the statistics of the final metrics over the
//! completed runs, and each problem's best algorithm and its ties.

use bosweep_core::stats::{describe, mean};
use bosweep_problems::Sense;

use super::Metric;
use super::load::{Step, Trace};

/// One row of `summary.csv`: a problem × algorithm pair. Statistics are over completed runs;
/// `None` is an empty cell.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    /// The problem setting's label.
    pub problem: String,
    /// The algorithm setting's label.
    pub algorithm: String,
    /// Completed runs.
    pub runs: usize,
    /// Mean final simple regret; `None` where the problem's optimum is unknown.
    pub simple_regret_mean: Option<f64>,
    /// Standard error of the mean; `None` with fewer than two values.
    pub simple_regret_se: Option<f64>,
    /// Median final simple regret.
    pub simple_regret_median: Option<f64>,
    /// Mean final regret of the best point evaluated (COCO's measure); `None` where the
    /// problem's optimum is unknown.
    pub best_evaluated_regret_mean: Option<f64>,
    /// Its standard error; `None` with fewer than two values.
    pub best_evaluated_regret_se: Option<f64>,
    /// Its median.
    pub best_evaluated_regret_median: Option<f64>,
    /// Mean final cumulative regret; `None` where the problem's optimum is unknown.
    pub cumulative_regret_mean: Option<f64>,
    /// Standard error of the final cumulative regret's mean; `None` with fewer than two values.
    pub cumulative_regret_se: Option<f64>,
    /// Mean final best value, in the problem's own sense.
    pub best_value_mean: Option<f64>,
    /// Standard error of the final best value's mean; `None` with fewer than two values.
    pub best_value_se: Option<f64>,
    /// Mean evaluations per run (repeats counted).
    pub evals_mean: Option<f64>,
    /// Mean seconds per step of model and acquisition work, over every step of every run.
    pub seconds_per_iter_mean: Option<f64>,
    /// Mean normalised score of the runs, Bayesmark's `100 · (1 − r / r̄)` with `r̄` random
    /// search's mean final simple regret on the problem (cumulative where the report compares
    /// those); `None` without random-search runs or known regrets.
    pub score_mean: Option<f64>,
    /// On a constrained problem, the runs that evaluated no feasible point: the worst result,
    /// left out of the means above, so that an algorithm with more of them never ranks above
    /// one with fewer. `None` on an unconstrained problem.
    pub infeasible_runs: Option<usize>,
    /// On a constrained problem, the median over the runs that found one of the evaluations
    /// spent when the first feasible point was evaluated.
    pub first_feasible_median: Option<f64>,
    /// The problem's best algorithm (bold in `report.md`).
    pub best: bool,
    /// Not the best, but its mean lies within one standard error of the best's (see
    /// [`within_one_se`]); italic in `report.md`.
    pub tied: bool,
}

/// Whether two means are within one standard error of their difference,
/// `|m₁ − m₂| ≤ √(se₁² + se₂²)`: at this many replicates the sweep cannot tell them apart.
/// Never with an unknown standard error (a single run).
pub fn within_one_se(a: (f64, Option<f64>), b: (f64, Option<f64>)) -> bool {
    match (a.1, b.1) {
        (Some(sa), Some(sb)) => (a.0 - b.0).abs() <= (sa * sa + sb * sb).sqrt(),
        _ => false,
    }
}

/// The statistics of `algorithm` on `problem` over its completed runs' `traces` (not yet
/// marked best or tied: [`mark_best`]).
pub(crate) fn summary_row(problem: &str, algorithm: &str, traces: &[&Trace]) -> SummaryRow {
    let finals = |f: fn(&Step) -> Option<f64>| -> Vec<f64> {
        traces.iter().filter_map(|t| f(t.last())).collect()
    };
    let simple = describe(&finals(|s| s.simple_regret));
    let best_evaluated = describe(&finals(|s| s.best_evaluated_regret));
    let cumulative = describe(&finals(|s| s.cumulative_regret));
    let best_value = describe(&finals(|s| s.best_value));
    // Every step's seconds; an archived run keeps only their sum and the steps' number.
    let (seconds, steps) = traces
        .iter()
        .fold((0.0, 0), |(total, steps), t| match t.compacted {
            Some(c) => (total + c.seconds, steps + c.steps),
            None => (
                t.steps.iter().fold(total, |total, s| total + s.seconds),
                steps + t.steps.len(),
            ),
        });
    let seconds_per_iter_mean = (steps > 0).then(|| seconds / steps as f64);
    let constrained = traces.iter().any(|t| t.constrained);
    SummaryRow {
        problem: problem.to_string(),
        algorithm: algorithm.to_string(),
        runs: traces.len(),
        simple_regret_mean: simple.map(|d| d.mean),
        simple_regret_se: simple.and_then(|d| d.se),
        simple_regret_median: simple.map(|d| d.median),
        best_evaluated_regret_mean: best_evaluated.map(|d| d.mean),
        best_evaluated_regret_se: best_evaluated.and_then(|d| d.se),
        best_evaluated_regret_median: best_evaluated.map(|d| d.median),
        cumulative_regret_mean: cumulative.map(|d| d.mean),
        cumulative_regret_se: cumulative.and_then(|d| d.se),
        best_value_mean: best_value.map(|d| d.mean),
        best_value_se: best_value.and_then(|d| d.se),
        evals_mean: mean(&finals(|s| Some(s.evals as f64))),
        seconds_per_iter_mean,
        score_mean: None,
        infeasible_runs: constrained.then(|| traces.iter().filter(|t| t.never_feasible()).count()),
        first_feasible_median: describe(
            &traces
                .iter()
                .filter_map(|t| t.first_feasible.map(|e| e as f64))
                .collect::<Vec<_>>(),
        )
        .map(|d| d.median),
        best: false,
        tied: false,
    }
}

/// How a problem's best algorithm was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BestBy {
    /// The recommendation's regret.
    SimpleRegret,
    /// The best evaluated point's regret.
    BestEvaluatedRegret,
    CumulativeRegret,
    BestValue(Sense),
    /// No regrets and no recorded sense (or no completed run): no best algorithm.
    Undecided,
}

impl BestBy {
    /// The regret `metric` compares, `None` for the best value (whose direction is the
    /// problem's sense).
    pub(crate) fn regret_of(metric: Metric) -> Option<BestBy> {
        match metric {
            Metric::SimpleRegret => Some(BestBy::SimpleRegret),
            Metric::BestEvaluatedRegret => Some(BestBy::BestEvaluatedRegret),
            Metric::CumulativeRegret => Some(BestBy::CumulativeRegret),
            Metric::BestValue => None,
        }
    }

    /// Whether a higher value of the metric is better: only a maximised best value (regrets and
    /// minimised values are better lower).
    pub(crate) fn higher_is_better(self) -> bool {
        self == BestBy::BestValue(Sense::Maximize)
    }

    /// A row's mean final metric and its standard error.
    pub(crate) fn key(self, row: &SummaryRow) -> Option<(f64, Option<f64>)> {
        match self {
            BestBy::SimpleRegret => row.simple_regret_mean.map(|m| (m, row.simple_regret_se)),
            BestBy::BestEvaluatedRegret => row
                .best_evaluated_regret_mean
                .map(|m| (m, row.best_evaluated_regret_se)),
            BestBy::CumulativeRegret => row
                .cumulative_regret_mean
                .map(|m| (m, row.cumulative_regret_se)),
            BestBy::BestValue(_) => row.best_value_mean.map(|m| (m, row.best_value_se)),
            BestBy::Undecided => None,
        }
    }

    /// The metric in words, as the report's sentences name it.
    pub fn what(self) -> &'static str {
        match self {
            BestBy::SimpleRegret => "recommendation's regret",
            BestBy::BestEvaluatedRegret => "best evaluated regret",
            BestBy::CumulativeRegret => "cumulative regret",
            BestBy::BestValue(_) | BestBy::Undecided => "best value",
        }
    }

    /// The name of `comparisons.csv`'s `metric` column.
    pub fn column(self) -> &'static str {
        match self {
            BestBy::SimpleRegret => Metric::SimpleRegret.as_str(),
            BestBy::BestEvaluatedRegret => Metric::BestEvaluatedRegret.as_str(),
            BestBy::CumulativeRegret => Metric::CumulativeRegret.as_str(),
            BestBy::BestValue(_) | BestBy::Undecided => Metric::BestValue.as_str(),
        }
    }
}

/// Marks the row of the best mean final `metric` (lowest regret; where no row has that regret,
/// or the metric is the best value, the best mean best value in `sense`; ties of the means go to
/// the first in manifest order), and the rows whose mean lies within one standard error of it
/// ([`within_one_se`]). On a constrained problem the fewest runs without a feasible point come
/// first: only rows with as few as the best's can be it or tie with it.
pub(crate) fn mark_best(rows: &mut [SummaryRow], sense: Option<Sense>, metric: Metric) -> BestBy {
    let by = match (BestBy::regret_of(metric), sense) {
        (Some(by), _) if rows.iter().any(|r| by.key(r).is_some()) => by,
        (_, Some(sense)) => BestBy::BestValue(sense),
        _ => return BestBy::Undecided,
    };
    let better = |a: f64, b: f64| match by {
        BestBy::BestValue(sense) => sense.is_better(a, b),
        _ => a < b,
    };
    let fewest = rows.iter().filter_map(|r| r.infeasible_runs).min();
    let contends = |row: &SummaryRow| row.infeasible_runs == fewest;
    let mut best: Option<(usize, (f64, Option<f64>))> = None;
    for (i, row) in rows.iter().enumerate() {
        if let Some(v) = by.key(row)
            && contends(row)
            && best.is_none_or(|(_, b)| better(v.0, b.0))
        {
            best = Some((i, v));
        }
    }
    let Some((index, best)) = best else {
        return BestBy::Undecided;
    };
    for (i, row) in rows.iter_mut().enumerate() {
        row.best = i == index;
        row.tied =
            i != index && contends(row) && by.key(row).is_some_and(|v| within_one_se(v, best));
    }
    by
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A constrained problem's row of `runs` runs, `infeasible` of them without a feasible
    /// point, the others' mean regret `mean` with standard error `se`.
    fn row(algorithm: &str, infeasible: usize, mean: Option<f64>, se: f64) -> SummaryRow {
        let traces: Vec<Trace> = Vec::new();
        let refs: Vec<&Trace> = traces.iter().collect();
        SummaryRow {
            simple_regret_mean: mean,
            simple_regret_se: Some(se),
            infeasible_runs: Some(infeasible),
            ..summary_row("p", algorithm, &refs)
        }
    }

    /// The best is chosen among the rows with the fewest runs without a feasible point, and
    /// only those can tie with it, however small the others' means.
    #[test]
    fn the_fewest_infeasible_runs_come_first() {
        let mut rows = vec![
            row("a", 2, Some(0.1), 0.5),
            row("b", 0, Some(0.5), 0.1),
            row("c", 0, Some(0.55), 0.1),
            row("d", 3, None, 0.0),
        ];
        let by = mark_best(&mut rows, Some(Sense::Minimize), Metric::SimpleRegret);
        assert_eq!(by, BestBy::SimpleRegret);
        let marks: Vec<(bool, bool)> = rows.iter().map(|r| (r.best, r.tied)).collect();
        assert_eq!(
            marks,
            vec![(false, false), (true, false), (false, true), (false, false)]
        );
    }

    /// The row counts the runs without a feasible point and the median evaluations to the
    /// first one over the runs that found one.
    #[test]
    fn a_constrained_row_counts_its_infeasible_runs() {
        let run = |first: Option<usize>| Trace {
            constrained: true,
            first_feasible: first,
            ..Trace::of_regrets(&[1.0, 0.5])
        };
        let traces = [run(Some(1)), run(None), run(Some(2)), run(Some(2))];
        let refs: Vec<&Trace> = traces.iter().collect();
        let r = summary_row("p", "a", &refs);
        assert_eq!(r.infeasible_runs, Some(1));
        assert_eq!(r.first_feasible_median, Some(2.0));
        let plain = Trace::of_regrets(&[1.0]);
        assert_eq!(summary_row("p", "a", &[&plain]).infeasible_runs, None);
    }
}
