//! Gramacy et al.'s constrained toy problem ("Modeling an augmented Lagrangian for blackbox
//! constrained optimization", Technometrics 2016, §3.1).

use std::f64::consts::PI;

use super::ConstraintFunctions;
use crate::functions::fixed_box;
use crate::{Domain, Optimum, Sense, TestFunction};

/// Gramacy et al. (2016) on `[0, 1]²`: minimise `x_1 + x_2` subject to
/// `c_1 = 3/2 − x_1 − 2 x_2 − ½ sin(2π (x_1² − 2 x_2)) ≤ 0` and `c_2 = x_1² + x_2² − 3/2 ≤ 0`.
/// The feasible region is disconnected; the best feasible value is 0.5998 at
/// (0.1954, 0.4044), as the paper and BoTorch's `ConstrainedGramacy` state it.
#[derive(Debug)]
pub struct ConstrainedGramacy {
    domain: Domain,
}

impl ConstrainedGramacy {
    /// The problem on the unit square.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(&[0.0, 0.0], &[1.0, 1.0]),
        }
    }
}

impl Default for ConstrainedGramacy {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for ConstrainedGramacy {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        x[0] + x[1]
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: 0.5998,
            locations: vec![vec![0.1954, 0.4044]],
        })
    }
}

impl ConstraintFunctions for ConstrainedGramacy {
    fn constraint_names(&self) -> Vec<String> {
        vec!["c1".into(), "c2".into()]
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2) = (x[0], x[1]);
        vec![
            1.5 - x1 - 2.0 * x2 - 0.5 * (2.0 * PI * (x1 * x1 - 2.0 * x2)).sin(),
            x1 * x1 + x2 * x2 - 1.5,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand: at the origin `c_1 = 3/2` (infeasible), `c_2 = −3/2`; at (1, 1)
    /// `c_1 = 3/2 − 3 − ½ sin(−2π) = −3/2`, `c_2 = 1/2` (infeasible).
    #[test]
    fn constraints_by_hand() {
        let f = ConstrainedGramacy::new();
        let origin = f.constraint_values(&[0.0, 0.0]);
        assert!((origin[0] - 1.5).abs() < 1e-15 && (origin[1] + 1.5).abs() < 1e-15);
        let corner = f.constraint_values(&[1.0, 1.0]);
        assert!((corner[0] + 1.5).abs() < 1e-12 && (corner[1] - 0.5).abs() < 1e-15);
    }

    /// The published optimiser is feasible to its four printed digits (`c_1` is active there)
    /// and attains the published value.
    #[test]
    fn the_published_optimum_is_feasible_and_attained() {
        let f = ConstrainedGramacy::new();
        let optimum = f.optimum().unwrap();
        let x = &optimum.locations[0];
        let c = f.constraint_values(x);
        assert!(c[0] <= 1e-3 && c[0] > -1e-2 && c[1] < 0.0, "{c:?}");
        assert!((f.value(x) - optimum.value).abs() < 1e-12);
    }
}
