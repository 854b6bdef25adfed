//! Hyperparameter fitting for exact GPs: fixed values, maximum likelihood (ML-II) or MAP, by
//! multi-start L-BFGS in log-parameter space.
//!
//! # Parameters and bounds
//!
//! The optimiser moves an unconstrained vector `u`: one entry per lengthscale, then (where they
//! are fitted) the SAAS prior's global shrinkage τ, the signal variance, the homoscedastic noise
//! variance and the constant mean. A positive hyperparameter `h` with bounds `[lo, hi]` (τ's are
//! its prior's, [`SaasPrior::bounds`]) is `h = exp(g(u))` with the *softplus box*
//!
//! ```text
//! g(u) = a + τ·[softplus((u − a)/τ) − softplus((u − b)/τ)],   a = ln lo, b = ln hi, τ = 0.5
//! ```
//!
//! a smooth, strictly increasing map of ℝ onto `(ln lo, ln hi)` that is the identity (to within
//! `τ e^{−dist/τ}`) away from the bounds. Every `u` the line search tries is therefore inside the
//! bounds, the objective and its gradient are smooth everywhere, and the curvature L-BFGS sees in
//! the interior is that of the log-parameter objective itself (a logistic map would rescale the
//! whole range). A bound is approached asymptotically (`h → lo` as `u → −∞`); the gradient
//! with respect to `u` vanishes there, which ends the run on the gradient-norm test. The mean is
//! not bounded (`m = u`).
//!
//! # Objective
//!
//! `J(u) = −[ln p(y | θ) + ln p(θ)] / n` (the log prior only for [`FitMode::Map`], in the space its
//! [`Priors::space`] says: [`Priors::log_density`]), with the analytic gradient of
//! [`super::likelihood`] chained through `g'(u)`. Dividing by `n` keeps the first L-BFGS step
//! (along `−∇J`, unit length) of order one in log space for any data size.
//!
//! # Starts and failures
//!
//! Start 0 is the given kernel's hyperparameters, the initial noise, the target average as mean
//! and τ's [`SaasPrior::initial`], each clipped into its bounds; `random_starts` more draw every
//! log-parameter uniformly from `[ln(h₀/spread), ln(h₀·spread)] ∩ [ln lo, ln hi]` with a
//! `ChaCha8Rng` seeded from `seed`, in a fixed order, so a fit is reproducible. Starts run in parallel, each deterministic, and the best
//! objective wins (ties to the lower start index), so the result does not depend on the thread
//! count. [`FitOptions::warm_start`] replaces start 0 by given hyperparameters (the previous BO
//! step's optimum), which at large n is where the new optimum is.
//!
//! Each start runs the projected L-BFGS of `bosweep_core::optim::lbfgsb` (unbounded here: the box
//! does the bounding) with scipy's default stopping rules. A trial point where `K + λΣ` is not
//! numerically positive definite (or where anything is not finite) counts as `+∞`, so the line
//! search backtracks from it; a start whose first point fails is skipped. Each start keeps the
//! `n × n` buffers of its likelihood evaluations ([`super::likelihood::Workspace`]). The final
//! state is factorised by [`GpState::fit`] (jitter escalation).

use std::convert::Infallible;

use bosweep_core::optim::lbfgsb::{LbfgsbOptions, Termination, minimize};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::gp::check_inputs;
use super::gp::{GpSpec, GpState, Noise};
use super::kernel::{Kernel, KernelKind};
use super::likelihood::{Workspace, evaluate, evaluate_in};
use super::log_prior::{LogHyperparameters, LogPrior};
use super::log_space::{Bounds, sigmoid, softplus};
use super::priors::Priors;
use super::saas_prior::SaasPrior;
use bosweep_core::data::{EngineError, Points};

/// Softness τ of the softplus box (in units of log-parameter).
const BOX_SOFTNESS: f64 = 0.5;

