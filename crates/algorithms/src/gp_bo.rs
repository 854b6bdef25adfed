//! GP-based BO baselines: a GP fitted to all data at every step (inputs normalised to the unit
//! cube, outputs standardised), and an acquisition maximised on a Sobol grid with L-BFGS
//! refinement, or over the allowed set when the problem gives one.

use std::time::Instant;

use rand::RngExt;
use serde_json::{Map, json};

use super::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog, gp_memory_bytes,
};
use crate::acquisition::{
    Acquisition as _, BetaSchedule, Bounds, GpAcquisition, LogExpectedImprovement, MaximizeConfig,
    PosteriorAcquisition, UpperConfidenceBound, default_grid_size, maximize,
};
use crate::surrogate::{GpModel, ModelOptions};
use bosweep_core::params::{
    ChoiceParam, FlagParam, IntegerParam, ParamSpec, ParamValue, Params, RealParam,
};
use bosweep_engine::{Engine, Points};
use bosweep_model::{
    Bounds as HyperBounds, FitChoice, FitMode, FitOptions, Kernel, KernelKind, NoiseSpec,
};

/// The acquisition a [`GpBo`] maximises.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Acquisition {
    /// `μ + κ σ` with a constant multiplier κ (`ucb_multiplier`; κ = √β in the
    /// square-root convention).
    UcbMultiplier(f64),
    /// `μ + √β_t σ` with Srinivas et al.'s finite-domain schedule
    /// `β_t = 2 ln(|D| t² π² / (6δ))`, `|D|` the candidate-grid size.
    UcbSrinivas { delta: f64 },
    /// Expected improvement over the best observed value, maximised as log EI (same arg-max,
    /// finite where EI underflows).
    ExpectedImprovement,
}

const KERNEL: ChoiceParam<KernelKind> = ChoiceParam::new(
    "kernel",
    &["se", "matern12", "matern32", "matern52", "rq"],
    &[
        KernelKind::SquaredExponential,
        KernelKind::Matern12,
        KernelKind::Matern32,
        KernelKind::Matern52,
        // The shape is `rq_alpha`'s, set when read.
        KernelKind::RationalQuadratic { alpha: 1.0 },
    ],
    "matern52",
    "covariance kernel (ARD lengthscales)",
);
const RQ_ALPHA: RealParam = RealParam::new(
    "rq_alpha",
    1.0,
    1e-6,
    1e6,
    "shape of the rational-quadratic kernel",
);
const FIT: ChoiceParam<FitChoice> = ChoiceParam::new(
    "fit",
    &FitChoice::NAMES,
    &FitChoice::ALL,
    FitChoice::Map.name(),
    "hyperparameters: ML-II, MAP with BoTorch's Gamma priors, MAP with BoTorch's dimension-scaled priors (Hvarfner et al. 2024), or fixed at the initial values",
);
const LENGTHSCALE: RealParam = RealParam::new(
    "lengthscale",
    0.2,
    1e-6,
    1e6,
    "initial (or fixed) lengthscale, in unit-cube units",
);
const SIGNAL_VAR: RealParam = RealParam::new(
    "signal_var",
    1.0,
    1e-8,
    1e8,
    "initial (or fixed) signal variance, in standardised output units",
);
const NOISE_VAR: RealParam = RealParam::new(
    "noise_var",
    1e-4,
    1e-6,
    10.0,
    "initial (or fixed) noise variance, in standardised output units",
);
const MIN_NOISE_VAR: RealParam = RealParam::new(
    "min_noise_var",
    1e-6,
    1e-12,
    1.0,
    "lower bound of the fitted noise variance, in standardised output units (BoTorch: 1e-4)",
);
const FIT_RESTARTS: IntegerParam = IntegerParam::new(
    "fit_restarts",
    4,
    0,
    1000,
    "random starts of the hyperparameter fit, besides the initial (or warm) one",
);
const WARM_START: FlagParam = FlagParam::new(
    "warm_start",
    true,
    "start each step's hyperparameter fit at the previous step's optimum",
);
const RESTARTS_UNTIL: IntegerParam = IntegerParam::new(
    "restarts_until",
    100,
    0,
    1_000_000_000,
    "with warm_start, the random starts run only while there are at most this many observations; beyond, the warm start alone",
);
/// The GP model's parameters, shared by GP-UCB and EI (the maximiser's follow in the table).
pub(super) const GP_PARAMS: &[ParamSpec] = &[
    KERNEL.spec(),
    RQ_ALPHA.spec(),
    FIT.spec(),
    LENGTHSCALE.spec(),
    SIGNAL_VAR.spec(),
    NOISE_VAR.spec(),
    MIN_NOISE_VAR.spec(),
    FIT_RESTARTS.spec(),
    WARM_START.spec(),
    RESTARTS_UNTIL.spec(),
];

