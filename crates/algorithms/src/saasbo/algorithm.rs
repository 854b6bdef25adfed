//! [`SaasboAlgorithm`]: the SAAS model's NUTS draws refitted at every step, qLogNEI averaged over
//! them in log space and maximised.

use std::time::Instant;

use rand::RngExt;
use serde_json::{Map, json};

use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::Engine;
use bosweep_model::NutsSchedule;
use bosweep_toolkit::acquisition::{
    BaseSamples, LogMeanExpEnsemble, MaximizeConfig, PRUNE_SAMPLES, QLogNoisyExpectedImprovement,
    observed_room, prune_baseline_ensemble,
};
use bosweep_toolkit::pending::pending_in_model_units;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, SaasEnsemble, StepLog,
    fit_saas_ensemble, gp_memory_bytes, uniform_point,
};

use super::settings::Saasbo;
use crate::gp_bo::maximize_in_domain;

/// SAASBO with the fully Bayesian SAAS model (see the module docs).
pub struct SaasboAlgorithm {
    /// The checked parameters the algorithm was built from, for the trace header.
    params: Params,
    schedule: NutsSchedule,
    mc_samples: usize,
    prune: bool,
    maximize: MaximizeConfig,
    history: History,
    ensemble: Option<SaasEnsemble>,
    /// Observations the ensemble was drawn on by the last ask, while no value has been told
    /// since: a batch's later asks reuse it.
    fitted_on: Option<usize>,
    log: StepLog,
}

impl SaasboAlgorithm {
    pub(super) fn new(params: Params, settings: &Saasbo) -> Self {
        Self {
            params,
            schedule: settings.schedule(),
            mc_samples: settings.mc_samples,
            prune: settings.prune_baseline,
            maximize: settings.maximizer.config(),
            history: History::default(),
            ensemble: None,
            fitted_on: None,
            log: StepLog::default(),
        }
    }

    /// The step's ensemble: fresh NUTS draws, or, for a batch's later points, the batch's first.
    fn step_ensemble(&mut self, ctx: &mut AskContext<'_>) -> Result<SaasEnsemble, AlgorithmError> {
        match self.ensemble.take() {
            Some(ensemble)
                if !ctx.pending.is_empty() && self.fitted_on == Some(self.history.len()) =>
            {
                Ok(ensemble)
            }
            _ => fit_saas_ensemble(&self.history, &self.schedule, ctx),
        }
    }

    /// Starts the step's log with the chain's diagnostics and the median lengthscales.
    fn log_fit(&mut self, ensemble: &SaasEnsemble, baseline_points: usize) {
        let samples = &ensemble.samples;
        self.log.extra = Map::new();
        for (key, value) in [
            ("lengthscales", json!(ensemble.median_lengthscales())),
            ("models", json!(ensemble.members.len())),
            ("nuts_divergences", json!(samples.divergences)),
            ("nuts_step_size", json!(samples.step_size)),
            ("nuts_gradients", json!(samples.gradient_evaluations)),
            ("baseline_points", json!(baseline_points)),
        ] {
            self.log.extra.insert(key.into(), value);
        }
    }
}

impl Algorithm for SaasboAlgorithm {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.history.is_empty() {
            // No data for a posterior: every point looks the same under the prior.
            return Ok(Proposal {
                x: uniform_point(ctx)?,
                repeats: 1,
            });
        }
        let start = Instant::now();
        let ensemble = self.step_ensemble(ctx)?;
        let first = &ensemble.members[0];
        let pending = pending_in_model_units(first, ctx.pending)?;
        let states: Vec<_> = ensemble.members.iter().map(|m| m.state()).collect();
        let room = observed_room(pending.rows());
        let baseline = if self.prune || first.state().train().rows() > room {
            prune_baseline_ensemble(&states, ctx.engine, PRUNE_SAMPLES, room, ctx.rng.random())?
        } else {
            first.state().train().clone()
        };
        let base = BaseSamples::sobol(
            self.mc_samples,
            baseline.rows() + pending.rows() + 1,
            ctx.rng.random(),
        )?;
        let members = states
            .iter()
            .map(|state| {
                QLogNoisyExpectedImprovement::new(state, ctx.engine, &baseline, &pending, &base)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let acquisition = LogMeanExpEnsemble::new(members)?;
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();
        let start = Instant::now();
        self.log_fit(&ensemble, baseline.rows());
        let x = maximize_in_domain(&acquisition, first, &self.maximize, &mut self.log, ctx)?;
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        drop(acquisition);
        self.ensemble = Some(ensemble);
        self.fitted_on = Some(self.history.len());
        Ok(Proposal { x, repeats: 1 })
    }

    /// A batch's later points sample the earlier ones jointly as pending (no believer).
    fn accepts_pending(&self) -> bool {
        true
    }

    /// Records the observation and conditions every model of the last ensemble on it (O(n²)
    /// each, same hyperparameters), so that the recommendation sees every observation.
    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        self.history.push(feedback.x, feedback.y);
        if let Some(ensemble) = &mut self.ensemble {
            for member in &mut ensemble.members {
                member.append(feedback.x, feedback.y, None)?;
            }
        }
        Ok(())
    }

    /// The observed point of largest posterior mean averaged over the models (the best observed
    /// point before any model exists).
    fn recommend(&mut self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        let Some(ensemble) = &self.ensemble else {
            return Ok(self.history.best_x());
        };
        let observed = self.history.points()?;
        let mut average = vec![0.0; observed.rows()];
        for member in &ensemble.members {
            for (a, m) in average
                .iter_mut()
                .zip(member.predict(engine, &observed)?.mean)
            {
                *a += m / ensemble.members.len() as f64;
            }
        }
        Ok(self.history.x(engine.argmax(&average)?).to_vec())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }

    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        let grid = self.maximize.grid_points(dim);
        (self.schedule.kept() as u64).saturating_mul(gp_memory_bytes(budget, dim, grid))
    }
}
