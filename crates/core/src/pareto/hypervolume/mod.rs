//! The hypervolume: the volume a set of points dominates below a reference point, exactly, by
//! the fastest method for its number of objectives.

mod four;
mod three;
mod two;
mod wfg;

use super::candidates::inside;
use super::{Front, ParetoError, box_volume, check_point};

/// The hypervolume of `front` with respect to `reference` (minimisation): the volume of
/// `{x : x ≤ reference and p ≤ x for some point p}`.
///
/// Points not strictly better than `reference` in every objective add nothing and are ignored;
/// dominated and repeated points add nothing either. An empty front has hypervolume 0.
///
/// - one objective: `reference − min p`;
/// - two: a sweep in order of the first objective, `O(n log n)`;
/// - three: the dimension sweep of HV3D⁺ (Guerreiro & Fonseca 2018), `O(n log n)`;
/// - four: HV4D⁺ (Guerreiro & Fonseca 2018), `O(n²)`;
/// - five and more: WFG (While, Bradstreet & Barone 2012), slicing along the last objective
///   until four remain.
///
/// # Errors
///
/// [`ParetoError::PointLength`] or [`ParetoError::NonFinitePoint`] for a reference point
/// without one finite value per objective.
pub fn hypervolume(front: Front<'_>, reference: &[f64]) -> Result<f64, ParetoError> {
    check_point(reference, front.m(), "reference point")?;
    let mut points = inside(front, reference);
    Ok(volume(&mut points, reference))
}

/// The hypervolume of `points` (row-major, `reference.len()` objectives, each row strictly
/// better than `reference`), reordering them.
pub(super) fn volume(points: &mut [f64], reference: &[f64]) -> f64 {
    let m = reference.len();
    match points.len() / m {
        0 => 0.0,
        1 => box_volume(points, reference),
        _ => match m {
            1 => reference[0] - points.iter().copied().fold(f64::INFINITY, f64::min),
            2 => two::volume(points, reference),
            3 => three::volume(points, reference),
            4 => four::volume(points, reference),
            _ => wfg::volume(points, reference),
        },
    }
}

/// The volume `p` alone dominates beside `others` (rows of `reference.len()` objectives, none
/// equal to `p`): WFG's exclusive volume, `p`'s box less the hypervolume of its limit set.
pub(super) fn exclusive_volume(p: &[f64], others: &[f64], reference: &[f64]) -> f64 {
    wfg::exclusive(p, others, reference)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hv(values: &[f64], m: usize, reference: &[f64]) -> f64 {
        hypervolume(Front::new(values, m).unwrap(), reference).unwrap()
    }

    #[test]
    fn one_objective_is_the_distance_from_the_best_point() {
        assert_eq!(hv(&[3.0, 1.5, 2.0], 1, &[4.0]), 2.5);
        assert_eq!(hv(&[5.0], 1, &[4.0]), 0.0);
    }

    #[test]
    fn points_on_or_beyond_the_reference_point_add_nothing() {
        // (4, 1) lies on the boundary, (5, 0.5) beyond it: neither counts.
        let with = [1.0, 3.0, 2.0, 2.0, 3.0, 1.0, 4.0, 1.0, 5.0, 0.5];
        assert_eq!(hv(&with, 2, &[4.0, 4.0]), 6.0);
        assert_eq!(hv(&[], 3, &[1.0, 1.0, 1.0]), 0.0);
    }

    #[test]
    fn a_bad_reference_point_is_an_error() {
        let front = Front::new(&[1.0, 2.0], 2).unwrap();
        assert_eq!(
            hypervolume(front, &[3.0]),
            Err(ParetoError::PointLength {
                what: "reference point",
                expected: 2,
                found: 1
            })
        );
        let error = hypervolume(front, &[3.0, f64::NAN]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the reference point's objective 1: NaN is not finite"
        );
    }
}
