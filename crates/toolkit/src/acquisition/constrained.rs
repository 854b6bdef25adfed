//! Expected improvement weighted by the probability of feasibility (Gardner et al. 2014;
//! Gelbart, Snoek and Adams 2014), in log space as BoTorch 0.18.1's analytic
//! `LogConstrainedExpectedImprovement` computes it: one independent GP for the objective and one
//! per constraint, and `ln EI + Σ_j ln Φ((0 − μ_j)/σ_j)`. A sum of logarithms keeps the value
//! finite and its gradient useful where EI or a probability of feasibility underflows.

use super::ei::{DEFAULT_MIN_VARIANCE, LogExpectedImprovement};
use super::{Acquisition, AnalyticGradient, ObjectiveModel, PosteriorAcquisition, ValueGradient};
use bosweep_core::stats::{normal_log_cdf, normal_log_pdf};
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::{GpState, PointScratch};

/// `ln P(c ≤ threshold)` for a Gaussian posterior of a constraint `c`:
/// `ln Φ((threshold − μ)/σ)`, with `σ = sqrt(max(variance, 1e-12))` (BoTorch's `min_var`) and
/// `ln Φ` accurate in both tails ([`normal_log_cdf`]), so that a point far inside the
/// infeasible region keeps a finite value and a slope that points back towards the boundary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogProbabilityOfFeasibility {
    threshold: f64,
}

impl LogProbabilityOfFeasibility {
    /// The log probability that the constraint is at most `threshold` (in the GP's units).
    pub fn new(threshold: f64) -> Result<Self, EngineError> {
        if !threshold.is_finite() {
            return Err(EngineError::invalid(format!(
                "probability of feasibility: the threshold is {threshold} (must be finite)"
            )));
        }
        Ok(Self { threshold })
    }

    /// `σ` after the floor, and `u = (threshold − μ)/σ`.
    fn standardise(&self, mean: f64, variance: f64) -> (f64, f64) {
        let sigma = variance.max(DEFAULT_MIN_VARIANCE).sqrt();
        (sigma, (self.threshold - mean) / sigma)
    }
}

impl PosteriorAcquisition for LogProbabilityOfFeasibility {
    fn value(&self, mean: f64, variance: f64) -> f64 {
        normal_log_cdf(self.standardise(mean, variance).1).max(-f64::MAX)
    }

    /// With `r = φ(u)/Φ(u)` (from the logarithms, so that neither underflows):
    /// `∂/∂μ = −r/σ`, `∂/∂σ² = −r u/(2σ²)` (0 where the variance floor holds σ).
    fn value_with_slopes(&self, mean: f64, variance: f64) -> Option<(f64, f64, f64)> {
        let (sigma, u) = self.standardise(mean, variance);
        let log_cdf = normal_log_cdf(u);
        let ratio = (normal_log_pdf(u) - log_cdf).exp();
        let d_variance = if variance <= DEFAULT_MIN_VARIANCE {
            0.0
        } else {
            -ratio * u / (2.0 * sigma * sigma)
        };
        Some((log_cdf.max(-f64::MAX), -ratio / sigma, d_variance))
    }
}

/// One GP's share of the sum: the objective's log EI, or one constraint's log probability of
/// feasibility.
#[derive(Clone, Copy, Debug)]
enum Term {
    Improvement(LogExpectedImprovement),
    Feasibility(LogProbabilityOfFeasibility),
}

impl Term {
    fn rule(&self) -> &dyn PosteriorAcquisition {
        match self {
            Self::Improvement(rule) => rule,
            Self::Feasibility(rule) => rule,
        }
    }
}

/// `ln EI(x; best) + Σ_j ln P(c_j(x) ≤ 0)` for **maximisation** of the objective, each term on
/// its own GP's posterior, all GPs in the same input units (BoTorch's
/// `LogConstrainedExpectedImprovement` with `constraints = {j: (None, 0.0)}`).
///
/// The objective's log EI is taken in its GP's standardised units, exactly as
/// [`LogExpectedImprovement`] is by `logei`, so that without constraints this is `logei`'s
/// acquisition, value for value; it is therefore BoTorch's value (in the objective's own units)
/// less `ln s`, `s` the objective's standardisation scale, a constant that moves no maximiser.
/// A probability of feasibility is the same in either unit. [`Self::feasibility`] leaves the
/// improvement out: the acquisition while no observed point is feasible (Gelbart et al.).
pub struct LogConstrainedExpectedImprovement<'a> {
    terms: Vec<(&'a GpState, Term)>,
}

