//! Stochastic and distributionally robust BO over an uncontrollable continuous context:
//! SBO-KDE and DRBO-KDE (Huang, Song, Xue and Qian, "Stochastic Bayesian Optimization with
//! Unknown Continuous Context Distribution via Kernel Density Estimation", AAAI 2024) and the
//! baselines they compare with, StableOpt (Bogunovic et al. 2018), DRBO-MMD (Kirschner et al.
//! 2020) and DRBO-MMD-MinimaxApprox (Tay et al. 2022). The context-blind GP-UCB baseline is the
//! registry's `gp-ucb` (its GP ignores contexts).
//!
//! Each method has typed settings ([`SboKde`], [`DrboKde`], [`DrboMmdMinimax`], [`DrboMmd`],
//! [`StableOpt`]) sharing [`ContextualSettings`]; an [`Optimizer`](crate::Optimizer) built from
//! them with `context_bounds` is told the context each evaluation observed.

mod acquisition;
mod drbo_mmd;
mod kde_bo;
mod methods;
mod mmd;
mod mmd_program;
mod schedules;
mod settings;
#[cfg(test)]
mod tests;

pub use acquisition::{DifferentiableAcquisition, PairAcquisition, Reduction};
pub use methods::{DrboKde, DrboMmd, DrboMmdMinimax, SboKde, StableOpt};
pub use mmd::{MmdBall, context_grid};
pub use mmd_program::{MmdProgram, Solve, WorstCase, screened_top_k};
pub use schedules::{kde_bandwidths, kde_l1_radius, mmd_radius, theory_beta};
pub use settings::{
    ContextualSettings, JointFit, JointKernel, KdeSettings, OptimizerProfile, UcbMultiplier,
};

use super::entry::AlgorithmEntry;
use super::requirement::Requirement;
use settings::{DRBO_KDE_TABLE, DRBO_MMD_TABLE, MINIMAX_TABLE, SBO_KDE_TABLE, STABLEOPT_TABLE};

/// The methods of this family.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::declared(
        "sbo-kde",
        "SBO-KDE: joint GP over (x, c), maximises the mean UCB over M samples of a KDE of the observed contexts",
        Requirement::Context,
        SBO_KDE_TABLE,
        |p| Ok(Box::new(SboKde::from_params(&p).into_algorithm(p)?)),
    ),
    AlgorithmEntry::declared(
        "drbo-kde",
        "DRBO-KDE: the worst-case mean UCB over an L1 (total-variation) ball around the KDE, closed form",
        Requirement::Context,
        DRBO_KDE_TABLE,
        |p| Ok(Box::new(DrboKde::from_params(&p).into_algorithm(p)?)),
    ),
    AlgorithmEntry::declared(
        "drbo-mmd-minimax",
        "DRBO-MMD-MinimaxApprox: closed-form minimax approximation of the worst case over an MMD ball on a context grid",
        Requirement::Context,
        MINIMAX_TABLE,
        |p| Ok(Box::new(DrboMmdMinimax::from_params(&p).into_algorithm(p)?)),
    ),
    AlgorithmEntry::declared(
        "drbo-mmd",
        "DRBO-MMD (Kirschner et al. 2020): the exact worst-case mean UCB over an MMD ball around the empirical context distribution on a grid (a convex program per candidate, Clarabel)",
        Requirement::Context,
        DRBO_MMD_TABLE,
        |p| Ok(Box::new(DrboMmd::from_params(&p).into_algorithm(p)?)),
    ),
    AlgorithmEntry::declared(
        "stableopt",
        "StableOpt: maximises min UCB over the context box mean ± std of the observed contexts",
        Requirement::Context,
        STABLEOPT_TABLE,
        |p| Ok(Box::new(StableOpt::from_params(&p).into_algorithm(p)?)),
    ),
];
