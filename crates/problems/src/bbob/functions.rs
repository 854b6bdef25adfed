//! The 24 noiseless BBOB functions of one instance: what each `f_*_bbob_problem_allocate` draws
//! (optimum, rotations, conditionings) and the order in which its transformations are applied.
//!
//! COCO wraps transformations around a raw function; the wrapper added last acts first on `x`.
//! Each arm of [`Kind::value`] reads from `x` inwards, so it lists them in reverse of the C code.

use super::gallagher::Gallagher;
use super::raw;
use super::rng::{self, Matrix};
use super::transforms::{
    affine, asy, osz, osz_all, penalty, rotated_conditioning, round, shift, spread,
};

/// `√10`, the base of Λ¹⁰ (`pow(sqrt(10), i/(d−1))` in COCO).
fn sqrt10() -> f64 {
    10.0_f64.sqrt()
}

/// What one instance of one function needs at evaluation time.
#[derive(Debug)]
pub enum Kind {
    Sphere {
        xopt: Vec<f64>,
    },
    Ellipsoid {
        xopt: Vec<f64>,
    },
    Rastrigin {
        xopt: Vec<f64>,
    },
    BuecheRastrigin {
        xopt: Vec<f64>,
    },
    LinearSlope {
        slopes: Vec<f64>,
    },
    AttractiveSector {
        xopt: Vec<f64>,
        m: Matrix,
    },
    StepEllipsoid {
        xopt: Vec<f64>,
        r1: Matrix,
        r2: Matrix,
    },
    Rosenbrock {
        xopt: Vec<f64>,
        factor: f64,
    },
    RosenbrockRotated {
        m: Matrix,
    },
    EllipsoidRotated {
        xopt: Vec<f64>,
        r: Matrix,
    },
    Discus {
        xopt: Vec<f64>,
        r: Matrix,
    },
    BentCigar {
        xopt: Vec<f64>,
        r: Matrix,
    },
    SharpRidge {
        xopt: Vec<f64>,
        m: Matrix,
    },
    DifferentPowers {
        xopt: Vec<f64>,
        r: Matrix,
    },
    RastriginRotated {
        xopt: Vec<f64>,
        r1: Matrix,
        m: Matrix,
    },
    Weierstrass {
        xopt: Vec<f64>,
        r1: Matrix,
        m: Matrix,
    },
    Schaffers {
        xopt: Vec<f64>,
        r1: Matrix,
        m: Matrix,
    },
    GriewankRosenbrock {
        m: Matrix,
    },
    Schwefel {
        xopt: Vec<f64>,
        flip: Vec<bool>,
    },
    Gallagher(Gallagher),
    Katsuura {
        xopt: Vec<f64>,
        m: Matrix,
    },
    Lunacek {
        xopt: Vec<f64>,
        r1: Matrix,
        r2: Matrix,
    },
}

/// `R₂` with row `i` scaled by `√c^(i/(d−1))`: Schaffers' `Λ^c R₂`.
fn row_conditioned(r2: &Matrix, condition: f64) -> Matrix {
    let d = r2.len();
    r2.iter()
        .enumerate()
        .map(|(i, row)| {
            let scale = condition.sqrt().powf(1.0 * i as f64 / (d as f64 - 1.0));
            row.iter().map(|v| v * scale).collect()
        })
        .collect()
}

/// f5's slopes `±√100^(i/(d−1))`, each signed as `x_opt`'s coordinate: COCO's optimum is the
/// corner `sign(x_opt)·5`, and the slope points at it (also the linear slope of
/// bbob-constrained, whose `x_opt` gives only the signs).
pub(crate) fn slopes(xopt: &[f64]) -> Vec<f64> {
    let d = xopt.len();
    xopt.iter()
        .enumerate()
        .map(|(i, &v)| {
            let s = 100.0_f64.sqrt().powf(spread(i, d));
            if v < 0.0 { -s } else { s }
        })
        .collect()
}

