//! GP-based BO baselines: a GP fitted to all data at every step (inputs normalised to the unit
//! cube, outputs standardised), and an acquisition maximised on a Sobol grid with L-BFGS
//! refinement, or over the allowed set when the problem gives one. A batch's later points
//! account for the pending ones as [`PendingStrategy`] says.

mod pending;
#[cfg(test)]
mod tests;

use std::time::Instant;

use rand::RngExt;
use serde_json::{Map, json};

use super::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog, gp_memory_bytes,
};
use crate::acquisition::{
    Acquisition as AcquisitionFunction, BaseSamples, BetaSchedule, Bounds, GpAcquisition,
    LocallyPenalized, LogExpectedImprovement, MAX_SOBOL_DIM, MAXIMIZER_PARAMS, MaximizeConfig,
    MaximizerSettings, PRUNE_SAMPLES, PenalizedScale, PosteriorAcquisition,
    QLogNoisyExpectedImprovement, UpperConfidenceBound, default_grid_size, maximize,
    prune_baseline,
};
use crate::optimizer::AlgorithmSettings;
use crate::pending_rows::rule_out_pending_rows;
use crate::random::uniform_point;
use crate::surrogate::{GpModel, ModelOptions};
use bosweep_core::params::{
    ChoiceParam, FlagParam, IntegerParam, ParamSpec, ParamTable, ParamValue, Params, RealParam,
};
use bosweep_engine::{Engine, Points};
use bosweep_model::{
    Bounds as HyperBounds, FitChoice, FitMode, FitOptions, Kernel, KernelKind, NoiseSpec,
};
pub use pending::PendingStrategy;
use pending::{PendingView, away_from_pending, pending_in_model_units};

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

/// LogEI's fit: BoTorch's default since 0.12, the dimension-scaled priors.
const BOTORCH_FIT: ChoiceParam<FitChoice> = ChoiceParam::new(
    "fit",
    &FitChoice::NAMES,
    &FitChoice::ALL,
    FitChoice::MapDimensionScaled.name(),
    FIT.spec().description,
);
/// LogEI's noise floor: BoTorch's `GreaterThan(1e-4)` on the standardised noise variance.
const BOTORCH_MIN_NOISE_VAR: RealParam = RealParam::new(
    "min_noise_var",
    1e-4,
    1e-12,
    1.0,
    MIN_NOISE_VAR.spec().description,
);
/// The GP model's parameters for LogEI: [`GP_PARAMS`] with BoTorch's default model (its fit and
/// noise floor), the model LogEI runs on in BoTorch.
pub(super) const BOTORCH_GP_PARAMS: &[ParamSpec] = &[
    KERNEL.spec(),
    RQ_ALPHA.spec(),
    BOTORCH_FIT.spec(),
    LENGTHSCALE.spec(),
    SIGNAL_VAR.spec(),
    NOISE_VAR.spec(),
    BOTORCH_MIN_NOISE_VAR.spec(),
    FIT_RESTARTS.spec(),
    WARM_START.spec(),
    RESTARTS_UNTIL.spec(),
];

/// The words of GP-UCB's `beta_schedule`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScheduleWord {
    Constant,
    Srinivas,
}

