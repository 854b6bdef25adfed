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
pub mod posterior;
pub mod schedules;
mod settings;

pub use algorithm::UnknownPriorUcb;
pub use posterior::{PosteriorPath, PriorPosterior, PriorPosteriors};
pub use settings::{
    FullyBayesGpUcb, MleGpUcb, OracleGpUcb, PeGpUcb, RegretBalancing, Rule, Settings,
    UnknownPriorSettings,
};

use super::entry::AlgorithmEntry;
use super::requirement::Requirement;
use super::{Algorithm, AlgorithmError};
use bosweep_core::params::Params;
use settings::{ORACLE_GP_UCB_PARAMS, PE_GP_UCB_PARAMS, REGRET_BALANCING_PARAMS, SHARED_PARAMS};

/// The algorithm of `rule` and `settings`, awaiting the problem's candidate priors (keeping only
/// prior `keep` for an oracle); `params`, the checked parameters, go to the trace header.
fn build(
    params: &Params,
    (rule, settings): (Rule, Settings),
    keep: Option<usize>,
) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    Ok(Box::new(UnknownPriorUcb::awaiting_priors(
        rule,
        settings,
        keep,
        params.to_list(),
    )?))
}

/// The unknown-prior algorithms of the PE-GP-UCB paper.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::declared(
        "pe-gp-ucb",
        "PE-GP-UCB: joint UCB arg-max over surviving candidate priors and X_t; eliminate a prior whose prediction errors exceed its confidence",
        Requirement::CandidatePriors,
        PE_GP_UCB_PARAMS,
        |p| build(&p, PeGpUcb::from_params(&p).split(), None),
    ),
    AlgorithmEntry::declared(
        "regret-balancing",
        "Regret Balancing over candidate priors (Appendix D, R^p(n) = n): round-robin, eliminate by average reward",
        Requirement::CandidatePriors,
        REGRET_BALANCING_PARAMS,
        |p| build(&p, RegretBalancing::from_params(&p).split(), None),
    ),
    AlgorithmEntry::declared(
        "mle-gp-ucb",
        "GP-UCB with the candidate prior of largest marginal likelihood (re-chosen every step)",
        Requirement::CandidatePriors,
        SHARED_PARAMS,
        |p| build(&p, MleGpUcb::from_params(&p).split(), None),
    ),
    AlgorithmEntry::declared(
        "fully-bayes-gp-ucb",
        "maximise the posterior-weighted average of every candidate prior's UCB (uniform hyperprior)",
        Requirement::CandidatePriors,
        SHARED_PARAMS,
        |p| build(&p, FullyBayesGpUcb::from_params(&p).split(), None),
    ),
    AlgorithmEntry::declared(
        "oracle-gp-ucb",
        "TV-GP-UCB with one given prior (the true one: PE-GP-UCB with U = {p*})",
        Requirement::CandidatePriors,
        ORACLE_GP_UCB_PARAMS,
        |p| {
            let oracle = OracleGpUcb::from_params(&p);
            build(&p, oracle.split(), Some(oracle.prior))
        },
    ),
];
