//! PE-GP-UCB (Ziomek, Adachi & Osborne, AISTATS 2025) and the baselines of its experiments:
//! time-varying GP bandits whose prior is one of a finite candidate set (`specs/pe-gp-ucb.md`).
//!
//! - [`posterior`]: every prior's exact posterior under the ε-forgetting kernel, incrementally
//!   (§7.2) or refactorised through the engine (the reference);
//! - [`schedules`]: `β_t` and `ξ_t` of Theorem 4.1;
//! - [`algorithm`]: the prior-selection rules (elimination, Regret Balancing, MLE, fully
//!   Bayesian) over one shared machinery.
//!
//! Random search is the crate's `random`, which draws uniformly from the allowed set.

pub mod algorithm;
pub mod posterior;
pub mod schedules;

pub use algorithm::{Rule, Settings, UnknownPriorUcb};
pub use posterior::{PosteriorPath, PriorPosterior, PriorPosteriors};

use super::entry::AlgorithmEntry;
use super::requirement::Requirement;
use super::{Algorithm, AlgorithmError};
use bosweep_core::params::{
    ChoiceParam, FlagParam, IntegerParam, ParamSpec, ParamTable, Params, RealParam,
};

const NOISE_STD: RealParam = RealParam::new(
    "noise_std",
    0.1,
    1e-9,
    1e6,
    "known noise std R of the model (set it to the problem's noise_std)",
);
const DELTA: RealParam = RealParam::new(
    "delta",
    0.1,
    1e-12,
    0.999_999,
    "failure probability δ of β_t and ξ_t",
);
const HORIZON: IntegerParam = IntegerParam::new(
    "horizon",
    0,
    0,
    1 << 24,
    "planned horizon T inside β_t; 0 = the prior set's (toy 100, Intel 144)",
);
const BETA_SCALE: RealParam = RealParam::new(
    "beta_scale",
    1.0,
    0.0,
    1e6,
    "multiplier of β_t (1 = Theorem 4.1; < 1 voids the guarantee that the true prior survives)",
);
const POSTERIOR: ChoiceParam<PosteriorPath> = ChoiceParam::new(
    "posterior",
    &["incremental", "engine"],
    &[PosteriorPath::Incremental, PosteriorPath::Engine],
    "incremental",
    "incremental exact algebra, or refactorise every step through the engine (reference; stationary kernels only)",
);
/// The parameters every unknown-prior algorithm takes.
const SHARED: &[ParamSpec] = &[
    NOISE_STD.spec(),
    DELTA.spec(),
    HORIZON.spec(),
    BETA_SCALE.spec(),
    POSTERIOR.spec(),
];

const XI_STRICT: FlagParam = FlagParam::new(
    "xi_strict",
    false,
    "ξ_t with the factor 2 the proof of Lemma 5.1 drops (default: the printed Theorem 4.1 formula)",
);
const GUARD: FlagParam = FlagParam::new(
    "guard",
    true,
    "never eliminate the last surviving prior (log a misspecification event instead)",
);
const RB_LITERAL_LHS: FlagParam = FlagParam::new(
    "rb_literal_lhs",
    false,
    "use the printed pessimistic left-hand side of line 11 (default: optimistic, as Pacchiano et al.)",
);
const PRIOR: IntegerParam = IntegerParam::new(
    "prior",
    2,
    0,
    1 << 16,
    "index of the prior used (the toy's true prior is 2)",
);

fn build(
    params: Params,
    rule: Rule,
    keep: Option<usize>,
) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    let settings = Settings {
        noise_std: NOISE_STD.of(&params),
        delta: DELTA.of(&params),
        horizon: HORIZON.of(&params),
        beta_scale: BETA_SCALE.of(&params),
        xi_strict: params.declares(XI_STRICT.spec().name) && XI_STRICT.of(&params),
        path: POSTERIOR.of(&params),
    };
    // The candidate priors are the problem's, installed by `prepare`.
    Ok(Box::new(UnknownPriorUcb::awaiting_priors(
        rule,
        settings,
        keep,
        params.to_list(),
    )?))
}

/// The unknown-prior algorithms of the PE-GP-UCB paper.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "pe-gp-ucb",
        requires: Requirement::CandidatePriors,
        description: "PE-GP-UCB: joint UCB arg-max over surviving candidate priors and X_t; eliminate a prior whose prediction errors exceed its confidence",
        parameters: ParamTable(&[SHARED, &[XI_STRICT.spec(), GUARD.spec()]]),
        build: |p| {
            let guard = GUARD.of(&p);
            build(p, Rule::PriorElimination { guard }, None)
        },
    },
    AlgorithmEntry {
        name: "regret-balancing",
        requires: Requirement::CandidatePriors,
        description: "Regret Balancing over candidate priors (Appendix D, R^p(n) = n): round-robin, eliminate by average reward",
        parameters: ParamTable(&[SHARED, &[XI_STRICT.spec(), RB_LITERAL_LHS.spec()]]),
        build: |p| {
            let literal = RB_LITERAL_LHS.of(&p);
            build(p, Rule::RegretBalancing { literal }, None)
        },
    },
    AlgorithmEntry {
        name: "mle-gp-ucb",
        requires: Requirement::CandidatePriors,
        description: "GP-UCB with the candidate prior of largest marginal likelihood (re-chosen every step)",
        parameters: ParamTable(&[SHARED]),
        build: |p| build(p, Rule::MaximumLikelihood, None),
    },
    AlgorithmEntry {
        name: "fully-bayes-gp-ucb",
        requires: Requirement::CandidatePriors,
        description: "maximise the posterior-weighted average of every candidate prior's UCB (uniform hyperprior)",
        parameters: ParamTable(&[SHARED]),
        build: |p| build(p, Rule::FullyBayesian, None),
    },
    AlgorithmEntry {
        name: "oracle-gp-ucb",
        requires: Requirement::CandidatePriors,
        description: "TV-GP-UCB with one given prior (the true one: PE-GP-UCB with U = {p*})",
        parameters: ParamTable(&[SHARED, &[PRIOR.spec()]]),
        build: |p| {
            let prior = PRIOR.of(&p);
            build(p, Rule::PriorElimination { guard: true }, Some(prior))
        },
    },
];