const BETA_SCHEDULE: ChoiceParam<ScheduleWord> = ChoiceParam::new(
    "beta_schedule",
    &["constant", "srinivas"],
    &[ScheduleWord::Constant, ScheduleWord::Srinivas],
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
const BUCB_C: RealParam = RealParam::new(
    "bucb_c",
    0.1,
    0.0,
    10.0,
    "C of the GP-BUCB batch schedule: with points pending, β is multiplied by exp(2C)",
);
/// GP-UCB's own parameters.
pub(super) const UCB_PARAMS: &[ParamSpec] = &[
    BETA_SCHEDULE.spec(),
    UCB_MULTIPLIER.spec(),
    DELTA.spec(),
    BUCB_C.spec(),
];

const MC_SAMPLES: IntegerParam = IntegerParam::new(
    "mc_samples",
    crate::acquisition::MC_SAMPLES,
    1,
    65_536,
    "quasi-Monte Carlo samples of the joint posterior (fixed within a step)",
);
const PRUNE_BASELINE: FlagParam = FlagParam::new(
    "prune_baseline",
    true,
    "sample only the observed points that are the best in some of 2048 posterior draws (BoTorch's prune_inferior_points)",
);
/// qLogNEI's own parameters.
pub(super) const QLOGNEI_PARAMS: &[ParamSpec] = &[MC_SAMPLES.spec(), PRUNE_BASELINE.spec()];

const PENDING: ChoiceParam<PendingStrategy> = ChoiceParam::new(
    "pending",
    &["believer", "penalize"],
    &[
        PendingStrategy::KrigingBeliever,
        PendingStrategy::LocalPenalization,
    ],
    "believer",
    "how a batch's later points account for the pending ones: believer: the Kriging believer (pending points conditioned on at their posterior mean; Ginsbourger et al. 2010); penalize: the acquisition times local penalisers around them (González et al. 2016)",
);
/// The batch parameters of GP-UCB and EI.
pub(super) const PENDING_PARAMS: &[ParamSpec] = &[PENDING.spec()];

/// The GP model of GP-UCB and EI: its kernel, how its hyperparameters are chosen at every
/// step, and their initial values (in model units: unit-cube inputs, standardised outputs).
/// The defaults are the registry's (`bosweep list`).
#[derive(Clone, Debug, PartialEq)]
pub struct GpSettings {
    /// Covariance kernel with ARD lengthscales; a rational-quadratic kernel carries its shape.
    pub kernel: KernelKind,
    /// How the hyperparameters are chosen at every step (fixed, ML-II or MAP).
    pub fit: FitChoice,
    /// Initial (or fixed) lengthscale in every dimension.
    pub lengthscale: f64,
    /// Initial (or fixed) signal variance.
    pub signal_var: f64,
    /// Initial (or fixed) noise variance.
    pub noise_var: f64,
    /// Lower bound of the fitted noise variance.
    pub min_noise_var: f64,
    /// Random starts of the fit besides the initial (or warm) one.
    pub fit_restarts: usize,
    /// Start each step's fit at the previous step's optimum.
    pub warm_start: bool,
    /// With `warm_start`, the random starts run only up to this many observations.
    pub restarts_until: usize,
}

impl Default for GpSettings {
    fn default() -> Self {
        Self::from_params(&Params::defaults("algorithm", "gp", GP_PARAMS))
    }
}

impl GpSettings {
    pub(super) fn from_params(params: &Params) -> Self {
        let kernel = match KERNEL.of(params) {
            KernelKind::RationalQuadratic { .. } => KernelKind::RationalQuadratic {
                alpha: RQ_ALPHA.of(params),
            },
            kind => kind,
        };
        Self {
            kernel,
            fit: FIT.of(params),
            lengthscale: LENGTHSCALE.of(params),
            signal_var: SIGNAL_VAR.of(params),
            noise_var: NOISE_VAR.of(params),
            min_noise_var: MIN_NOISE_VAR.of(params),
            fit_restarts: FIT_RESTARTS.of(params),
            warm_start: WARM_START.of(params),
            restarts_until: RESTARTS_UNTIL.of(params),
        }
    }

    /// The fit of every step in `dim` dimensions, in model units (unit cube, standardised
    /// outputs). The noise variance's floor is `min_noise_var` for every mode: BoTorch's 1e-4
    /// keeps noise-free problems from being located precisely (docs/algorithms/baselines.md, "Why MAP is the default").
    fn fit_options(&self, dim: usize) -> FitOptions {
        let defaults = FitOptions::default();
        let base = FitOptions {
            mode: self.fit.mode(dim),
            noise: NoiseSpec::Fitted {
                initial: self.noise_var,
            },
            noise_bounds: HyperBounds::new(self.min_noise_var, defaults.noise_bounds.upper),
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

    /// The settings as given parameters, the inverse of [`GpSettings::from_params`].
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        let mut given = match self.kernel {
            // The registry's word stands for any shape; the shape is `rq_alpha`.
            KernelKind::RationalQuadratic { alpha } => vec![
                KERNEL.given(KernelKind::RationalQuadratic { alpha: 1.0 }),
                RQ_ALPHA.given(alpha),
            ],
            kind => vec![KERNEL.given(kind)],
        };
        given.extend([
            FIT.given(self.fit),
            LENGTHSCALE.given(self.lengthscale),
            SIGNAL_VAR.given(self.signal_var),
            NOISE_VAR.given(self.noise_var),
            MIN_NOISE_VAR.given(self.min_noise_var),
            FIT_RESTARTS.given(self.fit_restarts),
            WARM_START.given(self.warm_start),
            RESTARTS_UNTIL.given(self.restarts_until),
        ]);
        given
    }
}

/// GP-UCB's multiplier of σ.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UcbSchedule {
    /// A constant κ (`ucb_multiplier`; κ = √β in the square-root convention).
    Constant {
        /// κ ≥ 0.
        multiplier: f64,
    },
    /// κ = √β_t with Srinivas et al.'s finite-domain β_t = 2 ln(|D| t² π² / (6δ)), `|D|` the
    /// candidate-grid size.
    Srinivas {
        /// Confidence δ in (0, 1).
        delta: f64,
    },
}

/// The setters every GP-based settings type with `gp: GpSettings` and
/// `maximizer: MaximizerSettings` fields offers, written once.
macro_rules! gp_model_setters {
    ($($settings:ty),+) => {$(
        impl $settings {
            /// The covariance kernel.
            pub fn kernel(mut self, kernel: KernelKind) -> Self {
                self.gp.kernel = kernel;
                self
            }

            /// How the hyperparameters are chosen at every step.
            pub fn fit(mut self, fit: FitChoice) -> Self {
                self.gp.fit = fit;
                self
            }

            /// Sobol candidates per step.
            pub fn grid_size(mut self, points: usize) -> Self {
                self.maximizer.grid_size = Some(points);
                self
            }
        }
    )+};
}

/// Typed settings of GP-UCB (`gp-ucb`): `μ + κσ` maximised over a Sobol grid with L-BFGS
/// refinement, the GP refitted at every step.
///
/// ```
/// use bosweep_algorithms::GpUcb;
/// use bosweep_model::KernelKind;
///
/// let settings = GpUcb::default().ucb_multiplier(1.0).kernel(KernelKind::Matern32);
/// assert_eq!(settings.gp.kernel, KernelKind::Matern32);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct GpUcb {
    /// The GP model and its fit.
    pub gp: GpSettings,
    /// The Sobol grid and L-BFGS refinement that maximise the acquisition.
    pub maximizer: MaximizerSettings,
    /// The multiplier of σ.
    pub schedule: UcbSchedule,
    /// How a batch's later points account for the pending ones.
    pub pending: PendingStrategy,
    /// C of the GP-BUCB schedule (Desautels, Krause and Burdick 2014): under the Kriging
    /// believer, while points are pending, β is multiplied by `exp(2C)` (κ by `exp(C)`), C
    /// bounding the information the pending points carry. It does not apply with nothing
    /// pending (the information of an empty set is 0), nor under local penalisation (the
    /// schedule is for the hallucinated model).
    pub bucb_c: f64,
}

