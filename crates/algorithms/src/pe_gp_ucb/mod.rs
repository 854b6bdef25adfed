//! PE-GP-UCB (Ziomek, Adachi and Osborne, "Time-Varying Gaussian Process Bandits with Unknown
//! Prior", AISTATS 2025) and the baselines of its experiments: time-varying GP bandits whose
//! prior is one of a finite candidate set.
//!
//! - [`posterior`]: every prior's exact posterior under the ε-forgetting kernel, incrementally
//!   or refactorised through the engine (the reference);
//! - [`schedules`]: `β_t` and `ξ_t` of Theorem 4.1;
//! - [`algorithm`]: the prior-selection rules (elimination, Regret Balancing, MLE, fully
//!   Bayesian) over one shared machinery;
//! - the typed settings of each registry entry: [`PeGpUcb`], [`RegretBalancing`],
//!   [`MleGpUcb`], [`FullyBayesGpUcb`], [`OracleGpUcb`].
//!
//! Random search is the crate's `random`, which draws uniformly from the allowed set.

pub mod algorithm;
mod methods;
pub mod posterior;
pub mod schedules;
mod settings;
#[cfg(test)]
mod tests;

pub use algorithm::UnknownPriorUcb;
pub use posterior::{PosteriorPath, PriorPosterior, PriorPosteriors};
pub use settings::{
    FullyBayesGpUcb, MleGpUcb, OracleGpUcb, PeGpUcb, RegretBalancing, Rule, Settings,
    UnknownPriorSettings,
};

use bosweep_toolkit::AlgorithmEntry;

/// The unknown-prior algorithms of the PE-GP-UCB paper.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::of::<PeGpUcb>(),
    AlgorithmEntry::of::<RegretBalancing>(),
    AlgorithmEntry::of::<MleGpUcb>(),
    AlgorithmEntry::of::<FullyBayesGpUcb>(),
    AlgorithmEntry::of::<OracleGpUcb>(),
];
