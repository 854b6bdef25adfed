//! COCO-style runtime distributions: for every run and every target of a fixed set of
//! precision targets Δf, the evaluations the run needed until its simple regret first reached
//! the target; per algorithm, the fraction of (run, target) pairs reached within each budget,
//! pooled over every problem with a known optimum (Hansen et al., "COCO: performance assessment",
//! 2021, the empirical cumulative distribution of runtimes).

use super::curves::CurvePoint;
use super::load::Trace;

/// The precision targets: 51 values from 10² down to 10⁻⁸, five per decade (COCO's).
pub(crate) fn targets() -> Vec<f64> {
    (0..=50).map(|k| 10f64.powf(2.0 - 0.2 * k as f64)).collect()
}

/// The evaluations at which `trace`'s simple regret first falls to `target` or below.
fn runtime(trace: &Trace, target: f64) -> Option<usize> {
    trace
        .steps
        .iter()
        .find(|s| s.simple_regret.is_some_and(|r| r <= target))
        .map(|s| s.evals)
}

/// The runtime distribution of `traces` (every run of one algorithm with a known regret, over
/// every problem): at each budget where some pair is reached, the fraction of the
/// `traces × targets` pairs reached within it, held to the longest run's last evaluation.
/// Empty without traces.
pub(crate) fn runtime_distribution(traces: &[&Trace]) -> Vec<CurvePoint> {
    let targets = targets();
    let total = traces.len() * targets.len();
    let mut reached: Vec<usize> = traces
        .iter()
        .flat_map(|t| targets.iter().filter_map(move |&target| runtime(t, target)))
        .collect();
    reached.sort_unstable();
    let mut points: Vec<CurvePoint> = Vec::new();
    for (i, &evals) in reached.iter().enumerate() {
        let point = CurvePoint {
            evals,
            mean: (i + 1) as f64 / total as f64,
            se: None,
            n: total,
        };
        match points.last_mut() {
            Some(last) if last.evals == evals => *last = point,
            _ => points.push(point),
        }
    }
    let end = traces
        .iter()
        .filter_map(|t| t.steps.last())
        .map(|s| s.evals)
        .max();
    if let (Some(end), Some(&last)) = (end, points.last())
        && end > last.evals
    {
        points.push(CurvePoint { evals: end, ..last });
    }
    points
}

#[cfg(test)]
mod tests {
    use super::super::load::Step;
    use super::*;

    fn trace(regrets: &[f64]) -> Trace {
        Trace {
            sense: None,
            device: None,
            steps: regrets
                .iter()
                .enumerate()
                .map(|(i, &r)| Step {
                    evals: i + 1,
                    simple_regret: Some(r),
                    cumulative_regret: None,
                    best_value: None,
                    seconds: 0.0,
                })
                .collect(),
        }
    }

    #[test]
    fn the_fraction_of_run_target_pairs_reached_grows_with_the_budget() {
        let t = targets();
        assert_eq!(t.len(), 51);
        assert!((t[0] - 100.0).abs() < 1e-12 && (t[50] - 1e-8).abs() < 1e-20);
        // Run A reaches 10² and 10^1.8 (2 targets) at 1 evaluation, then 1 (11 targets) at 2; B reaches
        // 10⁻⁸ (all 51) at 3.
        let a = trace(&[50.0, 1.0, 1.0]);
        let b = trace(&[500.0, 500.0, 0.0]);
        let points: Vec<(usize, f64)> = runtime_distribution(&[&a, &b])
            .iter()
            .map(|p| (p.evals, p.mean))
            .collect();
        assert_eq!(
            points,
            [(1, 2.0 / 102.0), (2, 11.0 / 102.0), (3, 62.0 / 102.0)]
        );
        assert!(runtime_distribution(&[]).is_empty());
    }
}
