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

use super::registry::AlgorithmEntry;
use super::requirement::Requirement;
use super::{Algorithm, AlgorithmError};
use bosweep_core::params::{ParamKind, ParamSpec, Params};

/// The parameters every unknown-prior algorithm takes, then `$extra`.
macro_rules! prior_params {
    ($($extra:expr),* $(,)?) => {
        &[
            ParamSpec {
                name: "noise_std",
                kind: ParamKind::Real { default: 0.1, min: 1e-9, max: 1e6 },
                description: "known noise std R of the model (set it to the problem's noise_std)",
            },
            ParamSpec {
                name: "delta",
                kind: ParamKind::Real { default: 0.1, min: 1e-12, max: 0.999_999 },
                description: "failure probability δ of β_t and ξ_t",
            },
            ParamSpec {
                name: "horizon",
                kind: ParamKind::Integer { default: 0, min: 0, max: 1 << 24 },
                description: "planned horizon T inside β_t; 0 = the prior set's (toy 100, Intel 144)",
            },
            ParamSpec {
                name: "beta_scale",
                kind: ParamKind::Real { default: 1.0, min: 0.0, max: 1e6 },
                description: "multiplier of β_t (1 = Theorem 4.1; < 1 voids the guarantee that the true prior survives)",
            },
            ParamSpec {
                name: "posterior",
                kind: ParamKind::Choice { default: "incremental", options: &["incremental", "engine"] },
                description: "incremental exact algebra, or refactorise every step through the engine (reference; stationary kernels only)",
            },
            $($extra),*
        ]
    };
}

const XI_STRICT: ParamSpec = ParamSpec {
    name: "xi_strict",
    kind: ParamKind::Choice {
        default: "false",
        options: &["false", "true"],
    },
    description: "ξ_t with the factor 2 the proof of Lemma 5.1 drops (default: the printed Theorem 4.1 formula)",
};

fn build(
    params: Params,
    rule: Rule,
    keep: Option<usize>,
) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    let settings = Settings {
        noise_std: params.number("noise_std"),
        delta: params.number("delta"),
        horizon: params.integer("horizon"),
        beta_scale: params.number("beta_scale"),
        xi_strict: flag(&params, "xi_strict"),
        path: match params.choice("posterior") {
            "engine" => PosteriorPath::Engine,
            _ => PosteriorPath::Incremental,
        },
    };
    // The candidate priors are the problem's, installed by `prepare`.
    Ok(Box::new(UnknownPriorUcb::awaiting_priors(
        rule,
        settings,
        keep,
        params.to_list(),
    )?))
}

/// Whether the on/off parameter `name` is declared by this algorithm and on.
fn flag(params: &Params, name: &str) -> bool {
    params.declares(name) && params.choice(name) == "true"
}

/// The unknown-prior algorithms of the PE-GP-UCB paper.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "pe-gp-ucb",
        requires: Requirement::CandidatePriors,
        description: "PE-GP-UCB: joint UCB arg-max over surviving candidate priors and X_t; eliminate a prior whose prediction errors exceed its confidence",
        parameters: prior_params![
            XI_STRICT,
            ParamSpec {
                name: "guard",
                kind: ParamKind::Choice {
                    default: "true",
                    options: &["true", "false"]
                },
                description: "never eliminate the last surviving prior (log a misspecification event instead)",
            },
        ],
        build: |p| {
            let guard = flag(&p, "guard");
            build(p, Rule::PriorElimination { guard }, None)
        },
    },
    AlgorithmEntry {
        name: "regret-balancing",
        requires: Requirement::CandidatePriors,
        description: "Regret Balancing over candidate priors (Appendix D, R^p(n) = n): round-robin, eliminate by average reward",
        parameters: prior_params![
            XI_STRICT,
            ParamSpec {
                name: "rb_literal_lhs",
                kind: ParamKind::Choice {
                    default: "false",
                    options: &["false", "true"]
                },
                description: "use the printed pessimistic left-hand side of line 11 (default: optimistic, as Pacchiano et al.)",
            },
        ],
        build: |p| {
            let literal = flag(&p, "rb_literal_lhs");
            build(p, Rule::RegretBalancing { literal }, None)
        },
    },
    AlgorithmEntry {
        name: "mle-gp-ucb",
        requires: Requirement::CandidatePriors,
        description: "GP-UCB with the candidate prior of largest marginal likelihood (re-chosen every step)",
        parameters: prior_params![],
        build: |p| build(p, Rule::MaximumLikelihood, None),
    },
    AlgorithmEntry {
        name: "fully-bayes-gp-ucb",
        requires: Requirement::CandidatePriors,
        description: "maximise the posterior-weighted average of every candidate prior's UCB (uniform hyperprior)",
        parameters: prior_params![],
        build: |p| build(p, Rule::FullyBayesian, None),
    },
    AlgorithmEntry {
        name: "oracle-gp-ucb",
        requires: Requirement::CandidatePriors,
        description: "TV-GP-UCB with one given prior (the true one: PE-GP-UCB with U = {p*})",
        parameters: prior_params![ParamSpec {
            name: "prior",
            kind: ParamKind::Integer {
                default: 2,
                min: 0,
                max: 1 << 16
            },
            description: "index of the prior used (the toy's true prior is 2)",
        }],
        build: |p| {
            let prior = p.integer("prior");
            build(p, Rule::PriorElimination { guard: true }, Some(prior))
        },
    },
];
