//! A stand-in for the portfolio problem of Huang et al. (2024, SBO-KDE), §4.3.
//!
//! The paper's objective is the posterior mean of a GP fitted to 3 000 runs of the CVXPortfolio
//! simulator (BoRisk's `portfolio`), shipped only as a PyTorch state dict that is not available
//! here (exporting its data and hyperparameters would need that file). This
//! stand-in keeps the problem's variables and character: a single-period trading policy whose
//! three decisions are the policy's risk-aversion, trade-aversion and holding-cost multipliers, and
//! whose two contexts are the market's bid-ask spread and borrowing cost, all scaled to [0, 1]:
//!
//! - `γ_risk = 10^{2x₁−1}`, `γ_trade = 10^{2x₂−1}`, `γ_hold = 10^{2x₃−1}` (each in [0.1, 10]);
//! - spread `s = 0.05 + 0.45 c₁`, borrow cost `b = 0.02 + 0.18 c₂` (percent per unit of weight);
//! - for each of eight assets with true expected return `μ_i`, forecast `μ̂_i = μ_i + e_i`,
//!   volatility `σ_i` and current weight `w⁰_i` (percent units), the policy trades to
//!   `w_i = argmax_w μ̂_i w − γ_risk σ_i² w² − γ_trade s |w − w⁰_i| − γ_hold b max(0, −w)`
//!   (concave, piecewise quadratic: the maximiser is a breakpoint or a stationary point of one
//!   piece, all evaluated in closed form);
//! - the simulated outcome is the realised mean-variance utility after costs, in basis points:
//!   `f = 100 Σ_i [μ_i w_i − ½ σ_i² w_i² − s |w_i − w⁰_i| − b max(0, −w_i)]`.
//!
//! The forecast errors make the best multipliers differ from the "honest" ones and depend on
//! the costs, so the context matters. Everything is deterministic and generated in code.

/// `(μ_i, e_i, σ_i, w⁰_i)`: true return (percent per period), forecast error, volatility
/// (percent), current weight.
const ASSETS: [(f64, f64, f64, f64); 8] = [
    (1.2, 0.4, 4.0, 0.10),
    (0.9, -0.3, 3.0, 0.20),
    (0.7, 0.5, 3.5, 0.05),
    (0.5, -0.2, 2.0, 0.15),
    (0.3, 0.3, 2.5, 0.20),
    (0.1, -0.4, 1.5, 0.10),
    (-0.2, 0.3, 2.0, 0.10),
    (-0.4, -0.3, 3.0, 0.10),
];

/// The policy's multipliers for decision `x ∈ [0, 1]³`.
fn multipliers(x: &[f64]) -> [f64; 3] {
    std::array::from_fn(|i| 10f64.powf(2.0 * x[i] - 1.0))
}

/// The spread and borrow cost for context `c ∈ [0, 1]²`.
pub fn costs(c: &[f64]) -> (f64, f64) {
    (0.05 + 0.45 * c[0], 0.02 + 0.18 * c[1])
}

/// The policy's trade for one asset: the maximiser of the concave piecewise quadratic
/// `μ̂ w − a w² − t |w − w⁰| − h max(0, −w)` (a > 0, t, h ≥ 0).
fn policy_weight(forecast: f64, a: f64, t: f64, h: f64, current: f64) -> f64 {
    let planned = |w: f64| forecast * w - a * w * w - t * (w - current).abs() - h * (-w).max(0.0);
    let mut best = current;
    let mut best_value = planned(current);
    for candidate in [
        0.0,
        (forecast - t) / (2.0 * a),
        (forecast + t) / (2.0 * a),
        (forecast - t + h) / (2.0 * a),
        (forecast + t + h) / (2.0 * a),
    ] {
        let value = planned(candidate);
        if value > best_value {
            (best, best_value) = (candidate, value);
        }
    }
    best
}

/// `f(x, c)`: the realised utility (basis points) of the policy `x` in the market `c`.
pub fn portfolio_value(x: &[f64], c: &[f64]) -> f64 {
    let [risk, trade, hold] = multipliers(x);
    let (spread, borrow) = costs(c);
    100.0
        * ASSETS
            .iter()
            .map(|&(mu, error, sigma, current)| {
                let var = sigma * sigma;
                let w = policy_weight(
                    mu + error,
                    risk * var,
                    trade * spread,
                    hold * borrow,
                    current,
                );
                mu * w - 0.5 * var * w * w - spread * (w - current).abs() - borrow * (-w).max(0.0)
            })
            .sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_maximises_its_planning_objective() {
        let planned = |w: f64, f: f64, a: f64, t: f64, h: f64, w0: f64| {
            f * w - a * w * w - t * (w - w0).abs() - h * (-w).max(0.0)
        };
        for &(f, a, t, h, w0) in &[
            (1.0, 2.0, 0.1, 0.05, 0.2),
            (-0.5, 1.0, 0.3, 0.5, 0.1),
            (0.2, 5.0, 2.0, 0.0, -0.1),
            (-1.0, 0.5, 0.01, 0.01, 0.0),
        ] {
            let w = policy_weight(f, a, t, h, w0);
            let best = planned(w, f, a, t, h, w0);
            for k in -2000..=2000 {
                let v = k as f64 / 1000.0;
                assert!(
                    planned(v, f, a, t, h, w0) <= best + 1e-12,
                    "{f} {a} {t} {h} {w0}"
                );
            }
        }
    }

    #[test]
    fn honest_costless_policy_is_the_mean_variance_optimum() {
        // With γ_risk = ½ (x₁ = log₁₀(5)/2), no forecast error and no costs the policy would be
        // μ/σ²; check the closed form on one asset.
        let w = policy_weight(1.2, 0.5 * 16.0, 0.0, 0.0, 0.1);
        assert!((w - 1.2 / 16.0).abs() < 1e-15);
    }
}
