//! [`GpBo`]: the GP refitted at every step and the acquisition maximised, with a batch's
//! pending points accounted for.

use std::time::Instant;

use rand::RngExt;
use serde_json::{Map, json};

use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::{Engine, Points};
use bosweep_problems::Problem;
use bosweep_toolkit::acquisition::{
    Acquisition as AcquisitionFunction, BaseSamples, BetaSchedule, Bounds,
    ConstrainedQLogNoisyExpectedImprovement, ConstrainedSmoothing, GpAcquisition, LocallyPenalized,
    LogExpectedImprovement, MaximizeConfig, MaximizerSettings, ObjectiveModel, PRUNE_SAMPLES,
    PenalizedScale, PosteriorAcquisition, QLogNoisyExpectedImprovement, ScalarObjective,
    UpperConfidenceBound, draw_lower_bound_points, maximize, objective_lower_bound, observed_room,
    prune_baseline, prune_baseline_constrained,
};
use bosweep_toolkit::pending::{
    PendingStrategy, PendingView, away_from_pending, pending_in_model_units,
};
use bosweep_toolkit::rule_out_pending_rows;
use bosweep_toolkit::surrogate::GpModel;
use bosweep_toolkit::uniform_point;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog, gp_memory_bytes,
};
use bosweep_toolkit::{GpSettings, fit_gp_model};

/// The acquisition a [`GpBo`] maximises.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Acquisition {
    /// `μ + κ σ` with a constant multiplier κ (`ucb_multiplier`; κ = √β in the
    /// square-root convention).
    UcbMultiplier(f64),
    /// `μ + √β_t σ` with Srinivas et al.'s finite-domain schedule
    /// `β_t = 2 ln(|D| t² π² / (6δ))`, `|D|` the candidate-grid size.
    UcbSrinivas {
        /// Confidence δ in (0, 1).
        delta: f64,
    },
    /// Expected improvement over the best observed value, maximised as log EI (same arg-max,
    /// finite where EI underflows).
    ExpectedImprovement,
    /// qLogNEI over the observed points with the pending ones (see [`QLogNei`](super::QLogNei)).
    QLogNoisyExpectedImprovement {
        /// Quasi-Monte Carlo samples of the joint posterior.
        samples: usize,
        /// Sample only the observed points that could be the best.
        prune: bool,
        /// The smoothed feasibility indicator's temperature on a constrained problem.
        constraint_eta: f64,
    },
}

/// GP-UCB, EI, LogEI or qLogNEI with hyperparameters refitted at every step.
pub struct GpBo {
    /// The checked parameters the algorithm was built from, for the trace header.
    params: Params,
    gp: GpSettings,
    acquisition: Acquisition,
    maximize: MaximizeConfig,
    /// How a batch's later points account for the pending ones.
    pending: PendingStrategy,
    /// C of the GP-BUCB schedule (0 for EI, where it has no meaning).
    bucb_c: f64,
    history: History,
    model: Option<GpModel>,
    /// Each constraint's observations, as observed (feasible where ≤ 0): one per constraint of
    /// the problem where the acquisition handles constraints (qLogNEI), else none.
    constraint_histories: Vec<History>,
    /// The constraints' models of the last fit, one per constraint (a warm start for the next,
    /// and a batch's later asks share them as they share `model`).
    constraint_models: Vec<GpModel>,
    /// Observations `model` was fitted on by the last ask, while no value has been told since:
    /// the later asks of a batch reuse that fit instead of refitting on the same data.
    fitted_on: Option<usize>,
    /// The Lipschitz constant local penalisation estimated on the model fitted on this many
    /// observations: a batch's later asks, which share the model, share it too.
    lipschitz: Option<(usize, f64)>,
    log: StepLog,
}

impl GpBo {
    pub(super) fn new(
        params: Params,
        gp: GpSettings,
        maximizer: &MaximizerSettings,
        acquisition: Acquisition,
    ) -> Self {
        Self {
            params,
            gp,
            acquisition,
            maximize: maximizer.config(),
            pending: PendingStrategy::default(),
            bucb_c: 0.0,
            history: History::default(),
            model: None,
            constraint_histories: Vec::new(),
            constraint_models: Vec::new(),
            fitted_on: None,
            lipschitz: None,
            log: StepLog::default(),
        }
    }

