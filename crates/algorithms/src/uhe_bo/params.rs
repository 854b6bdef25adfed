//! The parameters of UHE-BO, its ablations and its baselines, and their registry entries.

use super::{ArmRule, Estimator, FitData, UheBo};
use crate::registry::AlgorithmEntry;
use crate::requirement::Requirement;
use bosweep_core::params::{ParamKind, ParamSpec};

/// The parameters every UHE-BO variant and baseline shares, plus `$extra` ones.
macro_rules! uhe_params {
    ($($extra:expr),* $(,)?) => {
        &[
            ParamSpec {
                name: "ucb_beta",
                kind: ParamKind::Real { default: 1.96, min: 0.0, max: 1e6 },
                description: "β of GP-UCB under the square root: μ + √β σ (1.96 gives multiplier 1.4)",
            },
            ParamSpec {
                name: "loss",
                kind: ParamKind::Choice { default: "map", options: &["map", "mle"] },
                description: "hyperparameter loss: MAP with Gamma(1e-3, 10) priors (Jacobian included) or ML-II",
            },
            ParamSpec {
                name: "lengthscale",
                kind: ParamKind::Real { default: 0.2, min: 1e-3, max: 10.0 },
                description: "default-start lengthscale, in unit-cube units",
            },
            ParamSpec {
                name: "signal_var",
                kind: ParamKind::Real { default: 1.0, min: 1e-3, max: 100.0 },
                description: "default-start signal variance, in standardised output units",
            },
            ParamSpec {
                name: "noise_var",
                kind: ParamKind::Real { default: 1e-2, min: 1e-8, max: 1.0 },
                description: "default-start noise variance, in standardised output units",
            },
            ParamSpec {
                name: "random_starts",
                kind: ParamKind::Integer { default: 3, min: 0, max: 64 },
                description: "log-uniform random starts within the bounds, besides the warm and default starts",
            },
            ParamSpec {
                name: "grid_size",
                kind: ParamKind::Integer { default: 0, min: 0, max: 1 << 24 },
                description: "acquisition candidates per step; 0 = max(1000·d, 2000)",
            },
            ParamSpec {
                name: "top_k",
                kind: ParamKind::Integer { default: 10, min: 1, max: 1024 },
                description: "best candidates refined by L-BFGS-B",
            },
            ParamSpec {
                name: "refine",
                kind: ParamKind::Choice { default: "true", options: &["true", "false"] },
                description: "refine the best candidates with bounded L-BFGS",
            },
            ParamSpec {
                name: "max_iters",
                kind: ParamKind::Integer { default: 100, min: 1, max: 100_000 },
                description: "L-BFGS iterations per refined start",
            },
            $($extra),*
        ]
    };
}

const M_FACTOR: ParamSpec = ParamSpec {
    name: "m_factor",
    kind: ParamKind::Real {
        default: 2.0,
        min: 1e-3,
        max: 1e3,
    },
    description: "pseudo-dataset size M_t = ⌈m_factor · |D_{t−1}|⌉",
};

const GAMMA_SCHEDULE: ParamSpec = ParamSpec {
    name: "gamma_schedule",
    kind: ParamKind::Choice {
        default: "paper",
        options: &["paper", "constant"],
    },
    description: "EXP3 γ_t: paper = sqrt(4 ln2 / ((e−1) t)); constant = gamma",
};

const GAMMA: ParamSpec = ParamSpec {
    name: "gamma",
    kind: ParamKind::Real {
        default: 0.1,
        min: 1e-9,
        max: 1.0,
    },
    description: "constant EXP3 γ (gamma_schedule=constant only)",
};

const REWARD_CLIP: ParamSpec = ParamSpec {
    name: "reward_clip",
    kind: ParamKind::Choice {
        default: "none",
        options: &["none", "unit"],
    },
    description: "clip the D_0-scaled reward to [0, 1] (unit) or not (none)",
};

