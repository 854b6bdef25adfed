//! The two GPs of RAHBO (Makarova et al., NeurIPS 2021, Section 3.3 and Appendix A.3): the
//! variance-proxy GP on the sample
//! variances and the objective GP on the sample means with per-point noise, in unit-cube inputs
//! and raw outputs (no standardisation, which would rescale α with the outputs).

use super::settings::{
    BetaMode, ObjectiveNoise, PriorMean, RahboModels, RunSettings, VarianceNoise, Variant,
};
use super::stats::{bounds, conservative_variance_noise, plug_in_noise, theory_beta};
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::{
    Bounds, FitMode, FitOptions, GpSpec, GpState, Kernel, KernelKind, MeanSpec, Noise, NoiseSpec,
    fit_gp,
};

/// The evaluated points: unit-cube inputs, sample means, sample variances, repeats per point,
/// and the true noise variance where an oracle gives it.
#[derive(Clone, Debug, Default)]
pub struct Data {
    pub unit: Vec<f64>,
    pub dim: usize,
    pub means: Vec<f64>,
    pub variances: Vec<f64>,
    pub repeats: Vec<usize>,
    pub true_variances: Vec<f64>,
}

impl Data {
    pub fn len(&self) -> usize {
        self.means.len()
    }

    pub fn points(&self) -> Result<Points, EngineError> {
        Points::new(self.unit.clone(), self.dim.max(1))
    }

    /// `ϱ̄²`: the given cap, or twice the largest observed sample variance (the paper gives no practical value).
    pub fn rho2_max(&self, settings: &RahboModels) -> f64 {
        positive(settings.rho2_max).unwrap_or_else(|| {
            let largest = self.variances.iter().copied().fold(0.0, f64::max);
            if largest > 0.0 { 2.0 * largest } else { 1.0 }
        })
    }

    /// `ϱ_²`: the given floor, or `1e-6·max(1, var(m̂))` (the paper has none, but the noise must
    /// be positive).
    pub fn rho2_min(&self, settings: &RahboModels) -> f64 {
        positive(settings.rho2_min).unwrap_or_else(|| 1e-6 * sample_variance(&self.means).max(1.0))
    }
}

/// A given bound, `None` for 0 (automatic).
fn positive(bound: f64) -> Option<f64> {
    Some(bound).filter(|v| *v > 0.0)
}

fn sample_variance(v: &[f64]) -> f64 {
    let n = v.len();
    if n < 2 {
        return 0.0;
    }
    let m = v.iter().sum::<f64>() / n as f64;
    v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64
}

/// Hyperparameters of both GPs, kept fixed between refits.
#[derive(Clone, Debug)]
pub struct Hyper {
    pub f_kernel: Kernel,
    pub f_mean: f64,
    pub var: Option<(Kernel, f64, f64)>,
}

/// The conditioned GPs of one round and their confidence multipliers.
#[derive(Clone, Debug)]
pub struct Models {
    pub f: GpState,
    pub var: Option<GpState>,
    pub beta_f: f64,
    pub beta_var: f64,
}

fn matern(dim: usize, lengthscale: f64, signal: f64) -> Result<Kernel, EngineError> {
    let kind = KernelKind::parse("matern52", 1.0)
        .ok_or_else(|| EngineError::invalid("matern52 kernel unavailable"))?;
    Kernel::new(kind, vec![lengthscale; dim], signal)
}

fn options(settings: &RunSettings, targets: &[f64], noise: NoiseSpec, seed: u64) -> FitOptions {
    let constant = targets.iter().all(|y| *y == targets[0]);
    FitOptions {
        // Constant targets make the likelihood unbounded: keep the initial values until they vary.
        mode: if constant {
            FitMode::Fixed
        } else {
            settings.models.fit.mode()
        },
        noise,
        mean: match settings.models.prior_mean {
            PriorMean::Constant => MeanSpec::Fitted,
            PriorMean::Zero => MeanSpec::Fixed(0.0),
        },
        lambda: settings.risk.lambda,
        lengthscale_bounds: Bounds::new(1e-3, 1e3),
        signal_variance_bounds: Bounds::new(1e-8, 1e8),
        // BoTorch's lower bound on a learned noise, as in the authors' code.
        noise_bounds: Bounds::new(1e-4, 1e6),
        seed,
        ..FitOptions::default()
    }
}

/// The initial signal variance: the targets' spread, so that raw outputs of any scale start
/// near their own size.
fn initial_signal(targets: &[f64]) -> f64 {
    let v = sample_variance(targets);
    if v.is_finite() && v > 0.0 { v } else { 1.0 }
}

