//! UHE-BO's settings, read once from the variant's declared parameters when it is built: the
//! steps use typed fields, never parameter names.

use crate::acquisition;
use bosweep_core::params::{ChoiceParam, FlagParam, IntegerParam, ParamSpec, Params, RealParam};

const UCB_BETA: RealParam = RealParam::new(
    "ucb_beta",
    1.96,
    0.0,
    1e6,
    "β of GP-UCB under the square root: μ + √β σ (1.96 gives multiplier 1.4)",
);
/// MAP (`true`) or ML-II.
const LOSS_MAP: ChoiceParam<bool> = ChoiceParam::new(
    "loss",
    &["map", "mle"],
    &[true, false],
    "map",
    "hyperparameter loss: MAP with Gamma(1e-3, 10) priors (Jacobian included) or ML-II",
);
const LENGTHSCALE: RealParam = RealParam::new(
    "lengthscale",
    0.2,
    1e-3,
    10.0,
    "default-start lengthscale, in unit-cube units",
);
const SIGNAL_VAR: RealParam = RealParam::new(
    "signal_var",
    1.0,
    1e-3,
    100.0,
    "default-start signal variance, in standardised output units",
);
const NOISE_VAR: RealParam = RealParam::new(
    "noise_var",
    1e-2,
    1e-8,
    1.0,
    "default-start noise variance, in standardised output units",
);
const RANDOM_STARTS: IntegerParam = IntegerParam::new(
    "random_starts",
    3,
    0,
    64,
    "log-uniform random starts within the bounds, besides the warm and default starts",
);
const GRID_SIZE: IntegerParam =
    acquisition::GRID_SIZE.described("acquisition candidates per step; 0 = max(1000·d, 2000)");
/// The spec's top-10 (§3.6), where the GP baselines refine 8.
const TOP_K: IntegerParam = acquisition::TOP_K
    .with_default(10)
    .described("best candidates refined by L-BFGS-B");
const REFINE: FlagParam =
    acquisition::REFINE.described("refine the best candidates with bounded L-BFGS");
/// The parameters every UHE-BO variant and baseline shares.
pub(super) const SHARED: &[ParamSpec] = &[
    UCB_BETA.spec(),
    LOSS_MAP.spec(),
    LENGTHSCALE.spec(),
    SIGNAL_VAR.spec(),
    NOISE_VAR.spec(),
    RANDOM_STARTS.spec(),
    GRID_SIZE.spec(),
    TOP_K.spec(),
    REFINE.spec(),
    acquisition::MAX_ITERS.spec(),
];

pub(super) const M_FACTOR: RealParam = RealParam::new(
    "m_factor",
    2.0,
    1e-3,
    1e3,
    "pseudo-dataset size M_t = ⌈m_factor · |D_{t−1}|⌉",
);
/// A constant γ (`true`) or the paper's schedule.
const GAMMA_CONSTANT: ChoiceParam<bool> = ChoiceParam::new(
    "gamma_schedule",
    &["paper", "constant"],
    &[false, true],
    "paper",
    "EXP3 γ_t: paper = sqrt(4 ln2 / ((e−1) t)); constant = gamma",
);
const GAMMA: RealParam = RealParam::new(
    "gamma",
    0.1,
    1e-9,
    1.0,
    "constant EXP3 γ (gamma_schedule=constant only)",
);
/// Clip rewards to [0, 1] (`true`) or not.
const REWARD_CLIP: ChoiceParam<bool> = ChoiceParam::new(
    "reward_clip",
    &["none", "unit"],
    &[false, true],
    "none",
    "clip the D_0-scaled reward to [0, 1] (unit) or not (none)",
);
/// EXP3 over pairs: `uhe-bo` and `random-exp3` (`m_factor` only used by `uhe-bo`).
pub(super) const EXP3_PAIRS: &[ParamSpec] = &[
    M_FACTOR.spec(),
    GAMMA_CONSTANT.spec(),
    GAMMA.spec(),
    REWARD_CLIP.spec(),
];