/// How hyperparameters are chosen.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum FitMode {
    /// Use the given values: the kernel as passed, the initial (or fixed) noise, the fixed mean or
    /// the target average.
    Fixed,
    /// Maximise the log marginal likelihood (ML-II).
    #[default]
    Mle,
    /// Maximise the log marginal likelihood plus the log prior.
    Map {
        /// The priors on the hyperparameters.
        priors: Priors,
    },
}

/// The observation noise: fitted (one homoscedastic variance) or fixed.
#[derive(Clone, Debug, PartialEq)]
pub enum NoiseSpec {
    /// Fit a homoscedastic variance `σ²` within [`FitOptions::noise_bounds`], starting at `initial`.
    Fitted {
        /// The variance the fit starts from.
        initial: f64,
    },
    /// Known variances (homoscedastic or per point), not fitted.
    Fixed(Noise),
}

/// The constant prior mean: fitted (starting at the target average) or fixed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MeanSpec {
    /// A hyperparameter of the fit, starting at the target average.
    Fitted,
    /// This value, not fitted.
    Fixed(f64),
}

/// Everything [`fit_gp`] needs besides the data and the kernel (which gives the kernel family, the
/// time decay, and the initial lengthscales and signal variance).
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// ML-II, MAP or the given values.
    pub mode: FitMode,
    /// The observation noise, fitted or known.
    pub noise: NoiseSpec,
    /// The constant prior mean, fitted or known.
    pub mean: MeanSpec,
    /// Fit the signal variance (else keep the kernel's).
    pub fit_signal_variance: bool,
    /// The scale λ of `K + λΣ` (Makarova et al., NeurIPS 2021, Eqs. 5–6); 1 for an ordinary GP.
    pub lambda: f64,
    /// Bounds on every lengthscale, in the units of the inputs the GP sees (the unit cube when the
    /// inputs are normalised).
    pub lengthscale_bounds: Bounds,
    /// Bounds on the fitted signal variance.
    pub signal_variance_bounds: Bounds,
    /// Bounds on the fitted noise variance (BoTorch: lower 1e-4; UHE-BO: 1e-8).
    pub noise_bounds: Bounds,
    /// Random starts in addition to the initial values.
    pub random_starts: usize,
    /// Random starts draw each positive hyperparameter log-uniformly within this factor of its
    /// initial value (intersected with the bounds); `f64::INFINITY` draws within the bounds.
    pub start_spread: f64,
    /// Seeds the random starts.
    pub seed: u64,
    /// Start 0's hyperparameters in place of the given kernel's, the initial noise and the target
    /// average: typically the previous BO step's optimum. The random starts still draw around the
    /// given initial values.
    pub warm_start: Option<WarmStart>,
    /// L-BFGS iterations per start.
    pub max_iters: usize,
    /// L-BFGS memory (number of correction pairs).
    pub memory: usize,
    /// Stop when the largest gradient component of the per-point objective is at most this.
    pub tol_grad: f64,
    /// Stop when one iteration lowers the per-point objective `J` by at most
    /// `tol_cost · max(|J|, 1)`.
    pub tol_cost: f64,
}

/// Hyperparameters to start a fit from (each clipped into its bounds; fixed quantities ignore
/// theirs). A SAAS prior's global shrinkage τ starts at [`SaasPrior::initial`] all the same:
/// under BoTorch's SAAS prior its MAP estimate is its lower bound whatever the data (see
/// [`SaasPrior`]), so a previous value says nothing a fresh start does not.
#[derive(Clone, Debug, PartialEq)]
pub struct WarmStart {
    /// One lengthscale per input dimension.
    pub lengthscales: Vec<f64>,
    /// The kernel's signal variance.
    pub signal_variance: f64,
    /// The homoscedastic noise variance.
    pub noise_variance: f64,
    /// The constant prior mean.
    pub mean: f64,
}

