//! The parameters of UHE-BO's family and the typed settings groups they fill: the GP-UCB step
//! every variant shares ([`UheGpSettings`]), EXP3 over iteration pairs
//! ([`Exp3PairSettings`]) and the baselines' hyperparameter treatments. Each group reads its
//! declared parameters once ([`UheGpSettings::from_params`] and its siblings) and gives them
//! back (`given`), so that the steps use typed fields, never parameter names.

use crate::acquisition::{self, MaximizerSettings};
use bosweep_core::params::{
    ChoiceParam, FlagParam, IntegerParam, ParamSpec, ParamValue, Params, RealParam, Settings,
};

const UCB_BETA: RealParam = RealParam::new(
    "ucb_beta",
    1.96,
    0.0,
    1e6,
    "β of GP-UCB under the square root: μ + √β σ (1.96 gives multiplier 1.4)",
);
const LOSS: ChoiceParam<ThetaLoss> = ChoiceParam::new(
    "loss",
    &["map", "mle"],
    &[ThetaLoss::Map, ThetaLoss::Mle],
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
/// Ten refined candidates, where the GP baselines refine 8: our choice for UHE-BO, whose paper
/// does not say how the acquisition is maximised.
const TOP_K: IntegerParam = acquisition::TOP_K
    .with_default(10)
    .described("best candidates refined by L-BFGS-B");
const REFINE: FlagParam =
    acquisition::REFINE.described("refine the best candidates with bounded L-BFGS");
/// The parameters every UHE-BO variant and baseline shares.
pub(super) const SHARED: &[ParamSpec] = &[
    UCB_BETA.spec(),
    LOSS.spec(),
    LENGTHSCALE.spec(),
    SIGNAL_VAR.spec(),
    NOISE_VAR.spec(),
    RANDOM_STARTS.spec(),
    GRID_SIZE.spec(),
    TOP_K.spec(),
    REFINE.spec(),
    acquisition::MAX_ITERS.spec(),
];

/// UHE-BO's and RA-BO's pseudo-dataset size (Ha et al. 2023, Eq. 2 and Algorithm 1).
pub(super) const M_FACTOR: RealParam = RealParam::new(
    "m_factor",
    2.0,
    1e-3,
    1e3,
    "pseudo-dataset size M_t = ⌈m_factor · |D_{t−1}|⌉",
);
/// A constant γ (`true`) or the paper's schedule (Ha et al. 2023, Algorithm 1 line 5).
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
const MCMC_SAMPLES: IntegerParam = IntegerParam::new(
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
/// MCMC-GP-UCB's chain.
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
/// A-GP-UCB's schedule.
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
/// Wang & de Freitas' shrinking bound.
pub(super) const SHRINK: &[ParamSpec] =
    &[WDF_KAPPA.spec(), WDF_SHRINK.spec(), WDF_MAX_STEPS.spec()];

const PORTFOLIO_ARMS: ChoiceParam<PortfolioArms> = ChoiceParam::new(
    "portfolio_arms",
    &["random-ucb", "ei-pi-ucb"],
    &[PortfolioArms::RandomUcb, PortfolioArms::EiPiUcb],
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
/// Portfolio's bandit.
pub(super) const PORTFOLIO: &[ParamSpec] =
    &[REWARD_CLIP.spec(), PORTFOLIO_ARMS.spec(), PI_XI.spec()];

/// How θ = (ℓ_1..ℓ_d, σ_f², σ_n²) is estimated at every step (parameter `loss`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThetaLoss {
    /// Maximum a posteriori with Gamma(1e−3, 10) priors on every hyperparameter, Jacobian of
    /// the log parameterisation included (Ha et al. 2023, App. C): the paper's choice.
    Map,
    /// Maximum marginal likelihood (ML-II), no prior.
    Mle,
}

/// The GP-UCB step every member of the family shares: the zero-mean Matérn-5/2 ARD GP, the
/// start of its hyperparameter fit (unit-cube inputs, standardised outputs), the UCB
/// `μ + √β σ` and its maximiser. The defaults are the registry's (`bosweep list`).
#[derive(Clone, Debug, PartialEq)]
pub struct UheGpSettings {
    /// β of the UCB `μ + √β σ`, under the square root (default 1.96: multiplier 1.4).
    pub ucb_beta: f64,
    /// MAP with the paper's priors (default) or ML-II.
    pub loss: ThetaLoss,
    /// Default-start lengthscale of the fit in every dimension, in unit-cube units (0.2).
    pub lengthscale: f64,
    /// Default-start signal variance σ_f², in standardised output units (1).
    pub signal_var: f64,
    /// Default-start noise variance σ_n², in standardised output units (1e−2).
    pub noise_var: f64,
    /// Log-uniform random starts of the fit within its bounds, besides the warm start at the
    /// previous step's θ̂ and the default start (3).
    pub random_starts: usize,
    /// The acquisition maximiser: Sobol candidates then L-BFGS-B on the best `top_k` (10).
    /// Here a `None` grid means `max(1000·d, 2000)` candidates, not the GP baselines' default.
    pub maximizer: MaximizerSettings,
}

impl UheGpSettings {
    /// The settings `params` (declaring [`SHARED`]) give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            ucb_beta: UCB_BETA.of(params),
            loss: LOSS.of(params),
            lengthscale: LENGTHSCALE.of(params),
            signal_var: SIGNAL_VAR.of(params),
            noise_var: NOISE_VAR.of(params),
            random_starts: RANDOM_STARTS.of(params),
            maximizer: <MaximizerSettings as Settings>::read(params),
        }
    }

    /// The settings as given parameters, the inverse of [`UheGpSettings::from_params`].
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        let mut given = vec![
            UCB_BETA.given(self.ucb_beta),
            LOSS.given(self.loss),
            LENGTHSCALE.given(self.lengthscale),
            SIGNAL_VAR.given(self.signal_var),
            NOISE_VAR.given(self.noise_var),
            RANDOM_STARTS.given(self.random_starts),
        ];
        given.extend(Settings::given(&self.maximizer));
        given
    }

    /// Sobol candidates per step in `dim` dimensions.
    pub(super) fn grid_size(&self, dim: usize) -> usize {
        match self.maximizer.grid_size {
            0 => (1000 * dim).max(2000),
            given => given,
        }
    }
}

