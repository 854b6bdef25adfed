//! GP-based BO for several objectives: independent GPs per objective (BoTorch's default model
//! for each), refitted at every step, and an acquisition over their joint posterior samples
//! maximised on a Sobol grid with refinement. `qlognehvi` is BoTorch's default, the noisy
//! expected hypervolume improvement in log space; `qlognparego` scalarises the objectives
//! randomly at every step and takes qLogNEI of the scalar.
//!
//! The family's folder has the shape of every family's: `settings.rs` declares what a user sets,
//! `methods.rs` turns those settings into the algorithm in `algorithm.rs`, and this module lists
//! the registry's entries.

mod algorithm;
mod methods;
mod reference;
mod settings;
#[cfg(test)]
mod tests;

use bosweep_toolkit::AlgorithmEntry;

pub use settings::{QLogNParEgoSettings, QLogNehvi};

/// The multi-objective GP methods, in listing order.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::of::<QLogNehvi>(),
    AlgorithmEntry::of::<QLogNParEgoSettings>(),
];
