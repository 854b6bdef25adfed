//! GP-based BO baselines: a GP fitted to all data at every step (inputs normalised to the unit
//! cube, outputs standardised), and an acquisition maximised on a Sobol grid with L-BFGS
//! refinement, or over the allowed set when the problem gives one. A batch's later points
//! account for the pending ones as [`PendingStrategy`] says.

#[cfg(test)]
mod tests;

use std::time::Instant;

use rand::RngExt;
use serde_json::{Map, json};

use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::{Engine, Points};
use bosweep_toolkit::acquisition::{
    Acquisition as AcquisitionFunction, BaseSamples, BetaSchedule, Bounds, GpAcquisition,
    LocallyPenalized, LogExpectedImprovement, MAX_SOBOL_DIM, MaximizeConfig, MaximizerSettings,
    PRUNE_SAMPLES, PenalizedScale, PosteriorAcquisition, QLogNoisyExpectedImprovement,
    UpperConfidenceBound, default_grid_size, maximize, prune_baseline,
};
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::pending::{
    PendingStrategy, PendingView, away_from_pending, pending_in_model_units,
};
use bosweep_toolkit::rule_out_pending_rows;
use bosweep_toolkit::surrogate::GpModel;
use bosweep_toolkit::uniform_point;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, Requirement, StepLog,
    gp_memory_bytes,
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
    /// qLogNEI over the observed points with the pending ones (see [`QLogNei`]).
    QLogNoisyExpectedImprovement {
        /// Quasi-Monte Carlo samples of the joint posterior.
        samples: usize,
        /// Sample only the observed points that could be the best.
        prune: bool,
    },
}

bosweep_core::choices! {
    /// How GP-UCB's multiplier κ of σ is chosen.
    pub enum UcbSchedule {
        /// A constant κ (`ucb_multiplier`; κ = √β in the square-root convention).
        Constant = "constant",
        /// κ = √β_t with Srinivas et al.'s finite-domain β_t = 2 ln(|D| t² π² / (6δ)), `|D|`
        /// the candidate-grid size and δ `delta`.
        Srinivas = "srinivas",
    }
}