/// Rosenbrock's scaling `max(1, √d/8)` (f8, f9, f19).
fn rosenbrock_factor(d: usize) -> f64 {
    ((d as f64).sqrt() / 8.0).max(1.0)
}

impl Kind {
    /// Draws instance data of `function` (1–24) in dimension `d` from `seed`, the `rseed` of
    /// `coco_get_bbob_problem` (`function + 10000·instance`, with f4 and f18 on the seeds of f3
    /// and f17).
    pub fn new(function: usize, d: usize, seed: i64) -> Self {
        let xopt = || rng::xopt(seed, d);
        let r1 = || rng::rotation(seed + 1_000_000, d);
        let r2 = || rng::rotation(seed, d);
        match function {
            1 => Self::Sphere { xopt: xopt() },
            2 => Self::Ellipsoid { xopt: xopt() },
            3 => Self::Rastrigin { xopt: xopt() },
            4 => {
                // In the legacy code, not in the function's documentation (COCO's comment).
                let mut xopt = xopt();
                for v in xopt.iter_mut().step_by(2) {
                    *v = v.abs();
                }
                Self::BuecheRastrigin { xopt }
            }
            5 => Self::LinearSlope {
                slopes: slopes(&xopt()),
            },
            6 => Self::AttractiveSector {
                xopt: xopt(),
                m: rotated_conditioning(&r1(), sqrt10(), &r2()),
            },
            7 => Self::StepEllipsoid {
                xopt: xopt(),
                r1: r1(),
                r2: r2(),
            },
            8 => Self::Rosenbrock {
                xopt: xopt().iter().map(|v| v * 0.75).collect(),
                factor: rosenbrock_factor(d),
            },
            9 => {
                let factor = rosenbrock_factor(d);
                let m = r2()
                    .into_iter()
                    .map(|row| row.iter().map(|v| factor * v).collect());
                Self::RosenbrockRotated { m: m.collect() }
            }
            10 => Self::EllipsoidRotated {
                xopt: xopt(),
                r: r1(),
            },
            11 => Self::Discus {
                xopt: xopt(),
                r: r1(),
            },
            12 => Self::BentCigar {
                // f12 alone draws its optimum from the rotation's seed.
                xopt: rng::xopt(seed + 1_000_000, d),
                r: r1(),
            },
            13 => Self::SharpRidge {
                xopt: xopt(),
                m: rotated_conditioning(&r1(), sqrt10(), &r2()),
            },
            14 => Self::DifferentPowers {
                xopt: xopt(),
                r: r1(),
            },
            15 => {
                let r1 = r1();
                let m = rotated_conditioning(&r1, sqrt10(), &r2());
                Self::RastriginRotated {
                    xopt: xopt(),
                    r1,
                    m,
                }
            }
            16 => {
                let r1 = r1();
                let m = rotated_conditioning(&r1, 1.0 / 100.0_f64.sqrt(), &r2());
                Self::Weierstrass {
                    xopt: xopt(),
                    r1,
                    m,
                }
            }
            17 | 18 => {
                let condition = if function == 17 { 10.0 } else { 1000.0 };
                Self::Schaffers {
                    xopt: xopt(),
                    r1: r1(),
                    m: row_conditioned(&r2(), condition),
                }
            }
            19 => {
                let scales = rosenbrock_factor(d);
                let m = r2()
                    .into_iter()
                    .map(|row| row.iter().map(|v| v * scales).collect());
                Self::GriewankRosenbrock { m: m.collect() }
            }
            20 => {
                let flip: Vec<bool> = rng::unif(d, seed).iter().map(|u| u - 0.5 < 0.0).collect();
                let xopt = flip
                    .iter()
                    .map(|&f| {
                        if f {
                            -0.5 * 4.2096874637
                        } else {
                            0.5 * 4.2096874637
                        }
                    })
                    .collect();
                Self::Schwefel { xopt, flip }
            }
            21 => Self::Gallagher(Gallagher::new(seed, d, 101)),
            22 => Self::Gallagher(Gallagher::new(seed, d, 21)),
            23 => Self::Katsuura {
                xopt: xopt(),
                m: rotated_conditioning(&r1(), 100.0_f64.sqrt(), &r2()),
            },
            24 => Self::Lunacek {
                // COCO draws xopt and then overwrites it with ±μ₀/2 by the signs of normals.
                xopt: rng::gauss(d, seed)
                    .iter()
                    .map(|g| if *g < 0.0 { -0.5 * 2.5 } else { 0.5 * 2.5 })
                    .collect(),
                r1: r1(),
                r2: r2(),
            },
            _ => unreachable!("function {function} is checked to lie in 1..=24"),
        }
    }
}

