//! RAHBO, risk-averse heteroscedastic BO (Makarova, Usmanova, Bogunovic and Krause,
//! "Risk-averse Heteroscedastic Bayesian Optimization", NeurIPS 2021), with the paper's variant
//! and baselines: `rahbo` ([`Rahbo`]), `rahbo-known-var` ([`RahboKnownVar`]), `rahbo-us`
//! ([`RahboUs`]), `gp-ucb-hetero` ([`GpUcbHetero`]).

mod algorithm;
mod config;
mod models;
mod report;
mod settings;
mod stats;

pub use config::{
    AlphaSource, BetaMode, HyperparameterFit, ObjectiveNoise, PriorMean, RahboSettings, ReportRule,
    VarianceNoise,
};
pub use report::{ReportScores, first_argmax, reported_index};
pub use settings::{GpUcbHetero, Rahbo, RahboKnownVar, RahboUs};
pub use stats::{
    SampleStats, bounds, conservative_variance_noise, information_log_ratio, mean_variance_bounds,
    pairwise_sample_variance, plug_in_noise, theory_beta,
};

use super::entry::AlgorithmEntry;
use super::requirement::Requirement;
use algorithm::RahboAlgorithm;
use config::{GP_UCB_HETERO_PARAMS, RAHBO_PARAMS, RAHBO_US_PARAMS};

/// The RAHBO family's algorithms.
pub(crate) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::declared(
        "rahbo",
        "RAHBO: k repeats per point, variance-proxy GP, acquisition ucb^f − α·lcb^var, lcb^MV reporting",
        Requirement::Any,
        RAHBO_PARAMS,
        |p| RahboAlgorithm::boxed(Rahbo::from_params(&p).into_settings(), p),
    ),
    AlgorithmEntry::declared(
        "rahbo-known-var",
        "RAHBO with the true noise variance ρ² (Eq. 9 oracle): ucb^f − α·ρ², f-GP noise ρ²/k",
        Requirement::KnownNoiseVariance,
        RAHBO_PARAMS,
        |p| RahboAlgorithm::boxed(RahboKnownVar::from_params(&p).into_settings(), p),
    ),
    AlgorithmEntry::declared(
        "rahbo-us",
        "RAHBO-US: uncertainty sampling of the variance GP, then GP-UCB on f − α·max(μ^var, floor)",
        Requirement::Any,
        RAHBO_US_PARAMS,
        |p| RahboAlgorithm::boxed(RahboUs::from_params(&p).into_settings(), p),
    ),
    AlgorithmEntry::declared(
        "gp-ucb-hetero",
        "risk-neutral GP-UCB on the k-sample means with heteroscedastic fixed noise, lcb^f reporting",
        Requirement::Any,
        GP_UCB_HETERO_PARAMS,
        |p| RahboAlgorithm::boxed(GpUcbHetero::from_params(&p).into_settings(), p),
    ),
];
