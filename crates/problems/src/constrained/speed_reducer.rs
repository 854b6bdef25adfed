//! Golinski's speed reducer design problem, in the form of Lemonge, Barbosa, Borges and Silva
//! ("Constrained optimization problems in mechanical engineering design using a real-coded
//! steady-state genetic algorithm", Mecánica Computacional 2010), as BoTorch 0.18.1's
//! `SpeedReducer` states it.

use super::ConstraintFunctions;
use crate::functions::fixed_box;
use crate::{Domain, Optimum, Sense, TestFunction};

/// π/4 to four decimals, as the weight's formula writes it (Lemonge et al., BoTorch): the
/// problem's constant, not π/4.
#[expect(
    clippy::approx_constant,
    reason = "the source's rounded constant, kept to match it"
)]
const ROUNDED_QUARTER_PI: f64 = 0.7854;

/// The speed reducer on `[2.6, 3.6] × [0.7, 0.8] × [17, 28] × [7.3, 8.3] × [7.8, 8.3] ×
/// [2.9, 3.9] × [5, 5.5]`: minimise the weight of a gearbox (face width `x₁`, tooth module
/// `x₂`, pinion teeth `x₃` — continuous here, as in BoTorch —, shaft lengths `x₄`, `x₅` and
/// shaft diameters `x₆`, `x₇`) subject to eleven constraints ≤ 0 on the teeth's bending and
/// contact stresses, the shafts' deflections and stresses and the dimensions' ratios.
///
/// The optimum is BoTorch's 2996.3482 (Lemonge et al.), at `x₁ = 3.5`, `x₂ = 0.7`,
/// `x₃ = 17`, `x₄ = 7.3`, `x₅ = 7.8`, with the two shaft-stress constraints active; the
/// location declared solves those two for `x₆`, `x₇` and moves both out by 1e-14 relative, so
/// that it is feasible in floating point, at 2996.34817 (2996.3482 to BoTorch's digits).
#[derive(Debug)]
pub struct SpeedReducer {
    domain: Domain,
}

impl SpeedReducer {
    /// The problem on its box.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(
                &[2.6, 0.7, 17.0, 7.3, 7.8, 2.9, 5.0],
                &[3.6, 0.8, 28.0, 8.3, 8.3, 3.9, 5.5],
            ),
        }
    }
}

impl Default for SpeedReducer {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for SpeedReducer {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let (x1, x2, x3, x4, x5, x6, x7) = (x[0], x[1], x[2], x[3], x[4], x[5], x[6]);
        ROUNDED_QUARTER_PI * x1 * x2 * x2 * (3.3333 * x3 * x3 + 14.9334 * x3 - 43.0934)
            - 1.508 * x1 * (x6 * x6 + x7 * x7)
            + 7.4777 * (x6.powi(3) + x7.powi(3))
            + ROUNDED_QUARTER_PI * (x4 * x6 * x6 + x5 * x7 * x7)
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: 2996.3481649685714,
            locations: vec![vec![
                3.5,
                0.7,
                17.0,
                7.3,
                7.8,
                3.3502146660964804,
                5.286683229757968,
            ]],
        })
    }
}

impl ConstraintFunctions for SpeedReducer {
    fn constraint_names(&self) -> Vec<String> {
        (1..=11).map(|j| format!("g{j}")).collect()
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2, x3, x4, x5, x6, x7) = (x[0], x[1], x[2], x[3], x[4], x[5], x[6]);
        vec![
            27.0 / (x1 * x2 * x2 * x3) - 1.0,
            397.5 / (x1 * x2 * x2 * x3 * x3) - 1.0,
            1.93 * x4.powi(3) / (x2 * x3 * x6.powi(4)) - 1.0,
            1.93 * x5.powi(3) / (x2 * x3 * x7.powi(4)) - 1.0,
            ((745.0 * x4 / (x2 * x3)).powi(2) + 16.9e6).sqrt() / (0.1 * x6.powi(3)) - 1100.0,
            ((745.0 * x5 / (x2 * x3)).powi(2) + 157.5e6).sqrt() / (0.1 * x7.powi(3)) - 850.0,
            x2 * x3 - 40.0,
            5.0 - x1 / x2,
            x1 / x2 - 12.0,
            (1.5 * x6 + 1.9) / x4 - 1.0,
            (1.1 * x7 + 1.9) / x5 - 1.0,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand at the lower corner's first three coordinates: `x₂x₃ − 40 = 11.9 − 40`,
    /// `5 − x₁/x₂ = 5 − 26/7`, and the first constraint `27/(2.6·0.49·17) − 1`.
    #[test]
    fn by_hand() {
        let f = SpeedReducer::new();
        let x = [2.6, 0.7, 17.0, 7.3, 7.8, 2.9, 5.0];
        let c = f.constraint_values(&x);
        assert!((c[0] - (27.0 / 21.658 - 1.0)).abs() < 1e-12);
        assert!((c[6] + 28.1).abs() < 1e-12);
        assert!((c[7] - (5.0 - 26.0 / 7.0)).abs() < 1e-12);
        assert!((c[9] - (6.25 / 7.3 - 1.0)).abs() < 1e-12);
    }

    /// The declared optimiser is feasible with both shaft stresses active to 1e-9, and attains
    /// the declared value, BoTorch's 2996.3482 to its digits.
    #[test]
    fn the_optimum_is_feasible_and_active() {
        let f = SpeedReducer::new();
        let optimum = f.optimum().unwrap();
        let x = &optimum.locations[0];
        let c = f.constraint_values(x);
        assert!(c.iter().all(|&c| c <= 0.0), "{c:?}");
        assert!(c[4] > -1e-9 && c[5] > -1e-9, "{c:?}");
        assert!((f.value(x) - optimum.value).abs() < 1e-10);
        assert!((optimum.value - 2996.3482).abs() < 5e-5);
    }
}
