//! Two constrained two-objective engineering design problems, as BoTorch 0.18.1
//! (`botorch.test_functions.multi_objective`) states them: the disc brake and the welded beam.

use std::f64::consts::SQRT_2;

use super::ConstraintFunctions;
use crate::Domain;
use crate::functions::fixed_box;
use crate::multi_objective::MultiObjectiveFunction;

/// π to two decimals, as the disc brake's pressure constraint writes it (RE, BoTorch): the
/// problem's constant, not π.
#[expect(
    clippy::approx_constant,
    reason = "the source's rounded constant, kept to match it"
)]
const ROUNDED_PI: f64 = 3.14;

/// The disc brake (Ray & Liew, "A swarm metaphor for multiobjective design optimization",
/// Engineering Optimization 2002; Tanabe & Ishibuchi 2020's RE suite) on
/// `[55, 80] × [75, 110] × [1000, 3000] × [11, 20]` (inner and outer radius, engaging force,
/// number of friction surfaces): minimise the brake's mass
/// `4.9·10⁻⁵ (x₂² − x₁²)(x₄ − 1)` and its stopping time
/// `9.82·10⁶ (x₂² − x₁²) / (x₃ x₄ (x₂³ − x₁³))`, subject to four constraints ≤ 0 (the radii's
/// difference, pressure, temperature and torque); BoTorch leaves out RE's third objective, the
/// constraints' total violation, and so does this. Reference point (5.7771, 3.9651), BoTorch's
/// (from its `infer_reference_point` on a large random design); no maximal hypervolume.
///
/// Where the radii are equal (`x₁ = x₂ ∈ [75, 80]`, a set of measure zero) the disc has no
/// area and the values are NaN or infinite, as in BoTorch; an evaluation there is an error.
#[derive(Debug)]
pub struct DiscBrake {
    domain: Domain,
}

impl DiscBrake {
    /// The problem on its box.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(&[55.0, 75.0, 1000.0, 11.0], &[80.0, 110.0, 3000.0, 20.0]),
        }
    }
}

impl Default for DiscBrake {
    fn default() -> Self {
        Self::new()
    }
}

impl MultiObjectiveFunction for DiscBrake {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn objectives(&self) -> usize {
        2
    }

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2, x3, x4) = (x[0], x[1], x[2], x[3]);
        let squares = x2 * x2 - x1 * x1;
        vec![
            4.9e-5 * squares * (x4 - 1.0),
            9.82e6 * squares / (x3 * x4 * (x2.powi(3) - x1.powi(3))),
        ]
    }

    fn reference_point(&self) -> Vec<f64> {
        vec![5.7771, 3.9651]
    }

    fn max_hypervolume(&self) -> Option<f64> {
        None
    }

    fn pareto_front(&self, _n: usize) -> Option<Vec<Vec<f64>>> {
        None
    }
}

impl ConstraintFunctions for DiscBrake {
    fn constraint_names(&self) -> Vec<String> {
        ["radii", "pressure", "temperature", "torque"]
            .map(String::from)
            .to_vec()
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2, x3, x4) = (x[0], x[1], x[2], x[3]);
        let squares = x2 * x2 - x1 * x1;
        let cubes = x2.powi(3) - x1.powi(3);
        vec![
            20.0 + x1 - x2,
            x3 / (ROUNDED_PI * squares) - 0.4,
            2.22e-3 * x3 * cubes / (squares * squares) - 1.0,
            900.0 - 2.66e-2 * x3 * x4 * cubes / squares,
        ]
    }
}

/// The welded beam of Deb & Sundar ("Reference point based multi-objective optimization using
/// evolutionary algorithms", GECCO 2006), in pymoo's form, which BoTorch's `WeldedBeam` copies,
/// on `[0.125, 5] × [0.1, 10]² × [0.125, 5]`: minimise the cost
/// `1.10471 x₁² x₂ + 0.04811 x₃ x₄ (14 + x₂)` and the end deflection `2.1952 / (x₄ x₃³)`,
/// subject to four normalised constraints ≤ 0: shear stress `(τ − 13600)/13600`, bending
/// stress `(σ − 30000)/30000`, `(x₁ − x₄)/4.875` and buckling `(6000 − P_c)/6000` with
/// `P_c = 64746.022 (1 − 0.0282346 x₃) x₃ x₄³`. Its polar moment is pymoo's,
/// `J = √2 x₁ x₂ (x₂²/12 + (x₁ + x₃)²/4)`, half the single-objective problem's (as BoTorch
/// notes). Reference point (40, 0.015), BoTorch's; no maximal hypervolume.
///
/// One departure from BoTorch, whose constraints are inverted by a bug: it returns pymoo's
/// constraint values (≤ 0 where feasible) as its slack (≥ 0 where feasible), so that BoTorch
/// calls a design feasible only where every stress exceeds its limit. The values here are
/// pymoo's, BoTorch's slack with its sign as BoTorch's other problems would have it.
#[derive(Debug)]
pub struct WeldedBeamMo {
    domain: Domain,
}

