//! A fitted GP surrogate in the units of the problem: input normalisation to the unit cube,
//! output standardisation, hyperparameter fitting ([`fit_gp`]) and prediction through any
//! [`Engine`] with the inverse transforms applied.
//!
//! It sits above both [`bosweep_model`] (the GP it fits) and [`bosweep_engine`] (the engine it
//! predicts through), so neither of those has to import the other.

use bosweep_engine::{Engine, EngineError, Points, Posterior};
use bosweep_model::{
    AppendOutcome, FitMode, FitOptions, FitResult, GpState, Kernel, KernelKind, MeanSpec, Noise,
    NoiseSpec, WarmStart, fit_gp,
};

/// The affine map `u = (x − lower) / (upper − lower)` of a box onto the unit cube, on the first
/// [`InputTransform::dim`] columns; further columns (a time column) pass through unchanged.
#[derive(Clone, Debug, PartialEq)]
pub struct InputTransform {
    lower: Vec<f64>,
    width: Vec<f64>,
}

impl InputTransform {
    /// Requires finite bounds with `lower < upper` in every dimension.
    pub fn from_bounds(lower: &[f64], upper: &[f64]) -> Result<Self, EngineError> {
        if lower.is_empty() || lower.len() != upper.len() {
            return Err(EngineError::invalid(format!(
                "input bounds need equal, non-zero lengths (got {} lower, {} upper)",
                lower.len(),
                upper.len()
            )));
        }
        if let Some(d) = (0..lower.len())
            .find(|&d| !(lower[d].is_finite() && upper[d].is_finite() && lower[d] < upper[d]))
        {
            return Err(EngineError::invalid(format!(
                "input bounds of dimension {d} are [{}, {}] (need finite lower < upper)",
                lower[d], upper[d]
            )));
        }
        Ok(Self {
            lower: lower.to_vec(),
            width: lower.iter().zip(upper).map(|(l, u)| u - l).collect(),
        })
    }

    /// Number of transformed columns.
    pub fn dim(&self) -> usize {
        self.lower.len()
    }

    /// The transform of the columns `range` alone: that of a joint input's decision part
    /// (`0..d_x`) or context part (`d_x..d_x + d_c`), for engine calls that take the two apart.
    pub fn columns(&self, range: std::ops::Range<usize>) -> Self {
        let range = range.start.min(self.dim())..range.end.min(self.dim());
        Self {
            lower: self.lower[range.clone()].to_vec(),
            width: self.width[range].to_vec(),
        }
    }

    /// The box's lower corner, mapped to 0.
    pub fn lower(&self) -> &[f64] {
        &self.lower
    }

    /// `upper − lower` per dimension (also the factor from unit-cube lengthscales to original ones).
    pub fn width(&self) -> &[f64] {
        &self.width
    }

    fn map(&self, x: &Points, f: impl Fn(f64, f64, f64) -> f64) -> Result<Points, EngineError> {
        if x.dim() < self.dim() {
            return Err(EngineError::invalid(format!(
                "points have {} columns, the input transform needs at least {}",
                x.dim(),
                self.dim()
            )));
        }
        let mut data = x.as_slice().to_vec();
        for row in data.chunks_exact_mut(x.dim()) {
            for (d, v) in row.iter_mut().take(self.dim()).enumerate() {
                *v = f(*v, self.lower[d], self.width[d]);
            }
        }
        Points::new(data, x.dim())
    }

    /// Original → unit-cube coordinates.
    pub fn forward(&self, x: &Points) -> Result<Points, EngineError> {
        self.map(x, |v, lo, w| (v - lo) / w)
    }

    /// Unit-cube → original coordinates.
    pub fn inverse(&self, u: &Points) -> Result<Points, EngineError> {
        self.map(u, |v, lo, w| lo + v * w)
    }
}

/// `z = (y − mean) / std`, and back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutputTransform {
    /// Mean of the observed values.
    pub mean: f64,
    /// Their standard deviation (1 where they are all equal).
    pub std: f64,
}

