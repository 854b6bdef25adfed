//! An optimiser in any language, run as a child process that speaks a JSON-lines ask/tell
//! protocol on its stdin and stdout (as kurobako's external solvers do), so that a user's
//! algorithm runs beside ours in a sweep with the same initial designs, traces and reports.
//!
//! bosweep writes one JSON object per line to the command's stdin:
//!
//! - `{"op":"start","dim":d,"bounds":[[lo,hi],…],"problem":"branin","budget":n}` once, first
//!   (the command starts when the run first needs it); `budget` is the run's evaluations, its
//!   initial design included, and is absent where the caller sets none (an ask/tell
//!   optimiser driven from a program); on a problem of several objectives it adds
//!   `"objectives":m` and, where the problem declares one, `"reference_point":[…]` in the
//!   maximisation sense; on a constrained problem, `"constraints":k`;
//! - `{"op":"tell","x":[…],"y":v,"t":t}` for every evaluated step, the initial design included,
//!   with `y` in the **maximisation** sense (the negated value on a minimisation problem; the
//!   mean where a point was evaluated several times), `"context":[…]` where the problem
//!   observes one, `"objectives":[…]` (each maximised) on a problem of several, and
//!   `"constraints":[…]` (the k values, feasible where every one is ≤ 0, never negated) on a
//!   constrained problem;
//! - `{"op":"ask","t":t,"seed":s}` when it needs the next point (`s`, from the run's seed, is
//!   the randomness an algorithm should use to be reproducible; on a problem that restricts
//!   the step to a finite set, `"allowed":[[…],…]` lists it; with `batch_capable = true`,
//!   `"pending":[[…],…]` lists the points asked and not yet told, so that the optimiser can
//!   run in batches and on asynchronous workers);
//! - `{"op":"recommend"}` when it needs the point the algorithm would report now.
//!
//! It reads one line back for each `ask` and `recommend`: `{"x":[…]}` (for `ask`, optionally
//! `"repeats":k` evaluations of the point). Nothing is read back for `start` and `tell`. Lines
//! the command prints that do not start with `{` are skipped (stray prints of a library); its
//! stderr goes to bosweep's. A reply that is not such an object, a point of the wrong dimension
//! or outside the bounds, no reply within the timeout, or an exit is an error that ends the run,
//! naming the command and the reason. The command runs in a process group of its own, killed with
//! everything it started when the run ends.
//!
//! The peer libraries' entries (`optuna-tpe`, `nevergrad-cma`, …; see `peers`) are commands of
//! this kind, run by the Python package's `bosweep.adapters`.
//!
//! The folder has every family's shape: `settings.rs` declares what a user sets, `methods.rs`
//! turns it into the algorithm of `algorithm.rs`, and this module lists the registry's entry.

mod algorithm;
mod methods;
mod settings;
#[cfg(test)]
mod tests;

use bosweep_toolkit::AlgorithmEntry;

pub use algorithm::CommandAlgorithm;
pub(crate) use algorithm::Takes;
pub use settings::{AnswerTimeout, Command};

/// The registry's entry: `[[algorithm]] name = "command"` in a sweep config.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[AlgorithmEntry::of::<Command>()];