/// EXP3's exploration rate γ_t over iteration pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PairGamma {
    /// `γ_t = sqrt(4 ln 2 / ((e − 1) t))` (Ha et al. 2023, Algorithm 1 line 5): the default.
    Paper,
    /// The same γ at every pair.
    Constant(f64),
}

impl PairGamma {
    /// γ at iteration `t` (unclamped; the bandit clamps where it needs a mixture).
    pub fn at(self, t: usize) -> f64 {
        match self {
            Self::Paper => super::uhe_gamma(t),
            Self::Constant(gamma) => gamma,
        }
    }
}

/// EXP3 over iteration pairs (UHE-BO and Random+EXP3; Ha et al. 2023, Sec. 5.1 and
/// Algorithm 1): arm 1 evaluates a uniform point then the acquisition's, arm 2 the
/// acquisition's twice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exp3PairSettings {
    /// γ_t (default: the paper's schedule).
    pub gamma: PairGamma,
    /// Clip the pair's reward, min-max scaled with the initial design, to [0, 1]; the paper
    /// only says "scale it using D_0" (Algorithm 1 line 20). Default `false`.
    pub reward_clip: bool,
}

impl Exp3PairSettings {
    /// The settings `params` (declaring [`EXP3_PAIRS`]) give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            gamma: match GAMMA_CONSTANT.of(params) {
                true => PairGamma::Constant(GAMMA.of(params)),
                false => PairGamma::Paper,
            },
            reward_clip: REWARD_CLIP.of(params),
        }
    }

    /// The settings as given parameters, the inverse of [`Exp3PairSettings::from_params`].
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        let mut given = match self.gamma {
            PairGamma::Paper => vec![GAMMA_CONSTANT.given(false)],
            PairGamma::Constant(gamma) => vec![GAMMA_CONSTANT.given(true), GAMMA.given(gamma)],
        };
        given.push(REWARD_CLIP.given(self.reward_clip));
        given
    }
}

/// The arms of Portfolio's bandit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortfolioArms {
    /// A uniform random point and the GP-UCB point, as UHE-BO's paper runs Portfolio
    /// (Ha et al. 2023, App. C): the default.
    RandomUcb,
    /// GP-Hedge's EI, PI and GP-UCB (Hoffman, Brochu & de Freitas 2011).
    EiPiUcb,
}

impl PortfolioArms {
    /// How many arms the bandit has.
    pub fn count(self) -> usize {
        match self {
            Self::RandomUcb => 2,
            Self::EiPiUcb => 3,
        }
    }
}

