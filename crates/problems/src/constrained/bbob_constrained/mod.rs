//! COCO's constrained suite `bbob-constrained` (Dufossé, Atamna, Hansen et al., "Benchmarking
//! of constrained black-box optimization: the bbob-constrained suite", COCO's documentation of
//! the suite): 54 functions, nine bbob objectives each with 1, 2, 6, 6 + ⌊d/2⌋, 6 + d or
//! 6 + 3d active linear constraints and half as many inactive ones, made nonlinear by bbob's
//! T_osz and T_asy where the objective's bbob version has them, in COCO's instances 1–15 and
//! beyond.
//!
//! An instance is built around the origin and then moved, as `suite_cons_bbob_problems.c`
//! builds it: the objective (`objective`, on its own optimum, rotation and f_opt from the seed
//! `function + 20000·instance`) has gradient `p` at the origin; `p`, rescaled so that
//! `x_opt + p` stays in the box, is the feasible direction; the constraints (`linear`) are
//! hyperplanes through the origin, one with normal `−p`, so that the origin is a KKT point and,
//! the objectives being pseudoconvex, the constrained optimum (Rastrigin is not, but its origin
//! is one of its local optima, which the constraints make the constrained optimum); everything
//! is seen through the nonlinear transformation (`warp`), which fixes the origin, and finally
//! shifted by x_opt (bbob's `x_opt` of the seed `function + 10000·instance`) and scaled. The optimum COCO declares is
//! the objective at x_opt, where the active constraints are 0.
//!
//! Built on bosweep's COCO-faithful [`crate::bbob`] (its random numbers, raw functions and
//! transformations) and COCO's own random generator for the constraints (`random`);
//! `tests/library/bbob_constrained.rs` compares objective and constraint values and the
//! optimum with cocoex 2.8.2's (`benches/peers/bbob_constrained_reference.py`).

mod linear;
mod objective;
mod random;
mod suite;
mod warp;

use super::ConstraintFunctions;
use crate::bbob::rng;
use crate::bbob::transforms::shift;
use crate::{Domain, Optimum, ProblemError, Sense, TestFunction};
use linear::{Instance, LinearConstraint};
use objective::{Objective, ObjectiveKind};

pub(super) use suite::FUNCTIONS;

/// COCO's search box, `[−5, 5]^d` as bbob's.
const BOUND: f64 = 5.0;

/// One bbob-constrained problem: function `function` (1–54), instance `instance ≥ 1`,
/// dimension `d ≥ 2`, on `[−5, 5]^d`, minimised subject to its constraints `c_j(x) ≤ 0`.
///
/// Its objective and constraint values are those of cocoex's `problem(x)` and
/// `problem.constraint(x)`; its optimum is COCO's: the objective at x_opt, which lies on the
/// boundary of every active constraint.
#[derive(Debug)]
pub struct BbobConstrained {
    function: usize,
    kind: ObjectiveKind,
    domain: Domain,
    objective: Objective,
    xopt: Vec<f64>,
    constraints: Vec<LinearConstraint>,
    active: usize,
}

impl BbobConstrained {
    /// bbob-constrained function `function` (1–54), instance `instance ≥ 1` (COCO's suite has
    /// 1–15) in dimension `dim ≥ 2` (COCO's: 2, 3, 5, 10, 20, 40).
    pub fn new(function: usize, instance: usize, dim: usize) -> Result<Self, ProblemError> {
        let kind = suite::objective(function)?;
        if instance == 0 {
            return Err(ProblemError::config(
                "bbob-constrained instances start at 1, got instance = 0",
            ));
        }
        if dim < 2 {
            return Err(ProblemError::config(format!(
                "bbob-constrained needs dimension ≥ 2, got dim = {dim}"
            )));
        }
        let xopt = rng::xopt((function + 10_000 * instance) as i64, dim);
        let seed = (function + 20_000 * instance) as i64;
        let objective = Objective::new(kind, dim, seed, rng::fopt(function, instance));
        let feasible_direction = feasible_direction(objective.gradient_at_origin(dim), &xopt, seed);
        let active = suite::active_constraints(function, dim);
        let of = Instance {
            function,
            instance,
            feasible_direction: &feasible_direction,
        };
        let constraints = linear::constraints(&of, active).map_err(|e| {
            ProblemError::config(format!(
                "bbob-constrained function = {function}, instance = {instance}, dim = {dim}: {e}"
            ))
        })?;
        Ok(Self {
            function,
            kind,
            domain: Domain::cube(-BOUND, BOUND, dim)?,
            objective,
            xopt,
            constraints,
            active,
        })
    }

