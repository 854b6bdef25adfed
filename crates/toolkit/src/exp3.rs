//! EXP3 (Auer, Cesa-Bianchi, Freund & Schapire 2002), the adversarial bandit UHE-BO runs over
//! iteration pairs and Portfolio over acquisitions (Ha, Nguyen, Zhang & van den Hengel 2023,
//! arXiv:2306.06844, App. A.4, Algorithm 2), as a small reusable component.
//!
//! Weights are kept as log-weights `ℓw^m = ln ω^m` and the probabilities renormalise them with
//! the largest one subtracted, so long runs with large rewards never overflow.

use rand::{Rng, RngExt};

/// The standard EXP3 tuning `γ = sqrt(K ln K / ((e − 1) g))` for `K` arms and a bound `g` on the
/// total reward (UHE-BO uses `g = t/2` rounds; see `bosweep_algorithms::uhe_gamma`). Not clamped.
pub fn exp3_gamma(arms: usize, g: f64) -> f64 {
    let k = arms as f64;
    (k * k.ln() / ((std::f64::consts::E - 1.0) * g)).sqrt()
}

/// The state of EXP3: one log-weight per arm (arms are 0-based here).
#[derive(Clone, Debug, PartialEq)]
pub struct Exp3 {
    log_weights: Vec<f64>,
}

impl Exp3 {
    /// `arms` arms with equal weights `ω_0^m = 1`. Panics on zero arms (a caller's bug).
    pub fn new(arms: usize) -> Self {
        assert!(arms > 0, "EXP3 needs at least one arm");
        Self {
            log_weights: vec![0.0; arms],
        }
    }

    /// The number of arms `K`.
    pub fn arms(&self) -> usize {
        self.log_weights.len()
    }

    /// `ℓw^m = ln ω^m`.
    pub fn log_weights(&self) -> &[f64] {
        &self.log_weights
    }

    /// `ω^m`.
    pub fn weights(&self) -> Vec<f64> {
        self.log_weights.iter().map(|w| w.exp()).collect()
    }

    /// `p^m = (1 − γ) ω^m / Σ_j ω^j + γ / K`, exactly as written (no clamping of `γ`; callers
    /// clamp to `(0, 1]` where they need a proper mixture).
    pub fn probabilities(&self, gamma: f64) -> Vec<f64> {
        let k = self.arms() as f64;
        let max = self
            .log_weights
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let q: Vec<f64> = self.log_weights.iter().map(|w| (w - max).exp()).collect();
        let sum: f64 = q.iter().sum();
        q.iter()
            .map(|q| (1.0 - gamma) * q / sum + gamma / k)
            .collect()
    }

    /// Draws an arm from `probabilities` with one uniform number from `rng` (inverse CDF; the
    /// last arm absorbs rounding).
    pub fn draw<R: Rng + ?Sized>(probabilities: &[f64], rng: &mut R) -> usize {
        let total: f64 = probabilities.iter().sum();
        let u = rng.random::<f64>() * total;
        let mut cumulative = 0.0;
        for (m, p) in probabilities.iter().enumerate() {
            cumulative += p;
            if u < cumulative {
                return m;
            }
        }
        probabilities.len().saturating_sub(1)
    }

    /// The importance-weighted update of the pulled arm: `r̂ = reward / probability`,
    /// `ω^arm ← ω^arm · exp(γ r̂ / K)`; the other arms are unchanged.
    pub fn update(&mut self, arm: usize, gamma: f64, reward: f64, probability: f64) {
        let k = self.arms() as f64;
        self.log_weights[arm] += gamma * (reward / probability) / k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn probabilities_mix_the_normalised_weights_with_the_uniform() {
        let mut e = Exp3::new(3);
        assert_eq!(e.probabilities(0.3), vec![1.0 / 3.0; 3]);
        e.update(0, 0.3, 1.0, 0.5);
        // ℓw⁰ = 0.3·2/3 = 0.2
        assert!((e.log_weights()[0] - 0.2).abs() < 1e-15);
        let p = e.probabilities(0.3);
        let w0 = 0.2f64.exp();
        assert!((p[0] - (0.7 * w0 / (w0 + 2.0) + 0.1)).abs() < 1e-15);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn draws_follow_the_probabilities() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let p = [0.2, 0.8];
        let n = 20_000;
        let ones = (0..n).filter(|_| Exp3::draw(&p, &mut rng) == 1).count();
        assert!((ones as f64 / n as f64 - 0.8).abs() < 0.02);
        assert_eq!(Exp3::draw(&[1.0, 0.0], &mut rng), 0);
        assert_eq!(Exp3::draw(&[0.0, 1.0], &mut rng), 1);
    }

    #[test]
    fn gamma_tuning() {
        // K = 2, g = 1: sqrt(2 ln 2 / (e − 1))
        let g = exp3_gamma(2, 1.0);
        assert!((g - (2.0 * 2f64.ln() / (std::f64::consts::E - 1.0)).sqrt()).abs() < 1e-15);
    }
}
