//! Acquisition functions and their maximisation over a box, kept apart as in BoTorch:
//!
//! - an [`Acquisition`] turns a batch of candidates into values through a `&dyn Engine`, so the
//!   same code runs on the CPU and the GPU backends; [`GpAcquisition`] pairs a fitted
//!   [`GpState`] with a [`PosteriorAcquisition`] rule applied to each posterior mean and
//!   variance: [`UpperConfidenceBound`], [`ExpectedImprovement`], [`LogExpectedImprovement`],
//!   [`PosteriorMean`]; [`LocallyPenalized`] wraps any of them with the local penalisers of a
//!   batch's pending points; [`LogConstrainedExpectedImprovement`] adds to log EI the log
//!   probability of feasibility of each constraint's own GP ([`LogProbabilityOfFeasibility`]);
//!   [`QLogNoisyExpectedImprovement`] samples the joint posterior of the observed points, the
//!   pending ones and each candidate, and [`ConstrainedQLogNoisyExpectedImprovement`] does so
//!   for the objective and each constraint's GP; [`PosteriorPaths`] draws Thompson
//!   sampling's paths by pathwise conditioning, for the engine to maximise over candidates;
//! - [`maximize`] evaluates an acquisition on a scrambled-Sobol grid ([`SobolGrid`]) in chunks,
//!   keeps the top k with [`Engine::top_k`] and refines each with bounded L-BFGS
//!   ([`bosweep_core::optim::lbfgsb::minimize`]) on the acquisition's analytic gradient
//!   ([`Acquisition::analytic_gradient`]) or on central differences ([`RefineGradient`]).
//!
//! **Everything maximises.** For a minimisation problem the caller negates the targets before
//! fitting (and the incumbent of EI), so that "larger acquisition is better" always holds.

mod constrained;
mod ei;
mod ensemble;
mod joint;
mod joint_objectives;
mod optimize;
mod pathwise;
mod penalized;
mod qlognehvi;
mod qlognei;
mod qlognei_constrained;
mod qlognparego;
mod sobol;
mod ucb;

pub use bosweep_core::stats::{
    fatmax, fatmax_first_slope, fatmin_pair, fatmin_pair_first_slope, log_fatmoid,
    log_fatmoid_slope, log_fatplus, log_fatplus_slope, log_mean_exp,
};
pub use constrained::{LogConstrainedExpectedImprovement, LogProbabilityOfFeasibility};
pub use ei::{DEFAULT_MIN_VARIANCE, ExpectedImprovement, LogExpectedImprovement};
pub use ensemble::LogMeanExpEnsemble;
pub use joint_objectives::ObjectiveModel;
pub use optimize::{
    EvaluationCounts, MaximizeConfig, MaximizerSettings, Maximum, RefineGradient, RefinedStart,
    StageSeconds, default_chunk_size, maximize,
};
pub use pathwise::{DEFAULT_PATH_FEATURES, PosteriorPaths};
pub use penalized::{
    FALLBACK_LIPSCHITZ, LocalPenalty, LocallyPenalized, MIN_LIPSCHITZ, PenalizedScale,
    PenaltyCentre, log_softplus, mean_lipschitz,
};
pub use qlognehvi::{
    MO_MC_SAMPLES, PRUNE_FRONT_SAMPLES, QLogNoisyExpectedHypervolumeImprovement,
    prune_baseline_front, push_non_dominated_cells,
};
pub use qlognei::{
    BaseSamples, MC_SAMPLES, PRUNE_SAMPLES, QLogNoisyExpectedImprovement, TAU_MAX, TAU_RELU,
    observed_room, prune_baseline, prune_baseline_ensemble,
};
pub use qlognei_constrained::{
    CONSTRAINT_ETA, ConstrainedQLogNoisyExpectedImprovement, ConstrainedSmoothing,
    LOWER_BOUND_POINTS, ScalarObjective, draw_lower_bound_points, lower_bound_points,
    objective_lower_bound, prune_baseline_constrained,
};
pub use qlognparego::{CHEBYSHEV_ALPHA, ChebyshevScalarization, QLogNParEgo, sample_simplex};
pub use sobol::{Bounds, MAX_SOBOL_DIM, SOBOL_BLOCK, SobolGrid, default_grid_size};
pub use ucb::{BetaSchedule, UpperConfidenceBound};

use bosweep_engine::{Engine, EngineError, Points, Posterior};
use bosweep_model::{GpState, PointScratch};

/// A function to maximise, evaluated on batches of candidates through an engine.
///
/// Implementations must return one finite (or `−∞`) value per candidate row, never NaN, and
/// each value must depend only on its own row (grids are evaluated in chunks).
pub trait Acquisition: Send + Sync {
    /// Number of input columns.
    fn dim(&self) -> usize;

    /// The acquisition value of every candidate; larger is better.
    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError>;

