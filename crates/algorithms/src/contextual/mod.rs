//! Stochastic and distributionally robust BO over an uncontrollable continuous context
//! (`specs/sbo-drbo-kde.md`): SBO-KDE, DRBO-KDE and the StableOpt, DRBO-MMD and
//! DRBO-MMD-MinimaxApprox baselines. The context-blind
//! GP-UCB baseline is the registry's `gp-ucb` (its GP ignores contexts).

mod acquisition;
mod drbo_mmd;
mod kde_bo;
mod mmd;
mod mmd_program;
mod refine;
mod schedules;

pub use acquisition::{DifferentiableAcquisition, PairAcquisition, Reduction};
pub use drbo_mmd::DrboMmd;
pub use kde_bo::{KdeBo, Method};
pub use mmd::{MmdBall, context_grid, pair_values};
pub use mmd_program::{MmdProgram, Solve, WorstCase, screened_top_k};
pub use refine::{PairMaximum, RefineSettings, maximize_pairs};
pub use schedules::{kde_bandwidths, kde_l1_radius, mmd_radius, theory_beta};

use super::registry::AlgorithmEntry;
use super::requirement::Requirement;
use bosweep_core::params::{ParamKind, ParamSpec};

const fn real(
    name: &'static str,
    default: f64,
    min: f64,
    max: f64,
    description: &'static str,
) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Real { default, min, max },
        description,
    }
}

const fn integer(
    name: &'static str,
    default: usize,
    min: usize,
    max: usize,
    description: &'static str,
) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Integer { default, min, max },
        description,
    }
}

/// Parameters shared by the three methods (spec §2.2, §2.6, §2.9, §2.11).
macro_rules! kde_bo_params {
    ($($extra:expr),* $(,)?) => {
        &[
            ParamSpec {
                name: "kernel",
                kind: ParamKind::Choice { default: "matern52", options: &["matern52", "se"] },
                description: "joint-space GP kernel (ARD lengthscales, with outputscale)",
            },
            ParamSpec {
                name: "fit",
                kind: ParamKind::Choice { default: "map", options: &["map", "mle"] },
                description: "hyperparameters refitted every step: MAP with BoTorch's late-2023 Gamma priors, or ML-II",
            },
            real("lengthscale", 1.0 / 3.0, 1e-3, 1e3, "initial lengthscale (unit cube; the Gamma(3, 6) prior mode)"),
            real("signal_var", 1.0, 1e-4, 1e4, "initial outputscale (standardised outputs)"),
            real("noise_var", 2.0, 1e-4, 10.0, "initial noise variance (standardised outputs; the Gamma(1.1, 0.05) prior mode)"),
            ParamSpec {
                name: "beta_schedule",
                kind: ParamKind::Choice { default: "constant", options: &["constant", "theory"] },
                description: "constant: κ = ucb_multiplier; theory: κ = √β_t, β_t = 2 ln(t²/√(2π)) + 2Dx ln(t² Dx a b r √π/2)",
            },
            real("ucb_multiplier", 1.5, 0.0, 1e6, "κ in μ + κσ (the paper's √β = 1.5 for every method)"),
            real("theory_a", 1.0, 1e-12, 1e12, "a of the theory schedule (derivative tail constant)"),
            real("theory_b", 1.0, 1e-12, 1e12, "b of the theory schedule (derivative tail constant)"),
            real("theory_r", 1.0, 1e-12, 1e12, "r of the theory schedule (side of the box [0, r]^D)"),
            ParamSpec {
                name: "optimizer_profile",
                kind: ParamKind::Choice { default: "paper", options: &["paper", "full"] },
                description: "paper: 32 raw samples and 5 restarts for DRBO-KDE and DRBO-MMD, 1024 and 50 otherwise; full: 1024 and 50 for all",
            },
            integer("raw_samples", 0, 0, 1 << 20, "Sobol candidates of the acquisition grid; 0 = the profile's"),
            integer("restarts", 0, 0, 4096, "best grid points refined by L-BFGS-B; 0 = the profile's"),
            integer("max_iters", 100, 1, 100_000, "L-BFGS-B iterations per restart"),
            real("tolerance", 2.2e-9, 0.0, 1.0, "L-BFGS-B stops at this relative decrease of the acquisition (scipy's default ftol, as BoTorch's optimize_acqf)"),
            real("gradient_tolerance", 1e-5, 0.0, 1.0, "L-BFGS-B stops when the projected gradient's ∞-norm is ≤ this (scipy's default pgtol, as BoTorch's optimize_acqf)"),
            real("context_lo", 0.0, -1e12, 1e12, "lower bound of every context coordinate (the box C)"),
            real("context_hi", 1.0, -1e12, 1e12, "upper bound of every context coordinate (the box C)"),
            $($extra),*
        ]
    };
}

