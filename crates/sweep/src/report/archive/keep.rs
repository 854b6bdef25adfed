//! Which steps of a run an archive keeps: enough for every number a report or a comparison
//! draws from a run to be exact, and no more. Those are its first and last step; its value at
//! each quarter of the budget (the last step with `evals ≤ ⌊f · budget⌋`, as `compare` reads
//! a run at budget fraction f); and the first step to reach each precision target of the
//! runtime distributions and expected running times under both measures, the best evaluated
//! point's regret (COCO's runtimes) and the recommendation's (a run's first step with regret
//! ≤ Δf is all they read of it).

use crate::report::ecdf;
use crate::report::load::{Step, Trace};
use crate::report::scores::ERT_TARGETS;

/// The budget fractions, below 1, at which an archived run's values are exact.
pub const KEPT_FRACTIONS: [f64; 3] = [0.25, 0.5, 0.75];

/// The evaluations a budget fraction stands for: `⌊fraction · budget⌋`.
pub(crate) fn evals_at(budget: usize, fraction: f64) -> usize {
    (fraction * budget as f64).floor() as usize
}

/// Whether an archived run's values at budget fraction `fraction` are exact.
pub(crate) fn is_kept_fraction(fraction: f64) -> bool {
    fraction == 1.0 || KEPT_FRACTIONS.contains(&fraction)
}

/// The indices of the steps of `trace` (a run of budget `budget`) an archive keeps, ascending.
pub(super) fn kept_steps(trace: &Trace, budget: usize) -> Vec<usize> {
    let steps = &trace.steps;
    let mut kept = vec![0, steps.len() - 1];
    for fraction in KEPT_FRACTIONS {
        let limit = evals_at(budget, fraction);
        if let Some(i) = steps.iter().rposition(|s| s.evals <= limit) {
            kept.push(i);
        }
    }
    let measures: [fn(&Step) -> Option<f64>; 2] =
        [|s| s.best_evaluated_regret, |s| s.simple_regret];
    for target in ecdf::targets().into_iter().chain(ERT_TARGETS) {
        for regret in measures {
            if let Some(i) = steps
                .iter()
                .position(|s| regret(s).is_some_and(|r| r <= target))
            {
                kept.push(i);
            }
        }
    }
    kept.sort_unstable();
    kept.dedup();
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_keeps_its_ends_its_quarters_and_its_first_steps_to_each_target() {
        // Budget 8, one evaluation a step: quarters at 2, 4 and 6 evaluations.
        let trace = Trace::of_regrets(&[500.0, 300.0, 150.0, 150.0, 9.0, 9.0, 0.5, 0.5]);
        // 500 reaches no target (the largest is 100); 150 none either; 9 reaches 10 (and
        // 10^0.96, …), 0.5 reaches 10^-0.4 and above.
        assert_eq!(kept_steps(&trace, 8), [0, 1, 3, 4, 5, 6, 7]);
        // A recommendation that lags the best evaluated point keeps the steps of both: the
        // best point reaches 10 at step 2, the recommendation only at step 5.
        let mut lagging = trace.clone();
        lagging.steps[2].best_evaluated_regret = Some(9.0);
        assert_eq!(kept_steps(&lagging, 8), [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(evals_at(8, 0.75), 6);
        assert!(is_kept_fraction(0.5) && is_kept_fraction(1.0) && !is_kept_fraction(0.3));
    }
}
