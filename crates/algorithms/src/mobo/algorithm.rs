//! [`MultiObjectiveBo`]: one GP per objective refitted at every step, and qLogNEHVI or
//! qLogNParEGO maximised with the pending points joining the observed ones.

use std::time::Instant;

use rand::RngExt;
use serde_json::{Map, json};

use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::ImprovementSmoothing;
use bosweep_problems::Problem;
use bosweep_toolkit::acquisition::{
    Acquisition as AcquisitionFunction, BaseSamples, ChebyshevScalarization,
    ConstrainedQLogNoisyExpectedImprovement, ConstrainedSmoothing, MaximizeConfig, ObjectiveModel,
    PRUNE_FRONT_SAMPLES, QLogNParEgo, QLogNoisyExpectedHypervolumeImprovement, ScalarObjective,
    TAU_RELU, draw_lower_bound_points, objective_lower_bound, observed_room, prune_baseline_front,
    sample_simplex,
};
use bosweep_toolkit::pending::pending_in_model_units;
use bosweep_toolkit::surrogate::GpModel;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, GpSettings, History, Proposal, StepLog,
    fit_gp_model, gp_memory_bytes, uniform_point,
};

use super::reference::infer_reference_point;
use crate::gp_bo::maximize_in_domain;

/// The acquisition a [`MultiObjectiveBo`] maximises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MultiObjectiveAcquisition {
    /// qLogNEHVI over each sample's front.
    HypervolumeImprovement,
    /// qLogNEI of a random augmented Chebyshev scalarisation, new weights at every ask.
    ParEgo,
}

/// What a multi-objective GP method sets, beside its acquisition.
pub(super) struct MultiObjectiveSettings {
    /// The smoothed feasibility indicator's temperature on a constrained problem.
    pub constraint_eta: f64,
    pub gp: GpSettings,
    pub maximize: MaximizeConfig,
    pub mc_samples: usize,
    pub prune_baseline: bool,
}

/// qLogNEHVI or qLogNParEGO on independent GPs, one per objective.
pub struct MultiObjectiveBo {
    /// The checked parameters the algorithm was built from, for the trace header.
    params: Params,
    name: &'static str,
    acquisition: MultiObjectiveAcquisition,
    settings: MultiObjectiveSettings,
    /// The problem's reference point in the maximisation sense, where it declares one.
    declared_reference: Option<Vec<f64>>,
    /// Every objective's history (the same points, that objective's values, maximised, each
    /// point's constraint violation beside it).
    histories: Vec<History>,
    /// The models of the last fit, one per objective.
    models: Vec<GpModel>,
    /// Each black-box constraint's history (its values as observed), none without constraints.
    constraint_histories: Vec<History>,
    /// The constraints' models of the last fit.
    constraint_models: Vec<GpModel>,
    /// Observations `models` were fitted on by the last ask, while no value has been told
    /// since: a batch's later asks reuse that fit.
    fitted_on: Option<usize>,
    log: StepLog,
}

impl MultiObjectiveBo {
    pub(super) fn new(
        params: Params,
        name: &'static str,
        acquisition: MultiObjectiveAcquisition,
        settings: MultiObjectiveSettings,
    ) -> Self {
        Self {
            params,
            name,
            acquisition,
            settings,
            declared_reference: None,
            histories: Vec::new(),
            models: Vec::new(),
            constraint_histories: Vec::new(),
            constraint_models: Vec::new(),
            fitted_on: None,
            log: StepLog::default(),
        }
    }

    fn told(&self) -> usize {
        self.histories.first().map_or(0, History::len)
    }

    /// The step's models, the objectives' then the constraints': fresh fits, or, for a batch's
    /// later points, the batch's first fits.
    fn step_models(
        &mut self,
        ctx: &mut AskContext<'_>,
    ) -> Result<(Vec<GpModel>, Vec<GpModel>), AlgorithmError> {
        if !ctx.pending.is_empty() && self.fitted_on == Some(self.told()) {
            return Ok((self.models.clone(), self.constraint_models.clone()));
        }
        let previous = std::mem::take(&mut self.models);
        let objectives = self
            .histories
            .iter()
            .enumerate()
            .map(|(j, history)| fit_gp_model(&self.settings.gp, history, previous.get(j), ctx))
            .collect::<Result<Vec<_>, _>>()?;
        let previous = std::mem::take(&mut self.constraint_models);
        let constraints = self
            .constraint_histories
            .iter()
            .enumerate()
            .map(|(j, history)| fit_gp_model(&self.settings.gp, history, previous.get(j), ctx))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((objectives, constraints))
    }

