//! Analytic expected improvement, and its logarithm computed without underflow.

use super::PosteriorAcquisition;
use bosweep_core::stats::{H_IS_Z, h, log_h, normal_cdf, normal_log_cdf, normal_pdf};
use bosweep_engine::EngineError;

/// The variance floor applied before taking `σ` (as BoTorch's `min_var`): `σ ≥ 1e-6`, so that
/// a zero posterior variance (at a noise-free training point, or an f32 GPU variance clamped at
/// 0) still gives a finite `z` and a finite log EI.
pub const DEFAULT_MIN_VARIANCE: f64 = 1e-12;

fn check(best: f64, min_variance: f64) -> Result<(), EngineError> {
    if !best.is_finite() {
        return Err(EngineError::invalid(format!(
            "expected improvement: incumbent value is {best} (must be finite)"
        )));
    }
    if !(min_variance.is_finite() && min_variance >= 0.0) {
        return Err(EngineError::invalid(format!(
            "expected improvement: minimum variance is {min_variance} (must be finite and \
             non-negative)"
        )));
    }
    Ok(())
}

/// `σ` after the floor, and `z = (μ − best)/σ` (`None` when σ is exactly 0).
fn standardise(mean: f64, variance: f64, best: f64, min_variance: f64) -> (f64, Option<f64>) {
    let sigma = variance.max(min_variance).max(0.0).sqrt();
    if sigma == 0.0 {
        (sigma, None)
    } else {
        (sigma, Some((mean - best) / sigma))
    }
}

/// Expected improvement for **maximisation** over the incumbent `best`:
/// `EI = E[max(f(x) − best, 0)] = σ h((μ − best)/σ)`, `h(z) = φ(z) + zΦ(z)`. For a
/// minimisation problem negate the targets (and the incumbent) first.
///
/// `σ = sqrt(max(variance, min_variance))`; with `min_variance = 0` and a zero variance,
/// `EI = max(μ − best, 0)`. EI underflows to 0 when `z < −38.5`; maximise
/// [`LogExpectedImprovement`] when improvements are tiny.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpectedImprovement {
    best: f64,
    min_variance: f64,
}

impl ExpectedImprovement {
    /// EI over the incumbent `best` (the largest observed value, or the largest posterior mean at
    /// the observed points in noisy settings), with [`DEFAULT_MIN_VARIANCE`].
    pub fn new(best: f64) -> Result<Self, EngineError> {
        Self::with_min_variance(best, DEFAULT_MIN_VARIANCE)
    }

    /// EI with an explicit variance floor (0 allowed).
    pub fn with_min_variance(best: f64, min_variance: f64) -> Result<Self, EngineError> {
        check(best, min_variance)?;
        Ok(Self { best, min_variance })
    }

    /// The incumbent: the best observed value, in the maximisation sense.
    pub fn best(&self) -> f64 {
        self.best
    }
}

impl PosteriorAcquisition for ExpectedImprovement {
    fn value(&self, mean: f64, variance: f64) -> f64 {
        let improvement = mean - self.best;
        match standardise(mean, variance, self.best, self.min_variance) {
            (_, None) => improvement.max(0.0),
            // h(z) = z to f64 precision: return μ − best itself (z may have overflowed).
            (_, Some(z)) if z > H_IS_Z => improvement,
            (sigma, Some(z)) => sigma * h(z),
        }
    }

    /// `∂EI/∂μ = Φ(z)`, `∂EI/∂σ² = φ(z)/(2σ)` (0 where the variance floor holds σ).
    fn value_with_slopes(&self, mean: f64, variance: f64) -> Option<(f64, f64, f64)> {
        let value = self.value(mean, variance);
        let floored = variance <= self.min_variance;
        Some(
            match standardise(mean, variance, self.best, self.min_variance) {
                (_, None) => (value, if mean > self.best { 1.0 } else { 0.0 }, 0.0),
                (_, Some(z)) if z > H_IS_Z => (value, 1.0, 0.0),
                (sigma, Some(z)) => {
                    let d_variance = if floored {
                        0.0
                    } else {
                        normal_pdf(z) / (2.0 * sigma)
                    };
                    (value, normal_cdf(z), d_variance)
                }
            },
        )
    }
}

/// `ln EI` for **maximisation** (see [`ExpectedImprovement`]): `ln σ + ln h(z)`, with `ln h`
/// from [`bosweep_core::stats::log_h`] (direct for `z ≥ −2`, Laplace's continued fraction for the Mills ratio
/// below, i.e. the asymptote `−z²/2 − ln √(2π) − 2 ln|z|` made exact). It is finite for every
/// finite mean and variance with the default floor: where `z²/2` overflows f64 the value
/// saturates at `−f64::MAX`. Only `min_variance = 0` with a zero variance and `μ ≤ best` gives
/// `−∞` (`ln 0`, the exact answer).
///
/// Same maximiser as EI, but with useful gradients where EI has underflowed or is flat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogExpectedImprovement {
    /// The incumbent and variance floor, shared with (and checked like) plain EI.
    ei: ExpectedImprovement,
}

impl LogExpectedImprovement {
    /// Log EI over `best` with [`DEFAULT_MIN_VARIANCE`].
    pub fn new(best: f64) -> Result<Self, EngineError> {
        Ok(Self {
            ei: ExpectedImprovement::new(best)?,
        })
    }

    /// Log EI with an explicit variance floor (0 allowed, see the type's documentation).
    pub fn with_min_variance(best: f64, min_variance: f64) -> Result<Self, EngineError> {
        Ok(Self {
            ei: ExpectedImprovement::with_min_variance(best, min_variance)?,
        })
    }

    /// The incumbent: the best observed value, in the maximisation sense.
    pub fn best(&self) -> f64 {
        self.ei.best
    }
}

impl PosteriorAcquisition for LogExpectedImprovement {
    fn value(&self, mean: f64, variance: f64) -> f64 {
        let improvement = mean - self.ei.best;
        match standardise(mean, variance, self.ei.best, self.ei.min_variance) {
            (_, None) => improvement.max(0.0).ln(),
            (_, Some(z)) if z > H_IS_Z => improvement.ln(),
            (sigma, Some(z)) => (sigma.ln() + log_h(z)).max(-f64::MAX),
        }
    }

    /// With `r = (ln h)'(z) = Φ(z)/h(z)` (from the logarithms, so that neither underflows):
    /// `∂/∂μ = r/σ`, `∂/∂σ² = (1 − z r)/(2σ²)` (0 where the variance floor holds σ).
    fn value_with_slopes(&self, mean: f64, variance: f64) -> Option<(f64, f64, f64)> {
        let value = self.value(mean, variance);
        let improvement = mean - self.ei.best;
        let floored = variance <= self.ei.min_variance;
        Some(
            match standardise(mean, variance, self.ei.best, self.ei.min_variance) {
                (_, None) if improvement > 0.0 => (value, 1.0 / improvement, 0.0),
                (_, None) => (value, 0.0, 0.0),
                (_, Some(z)) if z > H_IS_Z => (value, 1.0 / improvement, 0.0),
                (sigma, Some(z)) => {
                    let ratio = (normal_log_cdf(z) - log_h(z)).exp();
                    let d_variance = if floored {
                        0.0
                    } else {
                        (1.0 - z * ratio) / (2.0 * sigma * sigma)
                    };
                    (value, ratio / sigma, d_variance)
                }
            },
        )
    }
}
