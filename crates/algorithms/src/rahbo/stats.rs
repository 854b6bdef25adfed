//! The arithmetic of RAHBO (Makarova et al., NeurIPS 2021, Sections 2–3: Eqs. 5–16 and
//! Lemma 1) as small pure functions, so that each formula is tested against hand-computed
//! values on its own.

use bosweep_model::GpState;

/// Sample mean and unbiased sample variance of `k ≥ 2` repeated evaluations (Eq. 12).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleStats {
    /// Sample mean `m̂`.
    pub mean: f64,
    /// Unbiased sample variance `ŝ²`.
    pub variance: f64,
}

impl SampleStats {
    /// `None` for fewer than two values (the sample variance is undefined).
    pub fn of(values: &[f64]) -> Option<Self> {
        let k = values.len();
        if k < 2 {
            return None;
        }
        let mean = values.iter().sum::<f64>() / k as f64;
        let variance = values.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
        Some(Self { mean, variance })
    }
}

/// The pairwise form of the sample variance, `Σ_i Σ_j (y_i − y_j)² / (2k(k−1))` (Eq. 29–31).
pub fn pairwise_sample_variance(values: &[f64]) -> Option<f64> {
    let k = values.len();
    if k < 2 {
        return None;
    }
    let sum: f64 = values
        .iter()
        .flat_map(|a| values.iter().map(move |b| (a - b).powi(2)))
        .sum();
    Some(sum / (2.0 * k as f64 * (k - 1) as f64))
}

/// One entry of the plug-in noise matrix `Σ̂` (Eq. 16 with a floor that keeps it positive):
/// `clip(ucb^var, rho2_min, rho2_max) / k`.
pub fn plug_in_noise(ucb_var: f64, k: usize, rho2_min: f64, rho2_max: f64) -> f64 {
    ucb_var.max(rho2_min).min(rho2_max) / k as f64
}

/// The conservative variance-GP noise `ρ²_η = 2ϱ̄⁴/(k−1)` (App. A.2), for `k ≥ 2`.
pub fn conservative_variance_noise(rho2_max: f64, k: usize) -> f64 {
    2.0 * rho2_max * rho2_max / (k as f64 - 1.0)
}

/// `ln det(K + λΣ) − Σ_i ln(λΣ_ii)`, the data term of Lemma 1, from the stored factor
/// (`ln det(K + λΣ) = −2 Σ ln (L⁻¹)_ii`). Every `Σ_ii` must be positive.
pub fn information_log_ratio(state: &GpState) -> f64 {
    let n = state.targets().len();
    let log_det: f64 = -2.0 * (0..n).map(|i| state.linv()[(i, i)].ln()).sum::<f64>();
    let noise_log: f64 = (0..n)
        .map(|i| {
            let v = match state.noise() {
                bosweep_model::Noise::Homoscedastic(v) => *v,
                bosweep_model::Noise::PerPoint(v) => v[i],
            };
            (state.lambda() * v).ln()
        })
        .sum();
    log_det - noise_log
}

/// The theoretical confidence multiplier of Lemma 1:
/// `β = sqrt(2 ln(1/δ) + ln det(K + λΣ) − Σ ln(λΣ_ii)) + sqrt(λ)·B`, computed from exactly the
/// data inside the posterior it multiplies (Lemma 1 pairs `t` points with `σ_{t−1}`).
pub fn theory_beta(state: &GpState, delta: f64, norm_bound: f64) -> f64 {
    let ratio = information_log_ratio(state);
    (2.0 * (1.0 / delta).ln() + ratio).max(0.0).sqrt() + state.lambda().sqrt() * norm_bound
}

/// Confidence bounds of one point: `(lower, upper)` of `μ ∓ β·σ`.
pub fn bounds(mean: f64, variance: f64, beta: f64) -> (f64, f64) {
    let s = variance.max(0.0).sqrt();
    (mean - beta * s, mean + beta * s)
}

/// The mean-variance bounds of Alg. 1 and Eq. 37–38, from the bounds of `f` and of `ρ²`:
/// `ucb^MV = ucb^f − α·lcb^var` (the acquisition) and `lcb^MV = lcb^f − α·ucb^var`.
pub fn mean_variance_bounds(f: (f64, f64), var: (f64, f64), alpha: f64) -> (f64, f64) {
    (f.0 - alpha * var.1, f.1 - alpha * var.0)
}
