//! How θ̂, and so the GPs the acquisition sees, is obtained from the real data by the baselines
//! UHE-BO is compared with (Ha et al. 2023, Sec. 7 and App. C): one trait, [`ThetaEstimator`], with
//! one implementation per baseline. Each keeps its own state across steps (the MCMC chain,
//! A-GP-UCB's `g(t)`, Wang & de Freitas' lengthscale bound); the MAP fit they share is [`MapFit`].

use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};

use super::hyper::{
    adaptive_scale, cap_lengthscales, log_posterior, log_theta, shrink_lengthscales, theta_from_log,
};
use super::settings::{ThetaLoss, UheGpSettings};
use bosweep_engine::{Engine, Points};
use bosweep_model::{
    Bounds, FitMode, FitOptions, FitResult, GpSpec, GpState, Kernel, KernelKind, MeanSpec, Noise,
    NoiseSpec, Priors, SliceSampler, fit_gp,
};
use bosweep_toolkit::acquisition::UpperConfidenceBound;
use bosweep_toolkit::{AlgorithmError, AskContext};

/// Lengthscale bounds of every fit (unit cube; our choice, the paper names no bounds).
pub(super) const LENGTHSCALE_BOUNDS: Bounds = Bounds::new(1e-3, 10.0);
const SIGNAL_BOUNDS: Bounds = Bounds::new(1e-3, 100.0);
const NOISE_BOUNDS: Bounds = Bounds::new(1e-8, 1.0);

/// A θ: the kernel and the noise variance (unit cube, standardised outputs).
pub(super) type Theta = (Kernel, f64);

/// The MAP (or ML-II) fit of θ every variant uses, with its warm start.
pub(super) struct MapFit<'a> {
    pub settings: &'a UheGpSettings,
    /// The previous step's θ̂: a second start beside the defaults.
    pub previous: Option<&'a Theta>,
    /// Upper lengthscale bound of the fit.
    pub lengthscale_cap: f64,
}

impl MapFit<'_> {
    /// `None` for ML-II ([`ThetaLoss::Mle`]), else UHE-BO's Gamma(1e−3, 10) priors.
    pub fn priors(&self) -> Option<Priors> {
        (self.settings.loss == ThetaLoss::Map).then(Priors::uhe_bo)
    }

    fn options(&self, seed: u64) -> FitOptions {
        let mode = match self.priors() {
            None => FitMode::Mle,
            Some(priors) => FitMode::Map { priors },
        };
        FitOptions {
            mode,
            noise: NoiseSpec::Fitted {
                initial: self.settings.noise_var,
            },
            mean: MeanSpec::Fixed(0.0),
            fit_signal_variance: true,
            lengthscale_bounds: Bounds::new(LENGTHSCALE_BOUNDS.lower, self.lengthscale_cap),
            signal_variance_bounds: SIGNAL_BOUNDS,
            noise_bounds: NOISE_BOUNDS,
            random_starts: self.settings.random_starts,
            start_spread: f64::INFINITY,
            seed,
            max_iters: 200,
            ..FitOptions::default()
        }
    }

    /// The default start: the settings' `lengthscale`, `signal_var` and `noise_var`.
    pub fn default_theta(&self, dim: usize) -> Result<Theta, AlgorithmError> {
        let kernel = Kernel::new(
            KernelKind::Matern52,
            vec![self.settings.lengthscale; dim],
            self.settings.signal_var,
        )?;
        Ok((kernel, self.settings.noise_var))
    }

    /// Fits θ on `(x, z)` (unit cube, standardised): a warm start at the previous θ̂ with the
    /// random starts, and one at the defaults; the larger log posterior wins (warm on ties).
    pub fn fit(
        &self,
        x: &Points,
        z: &[f64],
        dim: usize,
        seed: u64,
    ) -> Result<Theta, AlgorithmError> {
        let (default_kernel, default_noise) = self.default_theta(dim)?;
        if z.iter().all(|v| *v == z[0]) {
            // Constant targets say nothing about θ (and ML-II is degenerate): keep the defaults.
            return Ok((default_kernel, default_noise));
        }
        let mut options = self.options(seed);
        let theta = |r: FitResult| -> (Kernel, f64, f64) {
            let noise = match r.noise {
                Noise::Homoscedastic(v) => v,
                Noise::PerPoint(v) => v.first().copied().unwrap_or(default_noise),
            };
            (r.kernel, noise, r.log_posterior)
        };
        let best = match self.previous {
            None => theta(fit_gp(x.clone(), z, default_kernel, &options)?),
            Some((kernel, noise)) => {
                options.noise = NoiseSpec::Fitted { initial: *noise };
                let warm = theta(fit_gp(x.clone(), z, kernel.clone(), &options)?);
                options.noise = NoiseSpec::Fitted {
                    initial: default_noise,
                };
                options.random_starts = 0;
                let default = theta(fit_gp(x.clone(), z, default_kernel, &options)?);
                if default.2 > warm.2 { default } else { warm }
            }
        };
        Ok((best.0, best.1))
    }
}