/// Parameters of `uhe-bo` and `random-exp3` (EXP3 pairs; `m_factor` only used by `uhe-bo`).
pub const PARAMETERS: &[ParamSpec] = uhe_params![M_FACTOR, GAMMA_SCHEDULE, GAMMA, REWARD_CLIP];
/// Parameters of `ra-bo`.
const RA_BO_PARAMETERS: &[ParamSpec] = uhe_params![M_FACTOR];
/// Parameters of `map-gp-ucb`.
const MAP_PARAMETERS: &[ParamSpec] = uhe_params![];

const MCMC_PARAMETERS: &[ParamSpec] = uhe_params![
    ParamSpec {
        name: "mcmc_burn_in",
        kind: ParamKind::Integer {
            default: 200,
            min: 0,
            max: 1_000_000
        },
        description: "slice-sampling sweeps discarded before the kept samples (paper: 200 HMC burn-in)",
    },
    ParamSpec {
        name: "mcmc_samples",
        kind: ParamKind::Integer {
            default: 10,
            min: 1,
            max: 10_000
        },
        description: "hyperparameter samples kept, the UCB averaged over them (paper: 10)",
    },
    ParamSpec {
        name: "mcmc_thin",
        kind: ParamKind::Integer {
            default: 1,
            min: 1,
            max: 10_000
        },
        description: "sweeps between kept samples",
    },
    ParamSpec {
        name: "slice_width",
        kind: ParamKind::Real {
            default: 1.0,
            min: 1e-3,
            max: 100.0
        },
        description: "initial slice width in log-hyperparameter units",
    },
];

const AGP_PARAMETERS: &[ParamSpec] = uhe_params![
    ParamSpec {
        name: "agp_exponent",
        kind: ParamKind::Real {
            default: 0.9,
            min: 0.5,
            max: 1.0
        },
        description: "reference regret p(t) = t^agp_exponent (paper: 0.9)",
    },
    ParamSpec {
        name: "agp_ratio",
        kind: ParamKind::Real {
            default: 1.1,
            min: 1.0001,
            max: 10.0
        },
        description: "ratio of the geometric grid searched for the one-step-prediction divisor h(t)",
    },
];

const WDF_PARAMETERS: &[ParamSpec] = uhe_params![
    ParamSpec {
        name: "wdf_kappa",
        kind: ParamKind::Real {
            default: 0.1,
            min: 0.0,
            max: 100.0
        },
        description: "κ: the lengthscale bound shrinks until σ(x_next) ≥ κ (standardised outputs; paper: 0.1)",
    },
    ParamSpec {
        name: "wdf_shrink",
        kind: ParamKind::Real {
            default: 0.9,
            min: 0.01,
            max: 0.9999
        },
        description: "grid ratio of the bound's scale factors: bound · wdf_shrink^k, k = 1, 2, …",
    },
    ParamSpec {
        name: "wdf_max_steps",
        kind: ParamKind::Integer {
            default: 50,
            min: 1,
            max: 10_000
        },
        description: "most grid steps per iteration",
    },
];

const PORTFOLIO_PARAMETERS: &[ParamSpec] = uhe_params![
    REWARD_CLIP,
    ParamSpec {
        name: "portfolio_arms",
        kind: ParamKind::Choice {
            default: "random-ucb",
            options: &["random-ucb", "ei-pi-ucb"]
        },
        description: "EXP3's arms: random point and GP-UCB (UHE-BO paper, App. C) or GP-Hedge's EI, PI and GP-UCB (Hoffman et al. 2011)",
    },
    ParamSpec {
        name: "pi_xi",
        kind: ParamKind::Real {
            default: 0.01,
            min: 0.0,
            max: 10.0
        },
        description: "PI's margin ξ in standardised output units (ei-pi-ucb only)",
    },
];

