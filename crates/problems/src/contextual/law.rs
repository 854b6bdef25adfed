//! Context distributions of the SBO-KDE benchmarks (Huang et al. 2024, §4.2–4.3): independent
//! coordinates, each a univariate law clipped to `[0, 1]`, with a sampler for the environment and
//! quadrature rules for the expected objective.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use super::quadrature::Rule;
use bosweep_core::stats::normal_cdf;

/// Panels × Gauss–Legendre order of the fine rule (one coordinate at a time): 2050 nodes, the
/// error of a smooth integrand at rounding level, Ackley's ~65 cosine periods included.
const FINE: (usize, usize) = (256, 8);
/// The coarse rule for tensor products over several coordinates (smooth integrands only):
/// 26 nodes per coordinate, so 26⁴ ≈ 4.6·10⁵ points for Ackley's 4-D context.
const COARSE: (usize, usize) = (6, 4);
/// Panels of the fine rule for mixtures with sharp (Cauchy, σ = 0.02) components.
const MIXTURE_PANELS: usize = 2048;

/// A univariate law before clipping.
#[derive(Clone, Debug, PartialEq)]
pub enum Marginal {
    /// Normal with mean `mean` and standard deviation `std`.
    Normal {
        /// Location of the peak.
        mean: f64,
        /// Standard deviation, > 0.
        std: f64,
    },
    /// Cauchy with median `location` and half width at half maximum `scale`.
    Cauchy {
        /// Median and mode.
        location: f64,
        /// Half width at half maximum, > 0.
        scale: f64,
    },
    /// Burr Type XII, pdf `αβ c^{α−1} / (1 + c^α)^{β+1}` on `c > 0`.
    Burr12 {
        /// Shape exponent `α` of `c`, > 0.
        alpha: f64,
        /// Tail exponent `β`, > 0.
        beta: f64,
    },
    /// Uniform on `[lo, hi]`.
    Uniform {
        /// Lower end.
        lo: f64,
        /// Upper end, above `lo`.
        hi: f64,
    },
    /// Equal-weight mixture.
    Mixture(Vec<Marginal>),
}

fn normal_pdf(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

impl Marginal {
    /// The cumulative distribution at `c`, before clipping.
    pub(crate) fn cdf(&self, c: f64) -> f64 {
        match self {
            Self::Normal { mean, std } => normal_cdf((c - mean) / std),
            Self::Cauchy { location, scale } => {
                0.5 + ((c - location) / scale).atan() / std::f64::consts::PI
            }
            Self::Burr12 { alpha, beta } => {
                if c <= 0.0 {
                    0.0
                } else {
                    1.0 - (1.0 + c.powf(*alpha)).powf(-beta)
                }
            }
            Self::Uniform { lo, hi } => ((c - lo) / (hi - lo)).clamp(0.0, 1.0),
            Self::Mixture(parts) => {
                parts.iter().map(|p| p.cdf(c)).sum::<f64>() / parts.len() as f64
            }
        }
    }

    /// The density at `c`, before clipping.
    pub(crate) fn pdf(&self, c: f64) -> f64 {
        match self {
            Self::Normal { mean, std } => normal_pdf((c - mean) / std) / std,
            Self::Cauchy { location, scale } => {
                let z = (c - location) / scale;
                1.0 / (std::f64::consts::PI * scale * (1.0 + z * z))
            }
            Self::Burr12 { alpha, beta } => {
                if c <= 0.0 {
                    0.0
                } else {
                    alpha * beta * c.powf(alpha - 1.0) / (1.0 + c.powf(*alpha)).powf(beta + 1.0)
                }
            }
            Self::Uniform { lo, hi } => {
                if (*lo..=*hi).contains(&c) {
                    1.0 / (hi - lo)
                } else {
                    0.0
                }
            }
            Self::Mixture(parts) => {
                parts.iter().map(|p| p.pdf(c)).sum::<f64>() / parts.len() as f64
            }
        }
    }

    /// One draw (unclipped).
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> f64 {
        match self {
            Self::Normal { mean, std } => mean + std * rng.sample::<f64, _>(StandardNormal),
            Self::Cauchy { location, scale } => {
                let u: f64 = rng.random();
                location + scale * (std::f64::consts::PI * (u - 0.5)).tan()
            }
            Self::Burr12 { alpha, beta } => {
                // Inverse CDF; 1 − u ∈ (0, 1], so the power stays finite.
                let u: f64 = rng.random();
                ((1.0 - u).powf(-1.0 / beta) - 1.0).powf(1.0 / alpha)
            }
            Self::Uniform { lo, hi } => lo + (hi - lo) * rng.random::<f64>(),
            Self::Mixture(parts) => {
                let k = rng.random_range(0..parts.len());
                parts[k].sample(rng)
            }
        }
    }

    fn is_sharp(&self) -> bool {
        matches!(self, Self::Mixture(_))
    }
}

/// Independent coordinates, each clipped to `[0, 1]`: the environment's context law.
#[derive(Clone, Debug)]
pub struct ContextLaw {
    marginals: Vec<Marginal>,
    fine: Vec<Rule>,
    coarse: Vec<Rule>,
}

/// The clipped law of `m` as a quadrature rule: atoms `P(c ≤ 0)`, `P(c ≥ 1)` at the bounds, the
/// density on the interior.
fn clipped_rule(m: &Marginal, (panels, order): (usize, usize)) -> Rule {
    Rule::clipped(
        0.0,
        1.0,
        m.cdf(0.0),
        1.0 - m.cdf(1.0),
        |c| m.pdf(c),
        panels,
        order,
    )
}

impl ContextLaw {
    /// Independent coordinates with these marginals, each clipped to `[0, 1]`, with their
    /// quadrature rules computed once.
    pub(crate) fn new(marginals: Vec<Marginal>) -> Self {
        let fine = marginals
            .iter()
            .map(|m| {
                let panels = if m.is_sharp() { MIXTURE_PANELS } else { FINE.0 };
                clipped_rule(m, (panels, FINE.1))
            })
            .collect();
        let coarse = marginals.iter().map(|m| clipped_rule(m, COARSE)).collect();
        Self {
            marginals,
            fine,
            coarse,
        }
    }

    /// `dim` independent copies of `m`.
    pub fn iid(m: Marginal, dim: usize) -> Self {
        Self::new(vec![m; dim])
    }

    /// The context dimension `Dc`.
    pub fn dim(&self) -> usize {
        self.marginals.len()
    }

    /// Coordinate `d`'s clipped law as a `panels × order` Gauss–Legendre rule.
    pub fn clipped_rule(&self, d: usize, resolution: (usize, usize)) -> Rule {
        clipped_rule(&self.marginals[d], resolution)
    }

    /// The fine quadrature rule of coordinate `d` (for one-coordinate expectations).
    pub fn fine(&self, d: usize) -> &Rule {
        &self.fine[d]
    }

    /// The coarse rule of coordinate `d` (for tensor products of smooth integrands).
    pub fn coarse(&self, d: usize) -> &Rule {
        &self.coarse[d]
    }

    /// One raw (unclipped) context.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Vec<f64> {
        self.marginals.iter().map(|m| m.sample(rng)).collect()
    }
}

/// `c` clipped to `[0, 1]` per coordinate (NaN-free for any finite or infinite draw).
pub fn clip_unit(c: &[f64]) -> Vec<f64> {
    c.iter().map(|v| v.clamp(0.0, 1.0)).collect()
}
