//! UHE-BO (Ha, Nguyen, Zhang & van den Hengel 2023, arXiv:2306.06844 v1) and its ablations and
//! MAP baseline, one code path with two switches (`specs/uhe-bo.md` §2.4):
//!
//! | name | arms ([`ArmRule`]) | θ̂ fitted on ([`FitData`]) |
//! |---|---|---|
//! | `uhe-bo` | EXP3 over iteration pairs | pseudo-dataset (Eq. 2) |
//! | `ra-bo` | always arm 1: random at odd t, acquisition at even t | pseudo-dataset |
//! | `random-exp3` | EXP3 over iteration pairs | real data (ordinary MAP) |
//! | `map-gp-ucb` | always arm 2: acquisition every iteration | real data (ordinary MAP) |
//!
//! `t` is the iteration counter of Algorithm 1: 1 at the first step after the initial design
//! D_0 (the runner's step index minus |D_0|).
//!
//! * **Arms** (§2.1): at odd `t`, `γ̃ = min(1, γ_t)` with `γ_t = sqrt(4 ln 2 / ((e − 1) t))`,
//!   `p_t = (1 − γ̃) softmax(ℓw) + γ̃/2`, `a_t ~ p_t` (the run's RNG); at even `t` the arm is
//!   held. Arm 1 at odd `t` evaluates a uniform point; every other step proposes by GP-UCB.
//!   After an even `t`, the pair's reward `max(y_t, y_{t−1})` is min-max scaled with D_0 (§2.3)
//!   and `ℓw^a += γ_t r̃ / (2 p_{t−1}^a)`.
//! * **Proposal** (§2.2): in the unit cube, `M = ⌈m_factor · n⌉` uniform points are labelled with
//!   the y of their nearest observed point ([`pseudo_labels`], `Engine::nearest`, ties to the
//!   lowest index); θ = (ℓ_1..ℓ_d, σ_f², σ_n²) of a Matérn-5/2 ARD GP with zero prior mean is
//!   fitted on them by MAP with Gamma(1e−3, 10) priors on every hyperparameter, Jacobian included
//!   ([`Priors::uhe_bo`], §3.4), outputs standardised with the mean and std of the **real** y
//!   (§3.3); the GP conditioned on the real data with θ̂ is then maximised with
//!   `μ + √β σ` ([`UpperConfidenceBound::with_beta`], β = `ucb_beta` = 1.96: multiplier 1.4).
//! * **Recommendation**: the observed point with the largest observed y (§2.2).

use std::time::Instant;

use rand::RngExt;
use serde_json::{Map, Value, json};

use super::exp3::{Exp3, exp3_gamma};
use super::registry::AlgorithmEntry;
use super::{Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepCost};
use crate::acquisition::{
    Acquisition as _, Bounds as UnitBounds, GpAcquisition, MaximizeConfig, UpperConfidenceBound,
    maximize,
};
use crate::compute::{Engine, EngineError, Points};
use crate::model::{
    Bounds, FitMode, FitOptions, FitResult, GpState, Kernel, KernelKind, MeanSpec, Noise,
    NoiseSpec, OutputTransform, Priors, fit_gp,
};
use crate::params::{ParamKind, ParamSpec, ParamValue, Params};

/// `γ_t = sqrt(4 ln 2 / ((e − 1) t))` (Algorithm 1 line 5): EXP3's tuning with K = 2 arms and
/// `t/2` rounds. Not clamped (γ_1 ≈ 1.27).
pub fn uhe_gamma(t: usize) -> f64 {
    exp3_gamma(2, t as f64 / 2.0)
}

/// Nearest-neighbour pseudo-labels (Algorithm 1's UHE_PROPOSE lines 3–5): for each query the
/// index of the nearest row of `data` (Euclidean, ties to the lowest index) and that row's value.
pub fn pseudo_labels(
    engine: &dyn Engine,
    data: &Points,
    values: &[f64],
    queries: &Points,
) -> Result<(Vec<usize>, Vec<f64>), EngineError> {
    if data.rows() != values.len() {
        return Err(EngineError::invalid(format!(
            "pseudo-labels: {} data points but {} values",
            data.rows(),
            values.len()
        )));
    }
    let index = engine.nearest(data, queries)?;
    let labels = index.iter().map(|&i| values[i]).collect();
    Ok((index, labels))
}

