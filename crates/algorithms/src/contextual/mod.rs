//! Stochastic and distributionally robust BO over an uncontrollable continuous context
//! (`specs/sbo-drbo-kde.md`): SBO-KDE, DRBO-KDE and the StableOpt, DRBO-MMD and
//! DRBO-MMD-MinimaxApprox baselines. The context-blind
//! GP-UCB baseline is the registry's `gp-ucb` (its GP ignores contexts).

mod acquisition;
mod drbo_mmd;
mod kde_bo;
mod mmd;
mod mmd_program;
mod schedules;

pub use acquisition::{DifferentiableAcquisition, PairAcquisition, Reduction};
pub use drbo_mmd::DrboMmd;
pub use kde_bo::{KdeBo, Method};
pub use mmd::{MmdBall, context_grid};
pub use mmd_program::{MmdProgram, Solve, WorstCase, screened_top_k};
pub use schedules::{kde_bandwidths, kde_l1_radius, mmd_radius, theory_beta};

use super::entry::AlgorithmEntry;
use super::requirement::Requirement;
use crate::acquisition::MAX_ITERS as ACQUISITION_MAX_ITERS;
use bosweep_core::params::{ChoiceParam, IntegerParam, ParamSpec, ParamTable, RealParam};
use bosweep_model::{BandwidthRule, KernelKind};

pub(super) const KERNEL: ChoiceParam<KernelKind> = ChoiceParam::new(
    "kernel",
    &["matern52", "se"],
    &[KernelKind::Matern52, KernelKind::SquaredExponential],
    "matern52",
    "joint-space GP kernel (ARD lengthscales, with outputscale)",
);
/// MAP (`true`) or ML-II.
pub(super) const FIT_MAP: ChoiceParam<bool> = ChoiceParam::new(
    "fit",
    &["map", "mle"],
    &[true, false],
    "map",
    "hyperparameters refitted every step: MAP with BoTorch's late-2023 Gamma priors, or ML-II",
);
pub(super) const LENGTHSCALE: RealParam = RealParam::new(
    "lengthscale",
    1.0 / 3.0,
    1e-3,
    1e3,
    "initial lengthscale (unit cube; the Gamma(3, 6) prior mode)",
);
pub(super) const SIGNAL_VAR: RealParam = RealParam::new(
    "signal_var",
    1.0,
    1e-4,
    1e4,
    "initial outputscale (standardised outputs)",
);
pub(super) const NOISE_VAR: RealParam = RealParam::new(
    "noise_var",
    2.0,
    1e-4,
    10.0,
    "initial noise variance (standardised outputs; the Gamma(1.1, 0.05) prior mode)",
);

/// How the UCB multiplier κ is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum KappaChoice {
    Constant,
    Theory,
}

pub(super) const BETA_SCHEDULE: ChoiceParam<KappaChoice> = ChoiceParam::new(
    "beta_schedule",
    &["constant", "theory"],
    &[KappaChoice::Constant, KappaChoice::Theory],
    "constant",
    "constant: κ = ucb_multiplier; theory: κ = √β_t, β_t = 2 ln(t²/√(2π)) + 2Dx ln(t² Dx a b r √π/2)",
);
pub(super) const UCB_MULTIPLIER: RealParam = RealParam::new(
    "ucb_multiplier",
    1.5,
    0.0,
    1e6,
    "κ in μ + κσ (the paper's √β = 1.5 for every method)",
);
pub(super) const THEORY_A: RealParam = RealParam::new(
    "theory_a",
    1.0,
    1e-12,
    1e12,
    "a of the theory schedule (derivative tail constant)",
);
pub(super) const THEORY_B: RealParam = RealParam::new(
    "theory_b",
    1.0,
    1e-12,
    1e12,
    "b of the theory schedule (derivative tail constant)",
);
pub(super) const THEORY_R: RealParam = RealParam::new(
    "theory_r",
    1.0,
    1e-12,
    1e12,
    "r of the theory schedule (side of the box [0, r]^D)",
);
/// The paper's optimiser budget (`true`) or the full one for every method.
pub(super) const PAPER_PROFILE: ChoiceParam<bool> = ChoiceParam::new(
    "optimizer_profile",
    &["paper", "full"],
    &[true, false],
    "paper",
    "paper: 32 raw samples and 5 restarts for DRBO-KDE and DRBO-MMD, 1024 and 50 otherwise; full: 1024 and 50 for all",
);
pub(super) const RAW_SAMPLES: IntegerParam = IntegerParam::new(
    "raw_samples",
    0,
    0,
    1 << 20,
    "Sobol candidates of the acquisition grid; 0 = the profile's",
);
pub(super) const RESTARTS: IntegerParam = IntegerParam::new(
    "restarts",
    0,
    0,
    4096,
    "best grid points refined by L-BFGS-B; 0 = the profile's",
);
pub(super) const MAX_ITERS: IntegerParam =
    ACQUISITION_MAX_ITERS.described("L-BFGS-B iterations per restart");
