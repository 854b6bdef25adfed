//! [`ConstrainedLogEi`]: one GP for the objective and one per constraint, refitted at every
//! step, and log EI weighted by the probability of feasibility maximised; a batch's later
//! points under the Kriging believer of every model.

use std::time::Instant;

use serde_json::{Map, json};

use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::Engine;
use bosweep_problems::Problem;
use bosweep_toolkit::acquisition::{
    LogConstrainedExpectedImprovement, MaximizeConfig, ObjectiveModel,
};
use bosweep_toolkit::pending::believer;
use bosweep_toolkit::surrogate::GpModel;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, GpSettings, History, Proposal, StepLog,
    fit_gp_model, gp_memory_bytes, uniform_point,
};

use crate::gp_bo::maximize_in_domain;

/// LogEI × probability of feasibility on independent GPs: the objective's and one per
/// constraint, each BoTorch's default model with its own standardisation.
pub struct ConstrainedLogEi {
    /// The checked parameters the algorithm was built from, for the trace header.
    params: Params,
    gp: GpSettings,
    maximize: MaximizeConfig,
    /// The objective's observations (maximisation sense) with their constraint values, so
    /// that [`History::best`] recommends feasible first.
    history: History,
    /// Each constraint's observations, as observed (feasible where ≤ 0); one per constraint the
    /// problem declares (none on an unconstrained problem).
    constraint_histories: Vec<History>,
    /// The objective's model of the last fit, where one was fitted (a warm start for the next).
    objective_model: Option<GpModel>,
    /// The constraints' models of the last fit, one per constraint.
    constraint_models: Vec<GpModel>,
    /// Observations the models were fitted on by the last ask, while no value has been told
    /// since: a batch's later asks reuse those fits.
    fitted_on: Option<usize>,
    log: StepLog,
}

impl ConstrainedLogEi {
    pub(super) fn new(params: Params, gp: GpSettings, maximize: MaximizeConfig) -> Self {
        Self {
            params,
            gp,
            maximize,
            history: History::default(),
            constraint_histories: Vec::new(),
            objective_model: None,
            constraint_models: Vec::new(),
            fitted_on: None,
            log: StepLog::default(),
        }
    }

    /// The incumbent of EI: the best objective value among the feasible observations (`None`
    /// while none is feasible).
    fn best_feasible(&self) -> Option<f64> {
        self.history
            .best()
            .filter(|&i| self.history.is_feasible(i))
            .map(|i| self.history.ys()[i])
    }

    /// The step's models: the objective's where there is an incumbent to improve on, and every
    /// constraint's, each warm-started at its previous fit. The objective is fitted first, so
    /// that without constraints the fit draws what `logei`'s does. A batch's later asks reuse
    /// the batch's first fits.
    fn fit_models(
        &self,
        fit_objective: bool,
        ctx: &mut AskContext<'_>,
    ) -> Result<(Option<GpModel>, Vec<GpModel>), AlgorithmError> {
        let reuse = !ctx.pending.is_empty() && self.fitted_on == Some(self.history.len());
        if reuse && (self.objective_model.is_some() || !fit_objective) {
            let objective = if fit_objective {
                self.objective_model.clone()
            } else {
                None
            };
            return Ok((objective, self.constraint_models.clone()));
        }
        let objective = if fit_objective {
            Some(fit_gp_model(
                &self.gp,
                &self.history,
                self.objective_model.as_ref(),
                ctx,
            )?)
        } else {
            None
        };
        let constraints = self
            .constraint_histories
            .iter()
            .enumerate()
            .map(|(j, history)| fit_gp_model(&self.gp, history, self.constraint_models.get(j), ctx))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((objective, constraints))
    }

    /// Starts the step's log: the incumbent and every model's lengthscales (problem units).
    fn log_fit(&mut self, best: Option<f64>, objective: Option<&GpModel>, constraints: &[GpModel]) {
        self.log.extra = Map::new();
        self.log.extra.insert("best_f".into(), json!(best));
        if let Some(model) = objective {
            self.log
                .extra
                .insert("lengthscales".into(), json!(model.lengthscales_original()));
        }
        if !constraints.is_empty() {
            let lengthscales: Vec<Vec<f64>> = constraints
                .iter()
                .map(GpModel::lengthscales_original)
                .collect();
            self.log
                .extra
                .insert("constraint_lengthscales".into(), json!(lengthscales));
        }
    }
}

/// The Kriging believers of a batch's later ask: the objective's (where it was fitted) and each
/// constraint's.
struct Believed {
    objective: Option<GpModel>,
    constraints: Vec<GpModel>,
}