    /// The number of constraints active at the optimum (the suite's 1, 2, 6, 6 + ⌊d/2⌋, 6 + d
    /// or 6 + 3d); ⌊active/2⌋ more are inactive there.
    pub fn active_constraints(&self) -> usize {
        self.active
    }

    /// COCO's optimum x_opt (its `best_parameter`), on the boundary of the active constraints.
    pub fn xopt(&self) -> &[f64] {
        &self.xopt
    }

    /// `x − x_opt` through the problem's nonlinear transformation: where the constraints (and
    /// every objective but the linear slope) are evaluated.
    fn warped(&self, x: &[f64]) -> Vec<f64> {
        self.kind.warp().apply(shift(x, &self.xopt))
    }
}

/// `feasible_direction_set_length`: the objective's gradient at the origin scaled so that
/// `x_opt + p` lies in the box, by a factor in `[0.75, 1)` drawn from the objective's seed
/// (the legacy generator's, seed + 412) below the largest such scaling.
fn feasible_direction(mut gradient: Vec<f64>, xopt: &[f64], seed: i64) -> Vec<f64> {
    const SHRINK: f64 = 0.75;
    let max = |a: f64, b: f64| if a >= b { a } else { b };
    let largest = gradient.iter().zip(xopt).fold(0.0, |acc, (g, o)| {
        max(max(acc, g / (BOUND - o)), g / (-BOUND - o))
    });
    let r = rng::unif(1, seed + 412)[0];
    let mut scale = SHRINK + r * (1.0 - SHRINK);
    if largest != 0.0 {
        scale /= largest;
    }
    for g in &mut gradient {
        *g *= scale;
    }
    gradient
}

/// `coco_vector_norm`, summed in COCO's order (the construction's values depend on it to the
/// last bit).
fn norm(x: &[f64]) -> f64 {
    x.iter().fold(0.0, |acc, v| acc + v * v).sqrt()
}

impl TestFunction for BbobConstrained {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let at = if self.kind.is_shifted() {
            self.warped(x)
        } else {
            x.to_vec()
        };
        self.objective.value(&at) * self.kind.scale()
    }

    /// The objective at x_opt: COCO's `best_value`, the true constrained minimum (the tests
    /// check it against cocoex and against random feasible points).
    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: self.value(&self.xopt),
            locations: vec![self.xopt.clone()],
        })
    }

    fn title(&self) -> Option<String> {
        let total = self.constraints.len();
        let count = if total == 1 {
            "1 constraint".to_string()
        } else {
            format!("{total} constraints ({} active)", self.active)
        };
        Some(format!(
            "f{} {} with {count}",
            self.function,
            self.kind.name()
        ))
    }
}

impl ConstraintFunctions for BbobConstrained {
    /// `c1`, `c2`, … in COCO's order.
    fn constraint_names(&self) -> Vec<String> {
        (1..=self.constraints.len())
            .map(|j| format!("c{j}"))
            .collect()
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        let z = self.warped(x);
        self.constraints.iter().map(|c| c.value(&z)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::warp::Warp;
    use super::*;

    /// An xorshift stream of uniforms in `[−5, 5)`.
    fn uniforms(mut state: u64) -> impl FnMut() -> f64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            10.0 * ((state >> 11) as f64 / (1u64 << 53) as f64) - 5.0
        }
    }

    #[test]
    fn the_optimum_is_feasible_with_its_active_constraints_at_zero() {
        for f in 1..=FUNCTIONS {
            for (i, d) in [(1, 2), (6, 3), (15, 10)] {
                let p = BbobConstrained::new(f, i, d).unwrap();
                let optimum = p.optimum().unwrap();
                let x = &optimum.locations[0];
                p.domain().check_point(x).unwrap();
                let c = p.constraint_values(x);
                assert_eq!(c.len(), p.active + p.active / 2, "f{f} i{i} d{d}");
                assert_eq!(c.iter().filter(|&&v| v == 0.0).count(), p.active);
                assert!(c.iter().all(|&v| v <= 0.0), "f{f} i{i} d{d}: {c:?}");
                assert_eq!(p.value(x), optimum.value);
            }
        }
    }

