//! `bosweep gp predict`: the posterior of a GP with given hyperparameters at candidate points.

use std::path::PathBuf;

use super::{CliError, GlobalArgs, output, values};
use crate::compute::Points;
use crate::io::{NumericTable, columns};
use crate::model::{
    FitMode, FitOptions, GpModel, GpState, Kernel, KernelKind, ModelOptions, Noise, NoiseSpec,
    OutputTransform, Priors,
};

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
    /// Hyperparameters: `fixed` uses the values given; `mle` (ML-II) and `map` (BoTorch's Gamma
    /// priors) fit them, starting from the given values, with inputs normalised to the training
    /// data's bounding box and outputs standardised, and print the fitted values (original
    /// units) to stderr.
    #[arg(long, default_value = "fixed", value_parser = ["fixed", "mle", "map"])]
    fit: String,
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
    let targets = train.column(dim);
    let inputs = train.points(0..dim)?;
    let engine = global.engine()?;
    let candidates = candidates.points(0..dim)?;
    let posterior = if args.fit == "fixed" {
        let noise = Noise::Homoscedastic(args.noise_var);
        let gp = GpState::fit(inputs, &targets, kernel, &noise, args.mean, 1.0)?;
        warn_jitter(&gp);
        engine.posterior(&gp, &candidates)?
    } else {
        let model = fit_model(&inputs, &targets, &kernel, args)?;
        report_fit(&model, &args.fit);
        warn_jitter(model.state());
        model.predict(engine.as_ref(), &candidates)?
    };
    let std: Vec<f64> = posterior.std().collect();
    output::write_columns(
        args.out.as_deref(),
        &["mean", "std"],
        &[&posterior.mean, &std],
    )
}

/// Fits the hyperparameters by `args.fit` (mle or map) in normalised units, starting from the
/// flags' values converted to those units.
fn fit_model(
    inputs: &Points,
    targets: &[f64],
    kernel: &Kernel,
    args: &PredictArgs,
) -> Result<GpModel, CliError> {
    let dim = inputs.dim();
    let column = |d: usize| inputs.iter().map(move |r| r[d]);
    let mut lower: Vec<f64> = (0..dim)
        .map(|d| column(d).fold(f64::INFINITY, f64::min))
        .collect();
    let mut upper: Vec<f64> = (0..dim)
        .map(|d| column(d).fold(f64::NEG_INFINITY, f64::max))
        .collect();
    for (lo, hi) in lower.iter_mut().zip(&mut upper) {
        // A constant column still needs a box of positive width.
        if *hi <= *lo {
            *lo -= 0.5;
            *hi += 0.5;
        }
    }
    let outputs = OutputTransform::standardize(targets);
    let scale = outputs.std * outputs.std;
    let lengthscales = kernel
        .lengthscales()
        .iter()
        .zip(lower.iter().zip(&upper))
        .map(|(l, (lo, hi))| l / (hi - lo))
        .collect();
    let model_kernel = Kernel::new(
        kernel.kind(),
        lengthscales,
        (kernel.signal_variance() / scale).clamp(1e-4, 1e4),
    )?;
    let mode = match args.fit.as_str() {
        "map" => FitMode::Map {
            priors: Priors::botorch(),
        },
        _ => FitMode::Mle,
    };
    let fit = FitOptions {
        mode,
        noise: NoiseSpec::Fitted {
            initial: (args.noise_var / scale).clamp(1e-6, 10.0),
        },
        ..FitOptions::default()
    };
    let options = ModelOptions::for_box(&lower, &upper)?.with_fit(fit);
    Ok(GpModel::fit(inputs, targets, model_kernel, &options)?)
}

/// Says on stderr when the kernel matrix needed diagonal jitter to factorise: the posterior is
/// then that of a slightly noisier model than the flags describe.
fn warn_jitter(gp: &GpState) {
    if gp.jitter() > 0.0 {
        eprintln!(
            "warning: the {n}×{n} kernel matrix is not numerically positive definite \
             (duplicate or near-duplicate inputs with little noise?); jitter {:e} was added to its \
             diagonal",
            gp.jitter(),
            n = gp.train().rows()
        );
    }
}

/// Prints the fitted hyperparameters in the data's units to stderr (stdout carries the CSV).
fn report_fit(model: &GpModel, mode: &str) {
    let noise = match model.noise_original() {
        Noise::Homoscedastic(v) => v.to_string(),
        Noise::PerPoint(v) => format!("{v:?}"),
    };
    eprintln!(
        "fitted ({mode}): lengthscale = {:?}, signal_var = {}, noise_var = {noise}, mean = {}, log marginal likelihood = {}",
        model.lengthscales_original(),
        model.signal_variance_original(),
        model.mean_original(),
        model.fit_result().log_marginal_likelihood,
    );
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
