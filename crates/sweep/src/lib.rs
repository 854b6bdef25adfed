//! Running optimisations: one run (`bosweep run`), and sweeps of many runs from a config,
//! in parallel, resumable and shardable, into one directory per sweep.

pub mod compare;
mod conditioning;
mod config;
mod events;
mod execute;
pub mod export;
mod front;
mod lock;
mod manifest;
mod memory;
mod placement;
mod plan;
mod progress;
mod recipe;
pub mod report;
mod run;
mod runner;
mod runtime;
mod schedule;
mod stop;
mod tally;
mod trace;

pub use config::{
    CONFIG_KEYS, ConfigError, ConfigKey, ConfigTable, DEFAULT_INIT, MAX_RUNS, ProblemSetting,
    SweepConfig, config_hash,
};
pub use events::{EventSink, SweepEvent, SweepOutcome};
pub use execute::{SweepOptions, execute_sweep, report_sweep};
pub use front::FrontIndicators;
pub use lock::{LOCK_FILE, SweepLock, WhenLocked, release_held_locks};
pub use manifest::Manifest;
pub(crate) use manifest::{CONFIG_FILE, MANIFEST_FILE, RUNS_DIR};
pub use memory::{MemoryEstimate, available_bytes, check_run_fits, human_bytes};
pub use plan::{
    Evaluation, MAX_NAME, RUN_KEYS, RunSpec, Setting, SettingValue, design_key, run_key, run_seed,
};
pub use progress::{AlgorithmProgress, NoEstimate, SweepProgress, duration_text};
pub use recipe::{PrepareError, PreparedRun, checked_algorithm};
pub use run::{RunConfig, RunError, RunSummary, run, run_stoppable};
pub use runner::{MixedDevices, Shard, SweepError, merge, prepare_directory, run_sweep};
pub use runtime::{DEFAULT_RUNTIME, RuntimeModel};
pub use schedule::{Parallel, ParallelError};
pub use stop::StopSignal;
pub use trace::{
    CompleteTrace, Phase, StepRecord, TableColumn, TraceError, TraceWriter, parse_complete,
    read_complete,
};