/// The settings of a GP method that takes points while others are pending (`gp-ucb`, `ei`,
/// `logei`): the GP model (with `$gp` its defaults) and the maximiser, the method's own `$extra`
/// fields, then how a batch's later points account for the pending ones, declared once for all.
macro_rules! batch_gp_settings {
    ($(#[$doc:meta])* $settings:ident, $gp:expr, { $($extra:tt)* }) => {
        bosweep_core::settings! {
            $(#[$doc])*
            pub struct $settings {
                /// The GP model and its fit.
                gp: GpSettings = $gp => {},
                /// The Sobol grid and L-BFGS refinement that maximise the acquisition.
                maximizer: MaximizerSettings = MaximizerSettings::default() => {},
                $($extra)*
                pending: PendingStrategy = PendingStrategy::KrigingBeliever => (
                    "how a batch's later points account for the pending ones: believer: the Kriging believer (pending points conditioned on at their posterior mean; Ginsbourger et al. 2010); penalize: the acquisition times local penalisers around them (González et al. 2016)"
                ),
            }
        }
    };
}

batch_gp_settings! {
    /// Typed settings of GP-UCB (`gp-ucb`): `μ + κσ` maximised over a Sobol grid with L-BFGS
    /// refinement, the GP refitted at every step.
    ///
    /// ```
    /// use bosweep_algorithms::GpUcb;
    /// use bosweep_model::KernelFamily;
    ///
    /// let settings = GpUcb::default()
    ///     .ucb_multiplier(1.0)
    ///     .gp(|gp| gp.kernel(KernelFamily::Matern32));
    /// assert_eq!(settings.gp.kernel, KernelFamily::Matern32);
    /// ```
    GpUcb, GpSettings::default(), {
        beta_schedule: UcbSchedule = UcbSchedule::Constant => (
            "constant: κ = ucb_multiplier; srinivas: κ = √β_t, β_t = 2 ln(|D| t² π² / (6δ)), |D| the grid size"
        ),
        ucb_multiplier: f64 = 2.0 => (
            "κ multiplying σ (the square root of β in the β-under-root convention)",
            0.0,
            1e6
        ),
        delta: f64 = 0.1 => ("confidence δ of the Srinivas schedule", 1e-12, 0.999_999),
        /// (Desautels, Krause and Burdick 2014): C bounds the information the pending points
        /// carry. It does not apply with nothing pending (the information of an empty set is
        /// 0), nor under local penalisation (the schedule is for the hallucinated model).
        bucb_c: f64 = 0.1 => (
            "C of the GP-BUCB batch schedule: with points pending, β is multiplied by exp(2C)",
            0.0,
            10.0
        ),
    }
}

impl GpUcb {
    fn acquisition(&self) -> Acquisition {
        match self.beta_schedule {
            UcbSchedule::Constant => Acquisition::UcbMultiplier(self.ucb_multiplier),
            UcbSchedule::Srinivas => Acquisition::UcbSrinivas { delta: self.delta },
        }
    }
}

impl Method for GpUcb {
    const NAME: &'static str = "gp-ucb";
    const DESCRIPTION: &'static str = "GP upper confidence bound μ + κσ (constant κ = ucb_multiplier, or κ = √β_t of Srinivas et al.)";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let acquisition = self.acquisition();
        Ok(Box::new(
            GpBo::new(params, self.gp, &self.maximizer, acquisition)
                .with_batch(self.pending, self.bucb_c),
        ))
    }
}

/// An EI method's typed settings (`ei`, `logei`): the GP model, the maximiser and the
/// pending-point strategy; the two differ in the model's defaults only.
macro_rules! ei_settings {
    ($(#[$doc:meta])* $settings:ident, $name:literal, $description:literal, $gp:expr) => {
        batch_gp_settings! {
            $(#[$doc])*
            $settings, $gp, {}
        }

        impl Method for $settings {
            const NAME: &'static str = $name;
            const DESCRIPTION: &'static str = $description;
            const REQUIRES: Requirement = Requirement::Any;

            fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
                Ok(Box::new(
                    GpBo::new(params, self.gp, &self.maximizer, Acquisition::ExpectedImprovement)
                        .with_batch(self.pending, 0.0),
                ))
            }
        }
    };
}

ei_settings!(
    /// Typed settings of EI (`ei`): expected improvement over the best observation, maximised
    /// as log EI over a Sobol grid with L-BFGS refinement, the GP refitted at every step.
    Ei,
    "ei",
    "GP expected improvement over the best observation (maximised as log EI)",
    GpSettings::default()
);

ei_settings!(
    /// Typed settings of LogEI (`logei`; Ament et al., NeurIPS 2023): log expected improvement
    /// over the best observation on BoTorch's default GP model, the configuration a BoTorch user
    /// runs with `LogExpectedImprovement`: MAP hyperparameters under the dimension-scaled priors
    /// (Hvarfner et al. 2024) and a noise-variance floor of 1e-4 ([`GpSettings::botorch`]),
    /// maximised like [`Ei`].
    ///
    /// LogEI's value is [`LogExpectedImprovement`]'s, whose `ln h(z)` has Ament et al.'s
    /// branches (direct above the incumbent's neighbourhood; below, the Mills ratio without
    /// cancellation, tending to their asymptote `−z²/2 − ln √(2π) − 2 ln|z|`). EI (`ei`)
    /// maximises the same value; the two methods differ in the model's defaults only.
    ///
    /// ```
    /// use bosweep_algorithms::{Ei, LogEi};
    /// use bosweep_model::FitChoice;
    ///
    /// assert_eq!(LogEi::default().gp.fit, FitChoice::MapDimensionScaled);
    /// assert_eq!(LogEi::default().gp.min_noise_var, 1e-4);
    /// assert_eq!(Ei::default().gp.fit, FitChoice::Map);
    /// ```
    LogEi,
    "logei",
    "LogEI (Ament et al. 2023): log expected improvement on BoTorch's default GP model (dimension-scaled priors, noise variance ≥ 1e-4)",
    GpSettings::botorch()
);

bosweep_core::settings! {
    /// Typed settings of qLogNEI (`qlognei`; Ament et al., NeurIPS 2023): BoTorch's default
    /// acquisition, `qLogNoisyExpectedImprovement`, on BoTorch's default GP model (as
    /// [`LogEi`]). The joint posterior of the observed points (pruned to those that could be
    /// the best), the pending points and a candidate is sampled with scrambled-Sobol normal base
    /// samples drawn once per step; the smoothed log improvement over each sample's best
    /// observed value is maximised smoothly over the candidate and the pending points and
    /// averaged over the samples in log space. A batch is built point by point, each new point
    /// maximising the joint value with the earlier ones pending (BoTorch's sequential greedy
    /// optimisation), so pending points need no believer or penaliser.
    pub struct QLogNei {
        /// The GP model and its fit (BoTorch's defaults).
        gp: GpSettings = GpSettings::botorch() => {},
        /// The Sobol grid and L-BFGS refinement that maximise the acquisition.
        maximizer: MaximizerSettings = MaximizerSettings::default() => {},
        mc_samples: usize = bosweep_toolkit::acquisition::MC_SAMPLES => (
            "quasi-Monte Carlo samples of the joint posterior (fixed within a step)",
            1,
            65_536
        ),
        prune_baseline: bool = true => (
            "sample only the observed points that are the best in some of 2048 posterior draws (BoTorch's prune_inferior_points)"
        ),
    }
}

impl Method for QLogNei {
    const NAME: &'static str = "qlognei";
    const DESCRIPTION: &'static str = "qLogNEI (Ament et al. 2023), BoTorch's default acquisition: the noisy batch LogEI over QMC samples of the joint posterior, on BoTorch's default GP model; batches point by point with the pending points sampled jointly";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let acquisition = Acquisition::QLogNoisyExpectedImprovement {
            samples: self.mc_samples,
            prune: self.prune_baseline,
        };
        Ok(Box::new(GpBo::new(
            params,
            self.gp,
            &self.maximizer,
            acquisition,
        )))
    }
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
    /// Observations `model` was fitted on by the last ask, while no value has been told since:
    /// the later asks of a batch reuse that fit instead of refitting on the same data.
    fitted_on: Option<usize>,
    /// The Lipschitz constant local penalisation estimated on the model fitted on this many
    /// observations: a batch's later asks, which share the model, share it too.
    lipschitz: Option<(usize, f64)>,
    log: StepLog,
}