impl Default for FitOptions {
    /// ML-II with fitted homoscedastic noise (initial 0.1) and mean, bounds for standardised
    /// outputs and unit-cube inputs: lengthscales [1e-3, 1e3], signal variance [1e-4, 1e4], noise
    /// [1e-6, 10]; 4 random starts within a factor 10 of the initial values, seed 0; at most 200
    /// L-BFGS iterations per start, stopping at scipy's (and so BoTorch's) default L-BFGS-B
    /// tolerances, gradient 1e-5 and relative decrease 2.2e-9 (`factr = 1e7`).
    fn default() -> Self {
        Self {
            mode: FitMode::Mle,
            noise: NoiseSpec::Fitted { initial: 0.1 },
            mean: MeanSpec::Fitted,
            fit_signal_variance: true,
            lambda: 1.0,
            lengthscale_bounds: Bounds::new(1e-3, 1e3),
            signal_variance_bounds: Bounds::new(1e-4, 1e4),
            noise_bounds: Bounds::new(1e-6, 10.0),
            random_starts: 4,
            start_spread: 10.0,
            seed: 0,
            warm_start: None,
            max_iters: 200,
            memory: 10,
            tol_grad: 1e-5,
            tol_cost: 2.2e-9,
        }
    }
}

impl WarmStart {
    /// Checks that there are `dims` lengthscales and that every value is usable: positive and
    /// finite (the mean finite).
    pub fn validate(&self, dims: usize) -> Result<(), EngineError> {
        if self.lengthscales.len() != dims {
            return Err(EngineError::invalid(format!(
                "warm start has {} lengthscales, the kernel {dims}",
                self.lengthscales.len()
            )));
        }
        let positive = |v: f64| v.is_finite() && v > 0.0;
        if let Some(l) = self.lengthscales.iter().find(|l| !positive(**l)) {
            return Err(EngineError::invalid(format!(
                "warm-start lengthscale is {l} (must be positive and finite)"
            )));
        }
        for (what, v) in [
            ("signal variance", self.signal_variance),
            ("noise variance", self.noise_variance),
        ] {
            if !positive(v) {
                return Err(EngineError::invalid(format!(
                    "warm-start {what} is {v} (must be positive and finite)"
                )));
            }
        }
        if !self.mean.is_finite() {
            return Err(EngineError::invalid(format!(
                "warm-start mean is {}",
                self.mean
            )));
        }
        Ok(())
    }
}

/// The fitted hyperparameters, the objective values there, and the conditioned GP.
#[derive(Clone, Debug)]
pub struct FitResult {
    /// The kernel with the fitted lengthscales and signal variance.
    pub kernel: Kernel,
    /// The fitted (or known) noise variances.
    pub noise: Noise,
    /// The fitted (or fixed) constant prior mean.
    pub mean: f64,
    /// The fitted global shrinkage τ of a SAAS prior ([`Priors::saas`]); `None` without one.
    pub shrinkage: Option<f64>,
    /// `ln p(y | θ)` at the fitted hyperparameters (exact: without jitter whenever `K + λΣ`
    /// factorises, else that of the jittered factor the state holds).
    pub log_marginal_likelihood: f64,
    /// `ln p(θ)` in the space of the priors (0 unless [`FitMode::Map`]).
    pub log_prior: f64,
    /// `log_marginal_likelihood + log_prior`: what the fit maximised.
    pub log_posterior: f64,
    /// The GP conditioned on the data with the fitted hyperparameters.
    pub state: GpState,
    /// Starts run (0 for [`FitMode::Fixed`]) and how many of them failed at their first point.
    pub starts: usize,
    /// Starts whose first point the likelihood could not evaluate.
    pub failed_starts: usize,
    /// Objective evaluations over all starts.
    pub evaluations: u64,
}

