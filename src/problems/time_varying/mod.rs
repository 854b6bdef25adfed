//! Time-varying problems with a finite domain and a finite set of candidate GP priors
//! (`specs/pe-gp-ucb.md` §4): the toy problem with 11 hill-shaped prior means and an alternating
//! allowed set, and the Intel Berkeley temperature task with one prior per previous day.
//!
//! Each problem's candidate priors are part of its definition (the paper hands the same set to
//! every method), so they are described here, in [`CandidatePriors`], and the unknown-prior
//! algorithms build the set of the same name through [`candidate_priors`].

pub mod intel;
mod priors;
pub mod toy;

pub use priors::{CandidatePrior, CandidatePriors, KernelGroup};

use std::sync::Arc;

use super::registry::Entry;
use super::{ParamKind, ParamSpec, ProblemError};

/// The prior sets the unknown-prior algorithms can be given, by the name of their problem.
pub const PRIOR_SET_NAMES: &[&str] = &["pe-toy", "intel-temp-synthetic", "intel-temp"];

/// The candidate priors of problem `name` (one of [`PRIOR_SET_NAMES`]).
pub fn candidate_priors(name: &str) -> Result<Arc<CandidatePriors>, ProblemError> {
    match name {
        "pe-toy" => Ok(toy::candidate_priors()),
        "intel-temp-synthetic" => Ok(intel::synthetic_task()?.candidate_priors()),
        "intel-temp" => Ok(intel::file_task()?.candidate_priors()),
        other => Err(ProblemError::config(format!(
            "unknown prior set \"{other}\" (known: {})",
            PRIOR_SET_NAMES.join(", ")
        ))),
    }
}

const NOISE_STD: ParamSpec = ParamSpec {
    name: "noise_std",
    kind: ParamKind::Real {
        default: 0.1,
        min: 0.0,
        max: 1e6,
    },
    description: "standard deviation R of the Gaussian observation noise (spec default 0.1)",
};

/// The problems of the PE-GP-UCB paper.
pub(in crate::problems) static ENTRIES: &[Entry] = &[
    Entry {
        name: "pe-toy",
        description: "PE-GP-UCB toy: f ~ GP(prior-2 hill mean, RBF ℓ=0.1) on a 200-point grid of [0, 1]; even t exclude the true tall hill",
        parameters: &[
            NOISE_STD,
            ParamSpec {
                name: "instance",
                kind: ParamKind::Integer {
                    default: 0,
                    min: 0,
                    max: u32::MAX as usize,
                },
                description: "0: draw f from the run's random stream at the first observation; n ≥ 1: the fixed sample seeded by n",
            },
        ],
        build: |p| Ok(Box::new(toy::PeToy::new(p)?)),
    },
    Entry {
        name: "intel-temp-synthetic",
        description: "synthetic stand-in of the Intel lab task: 50 sensors, 14 days × 144 ten-minute windows, pick the hottest sensor on day 14",
        parameters: &[NOISE_STD],
        build: |p| Ok(Box::new(intel::IntelTemp::new(intel::synthetic_task()?, p))),
    },
    Entry {
        name: "intel-temp",
        description: "Intel Berkeley lab temperatures (local data.txt named by $BOSWEEP_INTEL_DATA), 1–14 March 2004, hottest sensor on 14 March",
        parameters: &[NOISE_STD],
        build: |p| Ok(Box::new(intel::IntelTemp::new(intel::file_task()?, p))),
    },
];