impl OutputTransform {
    /// `z = y`: outputs left as they are.
    pub const IDENTITY: Self = Self {
        mean: 0.0,
        std: 1.0,
    };

    /// Mean and unbiased (n − 1) standard deviation of `y`; std 1 when it is 0 (constant targets),
    /// not finite, or there are fewer than two values; mean 0 without values.
    ///
    /// Both are computed on `y / max|y|` and scaled back, so that targets up to the f64 range
    /// (an objective of 1e300) standardise instead of overflowing in their squares.
    pub fn standardize(y: &[f64]) -> Self {
        let n = y.len();
        if n == 0 {
            return Self::IDENTITY;
        }
        let scale = y.iter().fold(0.0, |m: f64, v| m.max(v.abs()));
        let scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        let scaled_mean = y.iter().map(|v| v / scale).sum::<f64>() / n as f64;
        let mean = scaled_mean * scale;
        let std = if n < 2 {
            1.0
        } else {
            let ss: f64 = y.iter().map(|v| (v / scale - scaled_mean).powi(2)).sum();
            scale * (ss / (n - 1) as f64).sqrt()
        };
        Self {
            mean,
            std: if std.is_finite() && std > 0.0 {
                std
            } else {
                1.0
            },
        }
    }

    /// `z = (y − mean) / std`.
    pub fn forward(&self, y: f64) -> f64 {
        (y - self.mean) / self.std
    }

    /// `y = mean + z std`.
    pub fn inverse(&self, z: f64) -> f64 {
        self.mean + z * self.std
    }

    /// A variance from model units to original units (`× std²`).
    pub fn inverse_variance(&self, v: f64) -> f64 {
        v * self.std * self.std
    }

    /// A variance from original units to model units (`÷ std²`).
    pub fn forward_variance(&self, v: f64) -> f64 {
        v / (self.std * self.std)
    }

    /// A posterior from model units to original units.
    pub fn inverse_posterior(&self, p: Posterior) -> Posterior {
        Posterior {
            mean: p.mean.into_iter().map(|m| self.inverse(m)).collect(),
            variance: p
                .variance
                .into_iter()
                .map(|v| self.inverse_variance(v))
                .collect(),
        }
    }
}

/// How a [`GpModel`] transforms its data before fitting. The input bounds cover the spatial
/// columns of the kernel; a time column (time-decay kernels) is never rescaled.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelOptions {
    /// Maps the inputs to the unit cube (`None`: inputs used as given).
    pub inputs: Option<InputTransform>,
    /// Standardise the outputs at every fit.
    pub standardize_outputs: bool,
    /// The fit, in model units (unit-cube inputs, standardised outputs), except for known
    /// quantities: [`NoiseSpec::Fixed`] variances and a [`MeanSpec::Fixed`] mean are given in
    /// original output units and transformed by the model.
    pub fit: FitOptions,
    /// Start the fit at a previous model's hyperparameters ([`GpModel::previous_fit`]); this
    /// replaces `fit.warm_start`, which is in the model units of one standardisation.
    pub warm_start: Option<PreviousFit>,
}

/// A fit's hyperparameters in its model units with the output standardisation they are in, so
/// that a fit on more data (standardised afresh) can start from them. Lengthscales need no
/// conversion: the input transform comes from the search box and is the same at every step.
#[derive(Clone, Debug, PartialEq)]
pub struct PreviousFit {
    /// Lengthscales in unit-cube input units, one per dimension.
    pub lengthscales: Vec<f64>,
    /// Signal variance, in the standardised units of `outputs`.
    pub signal_variance: f64,
    /// Noise variance, in the same units.
    pub noise_variance: f64,
    /// Constant prior mean, in the same units.
    pub mean: f64,
    /// The standardisation the values above are in.
    pub outputs: OutputTransform,
}

