//! The exploration weight β_t of IKR-UCB (Zhu et al. 2025, Theorems 4.10 and 4.13) and its
//! noise scale ς_t.
//! The bandwidth schedules live in [`bosweep_model::BandwidthSchedule`].

use std::f64::consts::PI;

/// `M_Ψ = sup Ψ`: 1 for the Gaussian, Epanechnikov and uniform kernels.
const KERNEL_SUP: f64 = 1.0;

/// How β_t grows with the number of observations t.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BetaRule {
    /// `β_t = 2ς² M_Ψ ln(2π² t² / (3δ))` (Theorem 4.13; the paper's experiments).
    GeneralSet {
        /// Confidence δ of the bound.
        delta: f64,
    },
    /// `β_t = 4ς² M_Ψ ln t` (Theorem 4.10, finite decision sets).
    FiniteSet,
}

impl BetaRule {
    /// β_t for noise scale `varsigma`.
    pub fn beta(self, t: usize, varsigma: f64) -> f64 {
        let t = t as f64;
        let s2 = varsigma * varsigma * KERNEL_SUP;
        match self {
            Self::GeneralSet { delta } => 2.0 * s2 * (2.0 * PI * PI * t * t / (3.0 * delta)).ln(),
            Self::FiniteSet => 4.0 * s2 * t.ln(),
        }
    }
}

/// The proposed sub-Gaussian scale `ς_t = κ · sd(y)` (population sd; 1 in place of the sd when
/// it is 0 or t < 2). Scaling ς with the data makes BOKE invariant to affine changes of the
/// objective and keeps exploration alive on noise-free problems, where the literal ς = 0 would
/// switch it off.
pub fn exploration_scale(ys: &[f64], kappa: f64) -> f64 {
    let n = ys.len() as f64;
    if ys.len() < 2 {
        return kappa;
    }
    let mean = ys.iter().sum::<f64>() / n;
    let sd = (ys.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / n).sqrt();
    kappa * if sd > 0.0 { sd } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::{BetaRule, exploration_scale};

    /// Reference values of both schedules with ς = 1, δ = 0.1.
    #[test]
    fn beta_schedules_match_the_reference_values() {
        let general = BetaRule::GeneralSet { delta: 0.1 };
        for (t, want) in [
            (5, 14.8109111629),
            (10, 17.5834998851),
            (100, 26.7938402571),
        ] {
            assert!((general.beta(t, 1.0) - want).abs() < 1e-9, "t = {t}");
        }
        for (t, want) in [(5, 6.4377516497), (10, 9.2103403720), (100, 18.4206807440)] {
            assert!(
                (BetaRule::FiniteSet.beta(t, 1.0) - want).abs() < 1e-9,
                "t = {t}"
            );
        }
        assert!((general.beta(10, 0.3) - 0.09 * 17.5834998851).abs() < 1e-9);
    }

    #[test]
    fn scale_is_kappa_times_population_sd() {
        assert_eq!(exploration_scale(&[2.0], 0.3), 0.3);
        assert_eq!(exploration_scale(&[2.0, 2.0, 2.0], 0.3), 0.3);
        // {1, 3}: population sd 1; {0, 4}: 2.
        assert!((exploration_scale(&[1.0, 3.0], 0.3) - 0.3).abs() < 1e-15);
        assert!((exploration_scale(&[0.0, 4.0], 0.5) - 1.0).abs() < 1e-15);
    }
}
