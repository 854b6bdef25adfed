//! Distance indicators between an approximation set `A` and a reference set `R` (minimisation),
//! as moocore defines them (`igd`, `igd_plus`, `epsilon_additive`); pymoo's `IGD` and `IGDPlus`
//! are the same means. Lower is better for all three.

use super::{Front, ParetoError};

/// The inverted generational distance: the mean, over the reference points, of the Euclidean
/// distance to the nearest approximation point,
///
/// `IGD(A, R) = (1/|R|) Σ_{z∈R} min_{a∈A} ‖a − z‖₂`.
///
/// # Errors
///
/// [`ParetoError::SetWidth`] when the sets have different numbers of objectives,
/// [`ParetoError::EmptySet`] when either is empty.
pub fn igd(approximation: Front<'_>, reference_set: Front<'_>) -> Result<f64, ParetoError> {
    check_sets(approximation, reference_set)?;
    Ok(mean_nearest(approximation, reference_set, |a, z| {
        a.iter()
            .zip(z)
            .map(|(a, z)| (a - z).powi(2))
            .sum::<f64>()
            .sqrt()
    }))
}

/// IGD⁺ (Ishibuchi, Masuda, Tanigaki & Nojima 2015, "Modified distance calculation in
/// generational distance and inverted generational distance"): IGD with the distance counting
/// only the objectives where the approximation point is worse, which makes it weakly Pareto
/// compliant,
///
/// `IGD⁺(A, R) = (1/|R|) Σ_{z∈R} min_{a∈A} √(Σₖ max(aₖ − zₖ, 0)²)`.
///
/// # Errors
///
/// As [`igd`].
pub fn igd_plus(approximation: Front<'_>, reference_set: Front<'_>) -> Result<f64, ParetoError> {
    check_sets(approximation, reference_set)?;
    Ok(mean_nearest(approximation, reference_set, |a, z| {
        a.iter()
            .zip(z)
            .map(|(a, z)| (a - z).max(0.0).powi(2))
            .sum::<f64>()
            .sqrt()
    }))
}

/// The additive ε-indicator (Zitzler, Thiele, Laumanns, Fonseca & Grunert da Fonseca 2003,
/// "Performance assessment of multiobjective optimizers: an analysis and review"): the smallest
/// ε such that every reference point is weakly dominated by some approximation point moved by
/// −ε in every objective,
///
/// `ε⁺(A, R) = max_{z∈R} min_{a∈A} maxₖ (aₖ − zₖ)`.
///
/// Negative when the approximation strictly dominates every reference point.
///
/// # Errors
///
/// As [`igd`].
pub fn epsilon_additive(
    approximation: Front<'_>,
    reference_set: Front<'_>,
) -> Result<f64, ParetoError> {
    check_sets(approximation, reference_set)?;
    let shift = |a: &[f64], z: &[f64]| {
        (a.iter().zip(z))
            .map(|(a, z)| a - z)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    Ok(reference_set
        .points()
        .map(|z| nearest(approximation, z, shift))
        .fold(f64::NEG_INFINITY, f64::max))
}

/// Both sets hold points of the same width, and at least one each.
fn check_sets(approximation: Front<'_>, reference_set: Front<'_>) -> Result<(), ParetoError> {
    if approximation.m() != reference_set.m() {
        return Err(ParetoError::SetWidth {
            expected: approximation.m(),
            found: reference_set.m(),
        });
    }
    for (set, what) in [
        (approximation, "approximation set"),
        (reference_set, "reference set"),
    ] {
        if set.is_empty() {
            return Err(ParetoError::EmptySet { what });
        }
    }
    Ok(())
}

/// The mean over the reference points of the `distance` to the nearest approximation point.
fn mean_nearest(
    approximation: Front<'_>,
    reference_set: Front<'_>,
    distance: impl Fn(&[f64], &[f64]) -> f64 + Copy,
) -> f64 {
    let total: f64 = reference_set
        .points()
        .map(|z| nearest(approximation, z, distance))
        .sum();
    total / reference_set.len() as f64
}

/// The smallest `distance(a, z)` over the approximation points `a`.
fn nearest(approximation: Front<'_>, z: &[f64], distance: impl Fn(&[f64], &[f64]) -> f64) -> f64 {
    approximation
        .points()
        .map(|a| distance(a, z))
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(values: &[f64]) -> Front<'_> {
        Front::new(values, 2).unwrap()
    }

    #[test]
    fn by_hand() {
        // A = {(0, 1), (2, 0)}, R = {(0, 0), (1, 1)}.
        let a = [0.0, 1.0, 2.0, 0.0];
        let r = [0.0, 0.0, 1.0, 1.0];
        // (0, 0): distances 1 and 2 → 1; (1, 1): √1 and √2 → 1. IGD = 1.
        assert_eq!(igd(set(&a), set(&r)).unwrap(), 1.0);
        // IGD⁺: (0, 0): (0, 1) → 1, (2, 0) → 2 → 1; (1, 1): (0, 1) → 0. Mean 0.5.
        assert_eq!(igd_plus(set(&a), set(&r)).unwrap(), 0.5);
        // ε⁺: (0, 0): max(0, 1) = 1 and max(2, 0) = 2 → 1; (1, 1): max(−1, 0) = 0 → 0. Max 1.
        assert_eq!(epsilon_additive(set(&a), set(&r)).unwrap(), 1.0);
        // A set that dominates the reference set by 0.5 everywhere: ε⁺ = −0.5, IGD⁺ = 0.
        let better = [-0.5, -0.5, 0.5, 0.5];
        assert_eq!(epsilon_additive(set(&better), set(&r)).unwrap(), -0.5);
        assert_eq!(igd_plus(set(&better), set(&r)).unwrap(), 0.0);
    }

    #[test]
    fn mismatched_and_empty_sets_are_errors() {
        let three = Front::new(&[1.0, 2.0, 3.0], 3).unwrap();
        assert_eq!(
            igd(set(&[1.0, 2.0]), three),
            Err(ParetoError::SetWidth {
                expected: 2,
                found: 3
            })
        );
        assert_eq!(
            epsilon_additive(set(&[]), set(&[1.0, 2.0])),
            Err(ParetoError::EmptySet {
                what: "approximation set"
            })
        );
        assert!(igd_plus(set(&[1.0, 2.0]), set(&[])).is_err());
    }
}
