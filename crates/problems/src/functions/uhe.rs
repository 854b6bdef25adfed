//! The two synthetic problems UHE-BO adds (Ha et al. 2023, §7.1 and App. C).

use super::{Domain, Optimum, Sense, TestFunction, fixed_box};
use crate::ProblemError;

/// Deceptive (Ha et al. 2023, App. C), in scipy's continuous form and minimisation sense:
/// `−((1/d) Σ_i g_i(x_i))²` on `[0, 1]^d` with `α_i = i/(d + 1)` and `g_i` the piecewise-linear
/// tent below. Minimum −1 at `x_i = α_i`; the deceptive corners `x = 0` and `x = 1` reach −0.64.
#[derive(Debug)]
pub struct Deceptive {
    domain: Domain,
    alpha: Vec<f64>,
}

impl Deceptive {
    /// Deceptive in `dim ≥ 1` dimensions, with the breakpoints `α_i` fixed for that dimension;
    /// an error for `dim = 0`.
    pub fn new(dim: usize) -> Result<Self, ProblemError> {
        Ok(Self {
            domain: Domain::cube(0.0, 1.0, dim)?,
            alpha: (1..=dim).map(|i| i as f64 / (dim + 1) as f64).collect(),
        })
    }
}

/// One coordinate's tent: 0.8 at 0, falling to 0 at `0.8α`, peak 1 at `α`, 0 at `(1 + 4α)/5`,
/// back to 0.8 at 1. The paper's printed version lacks the `+1` and `+4/5` offsets of the last
/// two pieces, which makes it discontinuous; at exactly 0 this gives 0.8 where scipy's
/// code returns 0.
fn tent(x: f64, a: f64) -> f64 {
    if x <= 0.8 * a {
        -x / a + 0.8
    } else if x <= a {
        5.0 * x / a - 4.0
    } else if x <= (1.0 + 4.0 * a) / 5.0 {
        5.0 * (x - a) / (a - 1.0) + 1.0
    } else {
        (x - 1.0) / (1.0 - a) + 0.8
    }
}

impl TestFunction for Deceptive {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let mean = x
            .iter()
            .zip(&self.alpha)
            .map(|(&v, &a)| tent(v, a))
            .sum::<f64>()
            / x.len() as f64;
        -mean.powi(2)
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: -1.0,
            locations: vec![self.alpha.clone()],
        })
    }
}

/// Which denominator h1 uses: the two forms share the maximum 2 but differ elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum H1Form {
    /// `√(r² + 1)`, as the UHE-BO paper prints it (the default).
    Paper,
    /// `√(r²) + 1`, as DEAP and the original source have it.
    Deap,
}

/// h1: `(sin²(x₁ − x₂/8) + sin²(x₂ + x₁/8)) / den(r)`, `r` the distance to
/// `(8.6998, 6.7665)`, on `[−100, 100]²`, maximised; maximum ≈ 2 next to that point.
#[derive(Debug)]
pub struct H1 {
    domain: Domain,
    form: H1Form,
}

impl H1 {
    const CENTRE: [f64; 2] = [8.6998, 6.7665];

    /// h1 with the denominator `form`.
    pub fn new(form: H1Form) -> Self {
        Self {
            domain: fixed_box(&[-100.0, -100.0], &[100.0, 100.0]),
            form,
        }
    }
}

impl TestFunction for H1 {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Maximize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let (x1, x2) = (x[0], x[1]);
        let numerator = (x1 - x2 / 8.0).sin().powi(2) + (x2 + x1 / 8.0).sin().powi(2);
        let r2 = (x1 - Self::CENTRE[0]).powi(2) + (x2 - Self::CENTRE[1]).powi(2);
        let denominator = match self.form {
            H1Form::Paper => (r2 + 1.0).sqrt(),
            H1Form::Deap => r2.sqrt() + 1.0,
        };
        numerator / denominator
    }

    /// The numerator reaches 2 at `(36π/13, 28π/13)`, about 5e-6 from the centre, so neither
    /// form quite reaches 2. The paper form's smooth maximum was located by Newton's method in
    /// 40-digit arithmetic; the DEAP form's cone makes the centre itself the maximiser.
    fn optimum(&self) -> Option<Optimum> {
        let (value, location) = match self.form {
            H1Form::Paper => (
                1.999_999_999_961_094,
                vec![8.699_797_501_133_045, 6.766_503_655_058_691],
            ),
            H1Form::Deap => (1.999_999_999_921_58, Self::CENTRE.to_vec()),
        };
        Some(Optimum {
            value,
            locations: vec![location],
        })
    }
}