/// One step's real data (unit cube, standardised outputs) and what an estimator may use.
pub(super) struct Step<'a, 'c> {
    pub x: &'a Points,
    pub z: &'a [f64],
    pub dim: usize,
    /// Seed of this step's MAP fit.
    pub seed: u64,
    pub engine: &'a dyn Engine,
    pub rng: &'a mut ChaCha8Rng,
    /// The trace's `extra` of this step.
    pub extra: &'c mut Map<String, Value>,
}

/// What an estimator returns: the θ of each GP the acquisition sees, and the θ the next
/// step's fit starts from.
pub(super) struct Estimate {
    pub thetas: Vec<Theta>,
    pub warm_start: Theta,
}

/// A proposal in problem coordinates and in the unit cube.
pub(super) type Proposal = (Vec<f64>, Vec<f64>);

/// How θ̂ is obtained from the real data.
pub(super) trait ThetaEstimator: Send {
    /// Upper lengthscale bound of this step's MAP fit.
    fn lengthscale_cap(&self) -> f64 {
        LENGTHSCALE_BOUNDS.upper
    }

    /// GPs the acquisition averages over (one for a point estimate).
    fn samples(&self) -> usize {
        1
    }

    /// θ for this step's GPs.
    fn estimate(
        &mut self,
        fit: &MapFit<'_>,
        step: Step<'_, '_>,
    ) -> Result<Estimate, AlgorithmError>;

    /// The GP-UCB proposal on `state`, revised where the method says so; `propose` maximises
    /// the UCB of another GP.
    fn revise(
        &mut self,
        _ctx: &mut AskContext<'_>,
        _state: &GpState,
        proposal: Proposal,
        _propose: &mut Propose<'_>,
        _extra: &mut Map<String, Value>,
    ) -> Result<Proposal, AlgorithmError> {
        Ok(proposal)
    }
}

