//! Keane's bump function (Keane, "Experiences with optimizers in structural design", Adaptive
//! Computing in Engineering Design and Control 1994), in the minimised form of BoTorch 0.18.1's
//! `KeaneBumpFunction`.

use super::ConstraintFunctions;
use crate::{Domain, Optimum, ProblemError, Sense, TestFunction};

/// BoTorch's approximate optimal values by dimension, from Mishra ("Some new test functions for
/// global optimization and performance of repulsive particle swarm method", 2007) — except
/// d = 2, refined below.
const OPTIMAL_VALUES: &[(usize, f64)] = &[
    (10, -0.6737),
    (15, -0.781647601),
    (20, -0.803619104),
    (30, -0.818056222),
    (40, -0.826624404),
    (50, -0.83078783),
];

/// The d = 2 optimum: BoTorch's −0.365 refined, on the active constraint `x₁x₂ = 0.75` (moved
/// out by 1e-14 relative so that the point is feasible in floating point).
const TWO_D: (f64, [f64; 2]) = (
    -0.36497974587065274,
    [1.6008604339192454, 0.4684980552388622],
);

/// Keane's bump on `[0, 10]^d`, `d ≥ 2`: Keane maximises
/// `|Σ cos⁴ x_i − 2 Π cos² x_i| / √(Σ i x_i²)` subject to `Π x_i ≥ 0.75` and
/// `Σ x_i ≤ 7.5 d`; BoTorch minimises its negation, and so does this, with the constraints
/// `c₁ = 0.75 − Π x_i ≤ 0` and `c₂ = Σ x_i − 7.5 d ≤ 0`. As in BoTorch, the denominator is held
/// at least 1e-3, so that the value is finite at the origin.
///
/// No global optimum is known; the optimum declared is BoTorch's approximate value where
/// BoTorch has one (d = 10, 15, 20, 30, 40, 50, from Mishra 2007: values found, not proven, so
/// that regret can fall below 0), refined at d = 2 to −0.36497975 at (1.60086, 0.46850)
/// (BoTorch's −0.365 to its digits), and `None` in other dimensions.
#[derive(Debug)]
pub struct KeaneBump {
    domain: Domain,
}

impl KeaneBump {
    /// The bump in `dim ≥ 2` dimensions; an error below 2.
    pub fn new(dim: usize) -> Result<Self, ProblemError> {
        if dim < 2 {
            return Err(ProblemError::config(format!(
                "keane-bump needs dimension ≥ 2, got {dim}"
            )));
        }
        Ok(Self {
            domain: Domain::cube(0.0, 10.0, dim)?,
        })
    }
}

impl TestFunction for KeaneBump {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let quartic: f64 = x.iter().map(|v| v.cos().powi(4)).sum();
        let product: f64 = x.iter().map(|v| v.cos().powi(2)).product();
        let weighted: f64 = x
            .iter()
            .enumerate()
            .map(|(i, v)| (i + 1) as f64 * v * v)
            .sum();
        -((quartic - 2.0 * product) / weighted.sqrt().max(1e-3)).abs()
    }

    fn optimum(&self) -> Option<Optimum> {
        let dim = self.domain.dim();
        if dim == 2 {
            return Some(Optimum {
                value: TWO_D.0,
                locations: vec![TWO_D.1.to_vec()],
            });
        }
        OPTIMAL_VALUES
            .iter()
            .find(|&&(d, _)| d == dim)
            .map(|&(_, value)| Optimum {
                value,
                locations: Vec::new(),
            })
    }
}

impl ConstraintFunctions for KeaneBump {
    fn constraint_names(&self) -> Vec<String> {
        vec!["product".into(), "sum".into()]
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        let dim = x.len() as f64;
        vec![
            0.75 - x.iter().product::<f64>(),
            x.iter().sum::<f64>() - 7.5 * dim,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    /// By hand: where every cosine vanishes the value is 0 (to rounding); at the origin
    /// `−|2 − 2| / 10⁻³` = 0 (the held denominator keeps it finite); at (π, π/2)
    /// `−1/√(π² + 2·π²/4)`.
    #[test]
    fn by_hand() {
        let f = KeaneBump::new(2).unwrap();
        assert!(f.value(&[FRAC_PI_2, FRAC_PI_2]).abs() < 1e-30);
        let pi = std::f64::consts::PI;
        let expected = -1.0 / (pi * pi * 1.5).sqrt();
        assert!((f.value(&[pi, FRAC_PI_2]) - expected).abs() < 1e-15);
        assert_eq!(f.value(&[0.0, 0.0]), 0.0);
        assert_eq!(f.constraint_values(&[1.0, 2.0]), vec![-1.25, -12.0]);
    }

    #[test]
    fn optima_by_dimension() {
        assert!(KeaneBump::new(1).is_err());
        let two = KeaneBump::new(2).unwrap();
        let optimum = two.optimum().unwrap();
        let x = &optimum.locations[0];
        let c = two.constraint_values(x);
        assert!(c[0] <= 0.0 && c[0] > -1e-13 && c[1] < 0.0, "{c:?}");
        assert!((two.value(x) - optimum.value).abs() < 1e-15);
        assert!((optimum.value + 0.365).abs() < 5e-4);
        assert_eq!(
            KeaneBump::new(10).unwrap().optimum().unwrap().value,
            -0.6737
        );
        assert!(KeaneBump::new(3).unwrap().optimum().is_none());
    }
}