impl Default for GpUcb {
    fn default() -> Self {
        Self::from_params(&Params::defaults(
            "algorithm",
            "gp-ucb",
            &ParamTable(&[GP_PARAMS, MAXIMIZER_PARAMS, UCB_PARAMS, PENDING_PARAMS]).to_vec(),
        ))
    }
}

impl GpUcb {
    /// A constant multiplier κ of σ.
    pub fn ucb_multiplier(mut self, kappa: f64) -> Self {
        self.schedule = UcbSchedule::Constant { multiplier: kappa };
        self
    }

    /// Srinivas et al.'s schedule with confidence δ.
    pub fn srinivas(mut self, delta: f64) -> Self {
        self.schedule = UcbSchedule::Srinivas { delta };
        self
    }

    /// How a batch's later points account for the pending ones.
    pub fn pending(mut self, strategy: PendingStrategy) -> Self {
        self.pending = strategy;
        self
    }

    /// C of the GP-BUCB schedule: with points pending under the believer, β is multiplied by
    /// `exp(2C)`.
    pub fn bucb_c(mut self, c: f64) -> Self {
        self.bucb_c = c;
        self
    }

    pub(super) fn from_params(params: &Params) -> Self {
        let schedule = match BETA_SCHEDULE.of(params) {
            ScheduleWord::Constant => UcbSchedule::Constant {
                multiplier: UCB_MULTIPLIER.of(params),
            },
            ScheduleWord::Srinivas => UcbSchedule::Srinivas {
                delta: DELTA.of(params),
            },
        };
        Self {
            gp: GpSettings::from_params(params),
            maximizer: MaximizerSettings::from_params(params),
            schedule,
            pending: PENDING.of(params),
            bucb_c: BUCB_C.of(params),
        }
    }

