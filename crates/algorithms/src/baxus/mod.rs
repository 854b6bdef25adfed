//! BAxUS (`baxus`): Bayesian optimisation in nested random subspaces that grow as the search
//! learns (Papenmeier, Nardi and Poloczek, "Increasing the Scope as You Learn: Adaptive Bayesian
//! Optimization in Nested Subspaces", NeurIPS 2022), following the reference implementation
//! (LeoIV/BAxUS, `baxus/baxus.py` and `baxus/util/projections.py`) for its defaults and rules.
//!
//! TuRBO-1 (`turbo`'s trust region, candidates, Thompson sampling and GP, shared with it) runs in
//! a low-dimensional target space embedded in the problem's box:
//! - the embedding (`embedding.rs`) gives every input dimension one target dimension and a sign
//!   ±1, the bins as equal as possible; a target point `z` maps up to `x = Sᵀz` (in `[−1, 1]`
//!   coordinates; in the unit cube, `x_i = z_j` or `1 − z_j`);
//! - the initial target dimension `d_init`, and the failure tolerance of each target space from
//!   the evaluations it is planned to get, are the reference's (`schedule.rs`), planned for the
//!   `budget` setting or, when 0, the run's budget ([`Algorithm::plan_budget`]); used through
//!   ask/tell with no run, `budget` must be set;
//! - the search starts from a Latin hypercube of `design` points in the target space (0: as
//!   many as the run's initial design, `d_init + 1` if it has none). The run's own initial
//!   design lies in the whole box, not in the embedding, so it counts for the best value only;
//! - when the region's side falls below `length_min` below the input dimension `D`, the next ask
//!   splits every target dimension into `min(b + 1, its input dimensions)`, moves the region's
//!   data (and pending points) to the new space, where their images are unchanged, and starts a
//!   new region on them at `length_init`, with the new dimension's failure tolerance; at `D` it
//!   restarts as TuRBO does, on the identity embedding, from a fresh design, the data forgotten;
//! - batches are TuRBO's: `q` learnt from the pending points, the counters moved once per `q`
//!   told points of the current region, `⌈τ/q⌉` failed batches halving the side for a failure
//!   tolerance `τ` one point at a time (the reference evaluates one point at a time; at `D`
//!   this is TuRBO's `⌈max(4/q, D/q)⌉`). Points asked before a split or restart and told after
//!   leave the counters alone: after a split they join the data, after a restart only the best
//!   value;
//! - every random choice (embedding, splits, designs, candidates, sample paths) comes from the
//!   run's random stream, so a run repeats from its seed; the recommendation is the best
//!   observed point; problems with a finite allowed set are refused up front
//!   ([`Requirement::Continuous`]).
//!
//! The reference splits the bins in the order of the GP's lengthscales; here they split in
//! index order, which numbers the new target dimensions differently and nothing else (the
//! kernel is ARD and every bin splits).
//!
//! The folder has every family's shape: `settings.rs` declares what a user sets, `methods.rs`
//! turns it into the algorithm of `algorithm.rs`, and this module lists the registry's entry.
//!
//! [`Algorithm::plan_budget`]: bosweep_toolkit::Algorithm::plan_budget
//! [`Requirement::Continuous`]: bosweep_toolkit::Requirement::Continuous

mod algorithm;
mod embedding;
mod methods;
mod schedule;
mod settings;
#[cfg(test)]
mod tests;

use bosweep_toolkit::AlgorithmEntry;

pub use settings::Baxus;

/// The `baxus` registry entry.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[AlgorithmEntry::of::<Baxus>()];