impl Kind {
    /// The value at `x` of the instance whose optimal value is `fopt`, with the boundary
    /// penalties of the functions that have one.
    pub fn value(&self, x: &[f64], fopt: f64) -> f64 {
        let d = x.len();
        match self {
            Self::Sphere { xopt } => raw::sphere(&shift(x, xopt)) + fopt,
            Self::Ellipsoid { xopt } => raw::ellipsoid(&osz_all(&shift(x, xopt))) + fopt,
            Self::Rastrigin { xopt } => {
                let z = asy(&osz_all(&shift(x, xopt)), 0.2);
                let z: Vec<f64> = z
                    .iter()
                    .enumerate()
                    .map(|(i, v)| 10.0_f64.powf(0.5 * i as f64 / (d as f64 - 1.0)) * v)
                    .collect();
                raw::rastrigin(&z) + fopt
            }
            Self::BuecheRastrigin { xopt } => {
                let z: Vec<f64> = osz_all(&shift(x, xopt))
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| {
                        let mut factor = sqrt10().powf(spread(i, d));
                        if v > 0.0 && i % 2 == 0 {
                            factor *= 10.0;
                        }
                        factor * v
                    })
                    .collect();
                raw::rastrigin(&z) + fopt + 100.0 * penalty(x)
            }
            Self::LinearSlope { slopes } => raw::linear_slope(slopes, x) + fopt,
            Self::AttractiveSector { xopt, m } => {
                let z = affine(m, &shift(x, xopt), None);
                let sector = z.iter().zip(xopt).fold(0.0, |acc, (z, o)| {
                    if o * z > 0.0 {
                        acc + 100.0 * 100.0 * z * z
                    } else {
                        acc + z * z
                    }
                });
                osz(sector).powf(0.9) + fopt
            }
            Self::StepEllipsoid { xopt, r1, r2 } => step_ellipsoid(x, xopt, r1, r2, fopt),
            Self::Rosenbrock { xopt, factor } => {
                let z: Vec<f64> = shift(x, xopt).iter().map(|v| v * factor + 1.0).collect();
                raw::rosenbrock(&z) + fopt
            }
            Self::RosenbrockRotated { m } => raw::rosenbrock(&affine(m, x, Some(0.5))) + fopt,
            Self::EllipsoidRotated { xopt, r } => {
                raw::ellipsoid(&osz_all(&affine(r, &shift(x, xopt), None))) + fopt
            }
            Self::Discus { xopt, r } => {
                raw::discus(&osz_all(&affine(r, &shift(x, xopt), None))) + fopt
            }
            Self::BentCigar { xopt, r } => {
                let z = asy(&affine(r, &shift(x, xopt), None), 0.5);
                raw::bent_cigar(&affine(r, &z, None)) + fopt
            }
            Self::SharpRidge { xopt, m } => {
                raw::sharp_ridge(&affine(m, &shift(x, xopt), None)) + fopt
            }
            Self::DifferentPowers { xopt, r } => {
                raw::different_powers(&affine(r, &shift(x, xopt), None)) + fopt
            }
            Self::RastriginRotated { xopt, r1, m } => {
                let z = asy(&osz_all(&affine(r1, &shift(x, xopt), None)), 0.2);
                raw::rastrigin(&affine(m, &z, None)) + fopt
            }
            Self::Weierstrass { xopt, r1, m } => {
                let z = osz_all(&affine(r1, &shift(x, xopt), None));
                raw::weierstrass(&affine(m, &z, None)) + fopt + 10.0 / d as f64 * penalty(x)
            }
            Self::Schaffers { xopt, r1, m } => {
                let z = asy(&affine(r1, &shift(x, xopt), None), 0.5);
                raw::schaffers(&affine(m, &z, None)) + fopt + 10.0 * penalty(x)
            }
            Self::GriewankRosenbrock { m } => {
                let z: Vec<f64> = affine(m, x, None).iter().map(|v| v + 0.5).collect();
                raw::griewank_rosenbrock(&z) + fopt
            }
            Self::Schwefel { xopt, flip } => schwefel(x, xopt, flip) + fopt,
            Self::Gallagher(g) => g.value(x) + fopt,
            Self::Katsuura { xopt, m } => {
                raw::katsuura(&affine(m, &shift(x, xopt), None)) + fopt + 1.0 * penalty(x)
            }
            Self::Lunacek { xopt, r1, r2 } => lunacek(x, xopt, r1, r2) + fopt,
        }
    }

    /// Where the instance attains its optimal value: COCO's `best_parameter`, except for f19
    /// above d = 64, where COCO's formula misses the scaling and the argmin is given instead.
    /// f5's is the corner of `[−5, 5]^d` the slope points at; f20's is COCO's
    /// `±4.2096874633/2` (the Schwefel argmin to about 10⁻¹⁰, f within 10⁻⁹ of f_opt).
    pub fn location(&self) -> Vec<f64> {
        match self {
            Self::Sphere { xopt }
            | Self::Ellipsoid { xopt }
            | Self::Rastrigin { xopt }
            | Self::BuecheRastrigin { xopt }
            | Self::AttractiveSector { xopt, .. }
            | Self::StepEllipsoid { xopt, .. }
            | Self::Rosenbrock { xopt, .. }
            | Self::EllipsoidRotated { xopt, .. }
            | Self::Discus { xopt, .. }
            | Self::BentCigar { xopt, .. }
            | Self::SharpRidge { xopt, .. }
            | Self::DifferentPowers { xopt, .. }
            | Self::RastriginRotated { xopt, .. }
            | Self::Weierstrass { xopt, .. }
            | Self::Schaffers { xopt, .. }
            | Self::Katsuura { xopt, .. }
            | Self::Lunacek { xopt, .. } => xopt.clone(),
            Self::LinearSlope { slopes } => slopes.iter().map(|s| 5.0 * s.signum()).collect(),
            // M x + 0.5 = 1 with M = factor·R orthogonal-times-scalar: x = Rᵀ·1 / (2·factor).
            Self::RosenbrockRotated { m } | Self::GriewankRosenbrock { m } => {
                let d = m.len();
                let factor = rosenbrock_factor(d);
                (0..d)
                    .map(|j| m.iter().fold(0.0, |acc, row| acc + row[j]) / factor / (2.0 * factor))
                    .collect()
            }
            Self::Schwefel { flip, .. } => flip
                .iter()
                .map(|&f| {
                    if f {
                        -0.5 * 4.2096874633
                    } else {
                        0.5 * 4.2096874633
                    }
                })
                .collect(),
            Self::Gallagher(g) => g.xopt().to_vec(),
        }
    }
}

