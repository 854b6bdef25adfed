//! UHE-BO's iteration pairs (Algorithm 1): the EXP3 schedule over pairs and the
//! nearest-neighbour pseudo-labels of its proposal.

use bosweep_engine::{Engine, EngineError, Points};
use bosweep_toolkit::{Exp3, exp3_gamma};

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
    /// Equal weights on both arms, no pair started.
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