impl GpBo {
    fn new(
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
            fitted_on: None,
            lipschitz: None,
            log: StepLog::default(),
        }
    }

    /// How the batch's later points account for the pending ones.
    fn with_batch(mut self, pending: PendingStrategy, bucb_c: f64) -> Self {
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
        &self,
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

    /// Maximises `acquisition` (in `model`'s input units) over the allowed set, or over the
    /// unit cube then mapped to the box. A pending point is never proposed again: over the
    /// allowed set its rows are ruled out before the argmax; over the box, when the maximiser
    /// lands on one, the best refined start elsewhere wins, else the best start's grid point
    /// elsewhere.
    fn maximize_acquisition(
        &self,
        acquisition: &dyn AcquisitionFunction,
        model: &GpModel,
        ctx: &mut AskContext<'_>,
    ) -> Result<Vec<f64>, AlgorithmError> {
        match ctx.allowed {
            Some(set) => {
                let mut values = acquisition.evaluate(ctx.engine, &model.to_model_inputs(set)?)?;
                if !ctx.pending.is_empty() {
                    rule_out_pending_rows(&mut values, set, ctx.pending)?;
                }
                Ok(set.row(ctx.engine.argmax(&values)?).to_vec())
            }
            None => {
                let config = MaximizeConfig {
                    seed: ctx.rng.random(),
                    ..self.maximize.clone()
                };
                let unit = Bounds::cube(0.0, 1.0, ctx.domain.dim())?;
                let best = maximize(acquisition, ctx.engine, ctx.reference, &unit, &config)?;
                let x = if ctx.pending.is_empty() {
                    best.x
                } else {
                    away_from_pending(best, &pending_in_model_units(model, ctx.pending)?)?
                };
                Ok(ctx.domain.from_unit(&x))
            }
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
                    None => self
                        .maximize
                        .grid_size
                        .unwrap_or_else(|| default_grid_size(ctx.domain.dim())),
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

    /// qLogNEI's ask: the real model with the pending points sampled jointly (no believer).
    fn ask_qlognei(
        &mut self,
        ctx: &mut AskContext<'_>,
        samples: usize,
        prune: bool,
    ) -> Result<Proposal, AlgorithmError> {
        let start = Instant::now();
        let model = self.step_model(ctx)?;
        let state = model.state();
        let dim = ctx.domain.dim();
        let pending = if ctx.pending.is_empty() {
            Points::new(Vec::new(), dim)?
        } else {
            pending_in_model_units(&model, ctx.pending)?
        };
        // The joint sample's dimension is bounded by the quasi-random sequence's.
        let room = MAX_SOBOL_DIM.saturating_sub(1 + pending.rows());
        let observed = state.train();
        let baseline = if prune || observed.rows() > room {
            prune_baseline(state, ctx.engine, PRUNE_SAMPLES, room, ctx.rng.random())?
        } else {
            observed.clone()
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
        self.model = Some(model);
        self.fitted_on = Some(self.history.len());
        Ok(Proposal { x, repeats: 1 })
    }
}

impl Algorithm for GpBo {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.history.is_empty() {
            // Nothing to fit a GP to (a run without an initial design): every point looks the
            // same under the prior, so the first one is drawn as random search draws it.
            return Ok(Proposal {
                x: uniform_point(ctx)?,
                repeats: 1,
            });
        }
        if let Acquisition::QLogNoisyExpectedImprovement { samples, prune } = self.acquisition {
            return self.ask_qlognei(ctx, samples, prune);
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
        self.history.push(feedback.x, feedback.y);
        if let Some(model) = &mut self.model {
            model.append(feedback.x, feedback.y, None)?;
        }
        Ok(())
    }

    /// The observed point of largest posterior mean under the latest hyperparameters, conditioned
    /// on every observation (the best observed point before any model exists).
    fn recommend(&mut self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        match &self.model {
            Some(model) => {
                let observed: Points = self.history.points()?;
                let best = engine.argmax(&model.predict(engine, &observed)?.mean)?;
                Ok(self.history.x(best).to_vec())
            }
            None => Ok(self.history.best_x()),
        }
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }

    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        let grid = self
            .maximize
            .grid_size
            .unwrap_or_else(|| default_grid_size(dim));
        gp_memory_bytes(budget, dim, grid)
    }
}
