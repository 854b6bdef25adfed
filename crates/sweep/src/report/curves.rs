//! The aggregation of runs of different lengths into one curve.

use super::load::{Step, Trace};
use bosweep_core::stats::describe;

/// One point of an aggregated curve: the statistics, at `x` on the curve's axis (evaluations,
/// milliseconds or simulated time), over the runs that have a value there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CurvePoint {
    pub x: f64,
    pub mean: f64,
    /// `None` where fewer than two runs contribute.
    pub se: Option<f64>,
    pub n: usize,
}

/// How a run's value at `x` is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sampling {
    /// The value of the run's last step at or before `x`, for runs whose first step is at or
    /// before `x` and whose last step is at or after it (quantities that hold until the next
    /// step: simple regret, best value).
    Hold,
    /// Only the steps at exactly `x` (per-step quantities: seconds per iteration).
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
    let runs = traces
        .iter()
        .map(|t| {
            t.steps
                .iter()
                .filter_map(|s| value(s).map(|v| (s.evals as f64, v)))
                .collect()
        })
        .collect();
    aggregate(runs, sampling)
}

/// [`curve`] against the wall-clock time each run has spent in model fitting and acquisition
/// (the running sum of its steps' seconds), in milliseconds, held between steps and after a
/// run's last step ([`Sampling::HoldPastEnd`]).
pub(crate) fn time_curve(
    traces: &[&Trace],
    value: impl Fn(&Step) -> Option<f64>,
) -> Vec<CurvePoint> {
    let runs = traces
        .iter()
        .map(|t| {
            let mut spent = 0.0;
            t.steps
                .iter()
                .filter_map(|s| {
                    spent += s.seconds;
                    value(s).map(|v| (spent * 1e3, v))
                })
                .collect()
        })
        .collect();
    aggregate(runs, Sampling::HoldPastEnd)
}

/// [`curve`] against the simulated clock of timed runs ([`Trace::is_timed`]): a run's value at
/// time τ is that of its last step finished at or before τ, held after its last step
/// ([`Sampling::HoldPastEnd`]); before its first step finishes the run has none. Steps without
/// a `finish` are left out.
pub(crate) fn simulated_time_curve(
    traces: &[&Trace],
    value: impl Fn(&Step) -> Option<f64>,
) -> Vec<CurvePoint> {
    let runs = traces
        .iter()
        .map(|t| {
            t.steps
                .iter()
                .filter_map(|s| Some((s.finish?, value(s)?)))
                .collect()
        })
        .collect();
    aggregate(runs, Sampling::HoldPastEnd)
}

