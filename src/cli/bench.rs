//! `bosweep bench`: throughput of every engine operation on the chosen backend.

use super::output::to_stdout;
use crate::cli::CliError;
use bosweep::algorithms::benchmark::{self, OPERATIONS, Preset};
use bosweep::compute::Engine;

/// Options of `bosweep bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Problem sizes: quick (seconds, any backend), standard (the CPU targets) or large (the
    /// real-GPU sizes: posterior n=2048 d=20 m=2^20, KDE n=4096 d=8 m=2^20, sample paths
    /// n=100 d=20 F=1024 m=2^16 and 2^20).
    #[arg(long, default_value = "standard")]
    pub preset: String,
    /// Comma-separated operations to run (default: all).
    #[arg(long, value_delimiter = ',')]
    pub ops: Vec<String>,
    /// Timed calls per operation after one warm-up call; the median is reported.
    #[arg(long, default_value_t = 3)]
    pub repeats: usize,
}

pub fn run(args: &BenchArgs, engine: &dyn Engine) -> Result<(), CliError> {
    let preset = Preset::parse(&args.preset).ok_or_else(|| {
        CliError::usage(format!(
            "--preset: unknown preset '{}' (expected quick, standard or large)",
            args.preset
        ))
    })?;
    if let Some(op) = args
        .ops
        .iter()
        .find(|op| !OPERATIONS.contains(&op.as_str()))
    {
        return Err(CliError::usage(format!(
            "--ops: unknown operation '{op}' (expected one of {})",
            OPERATIONS.join(", ")
        )));
    }
    if args.repeats == 0 {
        return Err(CliError::usage("--repeats: value 0 (must be at least 1)"));
    }
    let measurements = benchmark::run(engine, preset, &args.ops, args.repeats)?;
    to_stdout(|w| {
        writeln!(w, "# engine: {}", engine.describe())?;
        writeln!(
            w,
            "{:<18} {:<38} {:>10} {:>14} {:>10}",
            "operation", "size", "seconds", "items/s", "GFLOP/s"
        )?;
        for m in &measurements {
            let gflops = m
                .gflops
                .map_or_else(|| "-".to_string(), |g| format!("{g:.2}"));
            writeln!(
                w,
                "{:<18} {:<38} {:>10.4} {:>14.4e} {:>10}",
                m.operation, m.size, m.seconds, m.items_per_second, gflops
            )?;
        }
        Ok(())
    })?;
    Ok(())
}
