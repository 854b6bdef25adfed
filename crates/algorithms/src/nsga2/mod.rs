//! NSGA-II (Deb, Pratap, Agarwal & Meyarivan 2002, "A fast and elitist multiobjective genetic
//! algorithm: NSGA-II") as a model-free baseline for several objectives (`nsga2`), with its
//! population as the batch.
//!
//! It works in the unit cube (the problem's box mapped to `[0, 1]^d`) and minimises every
//! objective (the negated values it is told). How it maps to ask/tell:
//! - the first parents are the initial design's points; each generation after them is
//!   `population` offspring, bred when the last one has been handed out, as pymoo 0.6's NSGA-II
//!   breeds them: binary tournaments whose entrants are read off random permutations of the
//!   parents, won by Pareto dominance, then the larger crowding distance, then a coin;
//!   simulated binary crossover and polynomial mutation with pymoo's defaults (`variation.rs`);
//!   an offspring equal to a parent or to an earlier offspring is bred again;
//! - the parents of a generation are the best `population` of the last parents and every point
//!   told since (the elitist (μ + λ) survival: whole non-dominated fronts, the last one cut by
//!   crowding distance; the tournaments compare the crowding distances of that pool), so that offspring still pending when the next generation is bred (a
//!   batch, asynchronous workers) join the one after;
//! - on a constrained problem it uses Deb's constraint domination as pymoo does: the feasible
//!   points survive first, ranked among themselves, then the least violating (total violation
//!   `Σ max(c_j, 0)`); a tournament with an infeasible entrant goes to the smaller violation;
//! - on one objective it is a plain elitist genetic algorithm;
//! - problems with a finite allowed set are refused up front ([`Requirement::Continuous`]).
//!
//! [`Requirement::Continuous`]: bosweep_toolkit::Requirement::Continuous

mod algorithm;
mod methods;
mod settings;
mod survival;
#[cfg(test)]
mod tests;
mod variation;

use bosweep_toolkit::AlgorithmEntry;

pub use settings::Nsga2;

/// The `nsga2` registry entry.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[AlgorithmEntry::of::<Nsga2>()];