    /// The reference point: the problem's, else inferred from the observed front.
    fn reference(&self) -> Result<Vec<f64>, AlgorithmError> {
        if let Some(reference) = &self.declared_reference {
            return Ok(reference.clone());
        }
        let m = self.histories.len();
        let told = self.told();
        // Of the feasible points, where some are (every point without constraints).
        let first = &self.histories[0];
        let any_feasible = (0..told).any(|i| first.is_feasible(i));
        let values: Vec<f64> = (0..told)
            .filter(|&i| !any_feasible || first.is_feasible(i))
            .flat_map(|i| self.histories.iter().map(move |h| h.ys()[i]))
            .collect();
        infer_reference_point(&values, m)
            .ok_or_else(|| AlgorithmError::Config(format!("{}: no observations yet", self.name)))
    }
}

impl Algorithm for MultiObjectiveBo {
    /// Refuses a problem of one objective (there is no hypervolume to improve) and keeps the
    /// problem's reference point, in the maximisation sense.
    fn prepare(&mut self, problem: &dyn Problem) -> Result<(), AlgorithmError> {
        let Some(objectives) = problem.objectives().filter(|o| o.count() >= 2) else {
            return Err(AlgorithmError::Config(format!(
                "algorithm \"{}\" is for several objectives; problem \"{}\" has one (run \
                 qlognei on it)",
                self.name,
                problem.name()
            )));
        };
        self.declared_reference = objectives
            .reference_point()
            .map(|r| objectives.to_maximization(r));
        self.histories = vec![History::default(); objectives.count()];
        self.constraint_histories = vec![History::default(); problem.constraint_count()];
        Ok(())
    }