/// EXP3 with two arms over iteration pairs (Algorithm 1 lines 5–12 and 18–22). Arms are
/// numbered 1 (random then acquisition) and 2 (acquisition twice), as in the paper.
#[derive(Clone, Debug)]
pub struct PairedExp3 {
    exp3: Exp3,
    arm: usize,
    probabilities: Vec<f64>,
}

impl Default for PairedExp3 {
    fn default() -> Self {
        Self::new()
    }
}

impl PairedExp3 {
    pub fn new() -> Self {
        Self {
            exp3: Exp3::new(2),
            arm: 0,
            probabilities: vec![0.5, 0.5],
        }
    }

    /// An odd iteration with `γ_t = gamma`: `p = (1 − γ̃) softmax(ℓw) + γ̃/2` with
    /// `γ̃ = min(1, γ)`, then the arm drawn from `p` with `rng` (or `force`d: no draw). Returns
    /// the arm (1 or 2).
    pub fn start_pair<R: rand::Rng + ?Sized>(
        &mut self,
        gamma: f64,
        rng: &mut R,
        force: Option<usize>,
    ) -> usize {
        self.probabilities = self.exp3.probabilities(gamma.min(1.0));
        self.arm = match force {
            Some(a) => a,
            None => Exp3::draw(&self.probabilities, rng) + 1,
        };
        self.arm
    }

    /// An even iteration with `γ_t = gamma` and scaled reward `r̃`:
    /// `ℓw^a ← ℓw^a + γ_t r̃ / (2 p^a)` for the held arm `a` and the probabilities of its odd
    /// iteration.
    pub fn end_pair(&mut self, gamma: f64, reward: f64) {
        let m = self.arm - 1;
        let p = self.probabilities[m];
        self.exp3.update(m, gamma, reward, p);
    }

    /// The arm of the current pair (1 or 2; 0 before the first pair).
    pub fn arm(&self) -> usize {
        self.arm
    }

    /// `p_t` of the last odd iteration (arm 1 first).
    pub fn probabilities(&self) -> &[f64] {
        &self.probabilities
    }

    /// `(ℓw^1, ℓw^2)`.
    pub fn log_weights(&self) -> &[f64] {
        self.exp3.log_weights()
    }
}

/// How the arm of each iteration is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArmRule {
    /// EXP3 over iteration pairs (UHE-BO, Random+EXP3).
    Exp3,
    /// Always arm 1: a uniform point at every odd t, the acquisition at every even t (RA-BO).
    AlwaysRandom,
    /// Always arm 2: the acquisition at every iteration (MAP-GP-UCB).
    AlwaysAcquisition,
}

/// What the hyperparameters are fitted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitData {
    /// The nearest-neighbour pseudo-dataset of Eq. (2).
    Pseudo,
    /// The real (adaptively collected) data.
    Real,
}