/// f7, monolithic in COCO too: the rounding sits between the two rotations, and the value adds
/// a floor on |z₁| that no generic transformation expresses.
fn step_ellipsoid(x: &[f64], xopt: &[f64], r1: &Matrix, r2: &Matrix, fopt: f64) -> f64 {
    const CONDITION: f64 = 100.0;
    const ALPHA: f64 = 10.0;
    let d = x.len();
    let pen = penalty(x);
    let z: Vec<f64> = (0..d)
        .map(|i| {
            let c1 = (CONDITION / 10.0).powf(i as f64 / (d - 1) as f64).sqrt();
            (0..d).fold(0.0, |acc, j| acc + c1 * r2[i][j] * (x[j] - xopt[j]))
        })
        .collect();
    let z1 = z[0];
    let rounded: Vec<f64> = z
        .iter()
        .map(|&v| {
            if v.abs() > 0.5 {
                round(v)
            } else {
                round(ALPHA * v) / ALPHA
            }
        })
        .collect();
    let zz = affine(r1, &rounded, None);
    let sum = zz.iter().enumerate().fold(0.0, |acc, (i, v)| {
        acc + CONDITION.powf(1.0 * i as f64 / (d as f64 - 1.0)) * v * v
    });
    let floor = z1.abs() * 1.0e-4;
    0.1 * (if floor >= sum { floor } else { sum }) + pen + fopt
}

