//! RAHBO, risk-averse heteroscedastic BO (Makarova et al., 2021; `specs/rahbo.md`), with the
//! paper's variants and baselines: `rahbo`, `rahbo-known-var`, `rahbo-us`, `gp-ucb-hetero`.

mod algorithm;
mod config;
mod models;
mod report;
mod stats;

pub use algorithm::Rahbo;
pub use config::{BetaMode, Method, ObjectiveNoise, ReportRule, Settings, VarianceNoise};
pub use models::Models;
pub use report::{ReportScores, first_argmax, reported_index};
pub use stats::{
    SampleStats, bounds, conservative_variance_noise, information_log_ratio, mean_variance_bounds,
    pairwise_sample_variance, plug_in_noise, theory_beta,
};

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

const fn choice(
    name: &'static str,
    default: &'static str,
    options: &'static [&'static str],
    description: &'static str,
) -> ParamSpec {
    ParamSpec {
        name,
        kind: ParamKind::Choice { default, options },
        description,
    }
}

const ALPHA: ParamSpec = real(
    "alpha",
    1.0,
    0.0,
    1e12,
    "risk coefficient α of f − α·ρ² (units 1/[y])",
);
const ALPHA_SOURCE: ParamSpec = choice(
    "alpha_source",
    "problem",
    &["problem", "parameter"],
    "α from the problem's alpha parameter where it has one (so regret and algorithm agree), or always alpha",
);
const K: ParamSpec = ParamSpec {
    name: "k",
    kind: ParamKind::Integer {
        default: 10,
        min: 1,
        max: 100_000,
    },
    description: "repeated evaluations per point (k ≥ 2 except rahbo-known-var)",
};
const LAMBDA: ParamSpec = real(
    "lambda",
    1.0,
    1e-12,
    1e12,
    "regulariser λ of K + λΣ (σ² divided by λ)",
);
const BETA_MODE: ParamSpec = choice(
    "beta_mode",
    "constant",
    &["constant", "theory"],
    "constant multipliers, or Lemma 1's β from the data with δ/2 per GP",
);
const BETA_F: ParamSpec = real(
    "beta_f_mult",
    2.0,
    0.0,
    1e6,
    "β multiplying σ of the f-GP (paper 2; reference √2)",
);
const BETA_VAR: ParamSpec = real(
    "beta_var_mult",
    2.0,
    0.0,
    1e6,
    "β^var multiplying σ^var (paper 2; reference √2)",
);
const DELTA: ParamSpec = real(
    "delta",
    0.1,
    1e-12,
    0.999_999,
    "failure probability δ of the theory β",
);
const NORM_F: ParamSpec = real(
    "norm_bound_f",
    1.0,
    0.0,
    1e12,
    "RKHS-norm bound B_f of the theory β",
);
const NORM_VAR: ParamSpec = real(
    "norm_bound_var",
    1.0,
    0.0,
    1e12,
    "RKHS-norm bound B_var of the theory β^var",
);
const FGP_NOISE: ParamSpec = choice(
    "fgp_noise",
    "ucb_var_over_k",
    &["ucb_var_over_k", "sample_var_over_k", "sample_var"],
    "f-GP noise: clip(ucb^var, ϱ_², ϱ̄²)/k (paper), max(ŝ², ϱ_²)/k, or ŝ² (reference)",
);
const GPUCB_NOISE: ParamSpec = choice(
    "gpucb_noise",
    "sample_var_over_k",
    &["sample_var_over_k", "sample_var", "ucb_var_over_k"],
    "f-GP noise: max(ŝ², ϱ_²)/k, ŝ² (reference), or RAHBO's Σ̂ (GP-UCB ≡ RAHBO at α = 0)",
);
const VARGP_NOISE: ParamSpec = choice(
    "vargp_noise",
    "learned",
    &["learned", "fixed_conservative", "fixed_value"],
    "variance-GP noise ρ²_η: fitted, 2ϱ̄⁴/(k−1), or vargp_noise_value",
);
const VARGP_NOISE_VALUE: ParamSpec = real(
    "vargp_noise_value",
    0.01,
    1e-12,
    1e12,
    "ρ²_η when vargp_noise = fixed_value",
);
const RHO2_MAX: ParamSpec = real(
    "rho2_max",
    0.0,
    0.0,
    1e12,
    "cap ϱ̄²; 0 = twice the largest observed ŝ², every round",
);
const RHO2_MIN: ParamSpec = real(
    "rho2_min",
    0.0,
    0.0,
    1e12,
    "floor ϱ_² of the noise; 0 = 1e-6·max(1, var(m̂))",
);
const PLUGIN_FLOOR: ParamSpec = real(
    "plugin_floor",
    0.02,
    0.0,
    1e12,
    "floor of RAHBO-US's plug-in max(μ^var, floor) ([R]: 0.02)",
);
const CLAMP_LCB_VAR: ParamSpec = choice(
    "clamp_lcb_var",
    "false",
    &["false", "true"],
    "clamp lcb^var at ϱ_² in the acquisition (P19; the paper does not)",
);
const REPORT: ParamSpec = choice(
    "report",
    "final_lcb",
    &["final_lcb", "corollary", "empirical_mv", "best_observed"],
    "reported point: final-model lcb, Corollary 1.1, argmax m̂ − α·ŝ², or argmax m̂",
);
const FIT: ParamSpec = choice(
    "fit",
    "map",
    &["map", "mle", "fixed"],
    "hyperparameters: MAP with BoTorch's Gamma priors, ML-II, or fixed initial values",
);
const PRIOR_MEAN: ParamSpec = choice(
    "prior_mean",
    "constant",
    &["constant", "zero"],
    "learned constant prior mean (practical) or zero (Alg. 1)",
);
const REFIT_EVERY: ParamSpec = ParamSpec {
    name: "refit_every",
    kind: ParamKind::Integer {
        default: 0,
        min: 0,
        max: 1_000_000,
    },
    description: "refit hyperparameters every this many rounds; 0 = once after the initial design",
};
const LENGTHSCALE: ParamSpec = real(
    "lengthscale",
    0.3,
    1e-6,
    1e6,
    "initial lengthscale in unit-cube units",
);
const GRID_SIZE: ParamSpec = ParamSpec {
    name: "grid_size",
    kind: ParamKind::Integer {
        default: 0,
        min: 0,
        max: 1 << 24,
    },
    description: "Sobol candidates fixed for the run; 0 = min(2^12·d, 2^20); the allowed set when there is one",
};
const US_ROUNDS: ParamSpec = ParamSpec {
    name: "us_rounds",
    kind: ParamKind::Integer {
        default: 10,
        min: 0,
        max: 1_000_000,
    },
    description: "rounds of uncertainty sampling on the variance GP before GP-UCB on f − α·μ^var",
};