/// How GP-UCB's multiplier is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UcbSchedule {
    Constant,
    Srinivas,
}

const BETA_SCHEDULE: ChoiceParam<UcbSchedule> = ChoiceParam::new(
    "beta_schedule",
    &["constant", "srinivas"],
    &[UcbSchedule::Constant, UcbSchedule::Srinivas],
    "constant",
    "constant: κ = ucb_multiplier; srinivas: κ = √β_t, β_t = 2 ln(|D| t² π² / (6δ)), |D| the grid size",
);
const UCB_MULTIPLIER: RealParam = RealParam::new(
    "ucb_multiplier",
    2.0,
    0.0,
    1e6,
    "κ multiplying σ (the square root of β in the β-under-root convention)",
);
const DELTA: RealParam = RealParam::new(
    "delta",
    0.1,
    1e-12,
    0.999_999,
    "confidence δ of the Srinivas schedule",
);
/// GP-UCB's own parameters.
pub(super) const UCB_PARAMS: &[ParamSpec] =
    &[BETA_SCHEDULE.spec(), UCB_MULTIPLIER.spec(), DELTA.spec()];

impl Acquisition {
    /// GP-UCB's acquisition as its parameters choose it.
    pub(super) fn ucb_of(params: &Params) -> Self {
        match BETA_SCHEDULE.of(params) {
            UcbSchedule::Constant => Self::UcbMultiplier(UCB_MULTIPLIER.of(params)),
            UcbSchedule::Srinivas => Self::UcbSrinivas {
                delta: DELTA.of(params),
            },
        }
    }
}

/// GP-UCB or EI with hyperparameters refitted at every step.
pub struct GpBo {
    params: Params,
    kind: KernelKind,
    initial_lengthscale: f64,
    initial_signal_variance: f64,
    initial_noise_variance: f64,
    min_noise_variance: f64,
    fit: FitChoice,
    fit_restarts: usize,
    warm_start: bool,
    restarts_until: usize,
    acquisition: Acquisition,
    maximize: MaximizeConfig,
    history: History,
    model: Option<GpModel>,
    log: StepLog,
}

impl GpBo {
    /// Builds the algorithm from its checked parameters (see the registry for their meaning).
    pub fn new(params: Params, acquisition: Acquisition) -> Result<Self, AlgorithmError> {
        let kind = match KERNEL.of(&params) {
            KernelKind::RationalQuadratic { .. } => KernelKind::RationalQuadratic {
                alpha: RQ_ALPHA.of(&params),
            },
            kind => kind,
        };
        Ok(Self {
            kind,
            initial_lengthscale: LENGTHSCALE.of(&params),
            initial_signal_variance: SIGNAL_VAR.of(&params),
            initial_noise_variance: NOISE_VAR.of(&params),
            min_noise_variance: MIN_NOISE_VAR.of(&params),
            fit: FIT.of(&params),
            fit_restarts: FIT_RESTARTS.of(&params),
            warm_start: WARM_START.of(&params),
            restarts_until: RESTARTS_UNTIL.of(&params),
            maximize: MaximizeConfig::from_params(&params),
            params,
            acquisition,
            history: History::default(),
            model: None,
            log: StepLog::default(),
        })
    }

