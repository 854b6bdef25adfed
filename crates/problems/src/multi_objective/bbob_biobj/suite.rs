//! How COCO's `bbob-biobj` suite is put together from `bbob`: which two bbob functions each of
//! its 55 functions pairs, and which two bbob instances each of its instances pairs. Both rules
//! are those of COCO's `suite_biobj_utilities.c` (`coco_get_biobj_problem`).

use crate::ProblemError;

/// The ten bbob functions the suite combines, in COCO's order: two of each of bbob's five groups
/// (separable f1, f2; moderate f6, f8; ill-conditioned f13, f14; multi-modal f15, f17; weakly
/// structured multi-modal f20, f21).
pub(super) const SELECTED: [usize; 10] = [1, 2, 6, 8, 13, 14, 15, 17, 20, 21];

/// The number of bbob-biobj functions: every pair `a ≤ b` of [`SELECTED`].
pub(in crate::multi_objective) const FUNCTIONS: usize = 55;

/// The instances COCO fixes: bbob-biobj instance `k` pairs bbob instances `INSTANCES[k − 1]`
/// (`suite_biobj_instances`). Instance 9 skips bbob's 20 and 15 skips 32 and 33 because COCO
/// requires the two optima to lie apart (see [`instances`]).
const INSTANCES: [(usize, usize); 15] = [
    (2, 4),
    (3, 5),
    (7, 8),
    (9, 10),
    (11, 12),
    (13, 14),
    (15, 16),
    (17, 18),
    (19, 21),
    (21, 22),
    (23, 24),
    (25, 26),
    (27, 28),
    (29, 30),
    (31, 34),
];

/// The largest instance COCO fixes in its table.
pub(in crate::multi_objective) const LAST_FIXED_INSTANCE: usize = INSTANCES.len();

/// The bbob functions `(a, b)` of bbob-biobj function `function` (1–55): the pairs `a ≤ b` of
/// [`SELECTED`] in lexicographic order, `f1 = (1, 1)`, `f2 = (1, 2)`, …, `f10 = (1, 21)`,
/// `f11 = (2, 2)`, …, `f55 = (21, 21)` (COCO computes the same pair by a closed formula).
pub(super) fn functions(function: usize) -> Result<(usize, usize), ProblemError> {
    let mut index = 0;
    for (i, &a) in SELECTED.iter().enumerate() {
        for &b in &SELECTED[i..] {
            index += 1;
            if index == function {
                return Ok((a, b));
            }
        }
    }
    Err(ProblemError::config(format!(
        "bbob-biobj has functions 1–{FUNCTIONS}, got function = {function}"
    )))
}

/// The bbob instances `(i_a, i_b)` of bbob-biobj instance `instance`, from COCO's fixed table.
///
/// Beyond instance 15 COCO derives the pair (`2k + 1` and the first later bbob instance for
/// which, over all 24 bbob functions paired with each other and the suite's dimensions, the
/// ideal and nadir points lie at least 0.1 apart and the two optima 1e-4 apart). The search
/// runs over the dimensions the suite was filtered to, so the same instance number gives
/// different problems in differently filtered COCO suites; rather than pick one of them, such
/// instances are refused.
pub(super) fn instances(instance: usize) -> Result<(usize, usize), ProblemError> {
    match instance.checked_sub(1).and_then(|k| INSTANCES.get(k)) {
        Some(&pair) => Ok(pair),
        None => Err(ProblemError::config(format!(
            "bbob-biobj has instances 1–{LAST_FIXED_INSTANCE} (COCO's fixed table), got \
             instance = {instance}; COCO derives later instances by a search that depends on \
             which dimensions its suite was filtered to, so they are not reproduced here"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// COCO's closed formula (`coco_get_biobj_problem`) for the indices into [`SELECTED`] of
    /// the 0-based function index `k`.
    fn coco_formula(k: usize) -> (usize, usize) {
        let n = SELECTED.len();
        let root = (-0.5 + (0.25 + 2.0 * (FUNCTIONS - k - 1) as f64).sqrt()).floor() as usize;
        let first = n - root - 1;
        let second = k + first * (first + 1) / 2 - first * n;
        (first, second)
    }

    #[test]
    fn the_pairs_are_coco_s_formula_and_cover_every_pair_once() {
        let mut seen = std::collections::BTreeSet::new();
        for f in 1..=FUNCTIONS {
            let (a, b) = functions(f).unwrap();
            let (i, j) = coco_formula(f - 1);
            assert_eq!((a, b), (SELECTED[i], SELECTED[j]), "f{f}");
            assert!(a <= b);
            assert!(seen.insert((a, b)), "f{f} repeats ({a}, {b})");
        }
        assert_eq!(functions(1).unwrap(), (1, 1));
        assert_eq!(functions(2).unwrap(), (1, 2));
        assert_eq!(functions(11).unwrap(), (2, 2));
        assert_eq!(functions(55).unwrap(), (21, 21));
    }

    #[test]
    fn function_and_instance_outside_the_suite_are_refused_with_the_value() {
        for f in [0, 56] {
            let err = functions(f).unwrap_err().to_string();
            assert!(err.contains(&format!("function = {f}")), "{err}");
        }
        for i in [0, 16, 1000] {
            let err = instances(i).unwrap_err().to_string();
            assert!(err.contains(&format!("instance = {i}")), "{err}");
        }
        assert_eq!(instances(1).unwrap(), (2, 4));
        assert_eq!(instances(9).unwrap(), (19, 21));
        assert_eq!(instances(15).unwrap(), (31, 34));
    }
}