/// The parameters every RAHBO-family algorithm declares, in listing order: `$noise` is the
/// objective GP's noise choice (`fgp_noise`, or `gpucb_noise` for the risk-neutral baseline),
/// `$extra` what one method adds.
macro_rules! rahbo_params {
    ($noise:expr $(, $extra:expr)*) => {
        &[
            ALPHA, ALPHA_SOURCE, K, LAMBDA, BETA_MODE, BETA_F, BETA_VAR, DELTA, NORM_F, NORM_VAR,
            $noise,
            VARGP_NOISE, VARGP_NOISE_VALUE, RHO2_MAX, RHO2_MIN, PLUGIN_FLOOR, CLAMP_LCB_VAR,
            REPORT, FIT, PRIOR_MEAN, REFIT_EVERY, LENGTHSCALE, GRID_SIZE
            $(, $extra)*
        ]
    };
}

/// The RAHBO family's algorithms.
pub(crate) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "rahbo",
        requires: Requirement::Any,
        description: "RAHBO: k repeats per point, variance-proxy GP, acquisition ucb^f − α·lcb^var, lcb^MV reporting",
        parameters: rahbo_params!(FGP_NOISE),
        build: |p| Ok(Box::new(Rahbo::new(Method::Rahbo, p)?)),
    },
    AlgorithmEntry {
        name: "rahbo-known-var",
        requires: Requirement::KnownNoiseVariance,
        description: "RAHBO with the true noise variance ρ² (Eq. 9 oracle): ucb^f − α·ρ², f-GP noise ρ²/k",
        parameters: rahbo_params!(FGP_NOISE),
        build: |p| Ok(Box::new(Rahbo::new(Method::KnownVariance, p)?)),
    },
    AlgorithmEntry {
        name: "rahbo-us",
        requires: Requirement::Any,
        description: "RAHBO-US: uncertainty sampling of the variance GP, then GP-UCB on f − α·max(μ^var, floor)",
        parameters: rahbo_params!(FGP_NOISE, US_ROUNDS),
        build: |p| {
            let rounds = p.integer("us_rounds");
            Ok(Box::new(Rahbo::new(
                Method::UncertaintySampling { rounds },
                p,
            )?))
        },
    },
    AlgorithmEntry {
        name: "gp-ucb-hetero",
        requires: Requirement::Any,
        description: "risk-neutral GP-UCB on the k-sample means with heteroscedastic fixed noise, lcb^f reporting",
        parameters: rahbo_params!(GPUCB_NOISE),
        build: |p| Ok(Box::new(Rahbo::new(Method::GpUcb, p)?)),
    },
];