const MCMC_BURN_IN: IntegerParam = IntegerParam::new(
    "mcmc_burn_in",
    200,
    0,
    1_000_000,
    "slice-sampling sweeps discarded before the kept samples (paper: 200 HMC burn-in)",
);
pub(super) const MCMC_SAMPLES: IntegerParam = IntegerParam::new(
    "mcmc_samples",
    10,
    1,
    10_000,
    "hyperparameter samples kept, the UCB averaged over them (paper: 10)",
);
const MCMC_THIN: IntegerParam =
    IntegerParam::new("mcmc_thin", 1, 1, 10_000, "sweeps between kept samples");
const SLICE_WIDTH: RealParam = RealParam::new(
    "slice_width",
    1.0,
    1e-3,
    100.0,
    "initial slice width in log-hyperparameter units",
);
pub(super) const MCMC: &[ParamSpec] = &[
    MCMC_BURN_IN.spec(),
    MCMC_SAMPLES.spec(),
    MCMC_THIN.spec(),
    SLICE_WIDTH.spec(),
];

const AGP_EXPONENT: RealParam = RealParam::new(
    "agp_exponent",
    0.9,
    0.5,
    1.0,
    "reference regret p(t) = t^agp_exponent (paper: 0.9)",
);
const AGP_RATIO: RealParam = RealParam::new(
    "agp_ratio",
    1.1,
    1.0001,
    10.0,
    "ratio of the geometric grid searched for the one-step-prediction divisor h(t)",
);
pub(super) const ADAPTIVE: &[ParamSpec] = &[AGP_EXPONENT.spec(), AGP_RATIO.spec()];

const WDF_KAPPA: RealParam = RealParam::new(
    "wdf_kappa",
    0.1,
    0.0,
    100.0,
    "κ: the lengthscale bound shrinks until σ(x_next) ≥ κ (standardised outputs; paper: 0.1)",
);
const WDF_SHRINK: RealParam = RealParam::new(
    "wdf_shrink",
    0.9,
    0.01,
    0.9999,
    "grid ratio of the bound's scale factors: bound · wdf_shrink^k, k = 1, 2, …",
);
const WDF_MAX_STEPS: IntegerParam = IntegerParam::new(
    "wdf_max_steps",
    50,
    1,
    10_000,
    "most grid steps per iteration",
);
pub(super) const SHRINK: &[ParamSpec] =
    &[WDF_KAPPA.spec(), WDF_SHRINK.spec(), WDF_MAX_STEPS.spec()];

/// EXP3's arms: 2 (random, UCB) or 3 (GP-Hedge's EI, PI, UCB).
const PORTFOLIO_ARMS: ChoiceParam<usize> = ChoiceParam::new(
    "portfolio_arms",
    &["random-ucb", "ei-pi-ucb"],
    &[2, 3],
    "random-ucb",
    "EXP3's arms: random point and GP-UCB (UHE-BO paper, App. C) or GP-Hedge's EI, PI and GP-UCB (Hoffman et al. 2011)",
);
const PI_XI: RealParam = RealParam::new(
    "pi_xi",
    0.01,
    0.0,
    10.0,
    "PI's margin ξ in standardised output units (ei-pi-ucb only)",
);
pub(super) const PORTFOLIO: &[ParamSpec] =
    &[REWARD_CLIP.spec(), PORTFOLIO_ARMS.spec(), PI_XI.spec()];

/// EXP3's exploration rate over pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum GammaSchedule {
    /// `γ_t = sqrt(4 ln 2 / ((e − 1) t))` (Algorithm 1).
    Uhe,
    Constant(f64),
}

/// What every variant shares, and the variant-specific settings it declares.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Settings {
    /// β of the UCB `μ + √β σ`.
    pub ucb_beta: f64,
    /// MAP with UHE-BO's priors (`loss = "map"`), else ML-II.
    pub map: bool,
    pub lengthscale: f64,
    pub signal_var: f64,
    pub noise_var: f64,
    pub random_starts: usize,
    /// Sobol grid of the acquisition maximiser; `0`: `max(1000 d, 2000)`.
    pub grid_size: usize,
    pub top_k: usize,
    pub refine: bool,
    pub max_iters: usize,
    /// Pseudo-points per observation (pseudo-data variants).
    pub m_factor: Option<f64>,
    /// EXP3 over pairs (UHE-BO, Random+EXP3).
    pub gamma: GammaSchedule,
    /// Clip scaled rewards to [0, 1].
    pub clip_rewards: bool,
    /// Portfolio's arms: 2 (random, UCB) or 3 (GP-Hedge's EI, PI, UCB).
    pub portfolio_arms: usize,
    /// PI's margin ξ (GP-Hedge).
    pub pi_xi: f64,
}

