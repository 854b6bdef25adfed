//! Running optimisations: one run (`bosweep run`) now; configs, parallel sweeps, sharding and
//! records build on it.

mod run;
mod trace;

pub use run::{RunConfig, RunError, RunSummary, run};
pub use trace::{Phase, StepRecord, TraceWriter};
