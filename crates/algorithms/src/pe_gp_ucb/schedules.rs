//! The confidence parameters of Theorem 4.1 (Ziomek, Adachi and Osborne, AISTATS 2025),
//! finite-domain case.
//! δ is split equally between the GP confidence bounds and the noise concentration.

use std::f64::consts::PI;

/// `β_t = √(2 ln(T |X| π² t² / (3δ)))`: the multiplier of σ itself (already a square root).
/// `horizon` is T, `domain_size` the size |X| of the **full** domain.
pub fn beta(horizon: usize, domain_size: usize, delta: f64, t: usize) -> f64 {
    let t = t as f64;
    (2.0 * (horizon as f64 * domain_size as f64 * PI * PI * t * t / (3.0 * delta)).ln()).sqrt()
}

/// `ξ_t = 2R² ln(|U| π² t² / (3δ))` with `|U|` the **initial** number of priors; with `strict`,
/// `2R² ln(2|U| π² t² / (3δ))`, which restores the factor 2 the proof of Lemma 5.1 drops.
pub fn xi(num_priors: usize, noise_std: f64, delta: f64, t: usize, strict: bool) -> f64 {
    let t = t as f64;
    let factor = if strict { 2.0 } else { 1.0 };
    2.0 * noise_std
        * noise_std
        * (factor * num_priors as f64 * PI * PI * t * t / (3.0 * delta)).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference values of case T5, and the schedules of case T6, by hand.
    ///
    /// ```text
    /// β_t = √(2 ln(T|X|π²t²/(3δ))), δ = 0.1 (3δ = 0.3), π² = 9.8696044:
    ///   T = 100, |X| = 200, t = 1:    ln(20 000π²/0.3) = ln 657 973.63 = 13.396920 → 5.176276679
    ///   T = 100, |X| = 200, t = 100:  13.396920 + ln 100² = 22.607261          → 6.724174373
    ///   T = 144, |X| = 54, t = 1:     ln(7 776π²/0.3) = ln 255 820.15 = 12.452230 → 4.990436839
    ///   T = 144, |X| = 54, t = 144:   12.452230 + ln 144² = 22.391857          → 6.692063437
    ///   T = 10, |X| = 2, t = 1:       ln(20π²/0.3) = ln 657.97 = 6.489165      → 3.602544892
    /// ξ_t = 2R² ln(f|U|π²t²/(3δ)), R = 0.1 (2R² = 0.02), f = 2 when strict, else 1:
    ///   |U| = 11, t = 1:              0.02 ln(11π²/0.3) = 0.02 ln 361.885     → 0.117826557
    ///   |U| = 11, t = 100:            0.02 ln(361.885 · 100²)                 → 0.302033364
    ///   |U| = 11, t = 1, strict:      0.02 ln(2 · 361.885)                    → 0.131689501
    ///   |U| = 2, t = 1:               0.02 ln(2π²/0.3) = 0.02 ln 65.797       → 0.083731595
    /// ```
    #[test]
    fn reference_values() {
        assert!((beta(100, 200, 0.1, 1) - 5.176276679).abs() < 1e-9);
        assert!((beta(100, 200, 0.1, 100) - 6.724174373).abs() < 1e-9);
        assert!((beta(144, 54, 0.1, 1) - 4.990436839).abs() < 1e-9);
        assert!((beta(144, 54, 0.1, 144) - 6.692063437).abs() < 1e-9);
        assert!((xi(11, 0.1, 0.1, 1, false) - 0.117826557).abs() < 1e-9);
        assert!((xi(11, 0.1, 0.1, 100, false) - 0.302033364).abs() < 1e-9);
        assert!((xi(11, 0.1, 0.1, 1, true) - 0.131689501).abs() < 1e-9);
        assert!((beta(10, 2, 0.1, 1) - 3.602544892).abs() < 1e-9);
        assert!((xi(2, 0.1, 0.1, 1, false) - 0.083731595).abs() < 1e-9);
    }
}
