//! The welded beam design problem as Coello Coello ("Theoretical and numerical
//! constraint-handling techniques used with evolutionary algorithms: a survey", Computer Methods
//! in Applied Mechanics and Engineering 2002, after Rao 1996) states it, in BoTorch 0.18.1's
//! `WeldedBeamSO`.

use std::f64::consts::SQRT_2;

use super::ConstraintFunctions;
use crate::functions::fixed_box;
use crate::{Domain, Optimum, Sense, TestFunction};

/// The load (lb), the beam's overhang (in), Young's and the shear modulus (psi), the
/// largest shear and bending stresses (psi) and the largest deflection (in).
const P: f64 = 6000.0;
const L: f64 = 14.0;
const E: f64 = 30e6;
const G: f64 = 12e6;
const TAU_MAX: f64 = 13600.0;
const SIGMA_MAX: f64 = 30000.0;
const DELTA_MAX: f64 = 0.25;

/// The welded beam (Coello Coello 2002) on BoTorch's box `[0.125, 10] × [0.1, 10]³`: minimise
/// the cost `1.10471 x₁² x₂ + 0.04811 x₃ x₄ (14 + x₂)` of a beam welded to a support, with weld
/// thickness `x₁`, weld length `x₂`, beam height `x₃` and beam thickness `x₄`, subject to six
/// constraints ≤ 0: the weld's shear stress `τ − 13600`, the beam's bending stress `σ − 30000`,
/// `x₁ − x₄`, the cost-like `0.10471 x₁² + 0.04811 x₃x₄(14 + x₂) − 5`, the deflection
/// `δ − 0.25` and the buckling load `P − P_c`.
///
/// One departure from BoTorch, whose buckling load is a bug: the paper's
/// `P_c = 4.013 E √(x₃² x₄⁶ / 36) / L² · (1 − x₃/(2L) √(E/(4G)))` has `x₃ x₄³ / 6`, BoTorch
/// multiplies by 6 where the paper divides, a buckling load 36 times the paper's. With BoTorch's
/// the buckling constraint is never active and the optimum falls to 1.587 at the edge of the
/// box, below every value the paper and BoTorch's own optimum (1.728226) state; with the
/// paper's, the optimum is the literature's 1.724852 at (0.205730, 3.470489, 9.036624,
/// 0.205730), where the shear, bending, `x₁ − x₄` and buckling constraints are active. The
/// other five constraints and the objective are BoTorch's.
///
/// BoTorch's optimal value 1.728226 is the best Coello Coello reports finding; the optimum
/// declared is 1.7248523 at a point solved from its four active constraints, each held 1e-13
/// (relative to its scale) inside so that it is feasible in floating point.
#[derive(Debug)]
pub struct WeldedBeam {
    domain: Domain,
}

impl WeldedBeam {
    /// The problem on BoTorch's box.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(&[0.125, 0.1, 0.1, 0.1], &[10.0, 10.0, 10.0, 10.0]),
        }
    }
}

impl Default for WeldedBeam {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for WeldedBeam {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let (x1, x2, x3, x4) = (x[0], x[1], x[2], x[3]);
        1.10471 * x1 * x1 * x2 + 0.04811 * x3 * x4 * (14.0 + x2)
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: 1.7248523085976326,
            locations: vec![vec![
                0.20572963978598463,
                3.4704886656303477,
                9.03662391035797,
                0.20572963978608463,
            ]],
        })
    }
}

impl ConstraintFunctions for WeldedBeam {
    fn constraint_names(&self) -> Vec<String> {
        [
            "shear",
            "bending",
            "thickness",
            "cost",
            "deflection",
            "buckling",
        ]
        .map(String::from)
        .to_vec()
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2, x3, x4) = (x[0], x[1], x[2], x[3]);
        let m = P * (L + x2 / 2.0);
        let r = (0.25 * (x2 * x2 + (x1 + x3).powi(2))).sqrt();
        let j = 2.0 * SQRT_2 * x1 * x2 * (x2 * x2 / 12.0 + 0.25 * (x1 + x3).powi(2));
        let buckling =
            4.013 * E * x3 * x4.powi(3) / 6.0 / (L * L) * (1.0 - 0.25 * x3 * (E / G).sqrt() / L);
        let t1 = P / (SQRT_2 * x1 * x2);
        let t2 = m * r / j;
        let tau = (t1 * t1 + t1 * t2 * x2 / r + t2 * t2).sqrt();
        let sigma = 6.0 * P * L / (x4 * x3 * x3);
        let delta = 4.0 * P * L.powi(3) / (E * x3.powi(3) * x4);
        vec![
            tau - TAU_MAX,
            sigma - SIGMA_MAX,
            x1 - x4,
            0.10471 * x1 * x1 + 0.04811 * x3 * x4 * (14.0 + x2) - 5.0,
            delta - DELTA_MAX,
            P - buckling,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand at (1, 1, 1, 1): cost 1.10471 + 0.04811·15; σ = 6·6000·14 = 504000;
    /// δ = 4·6000·14³/30e6; `P_c = 4.013·30e6/(6·196)·(1 − √2.5/56)`.
    #[test]
    fn by_hand() {
        let f = WeldedBeam::new();
        let x = [1.0; 4];
        assert!((f.value(&x) - (1.10471 + 0.72165)).abs() < 1e-12);
        let c = f.constraint_values(&x);
        assert!((c[1] - (504000.0 - 30000.0)).abs() < 1e-9);
        assert_eq!(c[2], 0.0);
        assert!((c[3] - (0.10471 + 0.72165 - 5.0)).abs() < 1e-12);
        assert!((c[4] - (4.0 * 6000.0 * 2744.0 / 30e6 - 0.25)).abs() < 1e-15);
        let buckling = 4.013 * 30e6 / (6.0 * 196.0) * (1.0 - 2.5f64.sqrt() / 56.0);
        assert!((c[5] - (6000.0 - buckling)).abs() < 1e-8);
    }

    /// The declared optimiser is feasible with its four constraints active to 1e-8 relative,
    /// and attains the declared value, below BoTorch's 1.728226.
    #[test]
    fn the_optimum_is_feasible_and_active() {
        let f = WeldedBeam::new();
        let optimum = f.optimum().unwrap();
        let x = &optimum.locations[0];
        let c = f.constraint_values(x);
        assert!(c.iter().all(|&c| c <= 0.0), "{c:?}");
        let scales = [TAU_MAX, SIGMA_MAX, 1.0, P];
        for (&j, scale) in [0, 1, 2, 5].iter().zip(scales) {
            assert!(c[j] / scale > -1e-8, "{j}: {c:?}");
        }
        assert!((f.value(x) - optimum.value).abs() < 1e-14);
        assert!(optimum.value < 1.728226);
    }
}
