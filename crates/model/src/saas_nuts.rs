//! The fully Bayesian SAAS model's hyperparameters drawn by NUTS, as BoTorch's
//! `fit_fully_bayesian_model_nuts` draws them (BoTorch 0.18.1, `botorch/fit.py`): one chain
//! of `warmup` adaptation steps and `samples` draws with trees at most `max_tree_depth` deep,
//! every `thinning`-th draw kept (512, 256, 6 and 16: 16 models).
//!
//! The sampler is [`nuts_rs`]'s (the sampler behind PyMC's nutpie) where BoTorch runs
//! NumPyro's. Both adapt the step size to an acceptance rate of 0.8 and a mass matrix during
//! the warmup; NumPyro's is dense (`dense_mass=True`), nuts-rs's diagonal, adapted from the
//! draws and the gradients. Both start as NumPyro's `init_to_uniform` does, every coordinate
//! uniform in (−2, 2). The posterior is the same ([`SaasPosterior`]); the draws are not.

use nuts_rs::{
    Chain, CpuLogpFunc, CpuMath, CpuMathError, DiagNutsSettings, HasDims, LogpError, Settings,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use bosweep_core::data::{EngineError, Points};

use super::saas_posterior::{SaasHyperparameters, SaasPosterior, Unrepresentable};

/// How many times a chain may start over from a fresh uniform draw when its start's density
/// cannot be evaluated (NumPyro's `init_to_uniform` retries as well).
const START_ATTEMPTS: usize = 100;

/// How NUTS samples the SAAS model's hyperparameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NutsSchedule {
    /// Adaptation steps, discarded.
    pub warmup: usize,
    /// Draws after the warmup.
    pub samples: usize,
    /// Every `thinning`-th draw is kept.
    pub thinning: usize,
    /// At most `2^max_tree_depth − 1` leapfrog steps per draw.
    pub max_tree_depth: u64,
}

impl Default for NutsSchedule {
    /// BoTorch's `fit_fully_bayesian_model_nuts` defaults: 512, 256, 16, 6.
    fn default() -> Self {
        Self {
            warmup: 512,
            samples: 256,
            thinning: 16,
            max_tree_depth: 6,
        }
    }
}

impl NutsSchedule {
    /// Refuses a schedule that keeps no draw.
    pub fn validate(&self) -> Result<(), EngineError> {
        if self.samples == 0 || self.thinning == 0 || self.max_tree_depth == 0 {
            return Err(EngineError::invalid(format!(
                "NUTS: samples {}, thinning {} and max_tree_depth {} must be positive",
                self.samples, self.thinning, self.max_tree_depth
            )));
        }
        Ok(())
    }

    /// How many draws are kept: `⌈samples / thinning⌉`.
    pub fn kept(&self) -> usize {
        self.samples.div_ceil(self.thinning)
    }
}

/// The kept draws and what the chain did to get them.
#[derive(Clone, Debug, PartialEq)]
pub struct SaasSamples {
    /// The kept hyperparameters, in draw order.
    pub draws: Vec<SaasHyperparameters>,
    /// Draws (after the warmup) whose trajectory diverged.
    pub divergences: usize,
    /// The step size the warmup settled on.
    pub step_size: f64,
    /// Density and gradient evaluations over the warmup and the draws.
    pub gradient_evaluations: u64,
}

/// [`SaasPosterior`] as nuts-rs's density.
#[derive(Debug)]
struct Density<'a>(SaasPosterior<'a>);

impl LogpError for Unrepresentable {
    /// A point where the kernel matrix is indefinite is a divergence, not the end of the chain.
    fn is_recoverable(&self) -> bool {
        true
    }
}

impl HasDims for Density<'_> {
    fn dim_sizes(&self) -> std::collections::HashMap<String, u64> {
        [("unconstrained_parameter".to_string(), self.0.dim() as u64)].into()
    }
}

impl CpuLogpFunc for Density<'_> {
    type LogpError = Unrepresentable;
    type FlowParameters = ();
    type ExpandedVector = Vec<f64>;

    fn dim(&self) -> usize {
        self.0.dim()
    }

    fn logp(&mut self, position: &[f64], gradient: &mut [f64]) -> Result<f64, Unrepresentable> {
        self.0.log_density(position, gradient)
    }

    fn expand_vector<R: rand::Rng + ?Sized>(
        &mut self,
        _rng: &mut R,
        position: &[f64],
    ) -> Result<Vec<f64>, CpuMathError> {
        Ok(position.to_vec())
    }
}

/// Draws the SAAS model's hyperparameters given `train` (unit-cube inputs) and `targets`
/// (standardised) by one NUTS chain of `schedule`, reproducibly from `seed`.
pub fn sample_saas_posterior(
    train: &Points,
    targets: &[f64],
    schedule: &NutsSchedule,
    seed: u64,
) -> Result<SaasSamples, EngineError> {
    schedule.validate()?;
    let mut posterior = SaasPosterior::new(train, targets)?;
    let dim = posterior.dim();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = (0..START_ATTEMPTS)
        .map(|_| {
            (0..dim)
                .map(|_| rng.random_range(-2.0..2.0))
                .collect::<Vec<f64>>()
        })
        .find(|theta| posterior.log_density(theta, &mut vec![0.0; dim]).is_ok())
        .ok_or_else(|| {
            EngineError::invalid(format!(
                "NUTS: the SAAS model's density could not be evaluated at any of \
                 {START_ATTEMPTS} uniform starts (duplicate inputs?)"
            ))
        })?;
    let settings = DiagNutsSettings {
        num_tune: schedule.warmup as u64,
        num_draws: schedule.samples as u64,
        maxdepth: schedule.max_tree_depth,
        num_chains: 1,
        seed,
        ..DiagNutsSettings::default()
    };
    fn failed(what: &str, error: impl std::fmt::Display) -> EngineError {
        EngineError::invalid(format!("NUTS: {what} failed: {error}"))
    }
    let mut chain = settings
        .new_chain(0, CpuMath::new(Density(posterior)), &mut rng)
        .map_err(|e| failed("setting up the chain", e))?;
    chain
        .set_position(&start)
        .map_err(|e| failed("starting the chain", e))?;
    let mut kept = Vec::with_capacity(schedule.kept());
    let (mut divergences, mut gradient_evaluations, mut step_size) = (0, 0, f64::NAN);
    for draw in 0..schedule.warmup + schedule.samples {
        let (position, progress) = chain.draw().map_err(|e| failed("a draw", e))?;
        gradient_evaluations += progress.num_gradients;
        let Some(index) = draw.checked_sub(schedule.warmup) else {
            continue;
        };
        step_size = progress.step_size;
        divergences += usize::from(progress.diverging);
        if index % schedule.thinning == 0 {
            kept.push(SaasHyperparameters::from_coordinates(&position));
        }
    }
    Ok(SaasSamples {
        draws: kept,
        divergences,
        step_size,
        gradient_evaluations,
    })
}