/// UHE-BO, its ablations and its baselines, as `bosweep` builds them by name.
pub(crate) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "uhe-bo",
        requires: Requirement::Any,
        description: "UHE-BO (specs/uhe-bo.md): EXP3 over pairs {random+UCB, UCB+UCB}, θ by MAP on nearest-neighbour pseudo-data, GP-UCB μ + √β σ",
        parameters: PARAMETERS,
        build: |p| Ok(Box::new(UheBo::new(p, ArmRule::Exp3, FitData::Pseudo))),
    },
    AlgorithmEntry {
        name: "ra-bo",
        requires: Requirement::Any,
        description: "RA-BO (UHE-BO ablation): random point at every odd step, GP-UCB at every even step, θ on pseudo-data",
        parameters: RA_BO_PARAMETERS,
        build: |p| {
            Ok(Box::new(UheBo::new(
                p,
                ArmRule::AlwaysRandom,
                FitData::Pseudo,
            )))
        },
    },
    AlgorithmEntry {
        name: "random-exp3",
        requires: Requirement::Any,
        description: "Random+EXP3 (UHE-BO ablation): UHE-BO's EXP3 arm schedule, θ by MAP on the real data",
        parameters: PARAMETERS,
        build: |p| Ok(Box::new(UheBo::new(p, ArmRule::Exp3, FitData::Real))),
    },
    AlgorithmEntry {
        name: "map-gp-ucb",
        requires: Requirement::Any,
        description: "MAP-GP-UCB (UHE-BO's baseline): GP-UCB μ + √β σ every step, θ by MAP with Gamma(1e-3, 10) priors, best observed y recommended",
        parameters: MAP_PARAMETERS,
        build: |p| {
            Ok(Box::new(UheBo::new(
                p,
                ArmRule::AlwaysAcquisition,
                FitData::Real,
            )))
        },
    },
    AlgorithmEntry {
        name: "mcmc-gp-ucb",
        requires: Requirement::Any,
        description: "MCMC-GP-UCB (UHE-BO's baseline): θ slice-sampled from its posterior (200 burn-in sweeps, 10 samples), UCB averaged over the samples",
        parameters: MCMC_PARAMETERS,
        build: |p| {
            Ok(Box::new(UheBo::with_estimator(
                p,
                ArmRule::AlwaysAcquisition,
                FitData::Real,
                Estimator::Mcmc,
            )))
        },
    },
    AlgorithmEntry {
        name: "a-gp-ucb",
        requires: Requirement::Any,
        description: "A-GP-UCB (Berkenkamp et al. 2019, UHE-BO's baseline): MAP lengthscales divided by a growing g(t), p(t) = t^0.9",
        parameters: AGP_PARAMETERS,
        build: |p| {
            Ok(Box::new(UheBo::with_estimator(
                p,
                ArmRule::AlwaysAcquisition,
                FitData::Real,
                Estimator::AdaptiveScaling,
            )))
        },
    },
    AlgorithmEntry {
        name: "wang-de-freitas",
        requires: Requirement::Any,
        description: "Wang & de Freitas 2014 (UHE-BO's baseline): MAP under a lengthscale bound shrunk until σ(x_next) ≥ κ = 0.1",
        parameters: WDF_PARAMETERS,
        build: |p| {
            Ok(Box::new(UheBo::with_estimator(
                p,
                ArmRule::AlwaysAcquisition,
                FitData::Real,
                Estimator::ShrinkingBound,
            )))
        },
    },
    AlgorithmEntry {
        name: "portfolio",
        requires: Requirement::Any,
        description: "Portfolio (Hoffman et al. 2011, UHE-BO's baseline): EXP3 each step over {random, GP-UCB} (or GP-Hedge's {EI, PI, UCB}), reward the posterior mean at the chosen point",
        parameters: PORTFOLIO_PARAMETERS,
        build: |p| Ok(Box::new(UheBo::new(p, ArmRule::Portfolio, FitData::Real))),
    },
];