impl PreviousFit {
    /// The hyperparameters in the model units of `outputs`. Variances scale by the ratio of the
    /// two standard deviations, never by a square of one (objectives of 1e300 standardise).
    /// `None` where a converted value leaves the f64 range: the fit then starts cold.
    pub fn in_units_of(&self, outputs: &OutputTransform) -> Option<WarmStart> {
        let ratio = self.outputs.std / outputs.std;
        let warm = WarmStart {
            lengthscales: self.lengthscales.clone(),
            signal_variance: self.signal_variance * ratio * ratio,
            noise_variance: self.noise_variance * ratio * ratio,
            mean: self.mean * ratio + (self.outputs.mean - outputs.mean) / outputs.std,
        };
        warm.validate(self.lengthscales.len())
            .is_ok()
            .then_some(warm)
    }
}

impl ModelOptions {
    /// The BO default: inputs normalised from the search box, outputs standardised, the default
    /// fit (ML-II).
    pub fn for_box(lower: &[f64], upper: &[f64]) -> Result<Self, EngineError> {
        Ok(Self {
            inputs: Some(InputTransform::from_bounds(lower, upper)?),
            standardize_outputs: true,
            fit: FitOptions::default(),
            warm_start: None,
        })
    }

    /// The same with hyperparameters chosen by `fit`.
    pub fn with_fit(mut self, fit: FitOptions) -> Self {
        self.fit = fit;
        self
    }

    /// The same with the fit started from a previous step's optimum (`None`: cold start).
    pub fn with_warm_start(mut self, warm_start: Option<PreviousFit>) -> Self {
        self.warm_start = warm_start;
        self
    }
}

/// A GP fitted in model units, predicting in original units.
#[derive(Clone, Debug)]
pub struct GpModel {
    inputs: Option<InputTransform>,
    outputs: OutputTransform,
    fit: FitResult,
}

/// Where [`GpModel::fit_to_data`] starts, in the data's units; `None` starts where BO does
/// (lengthscales 0.2 of each input's range, the standardised targets' unit variance, noise 1e-4
/// of it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DataFitStart {
    /// One per input column.
    pub lengthscales: Option<Vec<f64>>,
    /// Signal variance, in the data's output units squared.
    pub signal_variance: Option<f64>,
    /// Noise variance, in the same units.
    pub noise_variance: Option<f64>,
}

impl GpModel {
    /// A GP fitted by `mode` to a data set that comes without a box: inputs normalised to their
    /// bounding box (a constant column gets a unit-wide one), targets standardised, starting
    /// from `start` converted to those units (`bosweep gp predict`, the Python package's `GP`).
    pub fn fit_to_data(
        kind: KernelKind,
        inputs: &Points,
        targets: &[f64],
        mode: FitMode,
        start: &DataFitStart,
    ) -> Result<Self, EngineError> {
        let dim = inputs.dim();
        let column = |d: usize| inputs.iter().map(move |r| r[d]);
        let mut lower: Vec<f64> = (0..dim)
            .map(|d| column(d).fold(f64::INFINITY, f64::min))
            .collect();
        let mut upper: Vec<f64> = (0..dim)
            .map(|d| column(d).fold(f64::NEG_INFINITY, f64::max))
            .collect();
        for (lo, hi) in lower.iter_mut().zip(&mut upper) {
            if *hi <= *lo {
                *lo -= 0.5;
                *hi += 0.5;
            }
        }
        let outputs = OutputTransform::standardize(targets);
        let scale = outputs.std * outputs.std;
        let lengthscales = match &start.lengthscales {
            Some(given) if given.len() != dim => {
                return Err(EngineError::invalid(format!(
                    "{} starting lengthscales for {dim} input columns",
                    given.len()
                )));
            }
            Some(given) => given
                .iter()
                .zip(lower.iter().zip(&upper))
                .map(|(l, (lo, hi))| l / (hi - lo))
                .collect(),
            None => vec![0.2; dim],
        };
        let signal_variance = start.signal_variance.map_or(1.0, |v| v / scale);
        let kernel = Kernel::new(kind, lengthscales, signal_variance.clamp(1e-4, 1e4))?;
        let fit = FitOptions {
            mode,
            noise: NoiseSpec::Fitted {
                initial: start
                    .noise_variance
                    .map_or(1e-4, |v| v / scale)
                    .clamp(1e-6, 10.0),
            },
            ..FitOptions::default()
        };
        let options = ModelOptions::for_box(&lower, &upper)?.with_fit(fit);
        Self::fit(inputs, targets, kernel, &options)
    }

