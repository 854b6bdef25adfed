//! `bosweep sweep`, `bosweep merge` and `bosweep report`: many runs from a config, in parallel,
//! resumable and shardable, then tables and plots.

use std::path::{Path, PathBuf};

use super::{CliError, GlobalArgs};
use bosweep::io::io_reason;
use bosweep::report::write_report;
use bosweep::sweep::{
    MemoryEstimate, MixedDevices, RunSpec, Shard, SweepConfig, SweepLock, WhenLocked,
    available_bytes, merge, prepare_directory, run_sweep,
};

/// Options of `bosweep sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// The sweep config (TOML; see README).
    config: PathBuf,
    /// Output directory (default: `results/<config file stem>`). Re-running the same command
    /// resumes: completed runs are skipped.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Run only the runs whose index ≡ I (mod N), e.g. one task of a job array.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Skip the report at the end.
    #[arg(long)]
    no_report: bool,
    /// When another sweep is writing into the directory, wait for it to finish (default:
    /// refuse, naming it).
    #[arg(long)]
    wait: bool,
    /// Resume a sweep whose earlier runs used another device (default: refuse).
    #[arg(long)]
    allow_mixed_devices: bool,
}

/// Options of `bosweep merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Directory to merge into (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Shard directories of one sweep.
    #[arg(required = true, value_name = "SHARD_DIR")]
    shards: Vec<PathBuf>,
    /// When another process is writing into the directory, wait for it (default: refuse).
    #[arg(long)]
    wait: bool,
}

/// Options of `bosweep report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// A sweep directory.
    dir: PathBuf,
}

/// Creates `dir` and locks it for this process ([`SweepLock`]), saying on stderr when it waits
/// for another holder or takes over the lock of one that died.
fn lock(dir: &Path, wait: bool) -> Result<SweepLock, CliError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        CliError::runtime(format!(
            "cannot create {}: {}",
            dir.display(),
            io_reason(&e)
        ))
    })?;
    let when_locked = if wait {
        WhenLocked::Wait
    } else {
        WhenLocked::Refuse
    };
    Ok(SweepLock::acquire(dir, when_locked, |note| {
        eprintln!("note: {note}")
    })?)
}

fn report(dir: &Path) -> Result<(), CliError> {
    write_report(dir).map_err(|e| CliError::runtime(format!("report: {e}")))?;
    eprintln!("report: {}", dir.join("report.md").display());
    Ok(())
}

pub fn sweep(args: &SweepArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let config = SweepConfig::load(&args.config)?;
    let runs = config.runs();
    let dir = args.out.clone().unwrap_or_else(|| {
        let stem = args
            .config
            .file_stem()
            .map_or_else(|| "sweep".into(), |s| s.to_string_lossy().into_owned());
        PathBuf::from("results").join(stem)
    });
    if args.threads == Some(0) {
        return Err(CliError::usage("--threads: value 0 (must be at least 1)"));
    }
    let selected: Vec<&RunSpec> = runs
        .iter()
        .filter(|r| args.shard.is_none_or(|s| s.includes(r)))
        .collect();
    let threads = args.threads.unwrap_or_else(rayon::current_num_threads);
    let memory = MemoryEstimate::of(&selected, threads, |run| config.memory_bytes(run));
    if let Some(available) = available_bytes() {
        memory
            .check(available)
            .map_err(|e| CliError::usage(format!("sweep {}: {e}", args.config.display())))?;
    }
    let _lock = lock(&dir, args.wait)?;
    let engine = global.engine()?;
    let mixed = if args.allow_mixed_devices {
        MixedDevices::Allow
    } else {
        MixedDevices::Refuse
    };
    let notes = prepare_directory(
        &dir,
        config.text(),
        &config.hash(),
        &runs,
        &engine.identity(),
        mixed,
    )?;
    for note in notes {
        eprintln!("note: {note}");
    }
    eprintln!(
        "sweep {}: {} runs into {} ({})",
        args.config.display(),
        runs.len(),
        dir.display(),
        engine.describe()
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::runtime(format!("cannot start worker threads: {e}")))?;
    let result = pool.install(|| run_sweep(&dir, &runs, args.shard, engine.as_ref()));
    for warning in engine.warnings() {
        eprintln!("warning: {warning}");
    }
    if let Ok(outcome) = &result {
        eprintln!(
            "{} runs selected: {} already complete, {} completed now",
            outcome.selected, outcome.skipped, outcome.completed
        );
    }
    // A report of what is complete is useful even when some runs failed.
    let reported = if args.no_report { Ok(()) } else { report(&dir) };
    result?;
    reported
}

pub fn merge_command(args: &MergeArgs) -> Result<(), CliError> {
    let _lock = lock(&args.out, args.wait)?;
    let complete = merge(&args.out, &args.shards)?;
    eprintln!(
        "merged {} directories into {}: {complete} completed runs",
        args.shards.len(),
        args.out.display()
    );
    report(&args.out)
}

pub fn report_command(args: &ReportArgs) -> Result<(), CliError> {
    report(&args.dir)
}
