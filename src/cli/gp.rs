//! `bosweep gp predict`: the posterior of a GP with given hyperparameters at candidate points.

use std::path::PathBuf;

use super::{CliError, GlobalArgs, output, values};
use crate::io::{NumericTable, columns};
use crate::model::{GpState, Kernel, KernelKind, Noise};

/// Gaussian-process commands.
#[derive(clap::Subcommand, Debug)]
pub enum GpCommand {
    /// Posterior mean and standard deviation of the latent function at candidate points; writes
    /// CSV with header `mean,std`, one row per candidate.
    Predict(PredictArgs),
}

/// Options of `bosweep gp predict`.
#[derive(clap::Args, Debug)]
pub struct PredictArgs {
    /// Training data CSV: a header, the input columns, then the target as the last column.
    #[arg(long, value_name = "FILE")]
    train: PathBuf,
    /// Candidate points CSV: a header and the same input columns as the training data.
    #[arg(long, value_name = "FILE")]
    candidates: PathBuf,
    #[arg(long, help = format!("Covariance kernel: {}", KernelKind::NAMES))]
    kernel: String,
    /// Lengthscales: one for every input column, or one per column (comma-separated).
    #[arg(
        long,
        value_delimiter = ',',
        required = true,
        allow_negative_numbers = true
    )]
    lengthscale: Vec<f64>,
    /// Signal variance s² (the kernel's value at distance zero).
    #[arg(long, allow_negative_numbers = true)]
    signal_var: f64,
    /// Observation noise variance.
    #[arg(long, allow_negative_numbers = true)]
    noise_var: f64,
    /// Constant prior mean.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    mean: f64,
    /// Shape α of the rational-quadratic kernel.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    rq_alpha: f64,
    /// Output CSV file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn predict(args: &PredictArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let kind = KernelKind::parse(&args.kernel, args.rq_alpha).ok_or_else(|| {
        CliError::usage(format!(
            "--kernel: unknown kernel '{}' (expected one of {})",
            args.kernel,
            KernelKind::NAMES
        ))
    })?;
    values::positive("--lengthscale", &args.lengthscale)?;
    values::positive("--signal-var", &[args.signal_var])?;
    values::non_negative("--noise-var", &[args.noise_var])?;
    values::finite("--mean", &[args.mean])?;
    values::positive("--rq-alpha", &[args.rq_alpha])?;

    let train = NumericTable::read(&args.train)?;
    let candidates = NumericTable::read(&args.candidates)?;
    let dim = input_dim(&train, &candidates)?;
    let lengthscales = values::per_column("--lengthscale", &args.lengthscale, dim, train.file())?;
    let kernel = Kernel::new(kind, lengthscales, args.signal_var)?;
    let noise = Noise::Homoscedastic(args.noise_var);
    let targets = train.column(dim);
    let gp = GpState::fit(
        train.points(0..dim)?,
        &targets,
        kernel,
        &noise,
        args.mean,
        1.0,
    )?;

    let posterior = global
        .engine()?
        .posterior(&gp, &candidates.points(0..dim)?)?;
    let std: Vec<f64> = posterior.std().collect();
    output::write_columns(
        args.out.as_deref(),
        &["mean", "std"],
        &[&posterior.mean, &std],
    )
}

/// The number of input columns: all of the training file's but the last (the target), which
/// the candidates file must match.
fn input_dim(train: &NumericTable, candidates: &NumericTable) -> Result<usize, CliError> {
    let dim = train.cols() - 1;
    if dim == 0 {
        return Err(CliError::usage(format!(
            "{} has only one column; expected the input columns, then the target",
            train.file()
        )));
    }
    if candidates.cols() != dim {
        return Err(CliError::usage(format!(
            "{} has {}, expected {dim} like the inputs of {} (all its columns but the last, \
             the target)",
            candidates.file(),
            columns(candidates.cols()),
            train.file()
        )));
    }
    Ok(dim)
}
