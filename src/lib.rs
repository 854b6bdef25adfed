//! bosweep: a GPU-accelerated batch engine for Bayesian-optimisation research sweeps.
//!
//! This crate gathers the workspace's library crates under one name, so that a program can write
//! `bosweep::compute::Engine` or `bosweep::algorithms::build`; it adds nothing of its own. A
//! program that wants fewer dependencies (no clap, no plotters) depends on the crate it needs:
//!
//! | module | crate | holds |
//! |---|---|---|
//! | [`data`], [`stats`], [`pareto`], [`optim`], [`io`], [`params`], [`process`] | `bosweep-core` | point sets and errors, statistics, multi-objective indicators, the multi-start L-BFGS-B ascent, strict CSV input, typed parameters, process groups |
//! | [`model`] | `bosweep-model` | kernels, GP factorisation and fitting, KDE bandwidths, smoothing kernels |
//! | [`compute`] | `bosweep-engine` | the [`compute::Engine`] trait, its rayon f64 CPU backend and its wgpu GPU backend (feature `gpu`) |
//! | [`problems`] | `bosweep-problems` | test functions and problem kinds |
//! | [`algorithms`], [`surrogate`], [`acquisition`] | `bosweep-algorithms` | the papers' algorithms and baselines, engine-backed GP models, acquisition functions and their maximiser |
//! | [`sweep`], [`report`] | `bosweep-sweep` | sweep configs, runner, shards and traces; reports |
//!
//! The `bosweep` binary (`src/main.rs`, `src/cli/`) is a thin command line over these.

pub use bosweep_algorithms as algorithms;
pub use bosweep_algorithms::{acquisition, surrogate};
pub use bosweep_core::{data, io, optim, params, pareto, process, stats};
pub use bosweep_engine as compute;
pub use bosweep_model as model;
pub use bosweep_problems as problems;
pub use bosweep_sweep as sweep;
pub use bosweep_sweep::report;