    /// The analytic gradient [`maximize`] refines with, where the acquisition has one (the
    /// contextual acquisitions, whose pair reductions have closed-form slopes); `None`, the default:
    /// central differences through the refinement engine.
    fn analytic_gradient(&self) -> Result<Option<Box<dyn AnalyticGradient + '_>>, EngineError> {
        Ok(None)
    }
}

/// One ascent's objective: the value and its gradient at a point of the acquisition's own
/// coordinates.
pub type ValueGradient<'a> = Box<dyn FnMut(&[f64]) -> Result<(f64, Vec<f64>), EngineError> + 'a>;

/// A source of analytic value-and-gradient objectives, one per parallel ascent (each with its
/// own scratch space).
pub trait AnalyticGradient: Sync {
    /// A fresh objective with its own scratch space, for one ascent.
    fn objective(&self) -> ValueGradient<'_>;
}

/// A rule that maps the posterior mean and variance of the latent function at one point to an
/// acquisition value (larger is better).
pub trait PosteriorAcquisition: Send + Sync {
    /// The value for posterior mean `mean` and variance `variance` (≥ 0).
    fn value(&self, mean: f64, variance: f64) -> f64;

    /// The value with its slopes in the mean and in the variance, `(a, ∂a/∂μ, ∂a/∂σ²)`, where
    /// the rule has them; `None` (the default): [`GpAcquisition`] has no analytic gradient and
    /// the maximiser refines on central differences.
    fn value_with_slopes(&self, _mean: f64, _variance: f64) -> Option<(f64, f64, f64)> {
        None
    }

    /// [`PosteriorAcquisition::value`] at every point of `posterior`.
    fn values(&self, posterior: &Posterior) -> Vec<f64> {
        posterior
            .mean
            .iter()
            .zip(&posterior.variance)
            .map(|(m, v)| self.value(*m, *v))
            .collect()
    }
}

/// The posterior mean itself (pure exploitation; the recommendation rule of many papers).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PosteriorMean;

impl PosteriorAcquisition for PosteriorMean {
    fn value(&self, mean: f64, _variance: f64) -> f64 {
        mean
    }

    fn value_with_slopes(&self, mean: f64, _variance: f64) -> Option<(f64, f64, f64)> {
        Some((mean, 1.0, 0.0))
    }
}

/// A [`PosteriorAcquisition`] rule applied to the posterior of one GP, evaluated with
/// [`Engine::posterior`].
#[derive(Clone, Debug)]
pub struct GpAcquisition<'a, R> {
    gp: &'a GpState,
    rule: R,
}

impl<'a, R: PosteriorAcquisition> GpAcquisition<'a, R> {
    /// `rule` applied to `gp`'s posterior.
    pub fn new(gp: &'a GpState, rule: R) -> Self {
        Self { gp, rule }
    }

    /// The GP whose posterior the rule reads.
    pub fn gp(&self) -> &GpState {
        self.gp
    }

    /// The rule mapping posterior mean and variance to a value.
    pub fn rule(&self) -> &R {
        &self.rule
    }
}

impl<R: PosteriorAcquisition> Acquisition for GpAcquisition<'_, R> {
    fn dim(&self) -> usize {
        self.gp.kernel().input_dim()
    }

    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        if candidates.dim() != self.dim() {
            return Err(EngineError::invalid(format!(
                "acquisition: candidates have {} columns but the GP takes {}",
                candidates.dim(),
                self.dim()
            )));
        }
        Ok(self.rule.values(&engine.posterior(self.gp, candidates)?))
    }

    /// The chain rule through [`GpState::posterior_with_gradient`], on the CPU in f64, where
    /// the rule has slopes ([`PosteriorAcquisition::value_with_slopes`]) and the kernel a
    /// gradient ([`bosweep_model::Kernel::differentiable`]).
    fn analytic_gradient(&self) -> Result<Option<Box<dyn AnalyticGradient + '_>>, EngineError> {
        let has_slopes = self.rule.value_with_slopes(0.0, 1.0).is_some();
        Ok((has_slopes && self.gp.kernel().differentiable())
            .then(|| Box::new(self) as Box<dyn AnalyticGradient + '_>))
    }
}

impl<R: PosteriorAcquisition> AnalyticGradient for &GpAcquisition<'_, R> {
    fn objective(&self) -> ValueGradient<'_> {
        let mut scratch = PointScratch::default();
        Box::new(move |x: &[f64]| {
            let at = self.gp.posterior_with_gradient(x, &mut scratch)?;
            let (value, d_mean, d_variance) = self
                .rule
                .value_with_slopes(at.mean, at.variance)
                .ok_or_else(|| EngineError::invalid("acquisition: the rule has no slopes"))?;
            let gradient: Vec<f64> = at
                .mean_gradient
                .iter()
                .zip(&at.variance_gradient)
                .map(|(m, v)| d_mean * m + d_variance * v)
                .collect();
            if value.is_nan() || gradient.iter().any(|g| g.is_nan()) {
                return Err(EngineError::invalid(format!(
                    "acquisition: NaN value or gradient at {x:?}"
                )));
            }
            Ok((value, gradient))
        })
    }
}