    /// qLogNEHVI and qLogNParEGO take black-box constraints as BoTorch's do.
    fn handles_constraints(&self) -> bool {
        true
    }

    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.told() == 0 {
            // Nothing to fit a GP to: every point looks the same under the prior.
            return Ok(Proposal {
                x: uniform_point(ctx)?,
                repeats: 1,
            });
        }
        let start = Instant::now();
        let (models, constraint_models) = self.step_models(ctx)?;
        let reference = self.reference()?;
        let objective_models: Vec<ObjectiveModel<'_>> =
            models.iter().map(ObjectiveModel::of).collect();
        let constraint_outputs: Vec<ObjectiveModel<'_>> =
            constraint_models.iter().map(ObjectiveModel::of).collect();
        let pending = pending_in_model_units(&models[0], ctx.pending)?;
        let room = observed_room(pending.rows());
        let observed = models[0].state().train();
        let baseline = if self.settings.prune_baseline || observed.rows() > room {
            prune_baseline_front(
                &objective_models,
                &constraint_outputs,
                ctx.engine,
                &reference,
                PRUNE_FRONT_SAMPLES,
                room,
                ctx.rng.random(),
            )?
        } else {
            observed.clone()
        };
        let joint = baseline.rows() + pending.rows() + 1;
        let base = (0..models.len() + constraint_models.len())
            .map(|_| BaseSamples::sobol(self.settings.mc_samples, joint, ctx.rng.random()))
            .collect::<Result<Vec<_>, _>>()?;
        self.log.extra = Map::new();
        let acquisition: Box<dyn AcquisitionFunction + '_> = match self.acquisition {
            MultiObjectiveAcquisition::HypervolumeImprovement => {
                let acquisition = QLogNoisyExpectedHypervolumeImprovement::with_constraints(
                    &objective_models,
                    &constraint_outputs,
                    ctx.engine,
                    (&baseline, &pending),
                    &reference,
                    &base,
                    (ImprovementSmoothing::BOTORCH, self.settings.constraint_eta),
                )?;
                self.log
                    .extra
                    .insert("cells".into(), json!(acquisition.cell_count()));
                if self.declared_reference.is_none() {
                    self.log
                        .extra
                        .insert("reference_point".into(), json!(reference));
                }
                Box::new(acquisition)
            }
            MultiObjectiveAcquisition::ParEgo if constraint_models.is_empty() => {
                let weights = sample_simplex(models.len(), ctx.rng);
                self.log.extra.insert("weights".into(), json!(weights));
                Box::new(QLogNParEgo::new(
                    &objective_models,
                    ctx.engine,
                    &baseline,
                    &pending,
                    weights,
                    &base,
                    TAU_RELU,
                )?)
            }
            MultiObjectiveAcquisition::ParEgo => {
                let weights = sample_simplex(models.len(), ctx.rng);
                self.log.extra.insert("weights".into(), json!(weights));
                let objective = ScalarObjective::Chebyshev(ChebyshevScalarization::at_means(
                    weights,
                    &objective_models,
                    ctx.engine,
                    &baseline,
                )?);
                let outcomes: Vec<ObjectiveModel<'_>> = objective_models
                    .iter()
                    .chain(&constraint_outputs)
                    .copied()
                    .collect();
                let engine = ctx.engine;
                let rng = &mut *ctx.rng;
                let bound = objective.clone();
                let acquisition = ConstrainedQLogNoisyExpectedImprovement::new(
                    objective,
                    &outcomes,
                    engine,
                    (&baseline, &pending),
                    &base,
                    ConstrainedSmoothing {
                        tau_relu: TAU_RELU,
                        eta: self.settings.constraint_eta,
                    },
                    || {
                        let points = draw_lower_bound_points(&[&baseline, &pending], rng)?;
                        objective_lower_bound(&bound, &objective_models, engine, &points)
                    },
                )?;
                let infeasible = acquisition.infeasible_value();
                self.log.extra.insert(
                    "infeasible_value".into(),
                    json!(infeasible.is_finite().then_some(infeasible)),
                );
                Box::new(acquisition)
            }
        };
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();

        let start = Instant::now();
        let lengthscales: Vec<Vec<f64>> =
            models.iter().map(GpModel::lengthscales_original).collect();
        self.log
            .extra
            .insert("lengthscales".into(), json!(lengthscales));
        if !constraint_models.is_empty() {
            let lengthscales: Vec<Vec<f64>> = constraint_models
                .iter()
                .map(GpModel::lengthscales_original)
                .collect();
            self.log
                .extra
                .insert("constraint_lengthscales".into(), json!(lengthscales));
        }
        self.log
            .extra
            .insert("baseline_points".into(), json!(baseline.rows()));
        let x = maximize_in_domain(
            acquisition.as_ref(),
            &models[0],
            &self.settings.maximize,
            &mut self.log,
            ctx,
        )?;
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        drop(acquisition);
        self.fitted_on = Some(self.told());
        self.models = models;
        self.constraint_models = constraint_models;
        Ok(Proposal { x, repeats: 1 })
    }

    /// A batch's points are chosen one by one, each pending point joining the observed ones
    /// in every sample's front (BoTorch's cached pending points).
    fn accepts_pending(&self) -> bool {
        true
    }

    fn handles_several_objectives(&self) -> bool {
        true
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        if feedback.objectives.len() != self.histories.len() {
            return Err(AlgorithmError::Config(format!(
                "{} was told {} objective values for a problem of {}",
                self.name,
                feedback.objectives.len(),
                self.histories.len()
            )));
        }
        if feedback.constraints.len() != self.constraint_histories.len() {
            return Err(AlgorithmError::Config(format!(
                "{} was told {} constraint values; it keeps {} (was it prepared for its \
                 problem?)",
                self.name,
                feedback.constraints.len(),
                self.constraint_histories.len()
            )));
        }
        for (history, value) in self.histories.iter_mut().zip(feedback.objectives) {
            history.push_constrained(feedback.x, *value, feedback.constraints);
        }
        for (history, value) in self
            .constraint_histories
            .iter_mut()
            .zip(feedback.constraints)
        {
            history.push(feedback.x, *value);
        }
        Ok(())
    }

    /// A run of several objectives recommends its front, not one point: the first objective's
    /// best observed point (feasible first) stands in where a caller asks for one.
    fn recommend(
        &mut self,
        _engine: &dyn bosweep_engine::Engine,
    ) -> Result<Vec<f64>, AlgorithmError> {
        Ok(self
            .histories
            .first()
            .map(History::best_x)
            .unwrap_or_default())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }

    /// One GP's memory per objective, plus the candidates' draws of one grid chunk.
    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        let grid = self.settings.maximize.grid_points(dim);
        let m = (self.histories.len().max(2) + self.constraint_histories.len()) as u64;
        m * gp_memory_bytes(budget, dim, grid) + (grid * self.settings.mc_samples) as u64 * m * 8
    }
}