impl Settings {
    pub fn of(params: &Params) -> Self {
        Self {
            ucb_beta: UCB_BETA.of(params),
            map: LOSS_MAP.of(params),
            lengthscale: LENGTHSCALE.of(params),
            signal_var: SIGNAL_VAR.of(params),
            noise_var: NOISE_VAR.of(params),
            random_starts: RANDOM_STARTS.of(params),
            grid_size: GRID_SIZE.of(params),
            top_k: TOP_K.of(params),
            refine: REFINE.of(params),
            max_iters: acquisition::MAX_ITERS.of(params),
            m_factor: M_FACTOR.if_declared(params),
            gamma: match GAMMA_CONSTANT.if_declared(params) {
                Some(true) => GammaSchedule::Constant(GAMMA.of(params)),
                _ => GammaSchedule::Uhe,
            },
            clip_rewards: REWARD_CLIP.if_declared(params) == Some(true),
            portfolio_arms: PORTFOLIO_ARMS.if_declared(params).unwrap_or(2),
            pi_xi: PI_XI.if_declared(params).unwrap_or(0.0),
        }
    }
}

/// The MCMC baseline's chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct McmcSettings {
    pub burn_in: usize,
    pub samples: usize,
    pub thin: usize,
    pub slice_width: f64,
}

impl McmcSettings {
    pub fn of(params: &Params) -> Self {
        Self {
            burn_in: MCMC_BURN_IN.of(params),
            samples: MCMC_SAMPLES.of(params),
            thin: MCMC_THIN.of(params),
            slice_width: SLICE_WIDTH.of(params),
        }
    }
}

/// A-GP-UCB's schedule `p(t) = t^exponent` and its grid ratio.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct AdaptiveSettings {
    pub exponent: f64,
    pub ratio: f64,
}

impl AdaptiveSettings {
    pub fn of(params: &Params) -> Self {
        Self {
            exponent: AGP_EXPONENT.of(params),
            ratio: AGP_RATIO.of(params),
        }
    }
}

/// Wang & de Freitas' target std κ, shrink factor and steps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ShrinkSettings {
    pub kappa: f64,
    pub shrink: f64,
    pub max_steps: usize,
}

impl ShrinkSettings {
    pub fn of(params: &Params) -> Self {
        Self {
            kappa: WDF_KAPPA.of(params),
            shrink: WDF_SHRINK.of(params),
            max_steps: WDF_MAX_STEPS.of(params),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;
    use bosweep_core::params::ParamValue;

    fn settings(name: &str, given: &[(&str, ParamValue)]) -> Settings {
        let entry = find(name).unwrap();
        Settings::of(
            &Params::resolve("algorithm", entry.name, &entry.parameters.to_vec(), given).unwrap(),
        )
    }

    #[test]
    fn each_variant_reads_what_it_declares_and_defaults_the_rest() {
        let uhe = settings(
            "uhe-bo",
            &[
                ("gamma_schedule", "constant".into()),
                ("gamma", ParamValue::Number(0.3)),
                ("refine", "false".into()),
            ],
        );
        assert_eq!(uhe.gamma, GammaSchedule::Constant(0.3));
        assert!(uhe.m_factor.is_some() && !uhe.refine && uhe.map);
        assert_eq!(uhe.portfolio_arms, 2);
        let hedge = settings("portfolio", &[("portfolio_arms", "ei-pi-ucb".into())]);
        assert_eq!((hedge.portfolio_arms, hedge.m_factor), (3, None));
        assert_eq!(hedge.gamma, GammaSchedule::Uhe);
        let mle = settings("map-gp-ucb", &[("loss", "mle".into())]);
        assert!(!mle.map && !mle.clip_rewards);
    }
}