/// Fits the hyperparameters of an exact GP with constant mean to `(train, targets)` as `options`
/// say, and conditions the GP on the data with them. See the module docs for the method.
///
/// Errors ([`EngineError::InvalidInput`]): inconsistent inputs or options; no data for
/// [`FitMode::Mle`]/[`FitMode::Map`]; ML-II on targets the mean alone explains (all equal with a
/// fitted mean, or all equal to a fixed mean: the likelihood then grows without bound as the
/// variances shrink); every start failing to factorise.
pub fn fit_gp(
    train: Points,
    targets: &[f64],
    kernel: Kernel,
    options: &FitOptions,
) -> Result<FitResult, EngineError> {
    let n = train.rows();
    options.lengthscale_bounds.validate("lengthscale")?;
    options.signal_variance_bounds.validate("signal-variance")?;
    options.noise_bounds.validate("noise-variance")?;
    if options.start_spread.is_nan() || options.start_spread < 1.0 {
        return Err(EngineError::invalid(format!(
            "start spread is {} (must be at least 1)",
            options.start_spread
        )));
    }
    if options.memory == 0 {
        return Err(EngineError::invalid("L-BFGS memory must be at least 1"));
    }
    if let FitMode::Map { priors } = &options.mode {
        priors.validate()?;
    }
    if let Some(warm) = &options.warm_start {
        warm.validate(kernel.spatial_dim())?;
    }
    let initial_noise = match &options.noise {
        NoiseSpec::Fitted { initial } => {
            if !(initial.is_finite() && *initial > 0.0) {
                return Err(EngineError::invalid(format!(
                    "initial noise variance is {initial} (must be positive and finite)"
                )));
            }
            Noise::Homoscedastic(*initial)
        }
        NoiseSpec::Fixed(noise) => noise.clone(),
    };
    let target_mean = if n == 0 {
        0.0
    } else {
        targets.iter().sum::<f64>() / n as f64
    };
    let initial_mean = match options.mean {
        MeanSpec::Fitted => target_mean,
        MeanSpec::Fixed(m) => m,
    };
    check_inputs(
        &train,
        targets,
        &kernel,
        &initial_noise,
        initial_mean,
        options.lambda,
    )?;

    let priors = match &options.mode {
        FitMode::Fixed => {
            let state = GpState::fit(
                train.clone(),
                targets,
                GpSpec::new(kernel.clone(), initial_noise.clone())
                    .mean(initial_mean)
                    .lambda(options.lambda),
            )?;
            let lml = exact_lml(&state);
            return Ok(FitResult {
                kernel,
                noise: initial_noise,
                mean: initial_mean,
                shrinkage: None,
                log_marginal_likelihood: lml,
                log_prior: 0.0,
                log_posterior: lml,
                state,
                starts: 0,
                failed_starts: 0,
                evaluations: 0,
            });
        }
        FitMode::Mle => None,
        FitMode::Map { priors } => Some(priors.clone()),
    };
    if n == 0 {
        return Err(EngineError::invalid(
            "cannot fit GP hyperparameters without data",
        ));
    }
    if priors.is_none() {
        let explained = match options.mean {
            MeanSpec::Fitted => targets.iter().all(|y| *y == targets[0]),
            MeanSpec::Fixed(m) => targets.iter().all(|y| *y == m),
        };
        if explained {
            return Err(EngineError::invalid(format!(
                "maximum likelihood is degenerate: all {n} targets are equal and the mean \
                 explains them, so the likelihood grows without bound as the variances shrink \
                 (use MAP priors or fixed hyperparameters)"
            )));
        }
    }

    let problem = Problem::new(train, targets, kernel, options, priors, initial_mean);
    let starts = problem.starts(options);
    let runs: Vec<Option<(f64, Vec<f64>, u64)>> = starts
        .par_iter()
        .map(|u0| problem.run(u0.clone(), options))
        .collect();
    let evaluations = runs.iter().flatten().map(|r| r.2).sum();
    let failed_starts = runs.iter().filter(|r| r.is_none()).count();
    let best = runs
        .into_iter()
        .flatten()
        .fold(None::<(f64, Vec<f64>)>, |best, (cost, u, _)| match best {
            Some((c, _)) if c <= cost => best,
            _ => Some((cost, u)),
        });
    let Some((_, u)) = best else {
        return Err(EngineError::invalid(format!(
            "hyperparameter fit failed: K + λΣ is not positive definite at any of the {} starts \
             (duplicate inputs with zero fixed noise?)",
            starts.len()
        )));
    };
    let point = problem.decode(&u)?;
    let state = GpState::fit(
        problem.train.clone(),
        &problem.targets,
        GpSpec::new(point.kernel.clone(), point.noise.clone())
            .mean(point.mean)
            .lambda(problem.lambda),
    )?;
    let lml = exact_lml(&state);
    let log_prior = problem.log_prior(&point)?.value;
    Ok(FitResult {
        shrinkage: point.log_shrinkage.map(|(phi, _)| phi.exp()),
        kernel: point.kernel,
        noise: point.noise,
        mean: point.mean,
        log_marginal_likelihood: lml,
        log_prior,
        log_posterior: lml + log_prior,
        state,
        starts: starts.len(),
        failed_starts,
        evaluations,
    })
}

