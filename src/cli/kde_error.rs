//! `bosweep kde-error`: the SBO-KDE paper's Table 2 (Huang et al., AAAI 2024, Appendix E), the L1
//! distance between a KDE of `n` context draws and the true law, mean and standard error over
//! independent runs.

use std::path::PathBuf;

use super::{CliError, GlobalArgs, output};
use bosweep::model::BandwidthRule;
use bosweep::problems::contextual::{
    KdeErrorRow, TableLaw, kde_error_memory_bytes, kde_error_table,
};
use bosweep::sweep::{available_bytes, human_bytes};

/// Options of `bosweep kde-error`.
#[derive(clap::Args, Debug)]
pub struct KdeErrorArgs {
    /// Context law: normal (Hartmann's N(0.5, 0.1²)) or mixture (Complicated Hartmann's, drawn
    /// unclipped).
    #[arg(long, value_name = "normal|mixture")]
    law: String,
    /// Sample sizes n, comma-separated.
    #[arg(long, default_value = "10,100,200,300", value_name = "N1,N2,..")]
    samples: String,
    /// Independent runs per sample size (at least 2).
    #[arg(long, default_value_t = 20)]
    runs: usize,
    /// Bandwidth rule of the KDE: silverman (the algorithms' default) or scott.
    #[arg(long, default_value = "silverman", value_name = "RULE")]
    bandwidth: String,
    /// Seed of the draws.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Output CSV file with header `samples,runs,l1_mean,l1_se` (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn run(args: &KdeErrorArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let law = TableLaw::parse(&args.law).ok_or_else(|| {
        CliError::usage(format!(
            "--law: unknown law '{}' (expected normal or mixture)",
            args.law
        ))
    })?;
    let rule = BandwidthRule::parse(&args.bandwidth).ok_or_else(|| {
        CliError::usage(format!(
            "--bandwidth: unknown rule '{}' (expected silverman or scott)",
            args.bandwidth
        ))
    })?;
    let samples = sample_sizes(&args.samples)?;
    let largest = samples.iter().copied().max().unwrap_or(0);
    let needed = kde_error_memory_bytes(largest);
    if let Some(available) = available_bytes()
        && needed > available
    {
        return Err(CliError::usage(format!(
            "--samples: KDEs of {largest} draws need about {} of memory, more than the {} \
             available",
            human_bytes(needed),
            human_bytes(available)
        )));
    }
    if args.runs < 2 {
        return Err(CliError::usage(format!(
            "--runs {}: a standard error needs at least 2 runs",
            args.runs
        )));
    }
    let rows = kde_error_table(
        global.engine()?.as_ref(),
        law,
        &samples,
        args.runs,
        rule,
        args.seed,
    )?;
    let column = |f: fn(&KdeErrorRow) -> f64| -> Vec<f64> { rows.iter().map(f).collect() };
    output::write_columns(
        args.out.as_deref(),
        &["samples", "runs", "l1_mean", "l1_se"],
        &[
            &column(|r| r.samples as f64),
            &column(|r| r.runs as f64),
            &column(|r| r.mean),
            &column(|r| r.standard_error),
        ],
    )
}

/// `--samples`: whole numbers of at least 2 (the bandwidth rule needs two points).
fn sample_sizes(text: &str) -> Result<Vec<usize>, CliError> {
    text.split(',')
        .map(|item| {
            let item = item.trim();
            match item.parse::<usize>() {
                Ok(n) if n >= 2 => Ok(n),
                _ => Err(CliError::usage(format!(
                    "--samples: '{item}' is not a sample size (a whole number of at least 2)"
                ))),
            }
        })
        .collect()
}
