//! `bosweep sweep`, `bosweep merge` and `bosweep report`: many runs from a config, in parallel,
//! resumable and shardable, then tables and plots.

use std::path::{Path, PathBuf};

use super::events::stderr_sink;
use super::output::{create_dir, output_dir};
use super::{CliError, GlobalArgs};
use bosweep::report::{Metric, ReportOptions};
use bosweep::sweep::{
    MixedDevices, Shard, StopSignal, SweepConfig, SweepLock, SweepOptions, WhenLocked,
    execute_sweep, merge, report_sweep,
};

/// Options of `bosweep sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// The sweep config (TOML; see the guide's Sweeps chapter, docs/guide/sweeps.md).
    config: PathBuf,
    /// Output directory (default: `results/<config file stem>`). Re-running the same command
    /// resumes: completed runs are skipped.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Run only the runs whose index ≡ I (mod N), e.g. one task of a job array. Default: the
    /// task of a SLURM job array (SLURM_ARRAY_TASK_ID, _COUNT) or of a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX of BOSWEEP_SHARD_COUNT); all runs outside both.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Worker threads: runs in flight at once (default: one per core; two per core where every
    /// call goes to a GPU).
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
    #[command(flatten)]
    compare: CompareArgs,
}

/// Options of `bosweep report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// A sweep directory.
    dir: PathBuf,
    #[command(flatten)]
    compare: CompareArgs,
}

/// How a report compares the algorithms.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The final metric that picks each problem's best, the paired tests and the ranks:
    /// simple-regret, cumulative-regret or best-value (where a problem's optimum is unknown, its
    /// best value). Default: the config's `[report] metric`, else simple-regret
    #[arg(long, value_name = "METRIC")]
    metric: Option<Metric>,
    /// Also compare the algorithms at this simulated time (a positive number), on each run's
    /// steps finished by then: summary-at-time.csv, comparisons-at-time.csv, ranks-at-time.csv
    /// and a section per problem. Every run must be timed (--runtime, --workers or --batch).
    /// Default: the config's `[report] time`, else none
    #[arg(long, value_name = "T", value_parser = positive_time)]
    time: Option<f64>,
    /// Put an archive set's results beside the sweep's (repeatable): a set's directory or the
    /// name of a shipped set (`bosweep archive list`). Its runs of the sweep's problems join the
    /// tables, paired tests, ranks, scores and runtime distribution as `<label> [<set>]`
    #[arg(long = "archive", value_name = "SET")]
    archives: Vec<String>,
}

impl CompareArgs {
    fn options(&self) -> ReportOptions {
        ReportOptions {
            metric: self.metric,
            time: self.time,
            archives: self.archives.clone(),
            ..ReportOptions::default()
        }
    }
}

/// `--time`: a positive finite number.
fn positive_time(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() => Ok(t),
        _ => Err(format!(
            "expected a positive finite simulated time, found \"{text}\""
        )),
    }
}

/// `--wait` as the lock's policy.
fn when_locked(wait: bool) -> WhenLocked {
    if wait {
        WhenLocked::Wait
    } else {
        WhenLocked::Refuse
    }
}

/// Creates `dir` and locks it for this process ([`SweepLock`]), saying on stderr when it waits
/// for another holder or takes over the lock of one that died.
fn lock(dir: &Path, wait: bool) -> Result<SweepLock, CliError> {
    create_dir(dir)?;
    Ok(SweepLock::acquire(dir, when_locked(wait), |note| {
        say!("note: {note}")
    })?)
}

pub fn sweep(args: &SweepArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let config = SweepConfig::load(&args.config)?;
    let dir = args.out.clone().unwrap_or_else(|| {
        let stem = args
            .config
            .file_stem()
            .map_or_else(|| "sweep".into(), |s| s.to_string_lossy().into_owned());
        PathBuf::from("results").join(stem)
    });
    let given = if args.out.is_some() {
        "--out"
    } else {
        "the default output directory"
    };
    output_dir(given, &dir)?;
    let engine = global.engine()?;
    let events = stderr_sink();
    let options = SweepOptions {
        shard: Shard::given_or_scheduled(args.shard, &events).map_err(CliError::usage)?,
        threads: args.threads,
        when_locked: when_locked(args.wait),
        mixed: if args.allow_mixed_devices {
            MixedDevices::Allow
        } else {
            MixedDevices::Refuse
        },
        report: !args.no_report,
        // Ctrl-C ends the process (src/main.rs); nothing else stops a sweep of the command line.
        stop: StopSignal::default(),
        events,
    };
    execute_sweep(&config, &dir, engine.as_ref(), &options)?;
    Ok(())
}

pub fn merge_command(args: &MergeArgs) -> Result<(), CliError> {
    let _lock = lock(output_dir("--out", &args.out)?, args.wait)?;
    let complete = merge(&args.out, &args.shards, &stderr_sink())?;
    say!(
        "merged {} directories into {}: {complete} completed runs",
        args.shards.len(),
        args.out.display()
    );
    Ok(report_sweep(
        &args.out,
        &args.compare.options(),
        &stderr_sink(),
    )?)
}

pub fn report_command(args: &ReportArgs) -> Result<(), CliError> {
    let dir = output_dir("report", &args.dir)?;
    Ok(report_sweep(dir, &args.compare.options(), &stderr_sink())?)
}