    fn acquisition(&self) -> Acquisition {
        match self.schedule {
            UcbSchedule::Constant { multiplier } => Acquisition::UcbMultiplier(multiplier),
            UcbSchedule::Srinivas { delta } => Acquisition::UcbSrinivas { delta },
        }
    }
}

impl AlgorithmSettings for GpUcb {
    fn name(&self) -> &str {
        "gp-ucb"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.gp.given();
        given.extend(self.maximizer.given());
        match self.schedule {
            UcbSchedule::Constant { multiplier } => given.extend([
                BETA_SCHEDULE.given(ScheduleWord::Constant),
                UCB_MULTIPLIER.given(multiplier),
            ]),
            UcbSchedule::Srinivas { delta } => given.extend([
                BETA_SCHEDULE.given(ScheduleWord::Srinivas),
                DELTA.given(delta),
            ]),
        }
        given.extend([BUCB_C.given(self.bucb_c), PENDING.given(self.pending)]);
        given
    }
}

/// An EI method's typed settings (`ei`, `logei`): the GP model, the maximiser and the
/// pending-point strategy, whose defaults are the registry entry's (`$gp_params` with the
/// maximiser's and the batch parameters), written once.
macro_rules! ei_settings {
    ($(#[$doc:meta])* $settings:ident, $name:literal, $gp_params:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $settings {
            /// The GP model and its fit.
            pub gp: GpSettings,
            /// The Sobol grid and L-BFGS refinement that maximise the acquisition.
            pub maximizer: MaximizerSettings,
            /// How a batch's later points account for the pending ones.
            pub pending: PendingStrategy,
        }

        impl Default for $settings {
            fn default() -> Self {
                Self::from_params(&Params::defaults(
                    "algorithm",
                    $name,
                    &ParamTable(&[$gp_params, MAXIMIZER_PARAMS, PENDING_PARAMS]).to_vec(),
                ))
            }
        }

        impl $settings {
            /// How a batch's later points account for the pending ones.
            pub fn pending(mut self, strategy: PendingStrategy) -> Self {
                self.pending = strategy;
                self
            }

            pub(super) fn from_params(params: &Params) -> Self {
                Self {
                    gp: GpSettings::from_params(params),
                    maximizer: MaximizerSettings::from_params(params),
                    pending: PENDING.of(params),
                }
            }
        }

        impl AlgorithmSettings for $settings {
            fn name(&self) -> &str {
                $name
            }

            fn given(&self) -> Vec<(&str, ParamValue)> {
                let mut given = self.gp.given();
                given.extend(self.maximizer.given());
                given.push(PENDING.given(self.pending));
                given
            }
        }
    };
}

ei_settings!(
    /// Typed settings of EI (`ei`): expected improvement over the best observation, maximised
    /// as log EI over a Sobol grid with L-BFGS refinement, the GP refitted at every step.
    Ei,
    "ei",
    GP_PARAMS
);

ei_settings!(
    /// Typed settings of LogEI (`logei`; Ament et al., NeurIPS 2023): log expected improvement
    /// over the best observation on BoTorch's default GP model, the configuration a BoTorch user
    /// runs with `LogExpectedImprovement`: MAP hyperparameters under the dimension-scaled priors
    /// (Hvarfner et al. 2024) and a noise-variance floor of 1e-4, maximised like [`Ei`].
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
    BOTORCH_GP_PARAMS
);

gp_model_setters!(GpUcb, Ei, LogEi, QLogNei);

/// Typed settings of qLogNEI (`qlognei`; Ament et al., NeurIPS 2023): BoTorch's default
/// acquisition, `qLogNoisyExpectedImprovement`, on BoTorch's default GP model (as [`LogEi`]).
/// The joint posterior of the observed points (pruned to those that could be the best), the
/// pending points and a candidate is sampled with scrambled-Sobol normal base samples drawn
/// once per step; the smoothed log improvement over each sample's best observed value is
/// maximised smoothly over the candidate and the pending points and averaged over the samples
/// in log space. A batch is built point by point, each new point maximising the joint value
/// with the earlier ones pending (BoTorch's sequential greedy optimisation), so pending points
/// need no believer or penaliser.
#[derive(Clone, Debug, PartialEq)]
pub struct QLogNei {
    /// The GP model and its fit (BoTorch's defaults).
    pub gp: GpSettings,
    /// The Sobol grid and L-BFGS refinement that maximise the acquisition.
    pub maximizer: MaximizerSettings,
    /// Quasi-Monte Carlo samples of the joint posterior.
    pub mc_samples: usize,
    /// Sample only the observed points that could be the best.
    pub prune_baseline: bool,
}

