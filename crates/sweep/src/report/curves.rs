//! The aggregation of runs of different lengths into one curve.

use super::load::{Step, Trace};
use bosweep_core::stats::describe;

/// One point of an aggregated curve: the statistics, at `evals` evaluations, over the runs that
/// reached it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CurvePoint {
    pub evals: usize,
    pub mean: f64,
    /// `None` where fewer than two runs contribute.
    pub se: Option<f64>,
    pub n: usize,
}

/// How a run's value at `evals` is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sampling {
    /// The value of the run's last step with at most `evals` evaluations, for runs whose
    /// first step is at or before `evals` and whose last step is at or after it (quantities that
    /// hold until the next step: simple regret, best value).
    Hold,
    /// Only the steps at exactly `evals` (per-step quantities: seconds per iteration).
    Exact,
    /// As [`Sampling::Hold`], but a run that has ended keeps its last value: against time, runs
    /// end at different moments, and a mean over the runs still going alone would fall below
    /// the final mean of all of them wherever the slow runs are the better ones.
    HoldPastEnd,
}

/// Aggregates `value` over `traces` at every `evals` value any of them has (steps where `value`
/// is `None` are ignored), ascending.
pub(crate) fn curve(
    traces: &[&Trace],
    value: impl Fn(&Step) -> Option<f64>,
    sampling: Sampling,
) -> Vec<CurvePoint> {
    let runs: Vec<Vec<(usize, f64)>> = traces
        .iter()
        .map(|t| {
            t.steps
                .iter()
                .filter_map(|s| value(s).map(|v| (s.evals, v)))
                .collect::<Vec<_>>()
        })
        .collect();
    aggregate(runs, sampling)
}

/// [`curve`] against the wall-clock time each run has spent in model fitting and acquisition
/// (the running sum of its steps' seconds), in whole milliseconds, held between steps and after
/// a run's last step ([`Sampling::HoldPastEnd`]): the `evals` of the points are milliseconds.
pub(crate) fn time_curve(
    traces: &[&Trace],
    value: impl Fn(&Step) -> Option<f64>,
) -> Vec<CurvePoint> {
    let runs: Vec<Vec<(usize, f64)>> = traces
        .iter()
        .map(|t| {
            let mut spent = 0.0;
            t.steps
                .iter()
                .filter_map(|s| {
                    spent += s.seconds;
                    value(s).map(|v| ((spent * 1e3).round() as usize, v))
                })
                .collect::<Vec<_>>()
        })
        .collect();
    aggregate(runs, Sampling::HoldPastEnd)
}

