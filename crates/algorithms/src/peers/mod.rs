//! Peer optimisation libraries as ready-made command optimisers: Optuna's TPE, CMA-ES and GP
//! samplers, Nevergrad's NGOpt and CMA, and BoTorch's qLogNoisyExpectedImprovement, each run as
//! `<python> -m bosweep.adapters …` (the Python package's `bosweep.adapters`), which speaks
//! the JSON-lines protocol of [`super::command`].
//!
//! Parameters: `python`, the interpreter that has the bosweep Python package and the library
//! installed (default: the environment variable `BOSWEEP_PYTHON`, else `python3` on the PATH;
//! a path or a name, not a command line), and `timeout`, as the `command` optimiser's. Each
//! adapter's batch capability is its own (see [`PEERS`]).
//!
//! A missing library is refused before anything runs rather than in the middle of a sweep:
//! [`preflight`] gives the check, `<python> -m bosweep.adapters check <name>`, which exits 2
//! naming the pip line that installs what is missing.
//!
//! The folder has every family's shape: `settings.rs` declares what a user sets, `methods.rs`
//! turns it into the command optimiser, `preflight.rs` checks the library is there, and this
//! module lists the registry's entries.

mod methods;
mod preflight;
mod settings;
#[cfg(test)]
mod tests;

use bosweep_core::params::Settings;
use bosweep_toolkit::{AlgorithmEntry, Requirement};

use methods::peer;
pub use methods::{PEERS, PYTHON_ENV, Peer, find_peer};
pub use preflight::{Preflight, preflight};
pub use settings::{NgOptSettings, PeerSettings};

/// The registry's entries, one per [`PEERS`] element, in its order. Peers search the whole
/// box: a problem with a finite allowed set is refused.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::declared_by::<PeerSettings>(
        "optuna-tpe",
        "Optuna's TPE sampler (constant liar on pending points; several objectives as \
                      MOTPE), through python -m bosweep.adapters; needs pip install 'optuna>=4'",
        Requirement::Continuous,
        |p| peer("optuna-tpe").build(&p, 0),
    ),
    AlgorithmEntry::declared_by::<PeerSettings>(
        "optuna-cmaes",
        "Optuna's CMA-ES sampler, through python -m bosweep.adapters; needs \
                      pip install 'optuna>=4' cmaes",
        Requirement::Continuous,
        |p| peer("optuna-cmaes").build(&p, 0),
    ),
    AlgorithmEntry::declared_by::<PeerSettings>(
        "optuna-gp",
        "Optuna's GP sampler (one point at a time; several objectives), through \
                      python -m bosweep.adapters; needs pip install 'optuna>=4' torch scipy",
        Requirement::Continuous,
        |p| peer("optuna-gp").build(&p, 0),
    ),
    AlgorithmEntry::declared_by::<PeerSettings>(
        "optuna-nsga2",
        "Optuna's NSGA-II sampler (several objectives), through python -m \
                      bosweep.adapters; needs pip install 'optuna>=4'",
        Requirement::Continuous,
        |p| peer("optuna-nsga2").build(&p, 0),
    ),
    AlgorithmEntry::declared_by::<NgOptSettings>(
        "nevergrad-ngopt",
        "Nevergrad's NGOpt (one point at a time), through python -m \
                      bosweep.adapters; needs pip install 'nevergrad>=1'",
        Requirement::Continuous,
        |p| peer("nevergrad-ngopt").build(&p, NgOptSettings::read(&p).budget),
    ),
    AlgorithmEntry::declared_by::<PeerSettings>(
        "nevergrad-cma",
        "Nevergrad's CMA-ES, through python -m bosweep.adapters; needs pip \
                      install 'nevergrad>=1'",
        Requirement::Continuous,
        |p| peer("nevergrad-cma").build(&p, 0),
    ),
    AlgorithmEntry::declared_by::<PeerSettings>(
        "botorch-qlognei",
        "BoTorch's qLogNoisyExpectedImprovement on a SingleTaskGP by \
                      optimize_acqf, through python -m bosweep.adapters; needs pip install \
                      botorch",
        Requirement::Continuous,
        |p| peer("botorch-qlognei").build(&p, 0),
    ),
    AlgorithmEntry::declared_by::<PeerSettings>(
        "botorch-qlognehvi",
        "BoTorch's qLogNoisyExpectedHypervolumeImprovement on a multi-output \
                      SingleTaskGP by optimize_acqf (several objectives), through python -m \
                      bosweep.adapters; needs pip install botorch",
        Requirement::Continuous,
        |p| peer("botorch-qlognehvi").build(&p, 0),
    ),
];
