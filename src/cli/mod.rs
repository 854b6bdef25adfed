//! The `bosweep` command line: a thin layer over the library. Each subcommand's module parses
//! and validates its flags and files, calls the library, and writes the result; nothing here
//! computes anything the library could.

/// `say!` that never panics: a line to stderr, ignoring a failure to write it. A closed
/// stderr (`bosweep sweep x.toml 2>&1 | head -1`) means that nobody reads the messages any more;
/// the command still finishes its work (its runs, its report) and its exit status tells how it
/// went.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod archive;
mod bench;
mod calibrate;
mod compare;
mod devices;
mod error;
mod events;
mod export;
mod gp;
mod indicators;
mod kde;
mod kde_error;
mod list;
mod output;
mod reference;
mod registry_text;
mod run;
mod sweep;
mod values;

use std::io::Write;

use clap::{Parser, Subcommand};

pub use error::CliError;

use bosweep::compute::{DeviceChoice, Engine, Precision, Route, select_engine};

/// GPU-accelerated batch engine for Bayesian-optimisation research sweeps.
#[derive(Parser, Debug)]
#[command(name = "bosweep", version)]
struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: Command,
}

/// Options every command takes.
#[derive(clap::Args, Debug)]
struct GlobalArgs {
    /// Backend: auto (a hardware GPU when there is one, else the CPU), cpu, or gpu (any GPU
    /// adapter, software ones included; an error when there is none).
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "BOSWEEP_DEVICE",
        default_value = "auto",
        value_name = "auto|cpu|gpu"
    )]
    device: DeviceChoice,
    /// Arithmetic precision of the GPU shaders (the CPU backend always uses f64).
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "BOSWEEP_PRECISION",
        default_value = "f32",
        value_name = "f32|f64",
        value_parser = parse_precision
    )]
    precision: Precision,
    /// Where calls go when there is a GPU: auto (each call to the CPU backend or the GPU by
    /// its size, from `bosweep calibrate`'s fit or a conservative default) or gpu (every call
    /// on the GPU). Default: auto under --device auto, gpu under --device gpu
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "BOSWEEP_ROUTE",
        value_name = "auto|gpu"
    )]
    route: Option<Route>,
}

impl GlobalArgs {
    /// Opens the backend the user asked for; only commands that compute call this, so that
    /// bad input is reported before any GPU start-up cost.
    fn engine(&self) -> Result<Box<dyn Engine>, CliError> {
        Ok(select_engine(self.device, self.precision, self.route)?)
    }
}

fn parse_precision(text: &str) -> Result<Precision, String> {
    Precision::parse(text)
        .ok_or_else(|| format!("unknown precision '{text}' (expected f32 or f64)"))
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the GPU adapters and the backend `--device auto` picks.
    Devices,
    /// Gaussian-process regression.
    #[command(subcommand)]
    Gp(gp::GpCommand),
    /// Gaussian-product kernel density estimate at query points.
    Kde(kde::KdeArgs),
    /// L1 distance between a KDE of context draws and the true law (SBO-KDE paper, Table 2).
    KdeError(kde_error::KdeErrorArgs),
    /// Multi-objective indicators of a set of points: the non-dominated count, the hypervolume
    /// from a reference point, and IGD, IGD+ and the additive ε against a true front.
    Indicators(indicators::IndicatorsArgs),
    /// Throughput of every engine operation on the chosen backend.
    Bench(bench::BenchArgs),
    /// Time the CPU backend and the GPU on a ladder of sizes and store where each kind of call
    /// runs faster, for `--route auto`.
    Calibrate(calibrate::CalibrateArgs),
    /// Run one optimisation and write its JSONL trace.
    Run(run::RunArgs),
    /// The catalogue: every algorithm and problem, one line each; a name for its details;
    /// filters by what a method needs or can do.
    List(list::ListArgs),
    /// Run a sweep config: every algorithm × problem × replicate, in parallel, resumable.
    Sweep(sweep::SweepArgs),
    /// Combine shard directories of one sweep into one directory, then report.
    Merge(sweep::MergeArgs),
    /// Write summary.csv, report.md, report.html, the tables and plots for a sweep directory.
    Report(sweep::ReportArgs),
    /// Write a sweep's runs on `bbob`, `bbob-constrained` and `bbob-biobj` in COCO's data formats, for COCO's post-processing (cocopp).
    ExportCoco(export::ExportCocoArgs),
    /// Compare two sweep directories (a baseline A and a change B) with paired statistics.
    Compare(compare::CompareArgs),
    /// Reference archive sets: finished sweeps kept compact, to report and compare against.
    #[command(subcommand)]
    Archive(archive::ArchiveCommand),
    /// Write the reference pages of the user's guide (CLI, algorithms, problems, sweep config
    /// keys) generated from the code, or check them with --check.
    Reference(reference::ReferenceArgs),
}

/// Runs the command line and returns the process exit code: 0 on success, 1 for a failure
/// while running, 2 for bad input or usage (clap's own usage errors included).
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // `--help` and `--version` arrive here too, with exit code 0.
            let _ = e.print();
            return e.exit_code();
        }
    };
    match run(&cli) {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            e.exit_code()
        }
    }
}

fn run(cli: &Cli) -> Result<(), CliError> {
    match &cli.command {
        Command::Devices => devices::run(&cli.global),
        Command::Gp(gp::GpCommand::Predict(args)) => gp::predict(args, &cli.global),
        Command::Kde(args) => kde::run(args, &cli.global),
        Command::KdeError(args) => kde_error::run(args, &cli.global),
        Command::Indicators(args) => indicators::run(args),
        Command::Bench(args) => bench::run(args, cli.global.engine()?.as_ref()),
        Command::Calibrate(args) => calibrate::run(args, &cli.global),
        Command::Run(args) => run::run_command(args, &cli.global),
        Command::List(args) => list::run(args),
        Command::Sweep(args) => sweep::sweep(args, &cli.global),
        Command::Merge(args) => sweep::merge_command(args),
        Command::Report(args) => sweep::report_command(args),
        Command::ExportCoco(args) => export::export_coco_command(args),
        Command::Compare(args) => compare::compare_command(args),
        Command::Archive(command) => archive::archive_command(command),
        Command::Reference(args) => reference::run(args),
    }
}
