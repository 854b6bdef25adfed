//! How COCO numbers the bbob-constrained suite (`suite_cons_bbob_problems.c`): function `f`
//! (1–54) is objective `⌈f/6⌉` of nine with the `((f − 1) mod 6) + 1`-th of six numbers of
//! active constraints.

use super::objective::ObjectiveKind;
use crate::ProblemError;

/// The number of functions: nine objectives × six numbers of constraints.
pub(in crate::constrained) const FUNCTIONS: usize = 54;

/// How many functions share an objective (one per number of constraints).
const PER_OBJECTIVE: usize = 6;

/// The objective of function `function` (`obj_function_type`), or an error naming the value.
pub(super) fn objective(function: usize) -> Result<ObjectiveKind, ProblemError> {
    match function.checked_sub(1) {
        Some(k) if k < FUNCTIONS => Ok(ObjectiveKind::ALL[k / PER_OBJECTIVE]),
        _ => Err(ProblemError::config(format!(
            "bbob-constrained has functions 1–{FUNCTIONS}, got function = {function}"
        ))),
    }
}

/// The number of active constraints of function `function` (1–54) in dimension `d`
/// (`nb_of_linear_constraints`): 1, 2, 6, 6 + ⌊d/2⌋, 6 + d or 6 + 3d.
pub(super) fn active_constraints(function: usize, d: usize) -> usize {
    match (function - 1) % PER_OBJECTIVE {
        0 => 1,
        1 => 2,
        2 => 6,
        3 => 6 + d / 2,
        4 => 6 + d,
        _ => 6 + 3 * d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_pair_nine_objectives_with_six_constraint_counts() {
        assert_eq!(objective(1).unwrap(), ObjectiveKind::Sphere);
        assert_eq!(objective(6).unwrap(), ObjectiveKind::Sphere);
        assert_eq!(objective(7).unwrap(), ObjectiveKind::Ellipsoid);
        assert_eq!(objective(54).unwrap(), ObjectiveKind::RastriginRotated);
        let counts: Vec<usize> = (1..=6).map(|f| active_constraints(f, 10)).collect();
        assert_eq!(counts, [1, 2, 6, 11, 16, 36]);
        assert_eq!(active_constraints(52, 3), 7);
    }

    #[test]
    fn functions_outside_the_suite_are_refused_with_the_value() {
        for f in [0, 55] {
            let err = objective(f).unwrap_err().to_string();
            assert!(err.contains(&format!("function = {f}")), "{err}");
        }
    }
}
