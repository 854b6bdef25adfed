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
pub use mmd::{MmdBall, context_grid};
pub use mmd_program::{MmdProgram, Solve, WorstCase, screened_top_k};
pub use schedules::{kde_bandwidths, kde_l1_radius, mmd_radius, theory_beta};
pub use settings::{
    ContextualSettings, DrboKde, DrboMmd, DrboMmdMinimax, InfimumSettings, JointFit, JointKernel,
    KappaSchedule, KdeSettings, OptimizerProfile, SboKde, StableOpt, UcbMultiplier,
};

use bosweep_toolkit::AlgorithmEntry;

/// The methods of this family.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::of::<SboKde>(),
    AlgorithmEntry::of::<DrboKde>(),
    AlgorithmEntry::of::<DrboMmdMinimax>(),
    AlgorithmEntry::of::<DrboMmd>(),
    AlgorithmEntry::of::<StableOpt>(),
];
