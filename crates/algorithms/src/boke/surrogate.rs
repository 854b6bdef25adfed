//! The kernel-regression surrogate of BOKE (Zhu et al. 2025, §3): the Nadaraya–Watson mean
//! `m_t`, the unnormalised KDE `W_t` and the exploration term `σ̂_t = W_t^{−1/2}`, combined into
//! the scores the acquisition maximiser ranks. Batches of candidates go through
//! [`Engine::kernel_regression`]; single points (L-BFGS refinement) are evaluated here in f64
//! with analytic gradients. Nothing is factorised: each evaluation costs one kernel term per
//! observation, so the work per iteration grows linearly in t.

use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::SmoothingKernel;

/// Upper clamp of `ln σ̂ = −½ ln W` in f64, so that the acquisition stays finite where
/// the Gaussian weights of all observations underflow.
const MAX_LOG_SIGMA: f64 = 700.0;

/// What the acquisition maximiser ranks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// IKR-UCB `m_t + √β_t σ̂_t` (Eq. 3.12).
    Ikr {
        /// The exploration weight `√β_t`.
        sqrt_beta: f64,
    },
    /// The NW mean `m_t` alone: BOKE+'s exploitation step (Eq. 3.14).
    Mean,
    /// `−ln W_t`: pure density-based exploration (Eq. 3.10).
    Density,
}

/// The NW mean, `ln W` and the score at one query; the score is `+∞` where no observation has
/// positive weight and the score rewards exploration (compact kernels only).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The Nadaraya–Watson mean `m_t`.
    pub mean: f64,
    /// `ln W_t`, the log of the unnormalised KDE.
    pub log_weight_sum: f64,
    /// The score the maximiser ranks.
    pub score: f64,
}

/// Observations in unit-cube coordinates with their targets, a kernel and a bandwidth.
#[derive(Clone, Debug)]
pub struct KrSurrogate<'a> {
    data: &'a Points,
    targets: &'a [f64],
    kernel: SmoothingKernel,
    bandwidth: f64,
}

impl<'a> KrSurrogate<'a> {
    /// The surrogate of `targets` observed at `data` (unit cube) with `kernel` and `bandwidth`.
    pub fn new(
        data: &'a Points,
        targets: &'a [f64],
        kernel: SmoothingKernel,
        bandwidth: f64,
    ) -> Self {
        Self {
            data,
            targets,
            kernel,
            bandwidth,
        }
    }

    /// The observations, in unit-cube coordinates.
    pub fn data(&self) -> &Points {
        self.data
    }

    /// The bandwidth h.
    pub fn bandwidth(&self) -> f64 {
        self.bandwidth
    }

    /// The smoothing kernel.
    pub fn kernel(&self) -> SmoothingKernel {
        self.kernel
    }

    /// Mean, `ln W` and `score` at every candidate: one engine call, `rows · t` kernel terms.
    pub fn evaluate(
        &self,
        engine: &dyn Engine,
        candidates: &Points,
        score: Score,
    ) -> Result<Vec<Evaluation>, EngineError> {
        let kr = engine.kernel_regression(
            self.data,
            self.targets,
            self.kernel,
            self.bandwidth,
            candidates,
        )?;
        Ok(kr
            .mean
            .iter()
            .zip(&kr.log_weight_sum)
            .map(|(&mean, &log_w)| Evaluation {
                mean,
                log_weight_sum: log_w,
                score: score_of(score, mean, log_w),
            })
            .collect())
    }

    /// The score and its gradient at `u` (Gaussian kernel only), from the stable
    /// log-sum-exp weights `ω_i = e_i / S`:
    /// `∇m = −(1/h²) Σ ω_i (y_i − m)(u − u_i)`, `∇σ̂ = (σ̂ / 2h²) Σ ω_i (u − u_i)`,
    /// `∇(−ln W) = (1/h²) Σ ω_i (u − u_i)`.
    pub fn score_gradient(&self, u: &[f64], score: Score) -> (f64, Vec<f64>) {
        let inv_h2 = 1.0 / (self.bandwidth * self.bandwidth);
        let logs: Vec<f64> = self
            .data
            .iter()
            .map(|x| -0.5 * inv_h2 * sq_dist(u, x))
            .collect();
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = logs.iter().map(|s| (s - top).exp()).collect();
        let sum: f64 = weights.iter().sum();
        let mean = weights
            .iter()
            .zip(self.targets)
            .map(|(w, y)| w * y)
            .sum::<f64>()
            / sum;
        let log_w = top + sum.ln();
        let dim = u.len();
        // Σ ω_i (u − u_i) and Σ ω_i (y_i − m)(u − u_i).
        let mut spread = vec![0.0; dim];
        let mut tilt = vec![0.0; dim];
        for ((x, w), y) in self.data.iter().zip(&weights).zip(self.targets) {
            let omega = w / sum;
            for j in 0..dim {
                let diff = u[j] - x[j];
                spread[j] += omega * diff;
                tilt[j] += omega * (y - mean) * diff;
            }
        }
        let value = score_of(score, mean, log_w);
        let gradient = match score {
            Score::Mean => tilt.iter().map(|v| -inv_h2 * v).collect(),
            Score::Density => spread.iter().map(|v| inv_h2 * v).collect(),
            Score::Ikr { sqrt_beta } => {
                let sigma = exploration(log_w);
                (0..dim)
                    .map(|j| -inv_h2 * tilt[j] + sqrt_beta * sigma * 0.5 * inv_h2 * spread[j])
                    .collect()
            }
        };
        (value, gradient)
    }
}

/// `σ̂ = exp(−½ ln W)`, with `ln σ̂` clamped at `MAX_LOG_SIGMA`; `+∞` where `W = 0`.
pub fn exploration(log_weight_sum: f64) -> f64 {
    if log_weight_sum == f64::NEG_INFINITY {
        f64::INFINITY
    } else {
        (-0.5 * log_weight_sum).min(MAX_LOG_SIGMA).exp()
    }
}

fn score_of(score: Score, mean: f64, log_w: f64) -> f64 {
    match score {
        Score::Mean => mean,
        Score::Density => -log_w,
        Score::Ikr { sqrt_beta } => {
            let sigma = exploration(log_w);
            if sigma.is_infinite() {
                f64::INFINITY
            } else {
                mean + sqrt_beta * sigma
            }
        }
    }
}

pub(super) fn sq_dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}
