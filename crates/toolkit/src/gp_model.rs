//! The GP model a GP-based method refits at every step: its settings, declared once (kernel,
//! fit, initial hyperparameters, restarts), and the fit to a run's history, in model units
//! (unit-cube inputs, standardised outputs).

use rand::RngExt;

use bosweep_core::data::EngineError;

use crate::algorithm::{AlgorithmError, AskContext, History};
use crate::surrogate::{GpModel, ModelOptions};
use bosweep_model::{
    Bounds as HyperBounds, FitChoice, FitMode, FitOptions, Kernel, KernelFamily, KernelKind,
    NoiseSpec, Prior,
};

bosweep_core::settings! {
    /// The GP model a GP-based method refits at every step (GP-UCB, EI, TuRBO): its kernel, how its hyperparameters are chosen at every
    /// step, and their initial values (in model units: unit-cube inputs, standardised outputs).
    pub struct GpSettings {
        kernel: KernelFamily = KernelFamily::Matern52 => ("covariance kernel (ARD lengthscales)"),
        rq_alpha: f64 = 1.0 => ("shape of the rational-quadratic kernel", 1e-6, 1e6),
        fit: FitChoice = FitChoice::Map => (
            "hyperparameters: ML-II, MAP with BoTorch's Gamma priors, MAP with BoTorch's dimension-scaled priors (Hvarfner et al. 2024), MAP with the SAAS prior of BoTorch's MAP SAAS model (Eriksson and Jankowiak 2021), or fixed at the initial values"
        ),
        lengthscale: f64 = 0.2 => ("initial (or fixed) lengthscale, in unit-cube units", 1e-6, 1e6),
        signal_var: f64 = 1.0 => (
            "initial (or fixed) signal variance, in standardised output units",
            1e-8,
            1e8
        ),
        /// BoTorch's `SingleTaskGP` has had no `ScaleKernel` since 0.12: its kernel's variance
        /// is 1 on the standardised outputs.
        outputscale: bool = true => (
            "fit the signal variance (an outputscale); false keeps it at signal_var, as BoTorch's SingleTaskGP (no ScaleKernel since 0.12)"
        ),
        noise_var: f64 = 1e-4 => (
            "initial (or fixed) noise variance, in standardised output units",
            1e-6,
            10.0
        ),
        min_noise_var: f64 = 1e-6 => (
            "lower bound of the fitted noise variance, in standardised output units (BoTorch: 1e-4)",
            1e-12,
            1.0
        ),
        /// BoTorch starts each fit at its priors' modes (its constraints' `initial_value`).
        start_at_prior_mode: bool = false => (
            "start the fit's lengthscales and noise variance at their priors' modes (BoTorch's initialisation; MAP fits), not at lengthscale and noise_var"
        ),
        fit_restarts: usize = 4 => (
            "random starts of the hyperparameter fit, besides the initial (or warm) one",
            0,
            1000
        ),
        warm_start: bool = true => ("start each step's hyperparameter fit at the previous step's optimum"),
        restarts_until: usize = 100 => (
            "with warm_start, the random starts run only while there are at most this many observations; beyond, the warm start alone",
            0,
            1_000_000_000
        ),
    }
}

impl GpSettings {
    /// BoTorch's default model, `SingleTaskGP` as BoTorch 0.12 to 0.18 builds it, the one LogEI
    /// and qLogNEI run on in BoTorch: an ARD squared-exponential (RBF) kernel with no outputscale
    /// on the standardised outputs, a fitted constant mean, MAP under the dimension-scaled priors
    /// (lengthscales LogNormal(√2 + ½ ln d, √3), at least 0.025; noise variance LogNormal(−4, 1),
    /// at least 1e-4), the fit starting at the priors' modes.
    pub fn botorch() -> Self {
        Self::default()
            .kernel(KernelFamily::SquaredExponential)
            .outputscale(false)
            .fit(FitChoice::MapDimensionScaled)
            .start_at_prior_mode(true)
            .min_noise_var(1e-4)
    }

    /// BoTorch's MAP SAAS model as `get_fitted_map_saas_model` builds and fits it (BoTorch
    /// 0.18.1, `botorch/models/map_saas.py` and `botorch/fit.py`): a Matérn-5/2 ARD kernel times
    /// a fitted outputscale (no prior, in [1e-2, 1e4], starting at 10), the SAAS prior on the
    /// lengthscales (in [0.01, 1e4], starting at 1) with its global shrinkage (in [1e-3, 10],
    /// starting at 0.1), noise variance Gamma(0.9, 10) in [1e-4, 1] starting at 1e-2, a constant
    /// mean N(0, 1) starting at the standardised outputs' average, 0 ([`Priors::botorch_saas`]);
    /// one L-BFGS run from those values at every step, with no random or warm start.
    ///
    /// [`Priors::botorch_saas`]: bosweep_model::Priors::botorch_saas
    pub fn saas_map() -> Self {
        Self::default()
            .kernel(KernelFamily::Matern52)
            .fit(FitChoice::MapSaas)
            .outputscale(true)
            .signal_var(10.0)
            .lengthscale(1.0)
            .noise_var(1e-2)
            .min_noise_var(1e-4)
            .fit_restarts(0)
            .warm_start(false)
    }

