//! bbob-constrained's nine objectives as COCO builds them (`f_*_cons_bbob_problem_allocate`,
//! `f_different_powers_bbob_constrained_problem_allocate` and bbob's sphere and linear slope):
//! bbob functions with their own optimum, rotation and f_opt, but without the nonlinear
//! transformations bbob's versions have (those act on the whole constrained problem, see
//! [`super::warp`]), and each one's gradient at the origin, which COCO builds the constraints
//! from.

use super::warp::Warp;
use crate::bbob::functions::slopes;
use crate::bbob::raw;
use crate::bbob::rng::{self, Matrix};
use crate::bbob::transforms::{affine, shift};
use std::f64::consts::PI;

/// The nine objectives in COCO's order (`obj_function_type` 1–9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ObjectiveKind {
    Sphere,
    Ellipsoid,
    LinearSlope,
    EllipsoidRotated,
    Discus,
    BentCigar,
    DifferentPowers,
    Rastrigin,
    RastriginRotated,
}

impl ObjectiveKind {
    /// The nine, in COCO's order: function `6(j − 1) + m` has the j-th.
    pub(super) const ALL: [Self; 9] = [
        Self::Sphere,
        Self::Ellipsoid,
        Self::LinearSlope,
        Self::EllipsoidRotated,
        Self::Discus,
        Self::BentCigar,
        Self::DifferentPowers,
        Self::Rastrigin,
        Self::RastriginRotated,
    ];

    /// The objective's name, as bbob's documentation names the function it comes from.
    pub(super) fn name(self) -> &'static str {
        match self {
            Self::Sphere => "Sphere",
            Self::Ellipsoid => "Separable Ellipsoidal",
            Self::LinearSlope => "Linear Slope",
            Self::EllipsoidRotated => "Ellipsoidal (rotated)",
            Self::Discus => "Discus",
            Self::BentCigar => "Bent Cigar",
            Self::DifferentPowers => "Different Powers",
            Self::Rastrigin => "Rastrigin",
            Self::RastriginRotated => "Rastrigin (rotated)",
        }
    }

    /// The nonlinear transformation bbob's version of the objective has, which COCO applies
    /// to the whole problem instead.
    pub(super) fn warp(self) -> Warp {
        match self {
            Self::Sphere | Self::LinearSlope | Self::DifferentPowers => Warp::Identity,
            Self::Ellipsoid | Self::EllipsoidRotated | Self::Discus => Warp::Oscillate,
            Self::BentCigar => Warp::Asymmetric,
            Self::Rastrigin | Self::RastriginRotated => Warp::OscillateThenAsymmetric,
        }
    }

    /// COCO's final `transform_obj_scale`, chosen to put the initial feasible point at a Δf
    /// between 100 and 10⁴ or so.
    pub(super) fn scale(self) -> f64 {
        match self {
            Self::Sphere | Self::LinearSlope | Self::Rastrigin | Self::RastriginRotated => 10.0,
            Self::DifferentPowers => 100.0,
            Self::Ellipsoid | Self::EllipsoidRotated | Self::Discus | Self::BentCigar => 1e-4,
        }
    }

    /// Whether the whole problem's shift by x_opt moves the objective too: COCO shifts only the
    /// linear slope's constraints (`transform_vars_shift(…, 1)`), which leaves the slope, and
    /// the corner it points at, where bbob has them.
    pub(super) fn is_shifted(self) -> bool {
        self != Self::LinearSlope
    }
}

/// The raw bbob function an objective evaluates.
#[derive(Clone, Copy, Debug)]
enum Raw {
    Sphere,
    Ellipsoid,
    Discus,
    BentCigar,
    DifferentPowers,
    Rastrigin,
}

impl Raw {
    fn value(self, w: &[f64]) -> f64 {
        match self {
            Self::Sphere => raw::sphere(w),
            Self::Ellipsoid => raw::ellipsoid(w),
            Self::Discus => raw::discus(w),
            Self::BentCigar => raw::bent_cigar(w),
            Self::DifferentPowers => raw::different_powers(w),
            Self::Rastrigin => raw::rastrigin(w),
        }
    }

