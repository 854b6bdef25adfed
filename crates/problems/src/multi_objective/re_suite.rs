//! Two engineering design problems of Tanabe and Ishibuchi's real-world suite ("An easy-to-use
//! real-world multi-objective optimization problem suite", Applied Soft Computing 89, 2020):
//! response-surface models cheap enough to benchmark with, whose fronts are known only from
//! the approximations Tanabe and Ishibuchi published. BoTorch derives its reference points and
//! maximal hypervolumes from those approximations, and both are taken from BoTorch here.

use super::MultiObjectiveFunction;
use crate::Domain;
use crate::functions::fixed_box;

/// Vehicle crashworthiness design (Tanabe & Ishibuchi 2020, RE3-5-4; from Liao et al. 2008):
/// five panel thicknesses in `[1, 3]^5`, and three minimised objectives, quadratic response
/// surfaces of the vehicle's mass, the collision acceleration in a full frontal crash and the
/// toe-board intrusion in an offset-frontal crash.
///
/// Reference point `(1864.72022, 11.81993945, 0.2903999384)`, 1.1 times the nadir of Tanabe and
/// Ishibuchi's approximate front, and maximal hypervolume 246.81607081187002, measured on that
/// front: both BoTorch's (`VehicleSafety`).
#[derive(Debug)]
pub struct VehicleSafety {
    domain: Domain,
}

impl VehicleSafety {
    /// The problem on its box `[1, 3]^5`.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(&[1.0; 5], &[3.0; 5]),
        }
    }
}

impl Default for VehicleSafety {
    fn default() -> Self {
        Self::new()
    }
}

impl MultiObjectiveFunction for VehicleSafety {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn objectives(&self) -> usize {
        3
    }

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let [x1, x2, x3, x4, x5] = [x[0], x[1], x[2], x[3], x[4]];
        let mass = 1640.2823
            + 2.3573285 * x1
            + 2.3220035 * x2
            + 4.5688768 * x3
            + 7.7213633 * x4
            + 4.4559504 * x5;
        let acceleration = 6.5856 + 1.15 * x1 - 1.0427 * x2 + 0.9738 * x3 + 0.8364 * x4
            - 0.3695 * x1 * x4
            + 0.0861 * x1 * x5
            + 0.3628 * x2 * x4
            - 0.1106 * x1 * x1
            - 0.3437 * x3 * x3
            + 0.1764 * x4 * x4;
        let intrusion = -0.0551 + 0.0181 * x1 + 0.1024 * x2 + 0.0421 * x3 - 0.0073 * x1 * x2
            + 0.024 * x2 * x3
            - 0.0118 * x2 * x4
            - 0.0204 * x3 * x4
            - 0.008 * x3 * x5
            - 0.0241 * x2 * x2
            + 0.0109 * x4 * x4;
        vec![mass, acceleration, intrusion]
    }

    fn reference_point(&self) -> Vec<f64> {
        vec![1864.72022, 11.81993945, 0.2903999384]
    }

    fn max_hypervolume(&self) -> Option<f64> {
        Some(246.81607081187002)
    }

    fn pareto_front(&self, _n: usize) -> Option<Vec<Vec<f64>>> {
        None
    }
}

/// Car side-impact design (Tanabe & Ishibuchi 2020, RE4-7-1; from Jain and Deb 2014): seven
/// thicknesses and materials of the car's side, and four minimised objectives: the car's weight,
/// the pubic force on the passenger, the average of two velocities of the V-pillar in the
/// impact, and the summed violation of the ten constraints of the single-objective problem
/// (each `g_j ≥ 0`, contributing `−g_j` where violated). The coefficients are BoTorch's
/// (`CarSideImpact`, the four-objective version), written as it writes them.
///
/// Reference point `(45.4872, 4.5114, 13.3394, 10.3942)`, the nadir of Tanabe and Ishibuchi's
/// approximate front moved a tenth of the way towards its ideal, and maximal hypervolume
/// 484.72654347642793, measured on that front: both BoTorch's.
#[derive(Debug)]
pub struct CarSideImpact {
    domain: Domain,
}

