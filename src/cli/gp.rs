//! `bosweep gp predict`: the posterior of a GP, with given or fitted hyperparameters, at
//! candidate points.

use std::path::PathBuf;

use super::{CliError, GlobalArgs, output, values};
use bosweep::compute::Points;
use bosweep::io::{NumericTable, columns, format_number};
use bosweep::model::{FitChoice, GpSpec, GpState, Kernel, KernelKind, Noise};
use bosweep::surrogate::{DataFitStart, GpModel};

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
    /// Lengthscales: one for every input column, or one per column (comma-separated). Required
    /// with `--fit fixed`; where fitted, the starting value (default: 0.2 of each column's
    /// range).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    lengthscale: Option<Vec<f64>>,
    /// Signal variance s² (the kernel's value at distance zero). Required with `--fit fixed`;
    /// where fitted, the starting value (default: the targets' variance).
    #[arg(long, allow_negative_numbers = true)]
    signal_var: Option<f64>,
    /// Observation noise variance. Required with `--fit fixed`; where fitted, the starting value
    /// (default: 1e-4 times the targets' variance).
    #[arg(long, allow_negative_numbers = true)]
    noise_var: Option<f64>,
    /// Constant prior mean.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    mean: f64,
    /// Shape α of the rational-quadratic kernel.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    rq_alpha: f64,
    /// Hyperparameters: `map` (BoTorch's Gamma priors), `map-dsp` (BoTorch's dimension-scaled
    /// priors), `map-saas` (the SAAS prior of BoTorch's MAP SAAS model, its global shrinkage
    /// fitted too) and `mle` (ML-II) fit them, starting from the given values, with inputs
    /// normalised to the training data's bounding box and outputs standardised, and print the
    /// fitted values and the log marginal likelihood (original units) to stderr; `fixed` uses
    /// the values given.
    #[arg(long, default_value_t, value_name = "map|map-dsp|map-saas|mle|fixed")]
    fit: FitChoice,
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
    if let Some(lengthscale) = &args.lengthscale {
        values::positive("--lengthscale", lengthscale)?;
    }
    if let Some(signal_var) = args.signal_var {
        values::positive("--signal-var", &[signal_var])?;
    }
    if let Some(noise_var) = args.noise_var {
        values::non_negative("--noise-var", &[noise_var])?;
    }
    values::finite("--mean", &[args.mean])?;
    values::positive("--rq-alpha", &[args.rq_alpha])?;

    let train = NumericTable::read(&args.train)?;
    let candidates = NumericTable::read(&args.candidates)?;
    let dim = input_dim(&train, &candidates)?;
    let targets = train.column(dim);
    let inputs = train.points(0..dim)?;
    let candidates = candidates.points(0..dim)?;
    let posterior = if args.fit == FitChoice::Fixed {
        let lengthscale = required_with_fixed("--lengthscale", args.lengthscale.as_deref())?;
        let lengthscales = values::per_column("--lengthscale", lengthscale, dim, train.file())?;
        let signal_var = required_with_fixed("--signal-var", args.signal_var)?;
        let kernel = Kernel::new(kind, lengthscales, signal_var)?;
        let noise = Noise::Homoscedastic(required_with_fixed("--noise-var", args.noise_var)?);
        let gp = GpState::fit(
            inputs,
            &targets,
            GpSpec::new(kernel, noise.clone()).mean(args.mean),
        )?;
        warn_jitter(&gp);
        global.engine()?.posterior(&gp, &candidates)?
    } else {
        let model = fit_model(kind, &inputs, &targets, args, train.file())?;
        report_fit(&model, args.fit);
        warn_jitter(model.state());
        model.predict(global.engine()?.as_ref(), &candidates)?
    };
    let std: Vec<f64> = posterior.std().collect();
    output::write_columns(
        args.out.as_deref(),
        &["mean", "std"],
        &[&posterior.mean, &std],
    )
}

/// The value of `flag`, which `--fit fixed` needs (fitting starts without it).
fn required_with_fixed<T>(flag: &str, value: Option<T>) -> Result<T, CliError> {
    value.ok_or_else(|| {
        CliError::usage(format!(
            "{flag} is required with --fit fixed (or fit the hyperparameters: --fit map)"
        ))
    })
}

/// Fits the hyperparameters by `args.fit` ([`GpModel::fit_to_data`]), starting from the flags'
/// values where given.
fn fit_model(
    kind: KernelKind,
    inputs: &Points,
    targets: &[f64],
    args: &PredictArgs,
    file: &str,
) -> Result<GpModel, CliError> {
    let dim = inputs.dim();
    let lengthscales = match &args.lengthscale {
        Some(given) => Some(values::per_column("--lengthscale", given, dim, file)?),
        None => None,
    };
    let mode = args.fit.mode(dim);
    let start = DataFitStart {
        lengthscales,
        signal_variance: args.signal_var,
        noise_variance: args.noise_var,
    };
    Ok(GpModel::fit_to_data(kind, inputs, targets, mode, &start)?)
}

/// Says on stderr when the kernel matrix needed diagonal jitter to factorise: the posterior is
/// then that of a slightly noisier model than the flags describe.
fn warn_jitter(gp: &GpState) {
    if gp.jitter() > 0.0 {
        say!(
            "warning: the {n}×{n} kernel matrix is not numerically positive definite \
             (duplicate or near-duplicate inputs with little noise?); jitter {:e} was added to its \
             diagonal",
            gp.jitter(),
            n = gp.train().rows()
        );
    }
}

/// Prints the fitted hyperparameters and the log marginal likelihood in the data's units to
/// stderr (stdout carries the CSV).
fn report_fit(model: &GpModel, mode: FitChoice) {
    let noise = match model.noise_original() {
        Noise::Homoscedastic(v) => format_number(v),
        Noise::PerPoint(v) => format!("{v:?}"),
    };
    let lengthscales: Vec<String> = model
        .lengthscales_original()
        .into_iter()
        .map(format_number)
        .collect();
    say!(
        "fitted ({mode}): lengthscale = [{}], signal_var = {}, noise_var = {noise}, mean = {}, \
         log marginal likelihood = {}",
        lengthscales.join(", "),
        format_number(model.signal_variance_original()),
        format_number(model.mean_original()),
        format_number(model.log_marginal_likelihood_original()),
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
