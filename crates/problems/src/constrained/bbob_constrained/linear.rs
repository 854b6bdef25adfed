//! bbob-constrained's linear constraints as COCO's `c_linear.c` builds them around the origin:
//! the objective's negative gradient as one constraint's normal (so that the origin is a KKT
//! point), random normals for the others, each flipped so that the feasible direction `p` stays
//! feasible, ⌊k/2⌋ of them shifted away from the origin (inactive at the optimum), and the
//! gradient-based normal disguised by a combination of the other active ones.
//!
//! The random numbers are COCO's own generator's ([`super::random`]) and the order of every
//! draw is COCO's: the instance is only reproduced if both are.

use super::norm;
use super::random::CocoRandom;
use crate::ProblemError;

/// The factor `global_scaling_factor` every normal is scaled by before its random factors.
const GLOBAL_SCALE: f64 = 100.0;

/// One constraint `Σ_i g_i (z_i − s g_i/‖g‖) ≤ 0`: a hyperplane with normal `g`, moved out by
/// `s ≥ 0` along it (`s = 0` for a constraint active at the optimum).
#[derive(Debug)]
pub(super) struct LinearConstraint {
    gradient: Vec<f64>,
    /// `‖g‖` when the constraint was made; the disguise restores the norm, so it stays.
    norm: f64,
    shift: f64,
}

impl LinearConstraint {
    /// `c_linear_single_evaluate` and `c_sum_variables_evaluate`: the sum over coordinates,
    /// leaving out terms in `[0, 10⁻¹¹]` so that rounding in the shift by x_opt cannot make the
    /// optimum itself infeasible (a NaN term is kept, so that NaN in gives NaN out, as COCO
    /// answers a point with a NaN coordinate).
    pub(super) fn value(&self, z: &[f64]) -> f64 {
        let factor = self.shift / self.norm;
        self.gradient.iter().zip(z).fold(0.0, |acc, (&g, &v)| {
            let term = g * (v - factor * g);
            if !(0.0..=1e-11).contains(&term) {
                acc + term
            } else {
                acc
            }
        })
    }

    /// Whether the constraint is active at the optimum (not shifted away from it).
    pub(super) fn is_active(&self) -> bool {
        self.shift == 0.0
    }
}

/// What one instance's constraints are drawn from.
pub(super) struct Instance<'a> {
    pub(super) function: usize,
    pub(super) instance: usize,
    /// The feasible direction `p`: the objective's gradient at the origin, rescaled.
    pub(super) feasible_direction: &'a [f64],
}

/// `c_linear_cons_bbob_problem_allocate`: `active` constraints through the origin and
/// ⌊active/2⌋ shifted ones, in COCO's order, for the suite `bbob-constrained` (inactive
/// constraints and the disguise both on).
pub(super) fn constraints(
    of: &Instance,
    active: usize,
) -> Result<Vec<LinearConstraint>, ProblemError> {
    let d = of.feasible_direction.len();
    let total = active + active / 2;
    let mut inactive_left = active / 2;
    let objective_normal: Vec<f64> = of.feasible_direction.iter().map(|v| -v).collect();
    let mut combination = vec![0.0; d];
    let base_seed = seed(of.function as i64 + 10_000 * of.instance as i64);
    let mut draws = CocoRandom::new(base_seed);
    let mut weights = CocoRandom::new(base_seed);
    let factor1 = GLOBAL_SCALE * 10.0_f64.powf(draws.uniform());

    let mut made = Vec::with_capacity(total);
    let mut disguised = None;
    // Active constraint number `i` (1-based) takes the objective's gradient where
    // `(i − 1 + instance) mod active = 0`: one of them, which one by instance.
    let takes_gradient = |i: usize| (i - 1 + of.instance).is_multiple_of(active);
    let mut i = 1;
    for j in 1..=total {
        let (given, shift) = if j == 1 {
            (takes_gradient(1), 0.0)
        } else if i < active && draws.uniform() + 1e-23 > inactive_left as f64 / total as f64 {
            i += 1;
            (takes_gradient(i), 0.0)
        } else {
            inactive_left = inactive_left.checked_sub(1).ok_or_else(|| {
                ProblemError::config(format!(
                    "COCO's constraint draw ran out of inactive constraints at constraint {j}"
                ))
            })?;
            (false, 0.01 + 2.0 * draws.uniform())
        };
        let normal = given.then_some(objective_normal.as_slice());
        // Seeded by the number of active constraints made so far, as COCO's (its alternative
        // for inactive ones is never taken): an inactive constraint draws the random normal the
        // last active one drew (or would have, had it not taken the objective's gradient).
        let constraint = single(of, i, factor1, normal, shift)?;
        if constraint.is_active() {
            if given {
                disguised = Some(made.len());
            } else {
                let weight = weights.uniform();
                if weight != 0.0 {
                    for (c, g) in combination.iter_mut().zip(&constraint.gradient) {
                        *c += weight * g;
                    }
                }
            }
        }
        made.push(constraint);
    }
    if active > 1 {
        let first = disguised
            .ok_or_else(|| ProblemError::config("no constraint took the objective's gradient"))?;
        disguise(&mut made[first], &combination, weights.uniform())?;
    }
    Ok(made)
}

