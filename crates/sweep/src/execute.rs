//! A whole sweep as `bosweep sweep` carries it out: the memory check, the directory's lock and
//! manifest, the pending runs on a pool of worker threads, and the report. The command line and
//! the Python package's `bosweep.sweep` both call [`execute_sweep`].

use std::path::Path;

use super::config::SweepConfig;
use super::lock::{SweepLock, WhenLocked};
use super::memory::{MemoryEstimate, available_bytes};
use super::plan::RunSpec;
use super::report::{HTML_REPORT_FILE, REPORT_FILE, ReportOptions, write_report_with};
use super::runner::{MixedDevices, Shard, SweepError, SweepOutcome, prepare_directory, run_sweep};
use super::stop::StopSignal;
use bosweep_engine::Engine;

/// How a sweep is carried out, besides its config, directory and engine.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// The runs of this process (all when `None`).
    pub shard: Option<Shard>,
    /// Worker threads (one per core when `None`).
    pub threads: Option<usize>,
    /// What to do when another process is writing into the directory.
    pub when_locked: WhenLocked,
    /// Whether a sweep begun on another device may resume on this one.
    pub mixed: MixedDevices,
    /// Write `report.md` and its plots at the end (also when some runs failed).
    pub report: bool,
    /// Stops the sweep between steps when requested.
    pub stop: StopSignal,
}

/// Runs the runs of `config` that `dir` does not hold yet on `engine`, then reports. What the
/// user should know (notes, engine warnings, progress, where the report is) goes to stderr.
/// When runs fail, the others still complete and the report covers them; the error names the
/// failed runs.
pub fn execute_sweep(
    config: &SweepConfig,
    dir: &Path,
    engine: &dyn Engine,
    options: &SweepOptions,
) -> Result<SweepOutcome, SweepError> {
    if options.threads == Some(0) {
        return Err(SweepError::Usage(
            "--threads: value 0 (must be at least 1)".into(),
        ));
    }
    let runs = config.runs();
    let selected: Vec<&RunSpec> = runs
        .iter()
        .filter(|r| options.shard.is_none_or(|s| s.includes(r)))
        .collect();
    let threads = options.threads.unwrap_or_else(rayon::current_num_threads);
    let memory = MemoryEstimate::of(&selected, threads, |run| config.memory_bytes(run));
    if let Some(available) = available_bytes() {
        memory
            .check(available)
            .map_err(|e| SweepError::Usage(format!("sweep {}: {e}", config.file_name())))?;
    }
    std::fs::create_dir_all(dir).map_err(|source| SweepError::Io {
        what: "create".into(),
        path: dir.display().to_string(),
        source,
    })?;
    let _lock = SweepLock::acquire(dir, options.when_locked, |note| eprintln!("note: {note}"))?;
    let notes = prepare_directory(
        dir,
        config.text(),
        &config.hash(),
        &runs,
        &engine.identity(),
        options.mixed,
    )?;
    for note in notes {
        eprintln!("note: {note}");
    }
    eprintln!(
        "sweep {}: {} runs into {} ({})",
        config.file_name(),
        runs.len(),
        dir.display(),
        engine.describe()
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.unwrap_or(0))
        .build()
        .map_err(|e| SweepError::Threads(e.to_string()))?;
    let result = pool.install(|| run_sweep(dir, &runs, options.shard, engine, &options.stop));
    for warning in engine.warnings() {
        eprintln!("warning: {warning}");
    }
    if let Ok(outcome) = &result {
        eprintln!(
            "{} runs selected: {} already complete, {} completed now",
            outcome.selected, outcome.skipped, outcome.completed
        );
    }
    // A report of what is complete is useful even when some runs failed; a stopped sweep
    // reports nothing, its caller having asked to stop.
    let stopped = matches!(result, Err(SweepError::Stopped { .. }));
    let reported = if options.report && !stopped {
        report_sweep(dir, &ReportOptions::default())
    } else {
        Ok(())
    };
    let outcome = result?;
    reported?;
    Ok(outcome)
}

/// Writes `dir`'s report with `options` and says where it is.
pub fn report_sweep(dir: &Path, options: &ReportOptions) -> Result<(), SweepError> {
    write_report_with(dir, options).map_err(|e| SweepError::Report(e.to_string()))?;
    eprintln!(
        "report: {} (and {})",
        dir.join(REPORT_FILE).display(),
        dir.join(HTML_REPORT_FILE).display()
    );
    Ok(())
}
