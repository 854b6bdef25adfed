//! GP-based BO baselines: a GP fitted to all data at every step (inputs normalised to the unit
//! cube, outputs standardised), and an acquisition maximised on a Sobol grid with L-BFGS
//! refinement, or over the allowed set when the problem gives one. A batch's later points
//! account for the pending ones as [`PendingStrategy`] says.
//!
//! The family's folder has the shape of every family's: `settings.rs` declares what a user sets,
//! `methods.rs` turns those settings into the algorithm in `algorithm.rs`, and this module lists
//! the registry's entries.

mod algorithm;
mod methods;
mod settings;
#[cfg(test)]
mod tests;

use bosweep_toolkit::AlgorithmEntry;

pub(crate) use algorithm::maximize_in_domain;
pub use algorithm::{Acquisition, GpBo};
pub(crate) use settings::botorch_maximizer;
pub use settings::{Ei, GpUcb, LogEi, QLogNei, SaasboMap, UcbSchedule};

/// The GP baselines, in listing order.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::of::<GpUcb>(),
    AlgorithmEntry::of::<Ei>(),
    AlgorithmEntry::of::<LogEi>(),
    AlgorithmEntry::of::<QLogNei>(),
    AlgorithmEntry::of::<SaasboMap>(),
];