    /// How the batch's later points account for the pending ones.
    pub(super) fn with_batch(mut self, pending: PendingStrategy, bucb_c: f64) -> Self {
        self.pending = pending;
        self.bucb_c = bucb_c;
        self
    }

    fn fit_model(&self, ctx: &mut AskContext<'_>) -> Result<GpModel, AlgorithmError> {
        fit_gp_model(&self.gp, &self.history, self.model.as_ref(), ctx)
    }

    /// Maximises `rule` on `model`'s posterior (under local penalisation, times the penalisers
    /// of `view`, the rule's value taken on `scale`) over the allowed set, or over the unit cube
    /// then mapped to the box; never at a pending point.
    fn maximize_rule<R: PosteriorAcquisition>(
        &mut self,
        model: &GpModel,
        view: &PendingView,
        rule: R,
        scale: PenalizedScale,
        ctx: &mut AskContext<'_>,
    ) -> Result<Vec<f64>, AlgorithmError> {
        let acquisition = GpAcquisition::new(model.state(), rule);
        match view.penalty() {
            Some(penalty) => {
                let penalized = LocallyPenalized::new(acquisition, penalty.clone(), scale);
                self.maximize_acquisition(&penalized, model, ctx)
            }
            None => self.maximize_acquisition(&acquisition, model, ctx),
        }
    }

    /// Maximises `acquisition` over the allowed set or the box: see [`maximize_in_domain`].
    fn maximize_acquisition(
        &mut self,
        acquisition: &dyn AcquisitionFunction,
        model: &GpModel,
        ctx: &mut AskContext<'_>,
    ) -> Result<Vec<f64>, AlgorithmError> {
        maximize_in_domain(acquisition, model, &self.maximize, &mut self.log, ctx)
    }
}

/// Maximises `acquisition` (in `model`'s input units) over the allowed set, or over the unit
/// cube then mapped to the box. A pending point is never proposed again: over the allowed set
/// its rows are ruled out before the argmax; over the box, when the maximiser lands on one, the
/// best refined start elsewhere wins, else the best start's grid point elsewhere. `log`'s cost
/// records the grid's (over an allowed set, its evaluation's) and the refinement's seconds.
pub(crate) fn maximize_in_domain(
    acquisition: &dyn AcquisitionFunction,
    model: &GpModel,
    maximize_config: &MaximizeConfig,
    log: &mut StepLog,
    ctx: &mut AskContext<'_>,
) -> Result<Vec<f64>, AlgorithmError> {
    match ctx.allowed {
        Some(set) => {
            let start = Instant::now();
            let mut values = acquisition.evaluate(ctx.engine, &model.to_model_inputs(set)?)?;
            if !ctx.pending.is_empty() {
                rule_out_pending_rows(&mut values, set, ctx.pending)?;
            }
            let x = set.row(ctx.engine.argmax(&values)?).to_vec();
            log.cost.grid_seconds += start.elapsed().as_secs_f64();
            Ok(x)
        }
        None => {
            let config = MaximizeConfig {
                seed: ctx.rng.random(),
                ..maximize_config.clone()
            };
            let unit = Bounds::cube(0.0, 1.0, ctx.domain.dim())?;
            let best = maximize(acquisition, ctx.engine, ctx.reference, &unit, &config)?;
            log.cost.grid_seconds += best.seconds.grid;
            log.cost.refine_seconds += best.seconds.refine;
            let x = if ctx.pending.is_empty() {
                best.x
            } else {
                away_from_pending(best, &pending_in_model_units(model, ctx.pending)?)?
            };
            Ok(ctx.domain.from_unit(&x))
        }
    }
}

impl GpBo {
    /// The step's model: a fresh fit, or, for a batch's later points, the batch's first fit.
    fn step_model(&self, ctx: &mut AskContext<'_>) -> Result<GpModel, AlgorithmError> {
        match &self.model {
            Some(model)
                if !ctx.pending.is_empty() && self.fitted_on == Some(self.history.len()) =>
            {
                Ok(model.clone())
            }
            _ => self.fit_model(ctx),
        }
    }