    /// The gradient at `w` as COCO's `f_*_evaluate_gradient` computes it. Different powers'
    /// divides by the sum rather than its square root, a positive factor that COCO's rescaling
    /// of the feasible direction removes (kept for the rounding).
    fn gradient(self, w: &[f64]) -> Vec<f64> {
        let d = w.len() as f64;
        let spread = |i: usize| 1.0 * i as f64 / (d - 1.0);
        match self {
            Self::Sphere => w.iter().map(|v| 2.0 * v).collect(),
            Self::Ellipsoid => w
                .iter()
                .enumerate()
                .map(|(i, v)| 2.0 * 1.0e6_f64.powf(spread(i)) * v)
                .collect(),
            Self::Discus => w
                .iter()
                .enumerate()
                .map(|(i, v)| if i == 0 { 1.0e6 * 2.0 * v } else { 2.0 * v })
                .collect(),
            Self::BentCigar => w
                .iter()
                .enumerate()
                .map(|(i, v)| if i == 0 { 2.0 * v } else { 2.0 * 1.0e6 * v })
                .collect(),
            Self::DifferentPowers => {
                let power = |i: usize| 2.0 + (4.0 * i as f64) / (d - 1.0);
                let sum = w
                    .iter()
                    .enumerate()
                    .fold(0.0, |acc, (i, v)| acc + v.abs().powf(power(i)));
                w.iter()
                    .enumerate()
                    .map(|(i, &v)| {
                        let sign = if v > 0.0 {
                            1.0
                        } else if v < 0.0 {
                            -1.0
                        } else {
                            0.0
                        };
                        0.5 * power(i) / sum * (v.abs().powf(power(i) - 1.0) * sign)
                    })
                    .collect()
            }
            Self::Rastrigin => w
                .iter()
                .map(|v| 2.0 * (10.0 * PI * (2.0 * PI * v).sin() + v))
                .collect(),
        }
    }
}

/// How an objective places its raw function.
#[derive(Debug)]
enum Placement {
    /// `raw(z − x_o)`.
    Shifted { raw: Raw, xopt: Vec<f64> },
    /// `raw(R (z − x_o))`.
    Rotated { raw: Raw, xopt: Vec<f64>, r: Matrix },
    /// `raw(R z − x_o)`: the rotated Rastrigin rotates its integer optimum too.
    RotatedThenShifted { raw: Raw, xopt: Vec<f64>, r: Matrix },
    /// bbob's linear slope `Σ 5|s_i| − s_i z_i`.
    LinearSlope { slopes: Vec<f64> },
}

/// One objective of one instance, before COCO's whole-problem transformation and scaling.
#[derive(Debug)]
pub(super) struct Objective {
    placement: Placement,
    fopt: f64,
}

impl Objective {
    /// The objective `kind` in dimension `d` from `seed`, COCO's `rseed = function +
    /// 20000·instance` of the objective, with the optimal value `fopt`.
    pub(super) fn new(kind: ObjectiveKind, d: usize, seed: i64, fopt: f64) -> Self {
        use ObjectiveKind as K;
        let xopt = || rng::xopt(seed, d);
        let r = || rng::rotation(seed + 1_000_000, d);
        let placement = match kind {
            K::Sphere => Placement::Shifted {
                raw: Raw::Sphere,
                xopt: xopt(),
            },
            K::Ellipsoid => Placement::Shifted {
                raw: Raw::Ellipsoid,
                xopt: xopt(),
            },
            K::LinearSlope => Placement::LinearSlope {
                slopes: slopes(&xopt()),
            },
            K::EllipsoidRotated => Placement::Rotated {
                raw: Raw::Ellipsoid,
                xopt: xopt(),
                r: r(),
            },
            K::Discus => Placement::Rotated {
                raw: Raw::Discus,
                xopt: xopt(),
                r: r(),
            },
            K::BentCigar => Placement::Rotated {
                raw: Raw::BentCigar,
                // As bbob's f12, the optimum is drawn from the rotation's seed.
                xopt: rng::xopt(seed + 1_000_000, d),
                r: r(),
            },
            K::DifferentPowers => Placement::Rotated {
                raw: Raw::DifferentPowers,
                xopt: near_origin(xopt()),
                r: r(),
            },
            K::Rastrigin => Placement::Shifted {
                raw: Raw::Rastrigin,
                xopt: integer_xopt(seed, d),
            },
            K::RastriginRotated => Placement::RotatedThenShifted {
                raw: Raw::Rastrigin,
                xopt: integer_xopt(seed, d),
                r: r(),
            },
        };
        Self { placement, fopt }
    }

