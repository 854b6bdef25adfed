//! Branin–Currin: the two-objective problem of Belakaria, Deshwal and Doppa ("Max-value entropy
//! search for multi-objective Bayesian optimization", NeurIPS 2019), a standard first benchmark
//! of multi-objective BO in BoTorch's tutorials.

use std::f64::consts::PI;

use super::MultiObjectiveFunction;
use crate::Domain;
use crate::functions::fixed_box;

/// Branin–Currin (Belakaria et al. 2019) on `[0, 1]²`, both objectives minimised:
///
/// - Branin on `u = (15 x_1 − 5, 15 x_2)`, the unit square stretched onto Branin's own box
///   `[−5, 10] × [0, 15]`: `(u_2 − 5.1/(4π²) u_1² + 5/π u_1 − 6)² + 10 (1 − 1/(8π)) cos u_1 + 10`;
/// - Currin's exponential function:
///   `(1 − exp(−1/(2 x_2))) (2300 x_1³ + 1900 x_1² + 2092 x_1 + 60) /
///   (100 x_1³ + 500 x_1² + 4 x_1 + 20)`.
///
/// The unit-square domain and its rescaling are BoTorch's (`BraninCurrin`), so that points and
/// values match BoTorch's; so are the reference point `(18, 6)` and the maximal hypervolume
/// 59.36011874867746, which BoTorch estimated with NSGA-II (the front has no closed form).
#[derive(Debug)]
pub struct BraninCurrin {
    domain: Domain,
}

impl BraninCurrin {
    /// Branin–Currin on the unit square.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(&[0.0, 0.0], &[1.0, 1.0]),
        }
    }

    /// Branin at the unit-square point `x`, stretched onto Branin's box.
    fn branin(x: &[f64]) -> f64 {
        let (u1, u2) = (15.0 * x[0] - 5.0, 15.0 * x[1]);
        let t1 = u2 - 5.1 / (4.0 * PI * PI) * u1 * u1 + 5.0 / PI * u1 - 6.0;
        let t2 = 10.0 * (1.0 - 1.0 / (8.0 * PI)) * u1.cos();
        t1 * t1 + t2 + 10.0
    }

    /// Currin's exponential function; at `x_2 = 0` the exponential's argument is −∞ and its
    /// factor 1, as in BoTorch.
    fn currin(x: &[f64]) -> f64 {
        let (x1, x2) = (x[0], x[1]);
        let factor = 1.0 - (-1.0 / (2.0 * x2)).exp();
        let numerator = 2300.0 * x1.powi(3) + 1900.0 * x1.powi(2) + 2092.0 * x1 + 60.0;
        let denominator = 100.0 * x1.powi(3) + 500.0 * x1.powi(2) + 4.0 * x1 + 20.0;
        factor * numerator / denominator
    }
}

impl Default for BraninCurrin {
    fn default() -> Self {
        Self::new()
    }
}

impl MultiObjectiveFunction for BraninCurrin {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn objectives(&self) -> usize {
        2
    }

    fn values(&self, x: &[f64]) -> Vec<f64> {
        vec![Self::branin(x), Self::currin(x)]
    }

    fn reference_point(&self) -> Vec<f64> {
        vec![18.0, 6.0]
    }

    fn max_hypervolume(&self) -> Option<f64> {
        Some(59.36011874867746)
    }

    fn pareto_front(&self, _n: usize) -> Option<Vec<Vec<f64>>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At Branin's minimiser (π, 2.275) mapped into the unit square the first objective is
    /// Branin's minimum 5/(4π).
    #[test]
    fn branin_is_rescaled_onto_the_unit_square() {
        let x = [(PI + 5.0) / 15.0, 2.275 / 15.0];
        let f = BraninCurrin::new().values(&x);
        assert!((f[0] - 5.0 / (4.0 * PI)).abs() < 1e-12, "{f:?}");
    }

    /// Currin by hand: at (0, x_2) the rational factor is 60/20 = 3; at x_2 = 0 the exponential
    /// vanishes.
    #[test]
    fn currin_by_hand() {
        let f = BraninCurrin::new();
        assert_eq!(f.values(&[0.0, 0.0])[1], 3.0);
        let half = f.values(&[0.0, 0.5])[1];
        assert!((half - 3.0 * (1.0 - (-1.0f64).exp())).abs() < 1e-15);
        // (2300 + 1900 + 2092 + 60) / (100 + 500 + 4 + 20) = 6352 / 624 at x_1 = 1.
        let one = f.values(&[1.0, 0.5])[1];
        assert!((one - 6352.0 / 624.0 * (1.0 - (-1.0f64).exp())).abs() < 1e-14);
    }

    #[test]
    fn published_constants() {
        let f = BraninCurrin::default();
        assert_eq!(f.domain().dim(), 2);
        assert_eq!(f.reference_point(), vec![18.0, 6.0]);
        assert_eq!(f.max_hypervolume(), Some(59.36011874867746));
        assert!(f.pareto_front(10).is_none());
    }
}