impl<'a> LogConstrainedExpectedImprovement<'a> {
    /// Log EI of `objective` over `best` (the best feasible observed value, in the objective's
    /// units, maximisation sense) plus the log probability that each of `constraints` is ≤ 0
    /// in its own units.
    pub fn new(
        objective: ObjectiveModel<'a>,
        best: f64,
        constraints: &[ObjectiveModel<'a>],
    ) -> Result<Self, EngineError> {
        let improvement = LogExpectedImprovement::new(objective.output.forward(best))?;
        Self::with_terms(
            Some((objective.gp, Term::Improvement(improvement))),
            constraints,
        )
    }

    /// The log probability that every one of `constraints` (at least one) is ≤ 0.
    pub fn feasibility(constraints: &[ObjectiveModel<'a>]) -> Result<Self, EngineError> {
        Self::with_terms(None, constraints)
    }

    fn with_terms(
        objective: Option<(&'a GpState, Term)>,
        constraints: &[ObjectiveModel<'a>],
    ) -> Result<Self, EngineError> {
        let mut terms: Vec<(&'a GpState, Term)> = objective.into_iter().collect();
        for model in constraints {
            let rule = LogProbabilityOfFeasibility::new(model.output.forward(0.0))?;
            terms.push((model.gp, Term::Feasibility(rule)));
        }
        let Some((first, _)) = terms.first() else {
            return Err(EngineError::invalid(
                "constrained expected improvement: neither an objective nor a constraint",
            ));
        };
        let dim = first.kernel().input_dim();
        if let Some((gp, _)) = terms.iter().find(|(gp, _)| gp.kernel().input_dim() != dim) {
            return Err(EngineError::invalid(format!(
                "constrained expected improvement: GPs of {dim} and {} inputs",
                gp.kernel().input_dim()
            )));
        }
        Ok(Self { terms })
    }
}

impl Acquisition for LogConstrainedExpectedImprovement<'_> {
    fn dim(&self) -> usize {
        self.terms[0].0.kernel().input_dim()
    }

    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        if candidates.dim() != self.dim() {
            return Err(EngineError::invalid(format!(
                "constrained expected improvement: candidates have {} columns but the GPs take {}",
                candidates.dim(),
                self.dim()
            )));
        }
        let mut total: Option<Vec<f64>> = None;
        for (gp, term) in &self.terms {
            let values = term.rule().values(&engine.posterior(gp, candidates)?);
            total = Some(match total {
                None => values,
                Some(mut sum) => {
                    sum.iter_mut().zip(values).for_each(|(s, v)| *s += v);
                    sum
                }
            });
        }
        Ok(total.unwrap_or_default())
    }

    /// The chain rule through every GP's [`GpState::posterior_with_gradient`], on the CPU in
    /// f64, where every kernel has a gradient.
    fn analytic_gradient(&self) -> Result<Option<Box<dyn AnalyticGradient + '_>>, EngineError> {
        let differentiable = self
            .terms
            .iter()
            .all(|(gp, _)| gp.kernel().differentiable());
        Ok(differentiable.then(|| Box::new(self) as Box<dyn AnalyticGradient + '_>))
    }
}

impl AnalyticGradient for &LogConstrainedExpectedImprovement<'_> {
    fn objective(&self) -> ValueGradient<'_> {
        let mut scratch = vec![PointScratch::default(); self.terms.len()];
        Box::new(move |x: &[f64]| {
            let mut total: Option<(f64, Vec<f64>)> = None;
            for ((gp, term), scratch) in self.terms.iter().zip(&mut scratch) {
                let at = gp.posterior_with_gradient(x, scratch)?;
                let (value, d_mean, d_variance) = term
                    .rule()
                    .value_with_slopes(at.mean, at.variance)
                    .ok_or_else(|| EngineError::invalid("acquisition: a rule has no slopes"))?;
                let gradient = at
                    .mean_gradient
                    .iter()
                    .zip(&at.variance_gradient)
                    .map(|(m, v)| d_mean * m + d_variance * v);
                total = Some(match total {
                    None => (value, gradient.collect()),
                    Some((sum, mut sum_gradient)) => {
                        sum_gradient
                            .iter_mut()
                            .zip(gradient)
                            .for_each(|(s, g)| *s += g);
                        (sum + value, sum_gradient)
                    }
                });
            }
            let (value, gradient) = total.unwrap_or_default();
            if value.is_nan() || gradient.iter().any(|g| g.is_nan()) {
                return Err(EngineError::invalid(format!(
                    "constrained expected improvement: NaN value or gradient at {x:?}"
                )));
            }
            Ok((value, gradient))
        })
    }
}
