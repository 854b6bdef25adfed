//! CMA-ES with IPOP restarts as a model-free baseline (`cmaes`): Hansen's (μ/μ_w, λ)-CMA-ES
//! ("The CMA Evolution Strategy: A Tutorial", arXiv:1604.00772, Appendix A, Table 1 defaults)
//! restarted with a doubled population on a stop criterion (Auger and Hansen 2005,
//! "A Restart CMA Evolution Strategy With Increasing Population Size").
//!
//! The strategy works in the unit cube (the problem's box mapped to `[0, 1]^d`, like the GP
//! methods) and minimises `−y`. How it maps to ask/tell:
//! - the first generation's mean is the best told point (the initial design's best; the box
//!   centre if nothing was told) and its step size `sigma0`, in unit-cube units; a restart's
//!   mean is uniform in the cube;
//! - a generation's λ members are fixed when its first member is asked (drawn from a stream
//!   seeded then from the run's random stream, so runs repeat from their seed) and handed out
//!   one per ask; the distribution updates once all λ are told, in any order;
//! - with every member handed out and some untold (batches, asynchronous workers), further
//!   asks draw extra points from the current distribution: they are evaluated and count for
//!   the best value, not for the update;
//! - infeasible samples are repaired by mirroring at the cube's faces (reflection, repeated
//!   until inside), and the repaired point, the one evaluated, enters the update (the
//!   tutorial's repair with the repaired solution used for the update);
//! - problems with a finite allowed set are refused up front ([`Requirement::Continuous`]).
//!
//! The folder has every family's shape: `settings.rs` declares what a user sets, `methods.rs`
//! turns it into the algorithm of `algorithm.rs`, and this module lists the registry's entry.

mod algorithm;
mod methods;
mod settings;
mod strategy;
#[cfg(test)]
mod tests;

use bosweep_toolkit::AlgorithmEntry;

pub use settings::Cmaes;

/// The `cmaes` registry entry.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[AlgorithmEntry::of::<Cmaes>()];