    /// Transforms the data, fits the hyperparameters as `options.fit` says (starting from
    /// `kernel`, in model units) and conditions the GP.
    pub fn fit(
        train: &Points,
        targets: &[f64],
        kernel: Kernel,
        options: &ModelOptions,
    ) -> Result<Self, EngineError> {
        if let Some(t) = &options.inputs
            && t.dim() != kernel.spatial_dim()
        {
            return Err(EngineError::invalid(format!(
                "input bounds have {} dimensions, the kernel {} spatial ones",
                t.dim(),
                kernel.spatial_dim()
            )));
        }
        check_target_spread(targets)?;
        let outputs = if options.standardize_outputs {
            OutputTransform::standardize(targets)
        } else {
            OutputTransform::IDENTITY
        };
        let x = match &options.inputs {
            Some(t) => t.forward(train)?,
            None => train.clone(),
        };
        let z: Vec<f64> = targets.iter().map(|y| outputs.forward(*y)).collect();
        let mut fit = options.fit.clone();
        if let NoiseSpec::Fixed(noise) = &fit.noise {
            fit.noise = NoiseSpec::Fixed(scale_noise(noise, &outputs));
        }
        if let MeanSpec::Fixed(m) = fit.mean {
            fit.mean = MeanSpec::Fixed(outputs.forward(m));
        }
        if let Some(previous) = &options.warm_start {
            fit.warm_start = previous.in_units_of(&outputs);
        }
        let fit = fit_gp(x, &z, kernel, &fit)?;
        Ok(Self {
            inputs: options.inputs.clone(),
            outputs,
            fit,
        })
    }

    /// Posterior mean and latent-function variance at `candidates` (original units in and out).
    pub fn predict(
        &self,
        engine: &dyn Engine,
        candidates: &Points,
    ) -> Result<Posterior, EngineError> {
        let x = self.to_model_inputs(candidates)?;
        let p = engine.posterior(&self.fit.state, &x)?;
        Ok(self.outputs.inverse_posterior(p))
    }

    /// Conditions on one more observation (original units) in O(n²), keeping the transforms and
    /// the hyperparameters (see [`GpState::append`]). `noise_variance` (original units) is for
    /// per-point noise only; pass `None` with homoscedastic noise. Afterwards [`GpModel::state`]
    /// holds all the data, while the objective values of [`GpModel::fit_result`] still describe
    /// the fit.
    pub fn append(
        &mut self,
        x: &[f64],
        y: f64,
        noise_variance: Option<f64>,
    ) -> Result<AppendOutcome, EngineError> {
        let point = Points::new(x.to_vec(), x.len())?;
        let u = self.to_model_inputs(&point)?;
        let outcome = self.fit.state.append(
            u.row(0),
            self.outputs.forward(y),
            noise_variance.map(|v| self.outputs.forward_variance(v)),
        )?;
        self.fit.noise = self.fit.state.noise().clone();
        Ok(outcome)
    }

    /// The same data and transforms conditioned with other hyperparameters, given in model
    /// units (a fully Bayesian model's draws): `kernel`, homoscedastic `noise_variance` and
    /// constant `mean`, none fitted.
    pub fn with_hyperparameters(
        &self,
        kernel: Kernel,
        noise_variance: f64,
        mean: f64,
    ) -> Result<Self, EngineError> {
        let state = self.state();
        let options = FitOptions {
            mode: FitMode::Fixed,
            noise: NoiseSpec::Fixed(Noise::Homoscedastic(noise_variance)),
            mean: MeanSpec::Fixed(mean),
            ..FitOptions::default()
        };
        Ok(Self {
            inputs: self.inputs.clone(),
            outputs: self.outputs,
            fit: fit_gp(state.train().clone(), state.targets(), kernel, &options)?,
        })
    }

