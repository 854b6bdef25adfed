//! GP-UCB: `μ(x) + κ σ(x)`, with the σ multiplier `κ` given directly or as `√β`.

use super::PosteriorAcquisition;
use bosweep_engine::EngineError;

/// The upper confidence bound `μ + κσ` (maximisation; for a minimisation problem negate the
/// targets before fitting, which turns it into the lower bound of the original values).
///
/// The papers disagree on whether their exploration weight multiplies σ or sits under a square
/// root, so the two constructors name the convention:
///
/// - [`UpperConfidenceBound::with_multiplier`]`(κ)`: `μ + κσ` (PE-GP-UCB's `β`, which "is
///   already a square root");
/// - [`UpperConfidenceBound::with_beta`]`(β)`: `μ + √β σ` (Srinivas et al. 2010, UHE-BO,
///   BOKE; e.g. `β = 1.96` gives `κ = 1.4`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UpperConfidenceBound {
    multiplier: f64,
}

impl UpperConfidenceBound {
    /// `μ + κσ`. `κ` must be finite (a negative `κ` gives a lower confidence bound).
    pub fn with_multiplier(kappa: f64) -> Result<Self, EngineError> {
        if !kappa.is_finite() {
            return Err(EngineError::invalid(format!(
                "UCB multiplier kappa is {kappa} (must be finite)"
            )));
        }
        Ok(Self { multiplier: kappa })
    }

    /// `μ + √β σ`. `β` must be finite and non-negative.
    pub fn with_beta(beta: f64) -> Result<Self, EngineError> {
        if !(beta.is_finite() && beta >= 0.0) {
            return Err(EngineError::invalid(format!(
                "UCB beta is {beta} (must be finite and non-negative; the multiplier is √beta)"
            )));
        }
        Ok(Self {
            multiplier: beta.sqrt(),
        })
    }

    /// `μ + √β_t σ` with `β_t` from `schedule` at iteration `t` (1-based).
    pub fn with_schedule(schedule: &BetaSchedule, t: u64) -> Result<Self, EngineError> {
        Self::with_beta(schedule.beta(t)?)
    }

    /// The multiplier κ of σ (`√β` when built from β).
    pub fn multiplier(&self) -> f64 {
        self.multiplier
    }
}

impl PosteriorAcquisition for UpperConfidenceBound {
    fn value(&self, mean: f64, variance: f64) -> f64 {
        mean + self.multiplier * variance.max(0.0).sqrt()
    }

    /// `∂/∂μ = 1`, `∂/∂σ² = κ/(2σ)` (0 where the variance is not positive).
    fn value_with_slopes(&self, mean: f64, variance: f64) -> Option<(f64, f64, f64)> {
        let sigma = variance.max(0.0).sqrt();
        let d_variance = if sigma > 0.0 {
            self.multiplier / (2.0 * sigma)
        } else {
            0.0
        };
        Some((self.value(mean, variance), 1.0, d_variance))
    }
}

/// The confidence schedules `β_t` of Srinivas, Krause, Kakade & Seeger (2010), "Gaussian
/// process optimization in the bandit setting: no regret and experimental design". `β_t` is the
/// quantity **under** the square root: use it with [`UpperConfidenceBound::with_beta`] (or
/// [`UpperConfidenceBound::with_schedule`]), never as a multiplier.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BetaSchedule {
    /// Theorem 1 (finite decision set `D`): `β_t = 2 ln(|D| t² π² / (6δ))`.
    Finite {
        /// `|D|`, the number of decisions (≥ 1; a float so that huge grids fit).
        domain_size: f64,
        /// Failure probability `δ ∈ (0, 1)`.
        delta: f64,
    },
    /// Theorem 2 (compact convex `D ⊆ [0, r]^d`, sample-path derivative tails
    /// `P(sup_x |∂f/∂x_j| > L) ≤ a exp(−(L/b)²)`):
    /// `β_t = 2 ln(2 t² π² / (3δ)) + 2d ln(t² d b r √(ln(4da/δ)))`.
    Continuous {
        /// Input dimension `d ≥ 1`.
        dim: usize,
        /// Tail constant `a > 0`, with `4da/δ > 1` so that the inner logarithm is positive.
        a: f64,
        /// Tail scale `b > 0`.
        b: f64,
        /// Side `r > 0` of the box `[0, r]^d` containing `D`.
        r: f64,
        /// Failure probability `δ ∈ (0, 1)`.
        delta: f64,
    },
}

impl BetaSchedule {
    /// `β_t` at iteration `t ≥ 1`. Fails on parameters outside the theorems' ranges and on a
    /// negative `β_t` (possible in [`BetaSchedule::Continuous`] when `t² d b r` is small).
    pub fn beta(&self, t: u64) -> Result<f64, EngineError> {
        use std::f64::consts::PI;
        if t == 0 {
            return Err(EngineError::invalid(
                "beta schedule: t is 0 (t starts at 1)",
            ));
        }
        let t2 = (t as f64) * (t as f64);
        let check_delta = |delta: f64| {
            if delta > 0.0 && delta < 1.0 {
                Ok(())
            } else {
                Err(EngineError::invalid(format!(
                    "beta schedule: delta is {delta} (must lie in (0, 1))"
                )))
            }
        };
        let beta = match *self {
            Self::Finite { domain_size, delta } => {
                check_delta(delta)?;
                if !(domain_size.is_finite() && domain_size >= 1.0) {
                    return Err(EngineError::invalid(format!(
                        "beta schedule: domain size is {domain_size} (must be at least 1)"
                    )));
                }
                2.0 * (domain_size * t2 * PI * PI / (6.0 * delta)).ln()
            }
            Self::Continuous {
                dim,
                a,
                b,
                r,
                delta,
            } => {
                check_delta(delta)?;
                for (name, v) in [("a", a), ("b", b), ("r", r)] {
                    if !(v.is_finite() && v > 0.0) {
                        return Err(EngineError::invalid(format!(
                            "beta schedule: {name} is {v} (must be positive and finite)"
                        )));
                    }
                }
                if dim == 0 {
                    return Err(EngineError::invalid("beta schedule: dimension is 0"));
                }
                let d = dim as f64;
                let inner = (4.0 * d * a / delta).ln();
                if inner <= 0.0 {
                    return Err(EngineError::invalid(format!(
                        "beta schedule: ln(4·d·a/δ) = {inner} is not positive (need 4·d·a > δ)"
                    )));
                }
                2.0 * (2.0 * t2 * PI * PI / (3.0 * delta)).ln()
                    + 2.0 * d * (t2 * d * b * r * inner.sqrt()).ln()
            }
        };
        if beta.is_finite() && beta >= 0.0 {
            Ok(beta)
        } else {
            Err(EngineError::invalid(format!(
                "beta schedule gives beta_{t} = {beta} (must be finite and non-negative)"
            )))
        }
    }
}