impl WeldedBeamMo {
    /// The problem on BoTorch's box.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(&[0.125, 0.1, 0.1, 0.125], &[5.0, 10.0, 10.0, 5.0]),
        }
    }
}

impl Default for WeldedBeamMo {
    fn default() -> Self {
        Self::new()
    }
}

impl MultiObjectiveFunction for WeldedBeamMo {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn objectives(&self) -> usize {
        2
    }

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2, x3, x4) = (x[0], x[1], x[2], x[3]);
        vec![
            1.10471 * x1 * x1 * x2 + 0.04811 * x3 * x4 * (14.0 + x2),
            2.1952 / (x4 * x3.powi(3)),
        ]
    }

    fn reference_point(&self) -> Vec<f64> {
        vec![40.0, 0.015]
    }

    fn max_hypervolume(&self) -> Option<f64> {
        None
    }

    fn pareto_front(&self, _n: usize) -> Option<Vec<Vec<f64>>> {
        None
    }
}

impl ConstraintFunctions for WeldedBeamMo {
    fn constraint_names(&self) -> Vec<String> {
        ["shear", "bending", "thickness", "buckling"]
            .map(String::from)
            .to_vec()
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        const P: f64 = 6000.0;
        const L: f64 = 14.0;
        const TAU_MAX: f64 = 13600.0;
        const SIGMA_MAX: f64 = 30000.0;
        let (x1, x2, x3, x4) = (x[0], x[1], x[2], x[3]);
        let r = (0.25 * (x2 * x2 + (x1 + x3).powi(2))).sqrt();
        let m = P * (L + x2 / 2.0);
        let j = SQRT_2 * x1 * x2 * (x2 * x2 / 12.0 + 0.25 * (x1 + x3).powi(2));
        let t1 = P / (SQRT_2 * x1 * x2);
        let t2 = m * r / j;
        let tau = (t1 * t1 + t1 * t2 * x2 / r + t2 * t2).sqrt();
        let sigma = 6.0 * P * L / (x4 * x3 * x3);
        let buckling = 64746.022 * (1.0 - 0.0282346 * x3) * x3 * x4.powi(3);
        vec![
            (tau - TAU_MAX) / TAU_MAX,
            (sigma - SIGMA_MAX) / SIGMA_MAX,
            (x1 - x4) / (5.0 - 0.125),
            (P - buckling) / P,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand: the disc brake at radii (60, 80), force 2000, 12 surfaces; the welded beam at
    /// (1, 1, 1, 1).
    #[test]
    fn by_hand() {
        let brake = DiscBrake::new();
        let x = [60.0, 80.0, 2000.0, 12.0];
        let (squares, cubes) = (2800.0, 296000.0);
        let f = brake.values(&x);
        assert!((f[0] - 4.9e-5 * squares * 11.0).abs() < 1e-12);
        assert!((f[1] - 9.82e6 * squares / (24000.0 * cubes)).abs() < 1e-12);
        let c = brake.constraint_values(&x);
        assert_eq!(c[0], 0.0);
        assert!((c[1] - (2000.0 / (ROUNDED_PI * squares) - 0.4)).abs() < 1e-15);
        let beam = WeldedBeamMo::new();
        let f = beam.values(&[1.0; 4]);
        assert!((f[0] - 1.82636).abs() < 1e-12 && f[1] == 2.1952);
        let c = beam.constraint_values(&[1.0; 4]);
        assert!((c[1] - (504000.0 - 30000.0) / 30000.0).abs() < 1e-12 && c[2] == 0.0);
        let buckling = 64746.022 * (1.0 - 0.0282346);
        assert!((c[3] - (6000.0 - buckling) / 6000.0).abs() < 1e-12);
    }

    #[test]
    fn declared_constants() {
        assert_eq!(DiscBrake::default().reference_point(), vec![5.7771, 3.9651]);
        assert_eq!(WeldedBeamMo::default().reference_point(), vec![40.0, 0.015]);
        assert!(DiscBrake::default().max_hypervolume().is_none());
        assert!(WeldedBeamMo::default().pareto_front(5).is_none());
    }
}