/// The exact log marginal likelihood of the state's model where `K + λΣ` factorises without
/// jitter, else the jittered one from the state's factor.
fn exact_lml(state: &GpState) -> f64 {
    if state.jitter() == 0.0 {
        return state.log_marginal_likelihood();
    }
    evaluate(
        state.train(),
        state.targets(),
        state.kernel(),
        state.noise(),
        state.mean(),
        state.lambda(),
        false,
    )
    .map_or_else(|| state.log_marginal_likelihood(), |v| v.value)
}

/// The softplus box of the module docs on `[a, b]` (log bounds): value and derivative.
#[derive(Clone, Copy, Debug)]
struct SoftBox {
    a: f64,
    b: f64,
}

impl SoftBox {
    fn new(bounds: Bounds) -> Self {
        Self {
            a: bounds.lower.ln(),
            b: bounds.upper.ln(),
        }
    }

    fn forward(&self, u: f64) -> (f64, f64) {
        let t = BOX_SOFTNESS;
        let (p, q) = ((u - self.a) / t, (u - self.b) / t);
        let phi = self.a + t * (softplus(p) - softplus(q));
        (phi.clamp(self.a, self.b), sigmoid(p) - sigmoid(q))
    }

    /// `u` with `g(u) = phi`, for `phi` nudged inside `(a, b)`.
    fn inverse(&self, phi: f64) -> f64 {
        let t = BOX_SOFTNESS;
        let width = self.b - self.a;
        if width <= 0.0 {
            return self.a;
        }
        let margin = (1e-3f64).min(0.25 * width);
        let phi = phi.clamp(self.a + margin, self.b - margin);
        // (1 + e^p)/(1 + e^{p − Δ}) = E  ⇒  p = ln(E − 1) − ln(1 − E e^{−Δ}).
        let x = (phi - self.a) / t;
        let ln_expm1 = if x > 30.0 { x } else { x.exp_m1().ln() };
        let y = (phi - self.b) / t; // < 0
        let ln_one_minus = if y < -std::f64::consts::LN_2 {
            (-y.exp()).ln_1p()
        } else {
            (-y.exp_m1()).ln()
        };
        self.a + t * (ln_expm1 - ln_one_minus)
    }
}

/// One decoded point of the search space.
struct Point {
    kernel: Kernel,
    noise: Noise,
    mean: f64,
    /// `(φ, dφ/du)` of the lengthscales, then of τ, the signal variance and noise where fitted.
    log_lengthscales: Vec<(f64, f64)>,
    log_shrinkage: Option<(f64, f64)>,
    log_signal_variance: Option<(f64, f64)>,
    log_noise_variance: Option<(f64, f64)>,
}

/// The data and the search space shared by every start.
struct Problem {
    train: Points,
    targets: Vec<f64>,
    kind: KernelKind,
    time_decay: Option<f64>,
    lambda: f64,
    priors: Option<Priors>,
    n: f64,
    dims: usize,
    ls_box: SoftBox,
    /// The SAAS prior's τ: its box and start, where the priors have one.
    shrinkage: Option<(SoftBox, SaasPrior)>,
    s2_box: SoftBox,
    noise_box: SoftBox,
    /// Fixed values, where not fitted.
    fixed_s2: Option<f64>,
    fixed_noise: Option<Noise>,
    fixed_mean: Option<f64>,
    /// Start-0 values (clipped into the bounds).
    init_ls: Vec<f64>,
    init_s2: f64,
    init_noise: f64,
    init_mean: f64,
    bounds: [Bounds; 3],
}

