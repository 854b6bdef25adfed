//! UHE-BO (Ha, Nguyen, Zhang & van den Hengel 2023, arXiv:2306.06844 v1), its ablations and
//! its baselines (the paper's Sec. 7), one code path with three switches: how the arm of each
//! iteration is chosen, what θ̂ is fitted on, and how θ̂ is estimated. Each member has its
//! typed settings ([`UheBo`], [`RaBo`], [`RandomExp3`], [`MapGpUcb`], [`McmcGpUcb`],
//! [`AGpUcb`], [`WangDeFreitas`], [`Portfolio`]), which set the switches:
//!
//! | name | arms | θ̂ fitted on |
//! |---|---|---|
//! | `uhe-bo` | EXP3 over iteration pairs | pseudo-dataset (Eq. 2) |
//! | `ra-bo` | always arm 1: random at odd t, acquisition at even t | pseudo-dataset |
//! | `random-exp3` | EXP3 over iteration pairs | real data (ordinary MAP) |
//! | `map-gp-ucb` | always arm 2: acquisition every iteration | real data (ordinary MAP) |
//! | `mcmc-gp-ucb`, `a-gp-ucb`, `wang-de-freitas` | always arm 2 | real data, own θ̂ |
//! | `portfolio` | EXP3 each iteration: random or GP-UCB (or EI, PI, UCB) | real data |
//!
//! `t` is the iteration counter of Algorithm 1: 1 at the first step after the initial design
//! D_0 (the runner's step index minus |D_0|).
//!
//! * **Arms** (Sec. 5.1, Algorithm 1 lines 5–12): at odd `t`, `γ̃ = min(1, γ_t)` with
//!   `γ_t = sqrt(4 ln 2 / ((e − 1) t))`, `p_t = (1 − γ̃) softmax(ℓw) + γ̃/2`, `a_t ~ p_t` (the
//!   run's RNG); at even `t` the arm is held. Arm 1 at odd `t` evaluates a uniform point; every
//!   other step proposes by GP-UCB. After an even `t`, the pair's reward `max(y_t, y_{t−1})` is
//!   min-max scaled with D_0 (line 20; min-max is our reading of "scale it using D_0") and
//!   `ℓw^a += γ_t r̃ / (2 p_{t−1}^a)`.
//! * **Proposal** (Sec. 5.2, UHE_PROPOSE): in the unit cube, `M = ⌈m_factor · n⌉` uniform
//!   points are labelled with the y of their nearest observed point ([`pseudo_labels`],
//!   `Engine::nearest`, ties to the lowest index); θ = (ℓ_1..ℓ_d, σ_f², σ_n²) of a Matérn-5/2
//!   ARD GP with zero prior mean is fitted on them by MAP with Gamma(1e−3, 10) priors on every
//!   hyperparameter, Jacobian included ([`Priors::uhe_bo`], App. C), outputs standardised with
//!   the mean and std of the **real** y (our choice: the paper is silent); the GP conditioned on
//!   the real data with θ̂ is then maximised with `μ + √β σ`
//!   ([`UpperConfidenceBound::with_beta`], β = `ucb_beta` = 1.96: multiplier 1.4).
//! * **Recommendation**: the observed point with the largest observed y.

mod algorithm;
mod estimators;
mod hyper;
mod methods;
mod pairs;
mod settings;
#[cfg(test)]
mod tests;

pub use hyper::{
    AveragedUcb, ProbabilityOfImprovement, adaptive_scale, log_posterior, theta_from_log,
};
pub use pairs::{PairedExp3, pseudo_labels, uhe_gamma};
pub use settings::{
    AGpUcb, Exp3PairSettings, GammaSchedule, MapGpUcb, McmcGpUcb, Portfolio, PortfolioArms,
    PseudoData, RaBo, RandomExp3, RewardClip, RewardScaling, ThetaLoss, UheBo, UheGpSettings,
    WangDeFreitas,
};

use bosweep_toolkit::AlgorithmEntry;

/// UHE-BO, its ablations and its baselines, as `bosweep` builds them by name.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::of::<UheBo>(),
    AlgorithmEntry::of::<RaBo>(),
    AlgorithmEntry::of::<RandomExp3>(),
    AlgorithmEntry::of::<MapGpUcb>(),
    AlgorithmEntry::of::<McmcGpUcb>(),
    AlgorithmEntry::of::<AGpUcb>(),
    AlgorithmEntry::of::<WangDeFreitas>(),
    AlgorithmEntry::of::<Portfolio>(),
];