/// `c_linear_single_cons_bbob_problem_allocate`: constraint `number`'s normal — the objective's
/// `normal` where given, else a random normal vector — scaled by `factor1` and its own
/// `100^U`, moved out by `shift`, and flipped if the feasible direction violates it.
fn single(
    of: &Instance,
    number: usize,
    factor1: f64,
    normal: Option<&[f64]>,
    shift: f64,
) -> Result<LinearConstraint, ProblemError> {
    let d = of.feasible_direction.len();
    let mut random = CocoRandom::new(seed(
        of.function as i64 + 10_000 * of.instance as i64 + 50_000 * number as i64,
    ));
    let factor2 = 100.0_f64.powf(random.uniform());
    let gradient: Vec<f64> = match normal {
        Some(normal) => {
            let scale = divided(factor1 * factor2, norm(normal));
            normal.iter().map(|v| v * scale).collect()
        }
        None => (0..d)
            .map(|_| factor1 * random.normal() * factor2 / (d as f64).sqrt())
            .collect(),
    };
    let norm = norm(&gradient);
    if norm <= 0.0 {
        return Err(ProblemError::config(format!(
            "constraint {number} has a zero normal"
        )));
    }
    let mut constraint = LinearConstraint {
        gradient,
        norm,
        shift,
    };
    if constraint.value(of.feasible_direction) > 0.0 {
        for g in &mut constraint.gradient {
            *g = -*g;
        }
    }
    Ok(constraint)
}

/// Hides the objective's gradient in the constraint built from it: subtracts `fac` times the
/// combination of the other active normals (`fac` in `(1/3, 1)` of the largest step that keeps
/// the feasible direction feasible) and restores the norm.
fn disguise(
    constraint: &mut LinearConstraint,
    combination: &[f64],
    weight: f64,
) -> Result<(), ProblemError> {
    let d = combination.len() as f64;
    let original = constraint.norm;
    let product = combination
        .iter()
        .zip(&constraint.gradient)
        .fold(0.0, |acc, (c, g)| acc + c * g);
    if product < 0.0 {
        return Err(ProblemError::config(format!(
            "the disguise's scalar product {product} is negative"
        )));
    }
    let mut fac = if product <= 0.0 {
        d
    } else {
        let step = original * original / product;
        if d <= step { d } else { step }
    };
    fac *= (1.0 + weight) / (2.0 + 1.0 / d);
    for (g, c) in constraint.gradient.iter_mut().zip(combination) {
        *g -= fac * c;
    }
    let new_norm = norm(&constraint.gradient);
    if new_norm == 0.0 {
        return Err(ProblemError::config("the disguised normal vanished"));
    }
    let scale = original / new_norm;
    for g in &mut constraint.gradient {
        *g *= scale;
    }
    Ok(())
}

/// `coco_random_new`'s seed: COCO's `long` seed converted to `uint32_t` (modulo 2³²).
fn seed(value: i64) -> u32 {
    value as u32
}

/// `nom / denom` as `coco_vector_scale` forms its factor: `nom` alone where `denom` is 0.
fn divided(nom: f64, denom: f64) -> f64 {
    if denom != 0.0 { nom / denom } else { nom }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn direction() -> Vec<f64> {
        vec![0.8, -1.3, 0.4]
    }

    /// k active constraints vanish at the origin, ⌊k/2⌋ more are strictly feasible there, and
    /// the feasible direction satisfies every one.
    #[test]
    fn active_ones_pass_through_the_origin_and_the_direction_is_feasible() {
        let p = direction();
        for (instance, active) in [(1, 1), (2, 2), (7, 6), (12, 15)] {
            let of = Instance {
                function: 3,
                instance,
                feasible_direction: &p,
            };
            let made = constraints(&of, active).unwrap();
            assert_eq!(made.len(), active + active / 2);
            assert_eq!(made.iter().filter(|c| c.is_active()).count(), active);
            for c in &made {
                let at_origin = c.value(&[0.0; 3]);
                if c.is_active() {
                    assert_eq!(at_origin, 0.0);
                } else {
                    assert!(at_origin < 0.0, "{at_origin}");
                }
                assert!(c.value(&p) <= 0.0, "{}", c.value(&p));
            }
        }
    }

    /// With one constraint it is the objective's negative gradient scaled: p strictly inside.
    #[test]
    fn a_single_constraint_is_the_objective_s_negative_gradient() {
        let p = direction();
        let of = Instance {
            function: 1,
            instance: 4,
            feasible_direction: &p,
        };
        let made = constraints(&of, 1).unwrap();
        let g = &made[0].gradient;
        let ratio = -g[0] / p[0];
        assert!(ratio > 0.0);
        for k in 0..3 {
            assert!((-g[k] / p[k] - ratio).abs() < 1e-12 * ratio);
        }
    }

    #[test]
    fn terms_below_the_rounding_threshold_are_left_out() {
        let c = LinearConstraint {
            gradient: vec![1.0, 1.0],
            norm: 2.0_f64.sqrt(),
            shift: 0.0,
        };
        assert_eq!(c.value(&[5e-12, -1.0]), -1.0);
        assert_eq!(c.value(&[2e-11, 0.0]), 2e-11);
    }
}
