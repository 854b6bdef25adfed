//! The positive hyperparameters' bounds and the smooth functions of log space that the fit's
//! softplus box and the priors' densities share: a leaf module, so that neither has to import
//! the other.

use bosweep_core::data::EngineError;

/// A closed interval `[lower, upper]` for a positive hyperparameter (`0 < lower ≤ upper`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// The smallest value, positive.
    pub lower: f64,
    /// The largest value, at least `lower`.
    pub upper: f64,
}

impl Bounds {
    /// `[lower, upper]`; checked when a fit uses it.
    pub const fn new(lower: f64, upper: f64) -> Self {
        Self { lower, upper }
    }

    pub(crate) fn validate(&self, what: &str) -> Result<(), EngineError> {
        if !(self.lower.is_finite()
            && self.upper.is_finite()
            && self.lower > 0.0
            && self.lower <= self.upper)
        {
            return Err(EngineError::invalid(format!(
                "{what} bounds [{}, {}] must satisfy 0 < lower ≤ upper < ∞",
                self.lower, self.upper
            )));
        }
        Ok(())
    }

    pub(crate) fn clip(&self, v: f64) -> f64 {
        v.clamp(self.lower, self.upper)
    }
}

/// `softplus(x) = ln(1 + eˣ)` without overflow.
pub(crate) fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// The logistic function `1 / (1 + e⁻ˣ)`, the derivative of [`softplus`], without overflow.
pub(crate) fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}
