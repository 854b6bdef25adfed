//! RAHBO, risk-averse heteroscedastic BO (Makarova, Usmanova, Bogunovic and Krause,
//! "Risk-averse Heteroscedastic Bayesian Optimization", NeurIPS 2021), with the paper's variant
//! and baselines: `rahbo` ([`Rahbo`]), `rahbo-known-var` ([`RahboKnownVar`]), `rahbo-us`
//! ([`RahboUs`]), `gp-ucb-hetero` ([`GpUcbHetero`]).

mod algorithm;
mod methods;
mod models;
mod report;
mod settings;
mod stats;
#[cfg(test)]
mod tests;

pub use report::{ReportScores, first_argmax, reported_index};
pub use settings::{
    AlphaSource, BetaMode, GpUcbHetero, GpUcbNoise, HyperparameterFit, ObjectiveNoise, PriorMean,
    Rahbo, RahboKnownVar, RahboModels, RahboRisk, RahboUs, ReportRule, VarianceNoise,
};
pub use stats::{
    SampleStats, bounds, conservative_variance_noise, information_log_ratio, mean_variance_bounds,
    pairwise_sample_variance, plug_in_noise, theory_beta,
};

use bosweep_toolkit::AlgorithmEntry;

/// The RAHBO family's algorithms.
pub(crate) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::of::<Rahbo>(),
    AlgorithmEntry::of::<RahboKnownVar>(),
    AlgorithmEntry::of::<RahboUs>(),
    AlgorithmEntry::of::<GpUcbHetero>(),
];
