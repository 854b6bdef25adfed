//! KR-UCB (Yee, Lisý and Bowling 2016, as Algorithm 5 of Zhu et al. 2025 states it): UCB over
//! the *sampled* points
//! with the NW mean and KDE counts, and progressive widening that adds a point where the data
//! are thinnest near the UCB choice. Its preprocessing evaluates the t × t kernel matrix.

use std::collections::HashSet;
use std::time::Instant;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use serde_json::{Map, json};

use super::family::FamilyState;
use super::ikr::recommend;
use super::schedules::exploration_scale;
use super::settings::{KrSettings, Widening};
use super::surrogate::{KrSurrogate, Score, sq_dist};
use bosweep_core::params::ParamValue;
use bosweep_engine::{Engine, Points};
use bosweep_model::SmoothingKernel;
use bosweep_toolkit::{Algorithm, AlgorithmError, AskContext, Feedback, Proposal, StepLog};

/// Ball candidates per dimension of a widening step.
const BALL_POINTS_PER_DIM: usize = 256;
/// Projected-gradient steps that refine the best ball candidate (Gaussian kernel).
const REFINE_STEPS: usize = 30;

/// KR-UCB, running.
pub(super) struct KrUcbRunner {
    pub(super) state: FamilyState,
    pub(super) surrogate: KrSettings,
    pub(super) widening: Widening,
}

impl KrUcbRunner {
    /// Number of distinct observed points (exact equality of coordinates).
    fn distinct(&self) -> usize {
        let raw = self.state.history.raw();
        (0..raw.len())
            .map(|i| raw.x(i).iter().map(|v| v.to_bits()).collect::<Vec<u64>>())
            .collect::<HashSet<_>>()
            .len()
    }
}

/// `n` points uniform in the ball of radius `rho` around `centre`, clipped to the unit cube
/// (clipping moves each coordinate towards the centre, so the points stay in the ball).
fn ball_points(centre: &[f64], rho: f64, n: usize, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let dim = centre.len();
    let mut out = Vec::with_capacity(n * dim);
    for _ in 0..n {
        let direction: Vec<f64> = (0..dim).map(|_| rng.sample(StandardNormal)).collect();
        let norm = direction
            .iter()
            .map(|v| v * v)
            .sum::<f64>()
            .sqrt()
            .max(1e-300);
        let radius = rho * rng.random::<f64>().powf(1.0 / dim as f64);
        out.extend(
            centre
                .iter()
                .zip(&direction)
                .map(|(c, v)| (c + radius * v / norm).clamp(0.0, 1.0)),
        );
    }
    out
}

/// `ln Σ_j W_j` from the `ln W_j` (each ≥ 0: every sampled point weighs 1 at itself).
fn log_sum_exp(logs: &[f64]) -> f64 {
    let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    top + logs.iter().map(|l| (l - top).exp()).sum::<f64>().ln()
}

/// Projects `u` onto the ball of radius `rho` around `centre`, then into the unit cube.
fn project(u: &mut [f64], centre: &[f64], rho: f64) {
    let dist = sq_dist(u, centre).sqrt();
    if dist > rho {
        for (v, c) in u.iter_mut().zip(centre) {
            *v = c + (*v - c) * rho / dist;
        }
    }
    u.iter_mut().for_each(|v| *v = v.clamp(0.0, 1.0));
}

impl Algorithm for KrUcbRunner {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let start = Instant::now();
        if let Some(proposal) = self.state.design_step(ctx) {
            return Ok(proposal);
        }
        let data = self.state.observed_units(ctx)?;
        let t = data.rows();
        let ys = self.state.history.ys().to_vec();
        let h = self.surrogate.schedule().bandwidth(&data);
        let c = self.widening.c_multiplier * exploration_scale(&ys, self.surrogate.kappa);
        // Preprocessing: m_t and W_t at every sampled point (t² kernel terms).
        let at_data = ctx
            .engine
            .kernel_regression(&data, &ys, self.surrogate.kernel, h, &data)?;
        let log_total = log_sum_exp(&at_data.log_weight_sum);
        let scores: Vec<f64> = at_data
            .mean
            .iter()
            .zip(&at_data.log_weight_sum)
            .map(|(m, log_w)| m + c * (log_total * (-log_w).exp()).sqrt())
            .collect();
        let chosen = ctx.engine.argmax(&scores)?;
        let distinct = self.distinct();
        let mut kernel_evaluations = t * t;
        self.state.log.cost.model_seconds += start.elapsed().as_secs_f64();

        let start = Instant::now();
        self.state.log.extra = Map::new();
        let widen = (t as f64).powf(self.widening.alpha) >= distinct as f64;
        let x = if !widen {
            self.state.history.raw().x(chosen).to_vec()
        } else {
            let centre = data.row(chosen).to_vec();
            let rho = h * (2.0 * (1.0 / self.widening.tau).ln()).sqrt();
            let n = BALL_POINTS_PER_DIM * data.dim();
            let ball = Points::new(ball_points(&centre, rho, n, ctx.rng), data.dim())?;
            let surrogate = KrSurrogate::new(&data, &ys, self.surrogate.kernel, h);
            let density: Vec<f64> = surrogate
                .evaluate(ctx.engine, &ball, Score::Density)?
                .into_iter()
                .map(|e| e.score)
                .collect();
            kernel_evaluations += n * t;
            let best = ctx.engine.argmax(&density)?;
            let mut u = ball.row(best).to_vec();
            let mut value = density[best];
            let ball_best = value;
            if self.surrogate.kernel == SmoothingKernel::Gaussian && value.is_finite() {
                let mut step = rho / 4.0;
                for _ in 0..REFINE_STEPS {
                    let (_, gradient) = surrogate.score_gradient(&u, Score::Density);
                    kernel_evaluations += t;
                    let norm = gradient.iter().map(|g| g * g).sum::<f64>().sqrt();
                    if norm == 0.0 || step < 1e-12 {
                        break;
                    }
                    let mut next: Vec<f64> = u
                        .iter()
                        .zip(&gradient)
                        .map(|(v, g)| v + step * g / norm)
                        .collect();
                    project(&mut next, &centre, rho);
                    let (next_value, _) = surrogate.score_gradient(&next, Score::Density);
                    kernel_evaluations += t;
                    if next_value > value {
                        u = next;
                        value = next_value;
                    } else {
                        step /= 2.0;
                    }
                }
            }
            self.state
                .log
                .extra
                .insert("centre".into(), json!(self.state.history.raw().x(chosen)));
            self.state.log.extra.insert("rho".into(), json!(rho));
            self.state.log.extra.insert("log_w".into(), json!(-value));
            self.state
                .log
                .extra
                .insert("ball_min_log_w".into(), json!(-ball_best));
            ctx.domain.from_unit(&u)
        };
        self.state.log.extra.insert("widened".into(), json!(widen));
        self.state
            .log
            .extra
            .insert("distinct".into(), json!(distinct));
        self.state.log.extra.insert("bandwidth".into(), json!(h));
        self.state
            .log
            .extra
            .insert("kernel_evaluations".into(), json!(kernel_evaluations));
        self.state.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        Ok(Proposal { x, repeats: 1 })
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        self.state.tell(feedback);
        Ok(())
    }

    fn recommend(&mut self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        recommend(&mut self.state.history, &self.surrogate, engine)
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.state.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.state.parameters()
    }
}