/// The statistics over `runs` ((x, value) pairs, x non-decreasing) at every x any run has.
fn aggregate(runs: Vec<Vec<(f64, f64)>>, sampling: Sampling) -> Vec<CurvePoint> {
    let runs: Vec<Vec<(f64, f64)>> = runs.into_iter().filter(|r| !r.is_empty()).collect();
    let mut grid: Vec<f64> = runs.iter().flatten().map(|&(x, _)| x).collect();
    grid.sort_unstable_by(f64::total_cmp);
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
                x: e,
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
        Trace::of_steps(steps.iter().map(|&(evals, v)| Step {
            best_value: Some(v),
            seconds: v,
            ..Step::with_regret(evals, v)
        }))
    }

    /// Each point as (x, mean, runs contributing).
    fn points(curve: &[CurvePoint]) -> Vec<(f64, f64, usize)> {
        curve.iter().map(|p| (p.x, p.mean, p.n)).collect()
    }

    #[test]
    fn curves_aggregate_runs_of_different_lengths() {
        // A: three steps; B: a first step, then a step of two evaluations, then one more.
        let a = trace(&[(1, 3.0), (2, 2.0), (3, 1.0)]);
        let b = trace(&[(1, 4.0), (3, 2.0), (4, 0.0)]);
        let hold = curve(&[&a, &b], |s| s.simple_regret, Sampling::Hold);
        // At 2 evaluations B still holds 4; at 4 only B has got there.
        assert_eq!(
            points(&hold),
            [(1.0, 3.5, 2), (2.0, 3.0, 2), (3.0, 1.5, 2), (4.0, 0.0, 1)]
        );
        assert_eq!(hold[3].se, None);
        assert!((hold[0].se.unwrap() - 0.5).abs() < 1e-15);

        let exact = curve(&[&a, &b], |s| Some(s.seconds), Sampling::Exact);
        assert_eq!(
            points(&exact),
            [(1.0, 3.5, 2), (2.0, 2.0, 1), (3.0, 1.5, 2), (4.0, 0.0, 1)]
        );

        // Unknown values contribute nothing.
        assert!(curve(&[&a, &b], |_| None, Sampling::Hold).is_empty());

        // Against time (the running sum of `seconds`, here the values themselves): A at 3, 5
        // and 6 s, B at 4, 6 and 6 s (in milliseconds).
        let timed = time_curve(&[&a, &b], |s| s.simple_regret);
        assert_eq!(
            points(&timed),
            [
                (3000.0, 3.0, 1),
                (4000.0, 3.5, 2),
                (5000.0, 3.0, 2),
                (6000.0, 0.5, 2)
            ]
        );
    }

    /// A trace of (seconds, simple regret) steps, one evaluation each.
    fn timed(steps: &[(f64, f64)]) -> Trace {
        Trace::of_steps(
            steps
                .iter()
                .enumerate()
                .map(|(i, &(seconds, regret))| Step {
                    seconds,
                    ..Step::with_regret(i + 1, regret)
                }),
        )
    }

    #[test]
    fn a_run_that_has_ended_keeps_its_final_value_against_time() {
        // A's steps end at 1 and 2 s, on 5 then 4; B's at 1, 3 and 5 s, on 3, 2, 1. Once A has
        // ended it keeps 4, so the curve ends on the final mean (4 + 1) / 2 = 2.5 (the mean of B
        // alone would fall to 2 at 3 s and to 1 at 5 s).
        let a = timed(&[(1.0, 5.0), (1.0, 4.0)]);
        let b = timed(&[(1.0, 3.0), (2.0, 2.0), (2.0, 1.0)]);
        assert_eq!(
            points(&time_curve(&[&a, &b], |s| s.simple_regret)),
            [
                (1000.0, 4.0, 2),
                (2000.0, 3.5, 2),
                (3000.0, 3.0, 2),
                (5000.0, 2.5, 2)
            ]
        );
    }

    /// A trace of (finish on the simulated clock, simple regret) steps, one evaluation each.
    fn simulated(steps: &[(f64, f64)]) -> Trace {
        Trace::of_steps(steps.iter().enumerate().map(|(i, &(finish, regret))| Step {
            finish: Some(finish),
            ..Step::with_regret(i + 1, regret)
        }))
    }

    #[test]
    fn curves_against_simulated_time_hold_each_run_from_its_first_finish_past_its_end() {
        // A finishes steps at 0.5, 1.5 and (two at once, as a batch may) 2.25, on 6, 4, 3, 2;
        // B at 1 and 4, on 8 and 1. Before 1 only A has a value; between B's steps B holds 8;
        // after 2.25 A holds its final 2, so that at 4 the mean is (2 + 1) / 2.
        let a = simulated(&[(0.5, 6.0), (1.5, 4.0), (2.25, 3.0), (2.25, 2.0)]);
        let b = simulated(&[(1.0, 8.0), (4.0, 1.0)]);
        let curve = simulated_time_curve(&[&a, &b], |s| s.simple_regret);
        assert_eq!(
            points(&curve),
            [
                (0.5, 6.0, 1),
                (1.0, 7.0, 2),
                (1.5, 6.0, 2),
                (2.25, 5.0, 2),
                (4.0, 1.5, 2)
            ]
        );
        assert_eq!(curve[0].se, None);
        // s.e. of {2, 1}: the sample standard deviation √0.5 over √2.
        assert!((curve[4].se.unwrap() - 0.5).abs() < 1e-15);

        // Steps without a finish (an untimed trace) are not on this axis.
        let untimed = trace(&[(1, 3.0)]);
        assert!(simulated_time_curve(&[&untimed], |s| s.simple_regret).is_empty());
    }
}
