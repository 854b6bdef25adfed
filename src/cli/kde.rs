//! `bosweep kde`: the Gaussian-product kernel density estimate of a data set at query points.

use std::path::PathBuf;

use super::{CliError, GlobalArgs, output, values};
use bosweep::io::{NumericTable, columns};
use bosweep::model::BandwidthRule;

/// Options of `bosweep kde`.
#[derive(clap::Args, Debug)]
pub struct KdeArgs {
    /// Data CSV: a header, then one row per data point.
    #[arg(long, value_name = "FILE")]
    data: PathBuf,
    /// Query points CSV: a header and the same columns as the data.
    #[arg(long, value_name = "FILE")]
    queries: PathBuf,
    /// Bandwidths: a rule (scott, silverman), or explicit values, one for every column or one
    /// per column (comma-separated).
    #[arg(
        long,
        default_value = "scott",
        value_name = "RULE|H1,H2,..",
        allow_hyphen_values = true
    )]
    bandwidth: String,
    /// Weights CSV: a header and one non-negative weight per data row (default: uniform).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
    /// Output CSV file with header `density` (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn run(args: &KdeArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let bandwidth = Bandwidth::parse(&args.bandwidth)?;

    let data = NumericTable::read(&args.data)?;
    let queries = NumericTable::read(&args.queries)?;
    if queries.cols() != data.cols() {
        return Err(CliError::usage(format!(
            "{} has {} but {} has {}",
            queries.file(),
            columns(queries.cols()),
            data.file(),
            columns(data.cols())
        )));
    }
    let weights = args
        .weights
        .as_deref()
        .map(NumericTable::read)
        .transpose()?;
    let weights = weights.map(|w| weight_column(&w, &data)).transpose()?;
    let points = data.points(0..data.cols())?;
    let bandwidths = match bandwidth {
        Bandwidth::Values(h) => values::per_column("--bandwidth", &h, data.cols(), data.file())?,
        Bandwidth::Rule(rule) => rule.bandwidths(&points).map_err(|e| {
            let reason = CliError::from(e);
            CliError::usage(format!(
                "--bandwidth {} on {}: {reason}",
                args.bandwidth,
                data.file()
            ))
        })?,
    };

    let density = global.engine()?.kde_density(
        &points,
        &bandwidths,
        weights.as_deref(),
        &queries.points(0..queries.cols())?,
    )?;
    output::write_columns(args.out.as_deref(), &["density"], &[&density])
}

/// The value of `--bandwidth`.
enum Bandwidth {
    Rule(BandwidthRule),
    /// Positive bandwidths, one for all columns or one per column.
    Values(Vec<f64>),
}

impl Bandwidth {
    fn parse(text: &str) -> Result<Self, CliError> {
        if let Some(rule) = BandwidthRule::parse(text) {
            return Ok(Self::Rule(rule));
        }
        if !text.contains(',') && text.trim().parse::<f64>().is_err() {
            return Err(CliError::usage(format!(
                "--bandwidth: unknown rule '{text}' (expected scott, silverman, or bandwidths \
                 h1,h2,..)"
            )));
        }
        let h = values::parse_list("--bandwidth", text)?;
        values::positive("--bandwidth", &h)?;
        Ok(Self::Values(h))
    }
}

/// The single column of a weights file, one non-negative weight per data row, not all zero.
fn weight_column(weights: &NumericTable, data: &NumericTable) -> Result<Vec<f64>, CliError> {
    if weights.cols() != 1 {
        return Err(CliError::usage(format!(
            "{} has {}; --weights takes one column of weights",
            weights.file(),
            columns(weights.cols())
        )));
    }
    if weights.rows() != data.rows() {
        return Err(CliError::usage(format!(
            "{} has {} weights but {} has {} data rows",
            weights.file(),
            weights.rows(),
            data.file(),
            data.rows()
        )));
    }
    let w = weights.column(0);
    if let Some(i) = w.iter().position(|v| *v < 0.0) {
        return Err(CliError::usage(format!(
            "{} line {}, column {:?}: {} is negative (weights must be non-negative)",
            weights.file(),
            weights.line(i),
            weights.columns()[0],
            w[i]
        )));
    }
    if w.iter().all(|v| *v == 0.0) {
        return Err(CliError::usage(format!(
            "{}: every weight is zero",
            weights.file()
        )));
    }
    Ok(w)
}
