//! COCO's runtime distributions: for every run and every target of a fixed set of precision
//! targets Δf, the evaluations the run needed until its best evaluated point first reached the
//! target (COCO's runtime: the first evaluation whose noise-free f − f_opt is at most Δf); per
//! algorithm, the fraction of (run, target) pairs reached within each budget, pooled over every
//! problem with a known optimum (Hansen et al., "COCO: performance assessment", 2021, the
//! empirical cumulative distribution of runtimes).

use super::curves::CurvePoint;
use super::load::{Step, Trace};

/// The precision targets: 51 values from 10² down to 10⁻⁸, five per decade, `10^(i/5)` for the
/// integers i from 10 down to −40, as COCO computes them: an exponent written `2 − 0.2k` is off
/// by an ulp for some k (2 − 2.6 = −0.6000000000000001), and so was the target, which made
/// cocopp's runtimes to it differ from bosweep's (.ci/coco_measures.py found it).
pub(crate) fn targets() -> Vec<f64> {
    (-40..=10)
        .rev()
        .map(|i| 10f64.powf(f64::from(i) / 5.0))
        .collect()
}

/// What a runtime is measured in: the evaluations, or the simulated clock of timed runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Budget {
    Evaluations,
    /// The `finish` of the step ([`super::load::Trace::is_timed`]).
    SimulatedTime,
}

impl Budget {
    /// Where `step` lies on this axis (`None`: an untimed step against simulated time).
    fn of(self, step: &Step) -> Option<f64> {
        match self {
            Budget::Evaluations => Some(step.evals as f64),
            Budget::SimulatedTime => step.finish,
        }
    }
}

/// The budget at which `trace`'s best evaluated point first reaches `target` or below.
pub(crate) fn runtime(trace: &Trace, target: f64, budget: Budget) -> Option<f64> {
    trace
        .steps
        .iter()
        .find(|s| s.best_evaluated_regret.is_some_and(|r| r <= target))
        .and_then(|s| budget.of(s))
}

/// The runtime distribution of `traces` (every run of one algorithm with a known regret, over
/// every problem) in `budget`: at each budget where some pair is reached, the fraction of the
/// `traces × targets` pairs reached within it, held to the longest run's last step. Empty
/// without traces.
pub(crate) fn runtime_distribution(traces: &[&Trace], budget: Budget) -> Vec<CurvePoint> {
    let targets = targets();
    let total = traces.len() * targets.len();
    let mut reached: Vec<f64> = traces
        .iter()
        .flat_map(|t| {
            targets
                .iter()
                .filter_map(move |&target| runtime(t, target, budget))
        })
        .collect();
    reached.sort_unstable_by(f64::total_cmp);
    let mut points: Vec<CurvePoint> = Vec::new();
    for (i, &x) in reached.iter().enumerate() {
        let point = CurvePoint {
            x,
            mean: (i + 1) as f64 / total as f64,
            se: None,
            n: total,
        };
        match points.last_mut() {
            Some(last) if last.x == x => *last = point,
            _ => points.push(point),
        }
    }
    let end = traces
        .iter()
        .filter_map(|t| budget.of(t.steps.last()?))
        .max_by(f64::total_cmp);
    if let (Some(end), Some(&last)) = (end, points.last())
        && end > last.x
    {
        points.push(CurvePoint { x: end, ..last });
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(regrets: &[f64]) -> Trace {
        Trace::of_regrets(regrets)
    }

    #[test]
    fn the_fraction_of_run_target_pairs_reached_grows_with_the_budget() {
        let t = targets();
        assert_eq!(t.len(), 51);
        assert!((t[0] - 100.0).abs() < 1e-12 && (t[50] - 1e-8).abs() < 1e-20);
        // COCO's own 10^(-3/5), as cocopp 2.9.1 holds it (Python's 10 ** (-3 / 5)); the
        // exponent 2 − 0.2 · 13 gave 0.25118864315095796, an ulp below it.
        assert_eq!(t[13], 0.251188643150958);
        // Run A reaches 10² and 10^1.8 (2 targets) at 1 evaluation, then 1 (11 targets) at 2; B reaches
        // 10⁻⁸ (all 51) at 3.
        let a = trace(&[50.0, 1.0, 1.0]);
        let b = trace(&[500.0, 500.0, 0.0]);
        let points: Vec<(f64, f64)> = runtime_distribution(&[&a, &b], Budget::Evaluations)
            .iter()
            .map(|p| (p.x, p.mean))
            .collect();
        assert_eq!(
            points,
            [(1.0, 2.0 / 102.0), (2.0, 11.0 / 102.0), (3.0, 62.0 / 102.0)]
        );
        assert!(runtime_distribution(&[], Budget::Evaluations).is_empty());
    }

    /// A trace of (finish on the simulated clock, simple regret) steps.
    fn timed(steps: &[(f64, f64)]) -> Trace {
        let mut trace = trace(&steps.iter().map(|&(_, r)| r).collect::<Vec<_>>());
        for (step, &(finish, _)) in trace.steps.iter_mut().zip(steps) {
            step.finish = Some(finish);
        }
        trace
    }

    #[test]
    fn against_simulated_time_a_runtime_is_the_finish_of_the_step_that_reached_the_target() {
        // A reaches 10² and 10^1.8 (2 targets) at its first step, finished at 0.75, then 1 (11
        // targets in all) at its second, at 2.5; B, whose steps finish at 0.5, 1.25 and 3, reaches 10⁻⁸
        // (all 51) at its third. Both runs' steps are at 1, 2, 3 evaluations: against
        // evaluations the fractions are those of the test above.
        let a = timed(&[(0.75, 50.0), (2.5, 1.0), (4.0, 1.0)]);
        let b = timed(&[(0.5, 500.0), (1.25, 500.0), (3.0, 0.0)]);
        let points: Vec<(f64, f64)> = runtime_distribution(&[&a, &b], Budget::SimulatedTime)
            .iter()
            .map(|p| (p.x, p.mean))
            .collect();
        // Held to A's last finish, 4.
        assert_eq!(
            points,
            [
                (0.75, 2.0 / 102.0),
                (2.5, 11.0 / 102.0),
                (3.0, 62.0 / 102.0),
                (4.0, 62.0 / 102.0)
            ]
        );
    }
}