impl ConstrainedLogEi {
    /// A batch's later points: every model (the objective's, where fitted, and each
    /// constraint's) conditioned on the pending points at its posterior means, the Kriging
    /// believer (Ginsbourger et al. 2010) of each outcome, and the incumbent updated by the
    /// pending points believed feasible (every believed constraint value ≤ 0) and better.
    /// `None` (the fitted models) with nothing pending.
    fn believe_pending(
        &self,
        objective: Option<&GpModel>,
        constraints: &[GpModel],
        best: Option<f64>,
        ctx: &AskContext<'_>,
    ) -> Result<(Option<Believed>, Option<f64>), AlgorithmError> {
        if ctx.pending.is_empty() {
            return Ok((None, best));
        }
        let mut believed_constraints = Vec::with_capacity(constraints.len());
        let mut feasible = vec![true; ctx.pending.len()];
        for model in constraints {
            let (believer, values) = believer(model, ctx)?;
            for (f, v) in feasible.iter_mut().zip(&values) {
                *f &= *v <= 0.0;
            }
            believed_constraints.push(believer);
        }
        let (believed_objective, best) = match objective {
            Some(model) => {
                let (believer, values) = believer(model, ctx)?;
                let best = values
                    .iter()
                    .zip(&feasible)
                    .filter(|(_, f)| **f)
                    .map(|(v, _)| *v)
                    .fold(best, |b, v| Some(b.map_or(v, |b| b.max(v))));
                (Some(believer), best)
            }
            None => (None, best),
        };
        let believed = Believed {
            objective: believed_objective,
            constraints: believed_constraints,
        };
        Ok((Some(believed), best))
    }
}

impl Algorithm for ConstrainedLogEi {
    /// Keeps one history per constraint the problem declares.
    fn prepare(&mut self, problem: &dyn Problem) -> Result<(), AlgorithmError> {
        self.constraint_histories = vec![History::default(); problem.constraint_count()];
        Ok(())
    }

    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.history.is_empty() {
            // Nothing to fit a GP to: every point looks the same under the prior.
            return Ok(Proposal {
                x: uniform_point(ctx)?,
                repeats: 1,
            });
        }
        let start = Instant::now();
        let best = self.best_feasible();
        let (objective, constraints) = self.fit_models(best.is_some(), ctx)?;
        let (believed, best) = self.believe_pending(objective.as_ref(), &constraints, best, ctx)?;
        let (believed_objective, believed_constraints) = match &believed {
            Some(believed) => (believed.objective.as_ref(), believed.constraints.as_slice()),
            None => (objective.as_ref(), constraints.as_slice()),
        };
        let constraint_outputs: Vec<ObjectiveModel<'_>> = believed_constraints
            .iter()
            .map(ObjectiveModel::of)
            .collect();
        // `inputs`: a model whose input transform (the box's, every model's) maps the candidates.
        let (acquisition, inputs) = match (believed_objective, best) {
            (Some(model), Some(best)) => (
                LogConstrainedExpectedImprovement::new(
                    ObjectiveModel::of(model),
                    best,
                    &constraint_outputs,
                )?,
                model,
            ),
            // No feasible point yet: the probability of feasibility alone (Gelbart et al.).
            _ => match believed_constraints.first() {
                Some(model) => (
                    LogConstrainedExpectedImprovement::feasibility(&constraint_outputs)?,
                    model,
                ),
                // Every observation of a problem without constraints is feasible.
                None => {
                    return Err(AlgorithmError::Config(
                        "logei-pof: no feasible observation, yet no constraint was declared \
                         (was the algorithm prepared for its problem?)"
                            .into(),
                    ));
                }
            },
        };
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();

        let start = Instant::now();
        self.log_fit(best, objective.as_ref(), &constraints);
        let x = maximize_in_domain(&acquisition, inputs, &self.maximize, &mut self.log, ctx)?;
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        drop(acquisition);
        drop(believed);
        self.objective_model = objective;
        self.constraint_models = constraints;
        self.fitted_on = Some(self.history.len());
        Ok(Proposal { x, repeats: 1 })
    }

    fn handles_constraints(&self) -> bool {
        true
    }

    /// A batch's later points are chosen under the Kriging believer of every model, never a
    /// pending point again.
    fn accepts_pending(&self) -> bool {
        true
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        if feedback.constraints.len() != self.constraint_histories.len() {
            return Err(AlgorithmError::Config(format!(
                "logei-pof was told {} constraint values for a problem of {}",
                feedback.constraints.len(),
                self.constraint_histories.len()
            )));
        }
        self.history
            .push_constrained(feedback.x, feedback.y, feedback.constraints);
        for (history, value) in self
            .constraint_histories
            .iter_mut()
            .zip(feedback.constraints)
        {
            history.push(feedback.x, *value);
        }
        Ok(())
    }

    /// Feasible first: the best feasible observed point, else (none feasible yet) the least
    /// violating one.
    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        Ok(self.history.best_x())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }

    /// One GP's memory for the objective and for each constraint.
    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        let grid = self.maximize.grid_points(dim);
        let models = 1 + self.constraint_histories.len() as u64;
        models * gp_memory_bytes(budget, dim, grid)
    }
}