    /// The value at `z`, f_opt included.
    pub(super) fn value(&self, z: &[f64]) -> f64 {
        let raw = match &self.placement {
            Placement::Shifted { raw, xopt } => raw.value(&shift(z, xopt)),
            Placement::Rotated { raw, xopt, r } => raw.value(&affine(r, &shift(z, xopt), None)),
            Placement::RotatedThenShifted { raw, xopt, r } => {
                raw.value(&shift(&affine(r, z, None), xopt))
            }
            Placement::LinearSlope { slopes } => raw::linear_slope(slopes, z),
        };
        raw + self.fopt
    }

    /// The gradient at the origin (`bbob_evaluate_gradient(problem, all_zeros, …)`), through
    /// the shift and rotation as COCO's transformations pass it: `Rᵀ ∇raw` where rotated.
    pub(super) fn gradient_at_origin(&self, d: usize) -> Vec<f64> {
        let origin = vec![0.0; d];
        match &self.placement {
            Placement::Shifted { raw, xopt } => raw.gradient(&shift(&origin, xopt)),
            Placement::Rotated { raw, xopt, r } => {
                transposed_times(r, &raw.gradient(&affine(r, &shift(&origin, xopt), None)))
            }
            Placement::RotatedThenShifted { raw, xopt, r } => {
                transposed_times(r, &raw.gradient(&shift(&affine(r, &origin, None), xopt)))
            }
            Placement::LinearSlope { slopes } => slopes.iter().map(|s| -s).collect(),
        }
    }
}

/// `Rᵀ y`, summed as `transform_vars_affine_evaluate_gradient` sums it.
fn transposed_times(r: &Matrix, y: &[f64]) -> Vec<f64> {
    (0..y.len())
        .map(|j| (0..y.len()).fold(0.0, |acc, i| acc + y[i] * r[i][j]))
        .collect()
}

/// Different powers' optimum at distance 10⁻² from the origin, in bbob's direction: the
/// constrained optimum then lies at a reasonable distance from the unconstrained one.
fn near_origin(xopt: Vec<f64>) -> Vec<f64> {
    let norm = super::norm(&xopt);
    xopt.into_iter().map(|v| v * (1e-2 / norm)).collect()
}

/// `f_rastrigin_cons_compute_xopt`: an integer point of `[−4, 4]^d`, a local optimum of the
/// Rastrigin function that the constraints make the constrained optimum (never the origin,
/// which is its global one).
fn integer_xopt(seed: i64, d: usize) -> Vec<f64> {
    let xopt: Vec<f64> = rng::unif(d, seed)
        .into_iter()
        .map(|u| (10.0 * u - 5.0).trunc())
        .collect();
    if xopt.iter().all(|&v| v == 0.0) {
        (0..d).map(|i| (i % 9) as f64 - 4.0).collect()
    } else {
        xopt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each gradient against central differences of the raw value, at a point away from the
    /// origin (different powers' times its missing factor `√sum`, the value).
    #[test]
    fn gradients_are_the_raw_functions_derivatives() {
        let w = [0.3, -0.7, 1.1];
        for raw in [
            Raw::Sphere,
            Raw::Ellipsoid,
            Raw::Discus,
            Raw::BentCigar,
            Raw::DifferentPowers,
            Raw::Rastrigin,
        ] {
            let gradient = raw.gradient(&w);
            let factor = match raw {
                Raw::DifferentPowers => raw.value(&w),
                _ => 1.0,
            };
            for k in 0..3 {
                let h = 1e-4;
                let mut up = w;
                let mut down = w;
                up[k] += h;
                down[k] -= h;
                let numeric = (raw.value(&up) - raw.value(&down)) / (2.0 * h);
                let got = gradient[k] * factor;
                assert!(
                    (got - numeric).abs() <= 1e-5 * numeric.abs().max(1.0),
                    "{raw:?} ∂{k}: {got} vs {numeric}"
                );
            }
        }
    }

    #[test]
    fn the_rastrigin_optimum_is_an_integer_point_other_than_the_origin() {
        for seed in [1, 20_043, 300_048] {
            let xopt = integer_xopt(seed, 5);
            assert!(
                xopt.iter().all(|v| v.fract() == 0.0 && v.abs() <= 4.0),
                "{xopt:?}"
            );
            assert!(xopt.iter().any(|&v| v != 0.0));
        }
    }

    #[test]
    fn different_powers_optimum_lies_at_distance_a_hundredth() {
        let objective = Objective::new(ObjectiveKind::DifferentPowers, 4, 20_037, 0.0);
        let Placement::Rotated { xopt, .. } = &objective.placement else {
            panic!("rotated expected")
        };
        let norm = xopt.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!((norm - 1e-2).abs() < 1e-15, "{norm}");
    }
}
