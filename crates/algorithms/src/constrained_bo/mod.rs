//! Constrained GP-based BO: `logei-pof`, expected improvement weighted by the probability of
//! feasibility, on one GP for the objective and one per black-box constraint.
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

pub use settings::LogEiPof;

/// The constrained GP methods, in listing order.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[AlgorithmEntry::of::<LogEiPof>()];