/// Fits both GPs' hyperparameters on `data` (variance GP first, then the objective GP with the
/// noise its bounds give), as the paper does on the initial design.
pub fn fit_hyper(
    settings: &RunSettings,
    data: &Data,
    engine: &dyn Engine,
    seed: u64,
) -> Result<Hyper, EngineError> {
    let train = data.points()?;
    let var = if settings.uses_variance_gp() {
        let noise = match settings.models.vargp_noise {
            VarianceNoise::Learned => NoiseSpec::Fitted {
                initial: (0.1 * initial_signal(&data.variances)).max(1e-4),
            },
            VarianceNoise::Conservative => NoiseSpec::Fixed(Noise::Homoscedastic(
                conservative_variance_noise(data.rho2_max(&settings.models), settings.risk.k),
            )),
            VarianceNoise::Value => {
                NoiseSpec::Fixed(Noise::Homoscedastic(settings.models.vargp_noise_value))
            }
        };
        let kernel = matern(
            data.dim,
            settings.models.lengthscale,
            initial_signal(&data.variances),
        )?;
        let fit = fit_gp(
            train.clone(),
            &data.variances,
            kernel,
            &options(settings, &data.variances, noise, seed),
        )?;
        let noise = match fit.noise {
            Noise::Homoscedastic(v) => v,
            Noise::PerPoint(_) => {
                return Err(EngineError::invalid(
                    "the variance GP must be homoscedastic",
                ));
            }
        };
        Some((fit.kernel, fit.mean, noise))
    } else {
        None
    };
    let placeholder = Hyper {
        f_kernel: matern(
            data.dim,
            settings.models.lengthscale,
            initial_signal(&data.means),
        )?,
        f_mean: 0.0,
        var,
    };
    let noise = objective_noise(settings, data, &placeholder, engine)?;
    let fit = fit_gp(
        train,
        &data.means,
        placeholder.f_kernel.clone(),
        &options(
            settings,
            &data.means,
            NoiseSpec::Fixed(Noise::PerPoint(noise)),
            seed.wrapping_add(1),
        ),
    )?;
    Ok(Hyper {
        f_kernel: fit.kernel,
        f_mean: fit.mean,
        var: placeholder.var,
    })
}

/// The variance GP conditioned on all data with the kept hyperparameters.
fn variance_state(
    settings: &RunSettings,
    data: &Data,
    hyper: &Hyper,
) -> Result<Option<GpState>, EngineError> {
    hyper
        .var
        .as_ref()
        .map(|(kernel, mean, noise)| {
            GpState::fit(
                data.points()?,
                &data.variances,
                GpSpec::new(kernel.clone(), Noise::Homoscedastic(*noise))
                    .mean(*mean)
                    .lambda(settings.risk.lambda),
            )
        })
        .transpose()
}

fn beta_var(settings: &RunSettings, var: &GpState) -> f64 {
    let risk = &settings.risk;
    match risk.beta_mode {
        BetaMode::Constant => risk.beta_var_mult,
        BetaMode::Theory => theory_beta(var, risk.delta / 2.0, risk.norm_bound_var),
    }
}

/// The objective GP's per-point noise for `settings.variant` (Eq. 16 for RAHBO), recomputed for
/// all points with the latest variance model, the newest sample variance included.
fn objective_noise(
    settings: &RunSettings,
    data: &Data,
    hyper: &Hyper,
    engine: &dyn Engine,
) -> Result<Vec<f64>, EngineError> {
    let (floor, cap) = (
        data.rho2_min(&settings.models),
        data.rho2_max(&settings.models),
    );
    let per_k = |v: f64, i: usize| v / data.repeats[i] as f64;
    let sample = |over_k: bool| -> Vec<f64> {
        (0..data.len())
            .map(|i| {
                let v = data.variances[i].max(floor);
                if over_k { per_k(v, i) } else { v }
            })
            .collect()
    };
    Ok(match settings.variant {
        Variant::KnownVariance => (0..data.len())
            .map(|i| per_k(data.true_variances[i].max(floor), i))
            .collect(),
        Variant::UncertaintySampling { .. } => {
            let var = variance_state(settings, data, hyper)?
                .ok_or_else(|| EngineError::invalid("RAHBO-US needs the variance GP"))?;
            let post = engine.posterior(&var, &data.points()?)?;
            post.mean
                .iter()
                .enumerate()
                .map(|(i, m)| per_k(m.max(settings.models.plugin_floor), i))
                .collect()
        }
        Variant::Rahbo { objective_noise } | Variant::GpUcb { objective_noise } => {
            match objective_noise {
                ObjectiveNoise::SampleVarOverK => sample(true),
                ObjectiveNoise::SampleVar => sample(false),
                ObjectiveNoise::UcbVarOverK => {
                    let var = variance_state(settings, data, hyper)?
                        .ok_or_else(|| EngineError::invalid("Σ̂ needs the variance GP"))?;
                    let beta = beta_var(settings, &var);
                    let post = engine.posterior(&var, &data.points()?)?;
                    post.mean
                        .iter()
                        .zip(&post.variance)
                        .enumerate()
                        .map(|(i, (m, v))| {
                            plug_in_noise(bounds(*m, *v, beta).1, data.repeats[i], floor, cap)
                        })
                        .collect()
                }
            }
        }
    })
}

/// Both GPs conditioned on all data with the kept hyperparameters (Algorithm 1, lines 7–9).
pub fn build(
    settings: &RunSettings,
    data: &Data,
    hyper: &Hyper,
    engine: &dyn Engine,
) -> Result<Models, EngineError> {
    let var = variance_state(settings, data, hyper)?;
    let f_noise = objective_noise(settings, data, hyper, engine)?;
    let f = GpState::fit(
        data.points()?,
        &data.means,
        GpSpec::new(hyper.f_kernel.clone(), Noise::PerPoint(f_noise))
            .mean(hyper.f_mean)
            .lambda(settings.risk.lambda),
    )?;
    let risk = &settings.risk;
    let beta_f = match risk.beta_mode {
        BetaMode::Constant => risk.beta_f_mult,
        BetaMode::Theory => theory_beta(&f, risk.delta / 2.0, risk.norm_bound_f),
    };
    let beta_var = var.as_ref().map_or(0.0, |v| beta_var(settings, v));
    Ok(Models {
        f,
        var,
        beta_f,
        beta_var,
    })
}