/// Maximises the UCB of a GP: the proposal in problem coordinates and in the unit cube.
pub(super) type Propose<'p> =
    dyn FnMut(&mut AskContext<'_>, &GpState) -> Result<Proposal, AlgorithmError> + 'p;

/// One MAP (or ML-II) estimate.
pub(super) struct PointEstimate;

impl ThetaEstimator for PointEstimate {
    fn estimate(
        &mut self,
        fit: &MapFit<'_>,
        step: Step<'_, '_>,
    ) -> Result<Estimate, AlgorithmError> {
        let theta = fit.fit(step.x, step.z, step.dim, step.seed)?;
        Ok(Estimate {
            thetas: vec![theta.clone()],
            warm_start: theta,
        })
    }
}

/// θ sampled by slice sampling from its posterior on the real data (`burn_in` sweeps, then
/// `samples` kept every `thin` sweeps), in `ln θ` within the fit bounds; the
/// chain continues from the previous step's last state.
pub(super) struct Mcmc {
    burn_in: usize,
    samples: usize,
    thin: usize,
    /// Initial slice width in log-hyperparameter units.
    slice_width: f64,
    chain: Option<Vec<f64>>,
}

impl Mcmc {
    pub fn new(burn_in: usize, samples: usize, thin: usize, slice_width: f64) -> Self {
        Self {
            burn_in,
            samples,
            thin,
            slice_width,
            chain: None,
        }
    }
}

impl ThetaEstimator for Mcmc {
    fn samples(&self) -> usize {
        self.samples
    }

    fn estimate(
        &mut self,
        fit: &MapFit<'_>,
        step: Step<'_, '_>,
    ) -> Result<Estimate, AlgorithmError> {
        let dim = step.dim;
        let mut lower = vec![LENGTHSCALE_BOUNDS.lower.ln(); dim];
        let mut upper = vec![LENGTHSCALE_BOUNDS.upper.ln(); dim];
        lower.extend([SIGNAL_BOUNDS.lower.ln(), NOISE_BOUNDS.lower.ln()]);
        upper.extend([SIGNAL_BOUNDS.upper.ln(), NOISE_BOUNDS.upper.ln()]);
        let sampler = SliceSampler::new(
            vec![self.slice_width; dim + 2],
            lower.clone(),
            upper.clone(),
            10,
        )?;
        let start: Vec<f64> = match &self.chain {
            Some(phi) => phi.clone(),
            None => {
                let (kernel, noise) = fit.default_theta(dim)?;
                log_theta(&kernel, noise)
            }
        };
        let start: Vec<f64> = start
            .iter()
            .zip(lower.iter().zip(&upper))
            .map(|(p, (lo, hi))| p.clamp(*lo, *hi))
            .collect();
        let priors = fit.priors().unwrap_or_default();
        let (x, z) = (step.x, step.z);
        let samples = sampler.sample(
            &start,
            |phi| log_posterior(x, z, phi, &priors),
            self.burn_in,
            self.samples,
            self.thin,
            step.rng,
        )?;
        self.chain = samples.last().cloned();
        let thetas = samples
            .iter()
            .map(|phi| theta_from_log(phi).map_err(AlgorithmError::from))
            .collect::<Result<Vec<_>, _>>()?;
        step.extra
            .insert("mcmc_samples".into(), json!(thetas.len()));
        let warm_start = thetas.last().cloned().ok_or_else(|| {
            AlgorithmError::Config("mcmc-gp-ucb: the sampler returned no samples".into())
        })?;
        Ok(Estimate { thetas, warm_start })
    }
}

/// A-GP-UCB: the MAP lengthscales divided by `g(t) = max(g(t−1), h(t))` ([`adaptive_scale`]);
/// the next fit starts from the unscaled MAP estimate.
pub(super) struct AdaptiveScaling {
    /// Exponent of the reference regret `p(t) = t^exponent`.
    exponent: f64,
    /// Ratio of the geometric grid searched for the one-step-prediction divisor `h(t)`.
    ratio: f64,
    /// `g(t − 1)`.
    scale: f64,
}

impl AdaptiveScaling {
    pub fn new(exponent: f64, ratio: f64) -> Self {
        Self {
            exponent,
            ratio,
            scale: 1.0,
        }
    }
}

impl ThetaEstimator for AdaptiveScaling {
    fn estimate(
        &mut self,
        fit: &MapFit<'_>,
        step: Step<'_, '_>,
    ) -> Result<Estimate, AlgorithmError> {
        let (kernel, noise) = fit.fit(step.x, step.z, step.dim, step.seed)?;
        let multiplier = UpperConfidenceBound::with_beta(fit.settings.ucb_beta)?.multiplier();
        let (h, g) = adaptive_scale(
            step.engine,
            step.x,
            step.z,
            &kernel,
            noise,
            multiplier,
            self.scale,
            self.exponent,
            self.ratio,
        )?;
        self.scale = g;
        step.extra.insert("agp_h".into(), json!(h));
        step.extra.insert("agp_g".into(), json!(self.scale));
        step.extra
            .insert("map_lengthscales".into(), json!(kernel.lengthscales()));
        let shrunk = shrink_lengthscales(&kernel, self.scale, LENGTHSCALE_BOUNDS.lower)?;
        Ok(Estimate {
            thetas: vec![(shrunk, noise)],
            warm_start: (kernel, noise),
        })
    }
}

/// Wang & de Freitas: MAP under a lengthscale upper bound that is shrunk (by `shrink` per
/// grid step, at most `max_steps` steps) until the proposal's posterior std reaches `kappa`;
/// the bound keeps its last value (monotone) for the next fits.
pub(super) struct ShrinkingBound {
    kappa: f64,
    shrink: f64,
    max_steps: usize,
    length_cap: f64,
}

impl ShrinkingBound {
    pub fn new(kappa: f64, shrink: f64, max_steps: usize) -> Self {
        Self {
            kappa,
            shrink,
            max_steps,
            length_cap: LENGTHSCALE_BOUNDS.upper,
        }
    }
}

impl ThetaEstimator for ShrinkingBound {
    fn lengthscale_cap(&self) -> f64 {
        self.length_cap
    }

    fn estimate(
        &mut self,
        fit: &MapFit<'_>,
        step: Step<'_, '_>,
    ) -> Result<Estimate, AlgorithmError> {
        PointEstimate.estimate(fit, step)
    }

    fn revise(
        &mut self,
        ctx: &mut AskContext<'_>,
        state: &GpState,
        mut proposal: Proposal,
        propose: &mut Propose<'_>,
        extra: &mut Map<String, Value>,
    ) -> Result<Proposal, AlgorithmError> {
        let (kappa, shrink, max_steps) = (self.kappa, self.shrink, self.max_steps);
        let std_at = |engine: &dyn Engine, state: &GpState, u: &[f64]| {
            let q = Points::from_rows(&[u.to_vec()])?;
            Ok::<f64, AlgorithmError>(engine.posterior(state, &q)?.variance[0].max(0.0).sqrt())
        };
        let mut sigma = std_at(ctx.engine, state, &proposal.1)?;
        let base = self.length_cap;
        let mut steps = 0;
        while sigma < kappa && steps < max_steps {
            steps += 1;
            let cap = base * shrink.powi(steps as i32);
            if cap < LENGTHSCALE_BOUNDS.lower {
                break;
            }
            self.length_cap = cap;
            let kernel = cap_lengthscales(state.kernel(), cap)?;
            let noise = match state.noise() {
                Noise::Homoscedastic(v) => *v,
                Noise::PerPoint(v) => v.first().copied().unwrap_or(0.0),
            };
            let capped = GpState::fit(
                state.train().clone(),
                state.targets(),
                GpSpec::new(kernel, Noise::Homoscedastic(noise)),
            )?;
            proposal = propose(ctx, &capped)?;
            sigma = std_at(ctx.engine, &capped, &proposal.1)?;
        }
        extra.insert("wdf_bound".into(), json!(self.length_cap));
        extra.insert("wdf_std".into(), json!(sigma));
        Ok(proposal)
    }
}
