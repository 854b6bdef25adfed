//! Foundations of bosweep that every other crate builds on.
//!
//! - [`data`]: point sets and the errors batch operations return, with the blame that maps each
//!   error to an exit code.
//! - [`stats`]: summaries and the standard normal.
//! - [`pareto`]: multi-objective indicators: dominance and non-dominated sorting, exact
//!   hypervolume and contributions, box decompositions for expected hypervolume improvement,
//!   IGD, IGD⁺ and the additive ε.
//! - [`optim`]: L-BFGS-B and the parallel multi-start ascent every maximiser uses.
//! - [`io`]: strict numeric CSV input with messages that point at the bad cell.
//! - [`params`]: typed algorithm and problem parameters.
//! - [`process`]: external commands in process groups of their own, killed as a whole.
//! - [`registry`]: the families of algorithms and problems, listed and found by name.

pub mod data;
pub mod io;
pub mod optim;
pub mod params;
pub mod pareto;
pub mod process;
pub mod registry;
pub mod stats;