    /// Original inputs → the inputs the GP sees.
    pub fn to_model_inputs(&self, x: &Points) -> Result<Points, EngineError> {
        match &self.inputs {
            Some(t) => t.forward(x),
            None => Ok(x.clone()),
        }
    }

    /// The fitted hyperparameters, to start the next fit from; `None` with per-point noise (a
    /// warm start carries one homoscedastic variance).
    pub fn previous_fit(&self) -> Option<PreviousFit> {
        let Noise::Homoscedastic(noise_variance) = self.fit.noise else {
            return None;
        };
        Some(PreviousFit {
            lengthscales: self.fit.kernel.lengthscales().to_vec(),
            signal_variance: self.fit.kernel.signal_variance(),
            noise_variance,
            mean: self.fit.mean,
            outputs: self.outputs,
        })
    }

    /// The conditioned GP in model units.
    pub fn state(&self) -> &GpState {
        &self.fit.state
    }

    /// The fitted hyperparameters (model units) and objective values.
    pub fn fit_result(&self) -> &FitResult {
        &self.fit
    }

    /// The map from original inputs to the unit cube, if inputs are normalised.
    pub fn input_transform(&self) -> Option<&InputTransform> {
        self.inputs.as_ref()
    }

    /// The standardisation of the outputs the GP was fitted in.
    pub fn output_transform(&self) -> OutputTransform {
        self.outputs
    }

    /// The lengthscales in original input units (model lengthscales times the box widths).
    pub fn lengthscales_original(&self) -> Vec<f64> {
        let ls = self.fit.kernel.lengthscales();
        match &self.inputs {
            Some(t) => ls
                .iter()
                .enumerate()
                .map(|(d, l)| l * t.width().get(d).copied().unwrap_or(1.0))
                .collect(),
            None => ls.to_vec(),
        }
    }

    /// The signal variance in original output units.
    pub fn signal_variance_original(&self) -> f64 {
        self.outputs
            .inverse_variance(self.fit.kernel.signal_variance())
    }

    /// The noise variances in original output units.
    pub fn noise_original(&self) -> Noise {
        let o = self.outputs;
        match &self.fit.noise {
            Noise::Homoscedastic(v) => Noise::Homoscedastic(o.inverse_variance(*v)),
            Noise::PerPoint(v) => {
                Noise::PerPoint(v.iter().map(|s| o.inverse_variance(*s)).collect())
            }
        }
    }

    /// The constant prior mean in original output units.
    pub fn mean_original(&self) -> f64 {
        self.outputs.inverse(self.fit.mean)
    }

    /// The log marginal likelihood of the targets in their own units: the fit maximised that of
    /// the standardised targets `z = (y − m)/s`, and `ln p(y) = ln p(z) − n ln s` (the inputs'
    /// normalisation does not change it).
    pub fn log_marginal_likelihood_original(&self) -> f64 {
        let n = self.fit.state.train().rows() as f64;
        self.fit.log_marginal_likelihood - n * self.outputs.std.ln()
    }
}

/// Refuses targets whose spread `max − min` overflows f64 (values near ±1.8e308 of both
/// signs): no GP arithmetic on them can stay finite, and the error should say so rather than
/// surface later as a matrix that does not factorise.
fn check_target_spread(targets: &[f64]) -> Result<(), EngineError> {
    let (min, max) = targets
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(*v), hi.max(*v))
        });
    if targets.is_empty() || (max - min).is_finite() {
        Ok(())
    } else {
        Err(EngineError::invalid(format!(
            "observed values range from {min:e} to {max:e}: their spread overflows f64, so no GP \
             can model them; rescale the objective"
        )))
    }
}

fn scale_noise(noise: &Noise, o: &OutputTransform) -> Noise {
    match noise {
        Noise::Homoscedastic(v) => Noise::Homoscedastic(o.forward_variance(*v)),
        Noise::PerPoint(v) => Noise::PerPoint(v.iter().map(|s| o.forward_variance(*s)).collect()),
    }
}