impl CarSideImpact {
    /// The problem on BoTorch's box.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(
                &[0.5, 0.45, 0.5, 0.5, 0.875, 0.4, 0.4],
                &[1.5, 1.35, 1.5, 1.5, 2.625, 1.2, 1.2],
            ),
        }
    }
}

impl Default for CarSideImpact {
    fn default() -> Self {
        Self::new()
    }
}

impl MultiObjectiveFunction for CarSideImpact {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn objectives(&self) -> usize {
        4
    }

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let [x1, x2, x3, x4, x5, x6, x7] = [x[0], x[1], x[2], x[3], x[4], x[5], x[6]];
        let weight =
            1.98 + 4.9 * x1 + 6.67 * x2 + 6.98 * x3 + 4.01 * x4 + 1.78 * x5 + 1e-5 * x6 + 2.73 * x7;
        let pubic_force = 4.72 - 0.5 * x4 - 0.19 * x2 * x3;
        let v_mbp = 10.58 - 0.674 * x1 * x2 - 0.67275 * x2;
        let v_fd = 16.45 - 0.489 * x3 * x7 - 0.843 * x5 * x6;
        let velocity = 0.5 * (v_mbp + v_fd);
        let constraints = [
            1.0 - 1.16 + 0.3717 * x2 * x4 + 0.0092928 * x3,
            0.32 - 0.261 + 0.0159 * x1 * x2 + 0.06486 * x1 + 0.019 * x2 * x7
                - 0.0144 * x3 * x5
                - 0.0154464 * x6,
            0.32 - 0.214 - 0.00817 * x5 + 0.045195 * x1 + 0.0135168 * x1 - 0.03099 * x2 * x6
                + 0.018 * x2 * x7
                - 0.007176 * x3
                - 0.023232 * x3
                + 0.00364 * x5 * x6
                + 0.018 * x2 * x2,
            0.32 - 0.74 + 0.61 * x2 + 0.031296 * x3 + 0.031872 * x7 - 0.227 * x2 * x2,
            32.0 - 28.98 - 3.818 * x3 + 4.2 * x1 * x2 - 1.27296 * x6 + 2.68065 * x7,
            32.0 - 33.86 - 2.95 * x3 + 5.057 * x1 * x2 + 3.795 * x2 + 3.4431 * x7 - 1.45728,
            32.0 - 46.36 + 9.9 * x2 + 4.4505 * x1,
            4.0 - pubic_force,
            9.9 - v_mbp,
            15.7 - v_fd,
        ];
        let violation = constraints.iter().map(|g| (-g).max(0.0)).sum();
        vec![weight, pubic_force, velocity, violation]
    }

    fn reference_point(&self) -> Vec<f64> {
        vec![45.4872, 4.5114, 13.3394, 10.3942]
    }

    fn max_hypervolume(&self) -> Option<f64> {
        Some(484.72654347642793)
    }

    fn pareto_front(&self, _n: usize) -> Option<Vec<Vec<f64>>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mass at the lower corner by hand: the intercept plus every linear coefficient.
    #[test]
    fn vehicle_safety_mass_by_hand() {
        let f = VehicleSafety::new().values(&[1.0; 5]);
        let mass = 1640.2823 + 2.3573285 + 2.3220035 + 4.5688768 + 7.7213633 + 4.4559504;
        assert!((f[0] - mass).abs() < 1e-10, "{f:?}");
        assert_eq!(f.len(), 3);
    }

    /// At the upper corner every constraint of the car holds (no violation); at the lower corner
    /// some are violated.
    #[test]
    fn car_side_impact_violation_is_zero_where_the_constraints_hold() {
        let f = CarSideImpact::new();
        let upper = f.values(f.domain().upper());
        assert_eq!(upper.len(), 4);
        assert_eq!(upper[3], 0.0, "{upper:?}");
        assert!(f.values(f.domain().lower())[3] > 0.0);
    }

    #[test]
    fn published_constants() {
        let v = VehicleSafety::default();
        assert_eq!(v.domain().lower(), &[1.0; 5]);
        assert_eq!(v.reference_point().len(), 3);
        assert!(v.pareto_front(3).is_none());
        let c = CarSideImpact::default();
        assert_eq!(c.domain().dim(), 7);
        assert_eq!(c.max_hypervolume(), Some(484.72654347642793));
        assert_eq!(c.senses().len(), 4);
    }
}
