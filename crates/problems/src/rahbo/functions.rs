//! The heteroscedastic test functions of RAHBO: a mean `f` and a noise standard deviation `s`.

use std::f64::consts::PI;

use crate::Domain;

/// A mean function with a noise standard deviation on a box, both known in closed form.
pub trait HeteroFunction: Send + Sync + std::fmt::Debug + 'static {
    /// The box the functions are defined on.
    fn domain(&self) -> &Domain;

    /// The noise-free value `f(x)` (maximised).
    fn mean(&self, x: &[f64]) -> f64;

    /// The noise standard deviation `s(x)`; the noise variance is `ρ²(x) = s(x)²`.
    fn noise_std(&self, x: &[f64]) -> f64;

    /// Grid points per dimension for locating the mean-variance optimum before local refinement.
    fn grid_per_dim(&self) -> usize;
}

pub(super) fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// `f(x) = sin(2πx)` on `[0, 2]`, `s(x) = 0.1 + σ_n·sigmoid(30(x − 1))` (the authors' reference
/// code; Makarova et al. 2021, App. A.6.1): two equal maxima at 0.25 (quiet) and 1.25 (noisy).
#[derive(Debug)]
pub struct SineHetero {
    domain: Domain,
    sigma_n: f64,
}

impl SineHetero {
    /// The sine problem with noise amplitude `σ_n`.
    pub fn new(sigma_n: f64) -> Self {
        Self {
            domain: Domain::new(vec![0.0], vec![2.0]).expect("valid box"),
            sigma_n,
        }
    }
}

impl HeteroFunction for SineHetero {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn mean(&self, x: &[f64]) -> f64 {
        (2.0 * PI * x[0]).sin()
    }

    fn noise_std(&self, x: &[f64]) -> f64 {
        0.1 + self.sigma_n * sigmoid(30.0 * (x[0] - 1.0))
    }

    fn grid_per_dim(&self) -> usize {
        20_001
    }
}

/// Negated Branin on `[−5, 10] × [0, 15]` with
/// `s(x) = (0.2 + σ_n·sigmoid(2(x₁ − 3.2)))·(0.2 + σ_n·sigmoid(2x₂))` (the authors' reference
/// code; Makarova et al. 2021, App. A.6.2): of the three maxima, A = (3π, 2.475) is the noisiest
/// and C = (−π, 12.275) the quietest.
#[derive(Debug)]
pub struct BraninHetero {
    domain: Domain,
    sigma_n: f64,
}

impl BraninHetero {
    /// The heteroscedastic Branin with noise amplitude `σ_n`.
    pub fn new(sigma_n: f64) -> Self {
        Self {
            domain: Domain::new(vec![-5.0, 0.0], vec![10.0, 15.0]).expect("valid box"),
            sigma_n,
        }
    }
}

impl HeteroFunction for BraninHetero {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn mean(&self, x: &[f64]) -> f64 {
        let (x1, x2) = (x[0], x[1]);
        let b = 5.1 / (4.0 * PI * PI);
        let c = 5.0 / PI;
        let t = 1.0 / (8.0 * PI);
        -((x2 - b * x1 * x1 + c * x1 - 6.0).powi(2) + 10.0 * (1.0 - t) * x1.cos() + 10.0)
    }

    fn noise_std(&self, x: &[f64]) -> f64 {
        (0.2 + self.sigma_n * sigmoid(2.0 * (x[0] - 3.2)))
            * (0.2 + self.sigma_n * sigmoid(2.0 * x[1]))
    }

    fn grid_per_dim(&self) -> usize {
        601
    }
}

/// A FEL-like stand-in for the SwissFEL task of Makarova et al. (2021, §4): the real task needs a
/// network trained on proprietary measurements. On `[−0.3, 0.3]⁴`, a smooth mean with a high peak
/// where the noise is large and a lower peak where it is small, so that the risk-neutral and the
/// risk-averse optima differ, as the paper reports for SwissFEL (Fig. 4):
///
/// `f(x) = exp(−‖x − a‖²/(2w²)) + 0.85·exp(−‖x − b‖²/(2w²)) + 0.2·(1 − ‖x‖²/0.36)`, `w = 0.12`,
/// `a = (0.15, −0.1, 0.05, 0.1)`, `b = (−0.15, 0.1, −0.1, −0.05)`,
/// `s(x) = 0.05 + σ_n·sigmoid(20·x₁)·(1 + 0.5·sin(5·x₂))`.
#[derive(Debug)]
pub struct FelLike {
    domain: Domain,
    sigma_n: f64,
}

const FEL_WIDTH: f64 = 0.12;
const FEL_HIGH: [f64; 4] = [0.15, -0.1, 0.05, 0.1];
const FEL_LOW: [f64; 4] = [-0.15, 0.1, -0.1, -0.05];

impl FelLike {
    /// The FEL-like problem with noise amplitude `σ_n`.
    pub fn new(sigma_n: f64) -> Self {
        Self {
            domain: Domain::cube(-0.3, 0.3, 4).expect("valid box"),
            sigma_n,
        }
    }
}

fn bump(x: &[f64], centre: &[f64; 4]) -> f64 {
    let d2: f64 = x.iter().zip(centre).map(|(a, c)| (a - c).powi(2)).sum();
    (-d2 / (2.0 * FEL_WIDTH * FEL_WIDTH)).exp()
}

impl HeteroFunction for FelLike {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn mean(&self, x: &[f64]) -> f64 {
        let r2: f64 = x.iter().map(|v| v * v).sum();
        bump(x, &FEL_HIGH) + 0.85 * bump(x, &FEL_LOW) + 0.2 * (1.0 - r2 / 0.36)
    }

    fn noise_std(&self, x: &[f64]) -> f64 {
        0.05 + self.sigma_n * sigmoid(20.0 * x[0]) * (1.0 + 0.5 * (5.0 * x[1]).sin())
    }

    fn grid_per_dim(&self) -> usize {
        25
    }
}