impl Problem {
    fn new(
        train: Points,
        targets: &[f64],
        kernel: Kernel,
        options: &FitOptions,
        priors: Option<Priors>,
        initial_mean: f64,
    ) -> Self {
        let (fixed_noise, init_noise) = match &options.noise {
            NoiseSpec::Fitted { initial } => (None, options.noise_bounds.clip(*initial)),
            NoiseSpec::Fixed(noise) => (Some(noise.clone()), 1.0),
        };
        let shrinkage = priors
            .as_ref()
            .and_then(|p| p.saas)
            .map(|saas| (SoftBox::new(saas.bounds), saas));
        Self {
            n: train.rows() as f64,
            train,
            targets: targets.to_vec(),
            kind: kernel.kind(),
            time_decay: kernel.time_decay().map(|d| d.epsilon),
            lambda: options.lambda,
            priors,
            dims: kernel.spatial_dim(),
            ls_box: SoftBox::new(options.lengthscale_bounds),
            shrinkage,
            s2_box: SoftBox::new(options.signal_variance_bounds),
            noise_box: SoftBox::new(options.noise_bounds),
            fixed_s2: (!options.fit_signal_variance).then_some(kernel.signal_variance()),
            fixed_noise,
            fixed_mean: match options.mean {
                MeanSpec::Fitted => None,
                MeanSpec::Fixed(m) => Some(m),
            },
            init_ls: kernel
                .lengthscales()
                .iter()
                .map(|l| options.lengthscale_bounds.clip(*l))
                .collect(),
            init_s2: options
                .signal_variance_bounds
                .clip(kernel.signal_variance()),
            init_noise,
            init_mean: initial_mean,
            bounds: [
                options.lengthscale_bounds,
                options.signal_variance_bounds,
                options.noise_bounds,
            ],
        }
    }

    /// Start points in `u` space: the initial values, then the random draws.
    fn starts(&self, options: &FitOptions) -> Vec<Vec<f64>> {
        let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
        let spread = options.start_spread.ln();
        let mut draw = |init: f64, bounds: Bounds| -> f64 {
            let lo = (init.ln() - spread).max(bounds.lower.ln());
            let hi = (init.ln() + spread).min(bounds.upper.ln());
            let (lo, hi) = if lo <= hi {
                (lo, hi)
            } else {
                (bounds.lower.ln(), bounds.upper.ln())
            };
            lo + (hi - lo) * rng.random::<f64>()
        };
        let [ls_b, s2_b, noise_b] = self.bounds;
        // Start 0: the warm start where given (clipped into the bounds), else the initial values.
        let warm = options.warm_start.as_ref();
        let first_ls: Vec<f64> = match warm {
            Some(w) => w.lengthscales.iter().map(|l| ls_b.clip(*l)).collect(),
            None => self.init_ls.clone(),
        };
        let first_s2 = warm.map_or(self.init_s2, |w| s2_b.clip(w.signal_variance));
        let first_noise = warm.map_or(self.init_noise, |w| noise_b.clip(w.noise_variance));
        let first_mean = warm.map_or(self.init_mean, |w| w.mean);
        let mut starts = Vec::with_capacity(options.random_starts + 1);
        for s in 0..=options.random_starts {
            let mut u = Vec::new();
            for (l, first) in self.init_ls.iter().zip(&first_ls) {
                let phi = if s == 0 { first.ln() } else { draw(*l, ls_b) };
                u.push(self.ls_box.inverse(phi));
            }
            if let Some((tau_box, saas)) = &self.shrinkage {
                let phi = if s == 0 {
                    saas.initial.ln()
                } else {
                    draw(saas.initial, saas.bounds)
                };
                u.push(tau_box.inverse(phi));
            }
            if self.fixed_s2.is_none() {
                let phi = if s == 0 {
                    first_s2.ln()
                } else {
                    draw(self.init_s2, s2_b)
                };
                u.push(self.s2_box.inverse(phi));
            }
            if self.fixed_noise.is_none() {
                let phi = if s == 0 {
                    first_noise.ln()
                } else {
                    draw(self.init_noise, noise_b)
                };
                u.push(self.noise_box.inverse(phi));
            }
            if self.fixed_mean.is_none() {
                u.push(if s == 0 { first_mean } else { self.init_mean });
            }
            starts.push(u);
        }
        starts
    }