/// Parameters shared by `uhe-bo`, `ra-bo`, `random-exp3` and `map-gp-ucb`.
pub const PARAMETERS: &[ParamSpec] = &[
    ParamSpec {
        name: "ucb_beta",
        kind: ParamKind::Real {
            default: 1.96,
            min: 0.0,
            max: 1e6,
        },
        description: "β of GP-UCB under the square root: μ + √β σ (1.96 gives multiplier 1.4)",
    },
    ParamSpec {
        name: "m_factor",
        kind: ParamKind::Real {
            default: 2.0,
            min: 1e-3,
            max: 1e3,
        },
        description: "pseudo-dataset size M_t = ⌈m_factor · |D_{t−1}|⌉ (pseudo-data variants)",
    },
    ParamSpec {
        name: "gamma_schedule",
        kind: ParamKind::Choice {
            default: "paper",
            options: &["paper", "constant"],
        },
        description: "EXP3 γ_t: paper = sqrt(4 ln2 / ((e−1) t)); constant = gamma",
    },
    ParamSpec {
        name: "gamma",
        kind: ParamKind::Real {
            default: 0.1,
            min: 1e-9,
            max: 1.0,
        },
        description: "constant EXP3 γ (gamma_schedule=constant only)",
    },
    ParamSpec {
        name: "reward_clip",
        kind: ParamKind::Choice {
            default: "none",
            options: &["none", "unit"],
        },
        description: "clip the D_0-scaled pair reward to [0, 1] (unit) or not (none)",
    },
    ParamSpec {
        name: "loss",
        kind: ParamKind::Choice {
            default: "map",
            options: &["map", "mle"],
        },
        description: "hyperparameter loss: MAP with Gamma(1e-3, 10) priors (Jacobian included) or ML-II",
    },
    ParamSpec {
        name: "lengthscale",
        kind: ParamKind::Real {
            default: 0.2,
            min: 1e-3,
            max: 10.0,
        },
        description: "default-start lengthscale, in unit-cube units",
    },
    ParamSpec {
        name: "signal_var",
        kind: ParamKind::Real {
            default: 1.0,
            min: 1e-3,
            max: 100.0,
        },
        description: "default-start signal variance, in standardised output units",
    },
    ParamSpec {
        name: "noise_var",
        kind: ParamKind::Real {
            default: 1e-2,
            min: 1e-8,
            max: 1.0,
        },
        description: "default-start noise variance, in standardised output units",
    },
    ParamSpec {
        name: "random_starts",
        kind: ParamKind::Integer {
            default: 3,
            min: 0,
            max: 64,
        },
        description: "log-uniform random starts within the bounds, besides the warm and default starts",
    },
    ParamSpec {
        name: "grid_size",
        kind: ParamKind::Integer {
            default: 0,
            min: 0,
            max: 1 << 24,
        },
        description: "acquisition candidates per step; 0 = max(1000·d, 2000)",
    },
    ParamSpec {
        name: "top_k",
        kind: ParamKind::Integer {
            default: 10,
            min: 1,
            max: 1024,
        },
        description: "best candidates refined by L-BFGS-B",
    },
    ParamSpec {
        name: "refine",
        kind: ParamKind::Choice {
            default: "true",
            options: &["true", "false"],
        },
        description: "refine the best candidates with bounded L-BFGS",
    },
    ParamSpec {
        name: "max_iters",
        kind: ParamKind::Integer {
            default: 100,
            min: 1,
            max: 100_000,
        },
        description: "L-BFGS iterations per refined start",
    },
];

/// UHE-BO and its ablations and baseline, as `bosweep` builds them by name.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "uhe-bo",
        description: "UHE-BO (specs/uhe-bo.md): EXP3 over pairs {random+UCB, UCB+UCB}, θ by MAP on nearest-neighbour pseudo-data, GP-UCB μ + √β σ",
        parameters: PARAMETERS,
        build: |p| Ok(Box::new(UheBo::new(p, ArmRule::Exp3, FitData::Pseudo))),
    },
    AlgorithmEntry {
        name: "ra-bo",
        description: "RA-BO (UHE-BO ablation): random point at every odd step, GP-UCB at every even step, θ on pseudo-data",
        parameters: PARAMETERS,
        build: |p| {
            Ok(Box::new(UheBo::new(
                p,
                ArmRule::AlwaysRandom,
                FitData::Pseudo,
            )))
        },
    },
    AlgorithmEntry {
        name: "random-exp3",
        description: "Random+EXP3 (UHE-BO ablation): UHE-BO's EXP3 arm schedule, θ by MAP on the real data",
        parameters: PARAMETERS,
        build: |p| Ok(Box::new(UheBo::new(p, ArmRule::Exp3, FitData::Real))),
    },
    AlgorithmEntry {
        name: "map-gp-ucb",
        description: "MAP-GP-UCB (UHE-BO's baseline): GP-UCB μ + √β σ every step, θ by MAP with Gamma(1e-3, 10) priors, best observed y recommended",
        parameters: PARAMETERS,
        build: |p| {
            Ok(Box::new(UheBo::new(
                p,
                ArmRule::AlwaysAcquisition,
                FitData::Real,
            )))
        },
    },
];

/// UHE-BO and its variants (see the module docs).
pub struct UheBo {
    params: Params,
    arms: ArmRule,
    fit_data: FitData,
    history: History,
    bandit: PairedExp3,
    /// (min, max) of y over D_0, fixed at the first ask.
    y0: Option<(f64, f64)>,
    /// Algorithm 1's t of the step asked last (0 before the first ask).
    t: usize,
    /// Whether the last ask has not been told yet.
    pending: bool,
    /// Fitted θ̂ of the previous proposal (unit cube, standardised outputs): the warm start.
    previous: Option<(Kernel, f64)>,
    cost: StepCost,
    extra: Map<String, Value>,
}

impl UheBo {
    pub fn new(params: Params, arms: ArmRule, fit_data: FitData) -> Self {
        Self {
            params,
            arms,
            fit_data,
            history: History::default(),
            bandit: PairedExp3::new(),
            y0: None,
            t: 0,
            pending: false,
            previous: None,
            cost: StepCost::default(),
            extra: Map::new(),
        }
    }