/// Portfolio's bandit (Hoffman, Brochu & de Freitas 2011): EXP3 at every step over the
/// arms, each rewarded with the posterior mean at its point once the GP is refitted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PortfolioSettings {
    /// The arms (default: random and GP-UCB).
    pub arms: PortfolioArms,
    /// PI's margin ξ in standardised output units, for [`PortfolioArms::EiPiUcb`] (0.01).
    pub pi_xi: f64,
    /// Clip the reward, min-max scaled with the initial design, to [0, 1] (default `false`).
    pub reward_clip: bool,
}

impl PortfolioSettings {
    /// The settings `params` (declaring [`PORTFOLIO`]) give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            arms: PORTFOLIO_ARMS.of(params),
            pi_xi: PI_XI.of(params),
            reward_clip: REWARD_CLIP.of(params),
        }
    }

    /// The settings as given parameters, the inverse of [`PortfolioSettings::from_params`].
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        vec![
            REWARD_CLIP.given(self.reward_clip),
            PORTFOLIO_ARMS.given(self.arms),
            PI_XI.given(self.pi_xi),
        ]
    }
}

/// MCMC-GP-UCB's chain: θ slice-sampled from its posterior in log space (the paper runs HMC,
/// Neal 2011, with 200 burn-in and 10 kept samples; Ha et al. 2023, App. C).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct McmcSettings {
    /// Sweeps discarded before the kept samples (200).
    pub burn_in: usize,
    /// Samples kept; the UCB is averaged over them (10).
    pub samples: usize,
    /// Sweeps between kept samples (1).
    pub thin: usize,
    /// Initial slice width in log-hyperparameter units (1).
    pub slice_width: f64,
}

impl McmcSettings {
    /// The settings `params` (declaring [`MCMC`]) give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            burn_in: MCMC_BURN_IN.of(params),
            samples: MCMC_SAMPLES.of(params),
            thin: MCMC_THIN.of(params),
            slice_width: SLICE_WIDTH.of(params),
        }
    }

    /// The settings as given parameters, the inverse of [`McmcSettings::from_params`].
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        vec![
            MCMC_BURN_IN.given(self.burn_in),
            MCMC_SAMPLES.given(self.samples),
            MCMC_THIN.given(self.thin),
            SLICE_WIDTH.given(self.slice_width),
        ]
    }
}

/// A-GP-UCB's lengthscale schedule (Berkenkamp, Schoellig & Krause 2019): the MAP lengthscales
/// divided by a growing `g(t)`, capped by the reference regret `p(t) = t^exponent`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdaptiveScalingSettings {
    /// Exponent of `p(t)`, in [0.5, 1] (0.9, as UHE-BO's paper sets it).
    pub exponent: f64,
    /// Ratio of the geometric grid searched for the one-step-prediction divisor `h(t)` (1.1).
    pub ratio: f64,
}

impl AdaptiveScalingSettings {
    /// The settings `params` (declaring [`ADAPTIVE`]) give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            exponent: AGP_EXPONENT.of(params),
            ratio: AGP_RATIO.of(params),
        }
    }

    /// The settings as given parameters, the inverse of
    /// [`AdaptiveScalingSettings::from_params`].
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        vec![
            AGP_EXPONENT.given(self.exponent),
            AGP_RATIO.given(self.ratio),
        ]
    }
}

/// Wang & de Freitas' (2014) shrinking lengthscale bound, in the grid-search form Berkenkamp et
/// al. (2019) and UHE-BO's paper run: the bound is scaled by `shrink^k`, `k = 1, 2, …`, until
/// the posterior std at the proposal reaches `kappa`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShrinkingBoundSettings {
    /// κ, the posterior std the proposal must reach, in standardised output units (0.1).
    pub kappa: f64,
    /// Ratio of the grid of scale factors (0.9).
    pub shrink: f64,
    /// Most grid steps per iteration (50).
    pub max_steps: usize,
}

impl ShrinkingBoundSettings {
    /// The settings `params` (declaring [`SHRINK`]) give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            kappa: WDF_KAPPA.of(params),
            shrink: WDF_SHRINK.of(params),
            max_steps: WDF_MAX_STEPS.of(params),
        }
    }

    /// The settings as given parameters, the inverse of
    /// [`ShrinkingBoundSettings::from_params`].
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        vec![
            WDF_KAPPA.given(self.kappa),
            WDF_SHRINK.given(self.shrink),
            WDF_MAX_STEPS.given(self.max_steps),
        ]
    }
}