    /// GP-UCB's rule at this ask (`None` for EI). Under the Kriging believer with points pending,
    /// the GP-BUCB schedule (Desautels, Krause and Burdick 2014): β is multiplied by `exp(2C)`
    /// (κ by `exp(C)`), and Srinivas et al.'s β is taken at the number of observations told
    /// plus one rather than at the step (the mean uses only told values, the variance the
    /// hallucinated ones). Otherwise κ as in a sequential run.
    fn ucb_rule(
        &self,
        view: &PendingView,
        ctx: &AskContext<'_>,
    ) -> Result<Option<UpperConfidenceBound>, AlgorithmError> {
        let inflation = if view.hallucinates() {
            self.bucb_c.exp()
        } else {
            1.0
        };
        let ucb = match self.acquisition {
            Acquisition::UcbMultiplier(kappa) => UpperConfidenceBound::with_multiplier(kappa)?,
            Acquisition::UcbSrinivas { delta } => {
                let domain_size = match ctx.allowed {
                    Some(set) => set.rows(),
                    None => self.maximize.grid_points(ctx.domain.dim()),
                };
                let schedule = BetaSchedule::Finite {
                    domain_size: domain_size as f64,
                    delta,
                };
                let t = if view.hallucinates() {
                    self.history.len() + 1
                } else {
                    ctx.t
                };
                UpperConfidenceBound::with_schedule(&schedule, t as u64)?
            }
            Acquisition::ExpectedImprovement | Acquisition::QLogNoisyExpectedImprovement { .. } => {
                return Ok(None);
            }
        };
        Ok(Some(if view.hallucinates() {
            UpperConfidenceBound::with_multiplier(ucb.multiplier() * inflation)?
        } else {
            ucb
        }))
    }
}

impl GpBo {
    /// Starts the step's log with the model's fit: its lengthscales (in the problem's units),
    /// random starts and likelihood evaluations.
    fn log_fit(&mut self, model: &GpModel) {
        self.log.extra = Map::new();
        self.log
            .extra
            .insert("lengthscales".into(), json!(model.lengthscales_original()));
        let fit = model.fit_result();
        self.log
            .extra
            .insert("fit_starts".into(), json!(fit.starts));
        self.log
            .extra
            .insert("fit_evaluations".into(), json!(fit.evaluations));
    }

