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

use super::entry::AlgorithmEntry;
use super::requirement::Requirement;
use bosweep_core::params::ParamTable;
use config::{FGP_NOISE, GPUCB_NOISE, HEAD, TAIL, US_ROUNDS};

/// The RAHBO family's algorithms.
pub(crate) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "rahbo",
        requires: Requirement::Any,
        description: "RAHBO: k repeats per point, variance-proxy GP, acquisition ucb^f − α·lcb^var, lcb^MV reporting",
        parameters: ParamTable(&[HEAD, &[FGP_NOISE.spec()], TAIL]),
        build: |p| Ok(Box::new(Rahbo::new(Method::Rahbo, p)?)),
    },
    AlgorithmEntry {
        name: "rahbo-known-var",
        requires: Requirement::KnownNoiseVariance,
        description: "RAHBO with the true noise variance ρ² (Eq. 9 oracle): ucb^f − α·ρ², f-GP noise ρ²/k",
        parameters: ParamTable(&[HEAD, &[FGP_NOISE.spec()], TAIL]),
        build: |p| Ok(Box::new(Rahbo::new(Method::KnownVariance, p)?)),
    },
    AlgorithmEntry {
        name: "rahbo-us",
        requires: Requirement::Any,
        description: "RAHBO-US: uncertainty sampling of the variance GP, then GP-UCB on f − α·max(μ^var, floor)",
        parameters: ParamTable(&[HEAD, &[FGP_NOISE.spec()], TAIL, &[US_ROUNDS.spec()]]),
        build: |p| {
            let rounds = US_ROUNDS.of(&p);
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
        parameters: ParamTable(&[HEAD, &[GPUCB_NOISE.spec()], TAIL]),
        build: |p| Ok(Box::new(Rahbo::new(Method::GpUcb, p)?)),
    },
];