/// f20: sign flips, the z-hat coupling of neighbours, Λ¹⁰ around 2|x_opt|, and a scaling by 100
/// onto Schwefel's original domain.
fn schwefel(x: &[f64], xopt: &[f64], flip: &[bool]) -> f64 {
    let d = x.len();
    let z: Vec<f64> = x
        .iter()
        .zip(flip)
        .map(|(&v, &f)| 2.0 * if f { -v } else { v })
        .collect();
    let z_hat: Vec<f64> = (0..d)
        .map(|i| {
            if i == 0 {
                z[0]
            } else {
                z[i] + 0.25 * (z[i - 1] - 2.0 * xopt[i - 1].abs())
            }
        })
        .collect();
    let z: Vec<f64> = (0..d)
        .map(|i| {
            let lambda = sqrt10().powf(1.0 * i as f64 / (d as f64 - 1.0));
            let v = (z_hat[i] - 2.0 * xopt[i].abs()) * lambda;
            100.0 * (v + 2.0 * xopt[i].abs())
        })
        .collect();
    raw::schwefel(&z)
}

/// f24, monolithic in COCO: the two Rastrigin funnels at μ₀ and μ₁ on x̂ = 2 sign(x_opt) x.
fn lunacek(x: &[f64], xopt: &[f64], r1: &Matrix, r2: &Matrix) -> f64 {
    const CONDITION: f64 = 100.0;
    const MU0: f64 = 2.5;
    const D: f64 = 1.0;
    let n = x.len();
    let s = 1.0 - 0.5 / (((n + 20) as f64).sqrt() - 4.1);
    let mu1 = -((MU0 * MU0 - D) / s).sqrt();
    let pen = penalty(x);
    let x_hat: Vec<f64> = x
        .iter()
        .zip(xopt)
        .map(|(&v, &o)| if o < 0.0 { -(2.0 * v) } else { 2.0 * v })
        .collect();
    let tmp: Vec<f64> = (0..n)
        .map(|i| {
            let c1 = CONDITION.sqrt().powf(i as f64 / (n - 1) as f64);
            (0..n).fold(0.0, |acc, j| acc + c1 * r2[i][j] * (x_hat[j] - MU0))
        })
        .collect();
    let z = affine(r1, &tmp, None);
    let (sum1, sum2, sum3) = (0..n).fold((0.0, 0.0, 0.0), |(a, b, c), i| {
        (
            a + (x_hat[i] - MU0) * (x_hat[i] - MU0),
            b + (x_hat[i] - mu1) * (x_hat[i] - mu1),
            c + (2.0 * std::f64::consts::PI * z[i]).cos(),
        )
    });
    let funnels = sum1.min(D * n as f64 + s * sum2);
    funnels + 10.0 * (n as f64 - sum3) + 1e4 * pen
}