/// The statistics over `runs` ((x, value) pairs, x non-decreasing) at every x any run has.
fn aggregate(runs: Vec<Vec<(usize, f64)>>, sampling: Sampling) -> Vec<CurvePoint> {
    let runs: Vec<Vec<(usize, f64)>> = runs.into_iter().filter(|r| !r.is_empty()).collect();
    let mut grid: Vec<usize> = runs.iter().flatten().map(|&(e, _)| e).collect();
    grid.sort_unstable();
    grid.dedup();
    grid.into_iter()
        .filter_map(|e| {
            let mut values = Vec::new();
            for run in &runs {
                match sampling {
                    Sampling::Hold | Sampling::HoldPastEnd => {
                        let (first, last) = (run[0].0, run[run.len() - 1].0);
                        let still_held = e <= last || sampling == Sampling::HoldPastEnd;
                        if first <= e && still_held {
                            // Steps are sorted by x: the last one at or before e.
                            let at = run.partition_point(|&(x, _)| x <= e);
                            values.push(run[at - 1].1);
                        }
                    }
                    Sampling::Exact => {
                        values.extend(run.iter().filter(|&&(x, _)| x == e).map(|&(_, v)| v));
                    }
                }
            }
            describe(&values).map(|d| CurvePoint {
                evals: e,
                mean: d.mean,
                se: d.se,
                n: d.n,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(steps: &[(usize, f64)]) -> Trace {
        Trace {
            sense: None,
            device: None,
            steps: steps
                .iter()
                .map(|&(evals, v)| Step {
                    evals,
                    simple_regret: Some(v),
                    cumulative_regret: None,
                    best_value: Some(v),
                    seconds: v,
                })
                .collect(),
        }
    }

    #[test]
    fn curves_aggregate_runs_of_different_lengths() {
        // A: three steps; B: a first step, then a step of two evaluations, then one more.
        let a = trace(&[(1, 3.0), (2, 2.0), (3, 1.0)]);
        let b = trace(&[(1, 4.0), (3, 2.0), (4, 0.0)]);
        let hold = curve(&[&a, &b], |s| s.simple_regret, Sampling::Hold);
        let points: Vec<(usize, f64, usize)> =
            hold.iter().map(|p| (p.evals, p.mean, p.n)).collect();
        // At 2 evaluations B still holds 4; at 4 only B has got there.
        assert_eq!(points, [(1, 3.5, 2), (2, 3.0, 2), (3, 1.5, 2), (4, 0.0, 1)]);
        assert_eq!(hold[3].se, None);
        assert!((hold[0].se.unwrap() - 0.5).abs() < 1e-15);

        let exact = curve(&[&a, &b], |s| Some(s.seconds), Sampling::Exact);
        let points: Vec<(usize, f64, usize)> =
            exact.iter().map(|p| (p.evals, p.mean, p.n)).collect();
        assert_eq!(points, [(1, 3.5, 2), (2, 2.0, 1), (3, 1.5, 2), (4, 0.0, 1)]);

        // Unknown values contribute nothing.
        assert!(curve(&[&a, &b], |_| None, Sampling::Hold).is_empty());

        // Against time (the running sum of `seconds`, here the values themselves): A at 3, 5
        // and 6 s, B at 4, 6 and 6 s (in milliseconds).
        let timed = time_curve(&[&a, &b], |s| s.simple_regret);
        let points: Vec<(usize, f64, usize)> =
            timed.iter().map(|p| (p.evals, p.mean, p.n)).collect();
        assert_eq!(
            points,
            [
                (3000, 3.0, 1),
                (4000, 3.5, 2),
                (5000, 3.0, 2),
                (6000, 0.5, 2)
            ]
        );
    }

    /// A trace of (seconds, simple regret) steps, one evaluation each.
    fn timed(steps: &[(f64, f64)]) -> Trace {
        Trace {
            sense: None,
            device: None,
            steps: steps
                .iter()
                .enumerate()
                .map(|(i, &(seconds, regret))| Step {
                    evals: i + 1,
                    simple_regret: Some(regret),
                    cumulative_regret: None,
                    best_value: None,
                    seconds,
                })
                .collect(),
        }
    }

    #[test]
    fn a_run_that_has_ended_keeps_its_final_value_against_time() {
        // A's steps end at 1 and 2 s, on 5 then 4; B's at 1, 3 and 5 s, on 3, 2, 1. Once A has
        // ended it keeps 4, so the curve ends on the final mean (4 + 1) / 2 = 2.5 (the mean of B
        // alone would fall to 2 at 3 s and to 1 at 5 s).
        let a = timed(&[(1.0, 5.0), (1.0, 4.0)]);
        let b = timed(&[(1.0, 3.0), (2.0, 2.0), (2.0, 1.0)]);
        let points: Vec<(usize, f64, usize)> = time_curve(&[&a, &b], |s| s.simple_regret)
            .iter()
            .map(|p| (p.evals, p.mean, p.n))
            .collect();
        assert_eq!(
            points,
            [
                (1000, 4.0, 2),
                (2000, 3.5, 2),
                (3000, 3.0, 2),
                (5000, 2.5, 2)
            ]
        );
    }
}