    fn fit_model(&self, ctx: &mut AskContext<'_>) -> Result<GpModel, AlgorithmError> {
        let dim = ctx.domain.dim();
        let kernel = Kernel::new(
            self.kind,
            vec![self.initial_lengthscale; dim],
            self.initial_signal_variance,
        )?;
        let ys = self.history.ys();
        let constant = ys.iter().all(|y| *y == ys[0]);
        let mut fit = self.fit_options(dim);
        fit.seed = ctx.rng.random();
        if constant {
            // The likelihood of constant targets grows without bound as the variances shrink:
            // keep the given hyperparameters until the data vary.
            fit.mode = FitMode::Fixed;
        }
        let warm_start = if self.warm_start {
            self.model.as_ref().and_then(GpModel::previous_fit)
        } else {
            None
        };
        if warm_start.is_some() && ys.len() > self.restarts_until {
            fit.random_starts = 0;
        }
        let options = ModelOptions::for_box(ctx.domain.lower(), ctx.domain.upper())?
            .with_fit(fit)
            .with_warm_start(warm_start);
        Ok(GpModel::fit(&self.history.points()?, ys, kernel, &options)?)
    }

    /// The fit of every step in `dim` dimensions, in model units (unit cube, standardised
    /// outputs). The noise variance's floor is `min_noise_var` for every mode: BoTorch's 1e-4
    /// keeps noise-free problems from being located precisely (README, "The default fit").
    fn fit_options(&self, dim: usize) -> FitOptions {
        let defaults = FitOptions::default();
        let base = FitOptions {
            mode: self.fit.mode(dim),
            noise: NoiseSpec::Fitted {
                initial: self.initial_noise_variance,
            },
            noise_bounds: HyperBounds::new(self.min_noise_variance, defaults.noise_bounds.upper),
            random_starts: self.fit_restarts,
            ..defaults
        };
        match self.fit {
            // BoTorch's `GreaterThan(2.5e-2)` on the dimension-scaled lengthscales.
            FitChoice::MapDimensionScaled => FitOptions {
                lengthscale_bounds: HyperBounds::new(0.025, base.lengthscale_bounds.upper),
                ..base
            },
            _ => base,
        }
    }

    /// Maximises `rule` over the allowed set, or over the unit cube then mapped to the box.
    fn maximize_rule<R: PosteriorAcquisition>(
        &self,
        model: &GpModel,
        rule: R,
        ctx: &mut AskContext<'_>,
    ) -> Result<Vec<f64>, AlgorithmError> {
        let acquisition = GpAcquisition::new(model.state(), rule);
        match ctx.allowed {
            Some(set) => {
                let values = acquisition.evaluate(ctx.engine, &model.to_model_inputs(set)?)?;
                Ok(set.row(ctx.engine.argmax(&values)?).to_vec())
            }
            None => {
                let config = MaximizeConfig {
                    seed: ctx.rng.random(),
                    ..self.maximize.clone()
                };
                let unit = Bounds::cube(0.0, 1.0, ctx.domain.dim())?;
                let best = maximize(&acquisition, ctx.engine, ctx.reference, &unit, &config)?;
                Ok(ctx.domain.from_unit(&best.x))
            }
        }
    }
}

impl Algorithm for GpBo {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let start = Instant::now();
        let model = self.fit_model(ctx)?;
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();

        let start = Instant::now();
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
        let x = match self.acquisition {
            Acquisition::UcbMultiplier(kappa) => {
                self.log.extra.insert("ucb_multiplier".into(), json!(kappa));
                self.maximize_rule(&model, UpperConfidenceBound::with_multiplier(kappa)?, ctx)?
            }
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
                let ucb = UpperConfidenceBound::with_schedule(&schedule, ctx.t as u64)?;
                self.log
                    .extra
                    .insert("ucb_multiplier".into(), json!(ucb.multiplier()));
                self.maximize_rule(&model, ucb, ctx)?
            }
            Acquisition::ExpectedImprovement => {
                let output = model.output_transform();
                let best = self
                    .history
                    .ys()
                    .iter()
                    .copied()
                    .fold(f64::NEG_INFINITY, f64::max);
                self.log.extra.insert("best_f".into(), json!(best));
                self.maximize_rule(
                    &model,
                    LogExpectedImprovement::new(output.forward(best))?,
                    ctx,
                )?
            }
        };
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        self.model = Some(model);
        Ok(Proposal { x, repeats: 1 })
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
