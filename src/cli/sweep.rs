//! `bosweep sweep`, `bosweep merge` and `bosweep report`: many runs from a config, in parallel,
//! resumable and shardable, then tables and plots.

use std::path::{Path, PathBuf};

use super::{CliError, GlobalArgs};
use crate::report::{ReportError, write_report};
use crate::sweep::{
    MemoryEstimate, RunSpec, Shard, SweepConfig, SweepError, available_bytes, merge,
    prepare_directory, run_sweep,
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
}

/// Options of `bosweep report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// A sweep directory.
    dir: PathBuf,
}

impl From<SweepError> for CliError {
    fn from(e: SweepError) -> Self {
        match e {
            SweepError::Directory(m) => CliError::usage(m),
            other => CliError::runtime(other.to_string().trim_end().to_owned()),
        }
    }
}

impl From<ReportError> for CliError {
    fn from(e: ReportError) -> Self {
        CliError::runtime(format!("report: {e}"))
    }
}

fn report(dir: &Path) -> Result<(), CliError> {
    write_report(dir)?;
    eprintln!("report: {}", dir.join("report.md").display());
    Ok(())
}

pub fn sweep(args: &SweepArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let config = SweepConfig::load(&args.config).map_err(|e| CliError::usage(e.to_string()))?;
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
    let memory = MemoryEstimate::of(&selected, threads).map_err(CliError::usage)?;
    if let Some(available) = available_bytes() {
        memory
            .check(available)
            .map_err(|e| CliError::usage(format!("sweep {}: {e}", args.config.display())))?;
    }
    prepare_directory(&dir, config.text(), &config.hash(), &runs)?;
    let engine = global.engine()?;
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