    /// qLogNEI's ask: the real model with the pending points sampled jointly (no believer); on a
    /// constrained problem, with one model per constraint (see [`GpBo::constrained_qlognei`]).
    fn ask_qlognei(
        &mut self,
        ctx: &mut AskContext<'_>,
        samples: usize,
        prune: bool,
        constraint_eta: f64,
    ) -> Result<Proposal, AlgorithmError> {
        let start = Instant::now();
        let reuses_fit = !ctx.pending.is_empty() && self.fitted_on == Some(self.history.len());
        let model = self.step_model(ctx)?;
        let constraint_models = self.step_constraint_models(reuses_fit, ctx)?;
        let pending = pending_in_model_units(&model, ctx.pending)?;
        let room = observed_room(pending.rows());
        let prune = prune || model.state().train().rows() > room;
        let x = if constraint_models.is_empty() {
            let state = model.state();
            let baseline = if prune {
                prune_baseline(state, ctx.engine, PRUNE_SAMPLES, room, ctx.rng.random())?
            } else {
                state.train().clone()
            };
            let base = BaseSamples::sobol(
                samples,
                baseline.rows() + pending.rows() + 1,
                ctx.rng.random(),
            )?;
            let acquisition =
                QLogNoisyExpectedImprovement::new(state, ctx.engine, &baseline, &pending, &base)?;
            self.log.cost.model_seconds += start.elapsed().as_secs_f64();
            let start = Instant::now();
            self.log_fit(&model);
            self.log
                .extra
                .insert("baseline_points".into(), json!(baseline.rows()));
            let x = self.maximize_acquisition(&acquisition, &model, ctx)?;
            self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
            x
        } else {
            let outcomes: Vec<ObjectiveModel<'_>> = std::iter::once(&model)
                .chain(&constraint_models)
                .map(ObjectiveModel::of)
                .collect();
            let baseline = if prune {
                prune_baseline_constrained(
                    &ScalarObjective::Single,
                    &outcomes[..1],
                    &outcomes[1..],
                    ctx.engine,
                    PRUNE_SAMPLES,
                    room,
                    ctx.rng.random(),
                )?
            } else {
                model.state().train().clone()
            };
            let base = outcomes
                .iter()
                .map(|_| {
                    BaseSamples::sobol(
                        samples,
                        baseline.rows() + pending.rows() + 1,
                        ctx.rng.random(),
                    )
                })
                .collect::<Result<Vec<_>, _>>()?;
            let engine = ctx.engine;
            let rng = &mut *ctx.rng;
            let acquisition = ConstrainedQLogNoisyExpectedImprovement::new(
                ScalarObjective::Single,
                &outcomes,
                engine,
                (&baseline, &pending),
                &base,
                ConstrainedSmoothing {
                    eta: constraint_eta,
                    ..ConstrainedSmoothing::default()
                },
                || {
                    let points = draw_lower_bound_points(&[&baseline, &pending], rng)?;
                    objective_lower_bound(
                        &ScalarObjective::Single,
                        &[ObjectiveModel::of(&model)],
                        engine,
                        &points,
                    )
                },
            )?;
            self.log.cost.model_seconds += start.elapsed().as_secs_f64();
            let start = Instant::now();
            self.log_fit(&model);
            self.log
                .extra
                .insert("baseline_points".into(), json!(baseline.rows()));
            let lengthscales: Vec<Vec<f64>> = constraint_models
                .iter()
                .map(GpModel::lengthscales_original)
                .collect();
            self.log
                .extra
                .insert("constraint_lengthscales".into(), json!(lengthscales));
            let infeasible = acquisition.infeasible_value();
            self.log.extra.insert(
                "infeasible_value".into(),
                json!(infeasible.is_finite().then_some(infeasible)),
            );
            let x = self.maximize_acquisition(&acquisition, &model, ctx)?;
            self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
            x
        };
        self.model = Some(model);
        self.constraint_models = constraint_models;
        self.fitted_on = Some(self.history.len());
        Ok(Proposal { x, repeats: 1 })
    }

    /// The constraints' models for this ask: a batch's later asks reuse the batch's first fits
    /// (as [`GpBo::step_model`] does the objective's), otherwise each is refitted, warm-started
    /// at its previous fit, after the objective's. None on an unconstrained problem.
    fn step_constraint_models(
        &self,
        reuses_fit: bool,
        ctx: &mut AskContext<'_>,
    ) -> Result<Vec<GpModel>, AlgorithmError> {
        if reuses_fit && self.constraint_models.len() == self.constraint_histories.len() {
            return Ok(self.constraint_models.clone());
        }
        self.constraint_histories
            .iter()
            .enumerate()
            .map(|(j, history)| fit_gp_model(&self.gp, history, self.constraint_models.get(j), ctx))
            .collect()
    }
}

impl Algorithm for GpBo {
    /// Keeps one history per constraint the problem declares, where the acquisition handles
    /// constraints (the check before the run refuses the others on a constrained problem).
    fn prepare(&mut self, problem: &dyn Problem) -> Result<(), AlgorithmError> {
        if self.handles_constraints() {
            self.constraint_histories = vec![History::default(); problem.constraint_count()];
        }
        Ok(())
    }