    fn gamma(&self, t: usize) -> f64 {
        match self.params.choice("gamma_schedule") {
            "constant" => self.params.number("gamma"),
            _ => uhe_gamma(t),
        }
    }

    /// §2.3: `(r − lo)/(hi − lo)`, or `r − lo` when D_0's values are all equal; optional clip.
    fn scale_reward(&self, r: f64) -> f64 {
        let (lo, hi) = self.y0.unwrap_or((0.0, 0.0));
        let s = if hi > lo {
            (r - lo) / (hi - lo)
        } else {
            r - lo
        };
        match self.params.choice("reward_clip") {
            "unit" => s.clamp(0.0, 1.0),
            _ => s,
        }
    }

    fn fit_options(&self, seed: u64) -> FitOptions {
        let mode = match self.params.choice("loss") {
            "mle" => FitMode::Mle,
            _ => FitMode::Map {
                priors: Priors::uhe_bo(),
            },
        };
        FitOptions {
            mode,
            noise: NoiseSpec::Fitted {
                initial: self.params.number("noise_var"),
            },
            mean: MeanSpec::Fixed(0.0),
            fit_signal_variance: true,
            lengthscale_bounds: Bounds::new(1e-3, 10.0),
            signal_variance_bounds: Bounds::new(1e-3, 100.0),
            noise_bounds: Bounds::new(1e-8, 1.0),
            random_starts: self.params.integer("random_starts"),
            start_spread: f64::INFINITY,
            seed,
            max_iters: 200,
            ..FitOptions::default()
        }
    }