    /// `y` through the inverse of `warp`, by bisection (both transformations increase
    /// coordinate-wise).
    fn unwarped(warp: Warp, y: &[f64]) -> Vec<f64> {
        let (mut lo, mut hi) = (vec![-30.0; y.len()], vec![30.0; y.len()]);
        for _ in 0..200 {
            let mid: Vec<f64> = lo.iter().zip(&hi).map(|(l, h)| 0.5 * (l + h)).collect();
            for (k, w) in warp.apply(mid.clone()).into_iter().enumerate() {
                if w < y[k] {
                    lo[k] = mid[k];
                } else {
                    hi[k] = mid[k];
                }
            }
        }
        lo
    }

    /// Feasible points along COCO's feasible direction (x_opt + T⁻¹(t p), feasible for
    /// t ∈ [0, 1]: the constraints are linear in T's space and hold at 0 and p) and random
    /// points around them: none that is feasible beats the declared optimum.
    #[test]
    fn no_feasible_point_of_a_sample_beats_the_optimum() {
        let mut uniform = uniforms(0x9e37_79b9_7f4a_7c15);
        for f in 1..=FUNCTIONS {
            for (i, d) in [(3, 2), (5, 5)] {
                let p = BbobConstrained::new(f, i, d).unwrap();
                let best = p.optimum().unwrap().value;
                let seed = (f + 20_000 * i) as i64;
                let direction =
                    feasible_direction(p.objective.gradient_at_origin(d), &p.xopt, seed);
                let mut feasible = 0;
                for t in [1.0, 0.5, 0.1, 1e-2, 1e-3] {
                    let along: Vec<f64> = direction.iter().map(|v| t * v).collect();
                    let base: Vec<f64> = (p.xopt.iter())
                        .zip(unwarped(p.kind.warp(), &along))
                        .map(|(o, u)| o + u)
                        .collect();
                    for k in 0..40 {
                        let radius = if k == 0 { 0.0 } else { t * 0.2 };
                        let x: Vec<f64> =
                            base.iter().map(|b| b + radius * uniform() / 5.0).collect();
                        if x.iter().any(|v| v.abs() > BOUND) {
                            continue;
                        }
                        let c = p.constraint_values(&x);
                        if k == 0 {
                            assert!(c.iter().all(|&v| v <= 1e-9), "f{f} d{d} t{t}: {c:?}");
                        }
                        if c.iter().all(|&v| v <= 0.0) {
                            feasible += 1;
                            let v = p.value(&x);
                            let slack = 1e-9 * best.abs().max(1.0);
                            assert!(v >= best - slack, "f{f} d{d}: {v} < {best} at {x:?}");
                        }
                    }
                }
                assert!(feasible >= 5, "f{f} d{d}: {feasible} feasible points");
            }
        }
    }

    #[test]
    fn titles_name_the_objective_and_count_the_constraints() {
        let title = |f, d| BbobConstrained::new(f, 1, d).unwrap().title().unwrap();
        assert_eq!(title(1, 2), "f1 Sphere with 1 constraint");
        assert_eq!(title(2, 2), "f2 Sphere with 3 constraints (2 active)");
        assert_eq!(
            title(16, 10),
            "f16 Linear Slope with 16 constraints (11 active)"
        );
        assert_eq!(
            title(54, 2),
            "f54 Rastrigin (rotated) with 18 constraints (12 active)"
        );
    }

    #[test]
    fn bad_parameters_are_refused_with_the_value() {
        for (f, i, d, needle) in [
            (0, 1, 2, "function = 0"),
            (55, 1, 2, "function = 55"),
            (1, 0, 2, "instance = 0"),
            (1, 1, 1, "dim = 1"),
            (1, 1, 0, "dim = 0"),
        ] {
            let err = BbobConstrained::new(f, i, d).unwrap_err().to_string();
            assert!(err.contains(needle), "{needle}: {err}");
        }
    }
}