    /// qLogNEI (and so `saasbo-map`) takes black-box constraints as BoTorch's does: one GP per
    /// constraint and a smoothed feasibility indicator on the samples.
    fn handles_constraints(&self) -> bool {
        matches!(
            self.acquisition,
            Acquisition::QLogNoisyExpectedImprovement { .. }
        )
    }

    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.history.is_empty() {
            // Nothing to fit a GP to (a run without an initial design): every point looks the
            // same under the prior, so the first one is drawn as random search draws it.
            return Ok(Proposal {
                x: uniform_point(ctx)?,
                repeats: 1,
            });
        }
        if let Acquisition::QLogNoisyExpectedImprovement {
            samples,
            prune,
            constraint_eta,
        } = self.acquisition
        {
            return self.ask_qlognei(ctx, samples, prune, constraint_eta);
        }
        let start = Instant::now();
        let model = self.step_model(ctx)?;
        let best_observed = self
            .history
            .ys()
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let told = self.history.len();
        let known_lipschitz = self
            .lipschitz
            .filter(|(fitted, _)| *fitted == told && self.fitted_on == Some(told))
            .map(|(_, l)| l);
        let view = PendingView::new(self.pending, &model, best_observed, known_lipschitz, ctx)?;
        let scored = view.model(&model);
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();

        let start = Instant::now();
        self.log_fit(&model);
        if let Some(penalty) = view.penalty() {
            self.lipschitz = Some((told, penalty.lipschitz()));
            self.log
                .extra
                .insert("lipschitz".into(), json!(penalty.lipschitz()));
        }
        let x = match self.ucb_rule(&view, ctx)? {
            Some(ucb) => {
                self.log
                    .extra
                    .insert("ucb_multiplier".into(), json!(ucb.multiplier()));
                self.maximize_rule(scored, &view, ucb, PenalizedScale::LogSoftplus, ctx)?
            }
            None => {
                let output = model.output_transform();
                let best = view.incumbent(best_observed);
                self.log.extra.insert("best_f".into(), json!(best));
                self.maximize_rule(
                    scored,
                    &view,
                    LogExpectedImprovement::new(output.forward(best))?,
                    PenalizedScale::Logarithm,
                    ctx,
                )?
            }
        };
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        self.model = Some(model);
        self.fitted_on = Some(self.history.len());
        Ok(Proposal { x, repeats: 1 })
    }

    /// A batch's points are chosen by the Kriging believer (each with the earlier ones
    /// conditioned on at their posterior mean) or by local penalisation around the earlier
    /// ones, as `pending` says; never a pending point again.
    fn accepts_pending(&self) -> bool {
        true
    }

    /// Records the observation and conditions the last fitted model on it (O(n²), same
    /// hyperparameters), so that the recommendation sees every observation, the newest included.
    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        if feedback.constraints.len() != self.constraint_histories.len() {
            return Err(AlgorithmError::Config(format!(
                "a GP method was told {} constraint values; it keeps {} (was it prepared for \
                 its problem?)",
                feedback.constraints.len(),
                self.constraint_histories.len()
            )));
        }
        self.history
            .push_constrained(feedback.x, feedback.y, feedback.constraints);
        if let Some(model) = &mut self.model {
            model.append(feedback.x, feedback.y, None)?;
        }
        for (j, (history, value)) in self
            .constraint_histories
            .iter_mut()
            .zip(feedback.constraints)
            .enumerate()
        {
            history.push(feedback.x, *value);
            if let Some(model) = self.constraint_models.get_mut(j) {
                model.append(feedback.x, *value, None)?;
            }
        }
        Ok(())
    }

    /// The observed point of largest posterior mean under the latest hyperparameters, conditioned
    /// on every observation (the best observed point before any model exists). On a constrained
    /// problem, feasible first: the largest posterior mean among the observed points that
    /// satisfied every constraint, else (none yet) the least violating one.
    fn recommend(&mut self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        let Some(model) = &self.model else {
            return Ok(self.history.best_x());
        };
        let feasible: Vec<usize> = (0..self.history.len())
            .filter(|&i| self.history.is_feasible(i))
            .collect();
        if feasible.is_empty() {
            return Ok(self.history.best_x());
        }
        let rows: Vec<&[f64]> = feasible.iter().map(|&i| self.history.x(i)).collect();
        let best = engine.argmax(&model.predict(engine, &Points::from_rows(&rows)?)?.mean)?;
        Ok(self.history.x(feasible[best]).to_vec())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }

    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        let grid = self.maximize.grid_points(dim);
        (1 + self.constraint_histories.len() as u64) * gp_memory_bytes(budget, dim, grid)
    }
}
