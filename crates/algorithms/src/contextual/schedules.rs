//! The radius and β schedules and the KDE bandwidth rule of SBO-KDE and DRBO-KDE (Huang et al.,
//! AAAI 2024) and of DRBO-MMD (Kirschner et al. 2020).

use bosweep_engine::Points;
use bosweep_model::BandwidthRule;

/// DRBO-KDE's L1 radius `δ = n^{−2/(4+Dc)}` for `n` observed contexts (Huang et al.'s
/// `t^{−2/(4+Dc)}` with their code's n = t − 1).
pub fn kde_l1_radius(n: usize, context_dim: usize) -> f64 {
    (n as f64).powf(-2.0 / (4.0 + context_dim as f64))
}

/// DRBO-MMD's radius `(2 + √(2 ln(1/γ)))/√t` with γ = 0.1 (Kirschner et al. 2020).
pub fn mmd_radius(t: usize) -> f64 {
    (2.0 + (2.0 * (1.0f64 / 0.1).ln()).sqrt()) / (t as f64).sqrt()
}

/// The β_t Huang et al.'s regret bounds need (their Theorems 1 and 2):
/// `2 ln(t²/√(2π)) + 2 Dx ln(t² Dx a b r √π / 2)`.
pub fn theory_beta(t: usize, decision_dim: usize, a: f64, b: f64, r: f64) -> f64 {
    let t2 = (t as f64).powi(2);
    let dx = decision_dim as f64;
    2.0 * (t2 / (2.0 * std::f64::consts::PI).sqrt()).ln()
        + 2.0 * dx * (t2 * dx * a * b * r * std::f64::consts::PI.sqrt() / 2.0).ln()
}

/// Per-coordinate KDE bandwidths `c(Dc) σ̂_d n^{−1/(Dc+4)}` (σ̂ with ddof = 0), floored at
/// `1e-6 (hi − lo)` so that coinciding contexts (e.g. many draws clipped to one bound) still give
/// a valid KDE (Huang et al. 2024, Eq. 2).
pub fn kde_bandwidths(rule: BandwidthRule, contexts: &Points, lo: f64, hi: f64) -> Vec<f64> {
    let n = contexts.rows().max(1) as f64;
    let dim = contexts.dim();
    let factor = rule.constant(dim) * n.powf(-1.0 / (dim as f64 + 4.0));
    (0..dim)
        .map(|d| {
            let mean = contexts.iter().map(|r| r[d]).sum::<f64>() / n;
            let var = contexts.iter().map(|r| (r[d] - mean).powi(2)).sum::<f64>() / n;
            (factor * var.sqrt()).max(1e-6 * (hi - lo))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// T12.
    #[test]
    fn schedule_values_match_hand_computed_values() {
        assert!((kde_l1_radius(10, 1) - 0.398107).abs() < 1e-6);
        assert!((kde_l1_radius(100, 1) - 0.158489).abs() < 1e-6);
        assert!((kde_l1_radius(10, 2) - 0.464159).abs() < 1e-6);
        assert!((mmd_radius(100) - 0.414597).abs() < 1e-6);
        assert!((theory_beta(10, 2, 1.0, 1.0, 1.0) - 28.0826).abs() < 1e-4);
        assert!((theory_beta(350, 2, 1.0, 1.0, 1.0) - 70.7468).abs() < 1e-4);
    }

    /// T1, T2 bandwidths.
    #[test]
    fn bandwidths_match_hand_computed_values() {
        let c1 = Points::new(vec![0.2, 0.4, 0.6, 0.8], 1).unwrap();
        let h = kde_bandwidths(BandwidthRule::Silverman, &c1, 0.0, 1.0);
        assert!((h[0] - 0.179498).abs() < 1e-6, "{h:?}");
        let c2 = Points::new(vec![0.1, 0.9, 0.3, 0.5, 0.5, 0.5, 0.7, 0.1, 0.9, 0.5], 2).unwrap();
        let h = kde_bandwidths(BandwidthRule::Silverman, &c2, 0.0, 1.0);
        assert!(
            (h[0] - 0.216297).abs() < 1e-6 && (h[1] - 0.193462).abs() < 1e-6,
            "{h:?}"
        );
        let same = Points::new(vec![1.0, 1.0, 1.0], 1).unwrap();
        assert_eq!(
            kde_bandwidths(BandwidthRule::Silverman, &same, 0.0, 1.0),
            vec![1e-6]
        );
    }
}