    /// Where a fit of `mode` starts: the lengthscale and the noise variance, at their priors'
    /// modes with `start_at_prior_mode` (where the fit has such a prior), else `lengthscale` and
    /// `noise_var`.
    fn start(&self, mode: &FitMode) -> (f64, f64) {
        let given = (self.lengthscale, self.noise_var);
        match mode {
            FitMode::Map { priors } if self.start_at_prior_mode => {
                let at_mode = |prior: Option<Prior>, otherwise: f64| {
                    prior
                        .and_then(|p| p.mode(priors.space))
                        .unwrap_or(otherwise)
                };
                (
                    at_mode(priors.lengthscale, given.0),
                    at_mode(priors.noise_variance, given.1),
                )
            }
            _ => given,
        }
    }

    /// The covariance kernel, a rational-quadratic one with its shape `rq_alpha`.
    pub fn kernel_kind(&self) -> KernelKind {
        self.kernel.with_shape(self.rq_alpha)
    }

    /// The kernel a fit in `dim` dimensions starts from and the fit's options (seed 0), in
    /// model units: what every step's fit uses, and what a check against another library's fit
    /// of the same model on the same data needs.
    pub fn fit_start(&self, dim: usize) -> Result<(Kernel, FitOptions), EngineError> {
        let mode = self.fit.mode(dim);
        let (lengthscale, noise_var) = self.start(&mode);
        let kernel = Kernel::new(self.kernel_kind(), vec![lengthscale; dim], self.signal_var)?;
        Ok((kernel, self.fit_options(mode, noise_var)))
    }

    /// The fit of every step, of `mode` with the noise variance starting at `noise_var`, in
    /// model units (unit cube, standardised outputs). The noise variance's floor is
    /// `min_noise_var` for every mode: BoTorch's 1e-4 keeps noise-free problems from being
    /// located precisely (docs/algorithms/baselines.md, "Why MAP is the default").
    fn fit_options(&self, mode: FitMode, noise_var: f64) -> FitOptions {
        let defaults = FitOptions::default();
        let base = FitOptions {
            mode,
            noise: NoiseSpec::Fitted { initial: noise_var },
            noise_bounds: HyperBounds::new(self.min_noise_var, defaults.noise_bounds.upper),
            fit_signal_variance: self.outputscale,
            random_starts: self.fit_restarts,
            ..defaults
        };
        match self.fit {
            // BoTorch's `GreaterThan(2.5e-2)` on the dimension-scaled lengthscales.
            FitChoice::MapDimensionScaled => FitOptions {
                lengthscale_bounds: HyperBounds::new(0.025, base.lengthscale_bounds.upper),
                ..base
            },
            // `add_saas_prior`'s and `get_map_saas_model`'s `LogTransformedInterval`s.
            FitChoice::MapSaas => FitOptions {
                lengthscale_bounds: HyperBounds::new(0.01, 1e4),
                signal_variance_bounds: HyperBounds::new(1e-2, 1e4),
                noise_bounds: HyperBounds::new(self.min_noise_var, 1.0),
                ..base
            },
            _ => base,
        }
    }
}

/// A GP fitted to `history` as `gp` says, inputs mapped from the problem's box to the unit
/// cube and outputs standardised; the fit warm-starts at `previous`'s optimum when `gp` says so.
/// The fit's seed is the first draw from the ask's random stream.
pub fn fit_gp_model(
    gp: &GpSettings,
    history: &History,
    previous: Option<&GpModel>,
    ctx: &mut AskContext<'_>,
) -> Result<GpModel, AlgorithmError> {
    let dim = ctx.domain.dim();
    let (kernel, mut fit) = gp.fit_start(dim)?;
    let ys = history.ys();
    let constant = ys.iter().all(|y| *y == ys[0]);
    fit.seed = ctx.rng.random();
    if constant {
        // The likelihood of constant targets grows without bound as the variances shrink:
        // keep the given hyperparameters until the data vary.
        fit.mode = FitMode::Fixed;
    }
    let warm_start = if gp.warm_start {
        previous.and_then(GpModel::previous_fit)
    } else {
        None
    };
    if warm_start.is_some() && ys.len() > gp.restarts_until {
        fit.random_starts = 0;
    }
    let options = ModelOptions::for_box(ctx.domain.lower(), ctx.domain.upper())?
        .with_fit(fit)
        .with_warm_start(warm_start);
    Ok(GpModel::fit(&history.points()?, ys, kernel, &options)?)
}