pub(super) const TOLERANCE: RealParam = RealParam::new(
    "tolerance",
    2.2e-9,
    0.0,
    1.0,
    "L-BFGS-B stops at this relative decrease of the acquisition (scipy's default ftol, as BoTorch's optimize_acqf)",
);
pub(super) const GRADIENT_TOLERANCE: RealParam = RealParam::new(
    "gradient_tolerance",
    1e-5,
    0.0,
    1.0,
    "L-BFGS-B stops when the projected gradient's ∞-norm is ≤ this (scipy's default pgtol, as BoTorch's optimize_acqf)",
);
pub(super) const CONTEXT_LO: RealParam = RealParam::new(
    "context_lo",
    0.0,
    -1e12,
    1e12,
    "lower bound of every context coordinate (the box C)",
);
pub(super) const CONTEXT_HI: RealParam = RealParam::new(
    "context_hi",
    1.0,
    -1e12,
    1e12,
    "upper bound of every context coordinate (the box C)",
);
/// Parameters shared by the methods (spec §2.2, §2.6, §2.9, §2.11).
const SHARED: &[ParamSpec] = &[
    KERNEL.spec(),
    FIT_MAP.spec(),
    LENGTHSCALE.spec(),
    SIGNAL_VAR.spec(),
    NOISE_VAR.spec(),
    BETA_SCHEDULE.spec(),
    UCB_MULTIPLIER.spec(),
    THEORY_A.spec(),
    THEORY_B.spec(),
    THEORY_R.spec(),
    PAPER_PROFILE.spec(),
    RAW_SAMPLES.spec(),
    RESTARTS.spec(),
    MAX_ITERS.spec(),
    TOLERANCE.spec(),
    GRADIENT_TOLERANCE.spec(),
    CONTEXT_LO.spec(),
    CONTEXT_HI.spec(),
];

pub(super) const KDE_SAMPLES: IntegerParam = IntegerParam::new(
    "samples",
    1024,
    1,
    1 << 20,
    "M, KDE samples drawn per step and held fixed while maximising",
);
pub(super) const BANDWIDTH: ChoiceParam<BandwidthRule> = ChoiceParam::new(
    "bandwidth",
    &["silverman", "scott"],
    &[BandwidthRule::Silverman, BandwidthRule::Scott],
    "silverman",
    "KDE bandwidth rule c(Dc) σ̂_d n^{−1/(Dc+4)}: silverman c = (4/(Dc+2))^{1/(Dc+4)}, scott c = 1",
);
pub(super) const INFIMUM_POINTS: IntegerParam = IntegerParam::new(
    "infimum_points",
    1024,
    1,
    1 << 20,
    "scrambled-Sobol context points, drawn once per step, for the infimum over C (DRBO-KDE) or over the confidence box (StableOpt)",
);
pub(super) const RADIUS_SCALE: RealParam = RealParam::new(
    "l1_radius_scale",
    1.0,
    0.0,
    1e6,
    "DRBO-KDE's L1 radius (twice TV) is δ = l1_radius_scale · n^{−2/(4+Dc)}; 0 gives SBO-KDE",
);
pub(super) const MINIMAX_GRID: IntegerParam = IntegerParam::new(
    "grid_size",
    1024,
    1,
    1 << 16,
    "context grid: the Cartesian product of ⌈grid_size^{1/Dc}⌉ points per coordinate",
);
pub(super) const MMD_GRID: IntegerParam = IntegerParam::new(
    "grid_size",
    100,
    1,
    1 << 12,
    "context grid: the Cartesian product of ⌈grid_size^{1/Dc}⌉ points per coordinate",
);
pub(super) const MMD_RADIUS_SCALE: RealParam = RealParam::new(
    "mmd_radius_scale",
    1.0,
    0.0,
    1e6,
    "the MMD radius is ε = mmd_radius_scale · (2 + √(2 ln 10))/√n; 0 gives the expectation under the empirical grid distribution",
);

/// The methods of this family.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "sbo-kde",
        requires: Requirement::Context,
        description: "SBO-KDE: joint GP over (x, c), maximises the mean UCB over M samples of a KDE of the observed contexts",
        parameters: ParamTable(&[SHARED, &[KDE_SAMPLES.spec(), BANDWIDTH.spec()]]),
        build: |p| Ok(Box::new(KdeBo::new(p, Method::SboKde)?)),
    },
    AlgorithmEntry {
        name: "drbo-kde",
        requires: Requirement::Context,
        description: "DRBO-KDE: the worst-case mean UCB over an L1 (total-variation) ball around the KDE, closed form",
        parameters: ParamTable(&[
            SHARED,
            &[
                KDE_SAMPLES.spec(),
                BANDWIDTH.spec(),
                INFIMUM_POINTS.spec(),
                RADIUS_SCALE.spec(),
            ],
        ]),
        build: |p| Ok(Box::new(KdeBo::new(p, Method::DrboKde)?)),
    },
    AlgorithmEntry {
        name: "drbo-mmd-minimax",
        requires: Requirement::Context,
        description: "DRBO-MMD-MinimaxApprox: closed-form minimax approximation of the worst case over an MMD ball on a context grid",
        parameters: ParamTable(&[SHARED, &[MINIMAX_GRID.spec()]]),
        build: |p| Ok(Box::new(KdeBo::new(p, Method::MinimaxApprox)?)),
    },
    AlgorithmEntry {
        name: "drbo-mmd",
        requires: Requirement::Context,
        description: "DRBO-MMD (Kirschner et al. 2020): the exact worst-case mean UCB over an MMD ball around the empirical context distribution on a grid (a convex program per candidate, Clarabel)",
        parameters: ParamTable(&[SHARED, &[MMD_GRID.spec(), MMD_RADIUS_SCALE.spec()]]),
        build: |p| Ok(Box::new(DrboMmd::new(p)?)),
    },
    AlgorithmEntry {
        name: "stableopt",
        requires: Requirement::Context,
        description: "StableOpt: maximises min UCB over the context box mean ± std of the observed contexts",
        parameters: ParamTable(&[SHARED, &[INFIMUM_POINTS.spec()]]),
        build: |p| Ok(Box::new(KdeBo::new(p, Method::StableOpt)?)),
    },
];