impl Default for QLogNei {
    fn default() -> Self {
        Self::from_params(&Params::defaults(
            "algorithm",
            "qlognei",
            &ParamTable(&[BOTORCH_GP_PARAMS, MAXIMIZER_PARAMS, QLOGNEI_PARAMS]).to_vec(),
        ))
    }
}

impl QLogNei {
    /// Quasi-Monte Carlo samples of the joint posterior.
    pub fn mc_samples(mut self, samples: usize) -> Self {
        self.mc_samples = samples;
        self
    }

    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            gp: GpSettings::from_params(params),
            maximizer: MaximizerSettings::from_params(params),
            mc_samples: MC_SAMPLES.of(params),
            prune_baseline: PRUNE_BASELINE.of(params),
        }
    }
}

impl AlgorithmSettings for QLogNei {
    fn name(&self) -> &str {
        "qlognei"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.gp.given();
        given.extend(self.maximizer.given());
        given.extend([
            MC_SAMPLES.given(self.mc_samples),
            PRUNE_BASELINE.given(self.prune_baseline),
        ]);
        given
    }
}

/// A GP fitted to `history` as `gp` says, inputs mapped from the problem's box to the unit
/// cube and outputs standardised; the fit warm-starts at `previous`'s optimum when `gp` says so.
/// The fit's seed is the first draw from the ask's random stream.
pub(super) fn fit_gp_model(
    gp: &GpSettings,
    history: &History,
    previous: Option<&GpModel>,
    ctx: &mut AskContext<'_>,
) -> Result<GpModel, AlgorithmError> {
    let dim = ctx.domain.dim();
    let kernel = Kernel::new(gp.kernel, vec![gp.lengthscale; dim], gp.signal_var)?;
    let ys = history.ys();
    let constant = ys.iter().all(|y| *y == ys[0]);
    let mut fit = gp.fit_options(dim);
    fit.seed = ctx.rng.random();
    if constant {
        // The likelihood of constant targets grows without bound as the variances shrink:
        // keep the given hyperparameters until the data vary.
        fit.mode = FitMode::Fixed;
    }
    let warm_start = if gp.warm_start {
        previous.and_then(GpModel::previous_fit)
    } else {
        None
    };
    if warm_start.is_some() && ys.len() > gp.restarts_until {
        fit.random_starts = 0;
    }
    let options = ModelOptions::for_box(ctx.domain.lower(), ctx.domain.upper())?
        .with_fit(fit)
        .with_warm_start(warm_start);
    Ok(GpModel::fit(&history.points()?, ys, kernel, &options)?)
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
    /// GP-UCB from its checked parameters (the registry's adapter).
    pub(super) fn ucb(params: Params) -> Self {
        let settings = GpUcb::from_params(&params);
        let acquisition = settings.acquisition();
        Self::new(params, settings.gp, &settings.maximizer, acquisition)
            .with_batch(settings.pending, settings.bucb_c)
    }

    /// EI, or LogEI, from its checked parameters (the registry's adapter): the two differ only
    /// in their parameters' defaults, which `params` has already resolved.
    pub(super) fn expected_improvement(params: Params) -> Self {
        let settings = Ei::from_params(&params);
        Self::new(
            params,
            settings.gp,
            &settings.maximizer,
            Acquisition::ExpectedImprovement,
        )
        .with_batch(settings.pending, 0.0)
    }

    /// qLogNEI from its checked parameters (the registry's adapter).
    pub(super) fn qlognei(params: Params) -> Self {
        let settings = QLogNei::from_params(&params);
        let acquisition = Acquisition::QLogNoisyExpectedImprovement {
            samples: settings.mc_samples,
            prune: settings.prune_baseline,
        };
        Self::new(params, settings.gp, &settings.maximizer, acquisition)
    }

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