    fn decode(&self, u: &[f64]) -> Result<Point, EngineError> {
        let mut it = u.iter().copied();
        let mut next = || it.next().unwrap_or(f64::NAN);
        let log_lengthscales: Vec<(f64, f64)> = (0..self.dims)
            .map(|_| self.ls_box.forward(next()))
            .collect();
        let log_shrinkage = self
            .shrinkage
            .as_ref()
            .map(|(tau_box, _)| tau_box.forward(next()));
        let log_signal_variance = self.fixed_s2.is_none().then(|| self.s2_box.forward(next()));
        let log_noise_variance = self
            .fixed_noise
            .is_none()
            .then(|| self.noise_box.forward(next()));
        let mean = self.fixed_mean.unwrap_or_else(&mut next);
        let s2 = log_signal_variance.map_or_else(|| self.fixed_s2.unwrap_or(1.0), |p| p.0.exp());
        let mut kernel = Kernel::new(
            self.kind,
            log_lengthscales.iter().map(|p| p.0.exp()).collect(),
            s2,
        )?;
        if let Some(eps) = self.time_decay {
            kernel = kernel.with_time_decay(eps)?;
        }
        let noise = match &self.fixed_noise {
            Some(noise) => noise.clone(),
            None => Noise::Homoscedastic(log_noise_variance.map_or(1.0, |p| p.0.exp())),
        };
        if !mean.is_finite() {
            return Err(EngineError::invalid("non-finite mean in the search"));
        }
        Ok(Point {
            kernel,
            noise,
            mean,
            log_lengthscales,
            log_shrinkage,
            log_signal_variance,
            log_noise_variance,
        })
    }

    /// `ln p(θ)` and its derivatives with respect to the fitted coordinates, zero without
    /// priors (ML-II: the default [`Priors`] are flat and have no SAAS prior, so no τ is fitted).
    fn log_prior(&self, p: &Point) -> Result<LogPrior, EngineError> {
        let flat = Priors::default();
        let priors = self.priors.as_ref().unwrap_or(&flat);
        let log_lengthscales: Vec<f64> = p.log_lengthscales.iter().map(|(phi, _)| *phi).collect();
        priors.log_density(&LogHyperparameters {
            log_lengthscales: &log_lengthscales,
            log_shrinkage: p.log_shrinkage.map(|(phi, _)| phi),
            log_signal_variance: p.log_signal_variance.map(|(phi, _)| phi),
            log_noise_variance: p.log_noise_variance.map(|(phi, _)| phi),
            mean: self.fixed_mean.is_none().then_some(p.mean),
        })
    }

    /// `J(u)` and `∇J(u)`; `None` where the factorisation fails or anything is not finite.
    fn objective(&self, workspace: &mut Workspace, u: &[f64]) -> Option<(f64, Vec<f64>)> {
        if u.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let p = self.decode(u).ok()?;
        let lml = evaluate_in(
            workspace,
            &self.train,
            &self.targets,
            &p.kernel,
            &p.noise,
            p.mean,
            self.lambda,
            true,
        )?;
        let lp = self.log_prior(&p).ok()?;
        let scale = -1.0 / self.n;
        let mut grad = Vec::with_capacity(u.len());
        for (d, (_, dphi)) in p.log_lengthscales.iter().enumerate() {
            grad.push(scale * (lml.gradient.log_lengthscales[d] + lp.log_lengthscales[d]) * dphi);
        }
        if let Some((_, dphi)) = p.log_shrinkage {
            // τ enters the prior only.
            grad.push(scale * lp.log_shrinkage * dphi);
        }
        if let Some((_, dphi)) = p.log_signal_variance {
            grad.push(scale * (lml.gradient.log_signal_variance + lp.log_signal_variance) * dphi);
        }
        if let Some((_, dphi)) = p.log_noise_variance {
            grad.push(scale * (lml.gradient.log_noise_variance + lp.log_noise_variance) * dphi);
        }
        if self.fixed_mean.is_none() {
            grad.push(scale * (lml.gradient.mean + lp.mean));
        }
        let cost = scale * (lml.value + lp.value);
        (cost.is_finite() && grad.iter().all(|g| g.is_finite())).then_some((cost, grad))
    }