const KDE_SAMPLES: ParamSpec = integer(
    "samples",
    1024,
    1,
    1 << 20,
    "M, KDE samples drawn per step and held fixed while maximising",
);
const BANDWIDTH: ParamSpec = ParamSpec {
    name: "bandwidth",
    kind: ParamKind::Choice {
        default: "silverman",
        options: &["silverman", "scott"],
    },
    description: "KDE bandwidth rule c(Dc) σ̂_d n^{−1/(Dc+4)}: silverman c = (4/(Dc+2))^{1/(Dc+4)}, scott c = 1",
};
const INFIMUM_POINTS: ParamSpec = integer(
    "infimum_points",
    1024,
    1,
    1 << 20,
    "scrambled-Sobol context points, drawn once per step, for the infimum over C (DRBO-KDE) or over the confidence box (StableOpt)",
);
const RADIUS_SCALE: ParamSpec = real(
    "l1_radius_scale",
    1.0,
    0.0,
    1e6,
    "DRBO-KDE's L1 radius (twice TV) is δ = l1_radius_scale · n^{−2/(4+Dc)}; 0 gives SBO-KDE",
);

/// The methods of this family.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "sbo-kde",
        requires: Requirement::Context,
        description: "SBO-KDE: joint GP over (x, c), maximises the mean UCB over M samples of a KDE of the observed contexts",
        parameters: kde_bo_params![KDE_SAMPLES, BANDWIDTH],
        build: |p| Ok(Box::new(KdeBo::new(p, Method::SboKde)?)),
    },
    AlgorithmEntry {
        name: "drbo-kde",
        requires: Requirement::Context,
        description: "DRBO-KDE: the worst-case mean UCB over an L1 (total-variation) ball around the KDE, closed form",
        parameters: kde_bo_params![KDE_SAMPLES, BANDWIDTH, INFIMUM_POINTS, RADIUS_SCALE],
        build: |p| Ok(Box::new(KdeBo::new(p, Method::DrboKde)?)),
    },
    AlgorithmEntry {
        name: "drbo-mmd-minimax",
        requires: Requirement::Context,
        description: "DRBO-MMD-MinimaxApprox: closed-form minimax approximation of the worst case over an MMD ball on a context grid",
        parameters: kde_bo_params![integer(
            "grid_size",
            1024,
            1,
            1 << 16,
            "context grid: the Cartesian product of ⌈grid_size^{1/Dc}⌉ points per coordinate"
        )],
        build: |p| Ok(Box::new(KdeBo::new(p, Method::MinimaxApprox)?)),
    },
    AlgorithmEntry {
        name: "drbo-mmd",
        requires: Requirement::Context,
        description: "DRBO-MMD (Kirschner et al. 2020): the exact worst-case mean UCB over an MMD ball around the empirical context distribution on a grid (a convex program per candidate, Clarabel)",
        parameters: kde_bo_params![
            integer(
                "grid_size",
                100,
                1,
                1 << 12,
                "context grid: the Cartesian product of ⌈grid_size^{1/Dc}⌉ points per coordinate"
            ),
            real(
                "mmd_radius_scale",
                1.0,
                0.0,
                1e6,
                "the MMD radius is ε = mmd_radius_scale · (2 + √(2 ln 10))/√n; 0 gives the expectation under the empirical grid distribution"
            )
        ],
        build: |p| Ok(Box::new(DrboMmd::new(p)?)),
    },
    AlgorithmEntry {
        name: "stableopt",
        requires: Requirement::Context,
        description: "StableOpt: maximises min UCB over the context box mean ± std of the observed contexts",
        parameters: kde_bo_params![INFIMUM_POINTS],
        build: |p| Ok(Box::new(KdeBo::new(p, Method::StableOpt)?)),
    },
];