    /// Fits θ on `(x, z)` (unit cube, standardised): a warm start at the previous θ̂ with the
    /// random starts, and one at the defaults; the larger log posterior wins (warm on ties).
    fn fit_theta(
        &self,
        x: &Points,
        z: &[f64],
        dim: usize,
        seed: u64,
    ) -> Result<(Kernel, f64), AlgorithmError> {
        let default_kernel = Kernel::new(
            KernelKind::Matern52,
            vec![self.params.number("lengthscale"); dim],
            self.params.number("signal_var"),
        )?;
        let default_noise = self.params.number("noise_var");
        if z.iter().all(|v| *v == z[0]) {
            // Constant targets say nothing about θ (and ML-II is degenerate): keep the defaults.
            return Ok((default_kernel, default_noise));
        }
        let mut options = self.fit_options(seed);
        let theta = |r: FitResult| -> (Kernel, f64, f64) {
            let noise = match r.noise {
                Noise::Homoscedastic(v) => v,
                Noise::PerPoint(v) => v.first().copied().unwrap_or(default_noise),
            };
            (r.kernel, noise, r.log_posterior)
        };
        let best = match &self.previous {
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

    /// UHE_PROPOSE (§2.2), or the ordinary MAP proposal when θ is fitted on the real data.
    fn propose(&mut self, ctx: &mut AskContext<'_>) -> Result<Vec<f64>, AlgorithmError> {
        let start = Instant::now();
        let dim = ctx.domain.dim();
        let n = self.history.len();
        let unit_rows: Vec<Vec<f64>> = (0..n)
            .map(|i| ctx.domain.to_unit(self.history.x(i)))
            .collect();
        let real_x = Points::from_rows(&unit_rows)?;
        let ys = self.history.ys();
        let output = OutputTransform::standardize(ys);
        let real_z: Vec<f64> = ys.iter().map(|y| output.forward(*y)).collect();
        let seed: u64 = ctx.rng.random();
        let (kernel, noise) = match self.fit_data {
            FitData::Pseudo => {
                let m = ((self.params.number("m_factor") * n as f64).ceil() as usize).max(1);
                let mut data = Vec::with_capacity(m * dim);
                for _ in 0..m * dim {
                    data.push(ctx.rng.random::<f64>());
                }
                let pseudo = Points::new(data, dim)?;
                let (_, labels) = pseudo_labels(ctx.engine, &real_x, &real_z, &pseudo)?;
                self.extra.insert("pseudo_points".into(), json!(m));
                self.fit_theta(&pseudo, &labels, dim, seed)?
            }
            FitData::Real => self.fit_theta(&real_x, &real_z, dim, seed)?,
        };
        self.extra
            .insert("lengthscales".into(), json!(kernel.lengthscales()));
        self.extra
            .insert("signal_var".into(), json!(kernel.signal_variance()));
        self.extra.insert("noise_var".into(), json!(noise));
        let state = GpState::fit(
            real_x,
            &real_z,
            kernel.clone(),
            &Noise::Homoscedastic(noise),
            0.0,
            1.0,
        )?;
        self.previous = Some((kernel, noise));
        self.cost.model_seconds += start.elapsed().as_secs_f64();

        let start = Instant::now();
        let ucb = UpperConfidenceBound::with_beta(self.params.number("ucb_beta"))?;
        self.extra
            .insert("ucb_multiplier".into(), json!(ucb.multiplier()));
        let acquisition = GpAcquisition::new(&state, ucb);
        let x = match ctx.allowed {
            Some(set) => {
                let unit: Vec<Vec<f64>> = set.iter().map(|r| ctx.domain.to_unit(r)).collect();
                let values = acquisition.evaluate(ctx.engine, &Points::from_rows(&unit)?)?;
                set.row(ctx.engine.argmax(&values)?).to_vec()
            }
            None => {
                let config = MaximizeConfig {
                    grid_size: Some(match self.params.integer("grid_size") {
                        0 => (1000 * dim).max(2000),
                        g => g,
                    }),
                    seed: ctx.rng.random(),
                    top_k: self.params.integer("top_k"),
                    refine: self.params.choice("refine") == "true",
                    max_iters: self.params.integer("max_iters"),
                    ..MaximizeConfig::default()
                };
                let unit = UnitBounds::cube(0.0, 1.0, dim)?;
                let best = maximize(&acquisition, ctx.engine, &unit, &config)?;
                ctx.domain.from_unit(&best.x)
            }
        };
        self.cost.acq_seconds += start.elapsed().as_secs_f64();
        Ok(x)
    }

    fn random_point(ctx: &mut AskContext<'_>) -> Vec<f64> {
        match ctx.allowed {
            Some(set) if !set.is_empty() => set.row(ctx.rng.random_range(0..set.rows())).to_vec(),
            _ => ctx.domain.sample(ctx.rng),
        }
    }
}

impl Algorithm for UheBo {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.y0.is_none() {
            let ys = self.history.ys();
            self.y0 = Some(if ys.is_empty() {
                (0.0, 0.0)
            } else {
                let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                (lo, hi)
            });
        }
        self.t += 1;
        self.pending = true;
        let t = self.t;
        let odd = t % 2 == 1;
        self.extra = Map::new();
        self.extra.insert("uhe_t".into(), json!(t));
        let arm = match self.arms {
            ArmRule::Exp3 => {
                if odd {
                    let gamma = self.gamma(t);
                    self.bandit.start_pair(gamma, ctx.rng, None);
                    self.extra.insert("gamma".into(), json!(gamma));
                }
                self.extra.insert(
                    "exp3_probabilities".into(),
                    json!(self.bandit.probabilities()),
                );
                self.bandit.arm()
            }
            ArmRule::AlwaysRandom => 1,
            ArmRule::AlwaysAcquisition => 2,
        };
        self.extra.insert("arm".into(), json!(arm));
        let random = arm == 1 && odd;
        self.extra.insert("random_point".into(), json!(random));
        let x = if random || self.history.is_empty() {
            Self::random_point(ctx)
        } else {
            self.propose(ctx)?
        };
        Ok(Proposal { x, repeats: 1 })
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        let previous = self.history.ys().last().copied();
        self.history.push(feedback.x, feedback.y);
        if !std::mem::take(&mut self.pending) {
            return Ok(());
        }
        if self.arms == ArmRule::Exp3 && self.t % 2 == 0 {
            let r = previous.map_or(feedback.y, |p| p.max(feedback.y));
            let scaled = self.scale_reward(r);
            self.bandit.end_pair(self.gamma(self.t), scaled);
            self.extra.insert("reward".into(), json!(scaled));
        }
        if self.arms == ArmRule::Exp3 {
            self.extra
                .insert("exp3_log_weights".into(), json!(self.bandit.log_weights()));
        }
        Ok(())
    }

    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        Ok(self.history.best_x())
    }

    fn take_cost(&mut self) -> StepCost {
        std::mem::take(&mut self.cost)
    }

    fn extra(&self) -> Map<String, Value> {
        self.extra.clone()
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }
}