    /// One L-BFGS run from `u0`: `(best cost, best u, evaluations)`, `None` if `u0` fails. A
    /// trial point where the objective fails counts as `+∞`, so the line search backtracks from
    /// it. The search space is unbounded (the softplus box keeps every point inside the bounds).
    fn run(&self, u0: Vec<f64>, options: &FitOptions) -> Option<(f64, Vec<f64>, u64)> {
        let mut workspace = Workspace::default();
        let dims = u0.len();
        let lbfgs = LbfgsbOptions {
            memory: options.memory,
            max_iters: options.max_iters,
            gtol: options.tol_grad,
            ftol: options.tol_cost,
            ..LbfgsbOptions::default()
        };
        let (lo, hi) = (vec![f64::NEG_INFINITY; dims], vec![f64::INFINITY; dims]);
        let result = minimize(
            |u| {
                Ok::<_, Infallible>(
                    self.objective(&mut workspace, u)
                        .unwrap_or_else(|| (f64::INFINITY, vec![0.0; dims])),
                )
            },
            &u0,
            &lo,
            &hi,
            &lbfgs,
        )
        .unwrap_or_else(|never| match never {});
        (result.termination != Termination::NonFinite).then_some((
            result.f,
            result.x,
            result.evaluations as u64,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The MAP-SAAS objective's gradient, τ and the mean's prior included, is that of its value.
    #[test]
    fn the_saas_objective_gradient_matches_central_differences() {
        let rows: Vec<Vec<f64>> = (0..12)
            .map(|i| {
                let t = i as f64;
                vec![
                    (0.37 * t).fract(),
                    (0.61 * t + 0.2).fract(),
                    (0.13 * t).fract(),
                ]
            })
            .collect();
        let targets: Vec<f64> = rows.iter().map(|r| (4.0 * r[0]).sin() + r[1]).collect();
        let kernel = Kernel::new(KernelKind::Matern52, vec![0.5; 3], 2.0).unwrap();
        let priors = Priors::botorch_saas();
        let options = FitOptions {
            mode: FitMode::Map {
                priors: priors.clone(),
            },
            noise: NoiseSpec::Fitted { initial: 0.05 },
            ..FitOptions::default()
        };
        let rows = Points::from_rows(&rows).unwrap();
        let problem = Problem::new(rows, &targets, kernel, &options, Some(priors), 0.3);
        // Lengthscales, τ, signal variance, noise, mean: away from every bound.
        let u = [-0.4, 0.2, 1.1, -2.5, 0.3, -3.0, 0.25];
        let mut workspace = Workspace::default();
        let (_, grad) = problem.objective(&mut workspace, &u).unwrap();
        assert_eq!(grad.len(), u.len());
        let h = 1e-6;
        for i in 0..u.len() {
            let (mut up, mut down) = (u, u);
            up[i] += h;
            down[i] -= h;
            let cost = |v: &[f64]| problem.objective(&mut Workspace::default(), v).unwrap().0;
            let numeric = (cost(&up) - cost(&down)) / (2.0 * h);
            assert!(
                (grad[i] - numeric).abs() < 1e-7 * numeric.abs().max(1.0),
                "coordinate {i}: analytic {}, numeric {numeric}",
                grad[i]
            );
        }
    }
}
