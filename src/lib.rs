//! bosweep: a GPU-accelerated batch engine for Bayesian-optimisation research sweeps.
//!
//! - [`compute`]: the [`compute::Engine`] trait and its CPU (rayon, f64) and GPU (wgpu) backends.
//! - [`model`]: kernels, GP factorisation, KDE bandwidths, smoothing kernels.
//! - [`io`]: strict numeric CSV input with messages that point at the bad cell.
//! - [`cli`]: the `bosweep` command line, a thin layer over the above.

pub mod acquisition;
pub mod algorithms;
pub mod benchmark;
pub mod cli;
pub mod compute;
pub mod data;
pub mod fuzz;
pub mod io;
pub mod model;
pub mod optim;
pub mod params;
pub mod problems;
pub mod report;
pub mod stats;
pub mod surrogate;
pub mod sweep;
