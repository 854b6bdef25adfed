//! `cos` for the random-feature phases of sample paths: inlinable and branch-free, so that the
//! CPU backend's phase loop vectorises as its kernel profiles do (libm's `cos` is a call per
//! value, and made three quarters of a sample-path evaluation).

/// Phases beyond this magnitude take libm's `cos`: below it `k = round(2x/π) < 2^20`, so the
/// reduction's products `k · part` are exact.
pub(super) const COS_LIMIT: f64 = 1e6;

/// `cos x` for `|x| ≤ COS_LIMIT`: `x = k π/2 + r`, `k` rounded by adding 1.5·2^52 (whose low
/// mantissa bits then hold `k mod 4`), `r` by Cody–Waite with π/2 in three parts (fdlibm's,
/// the first two of 33 bits), `|r| ≤ π/4`; then `cos r` or `sin r` by their Taylor
/// polynomials in `r²` (degrees 16 and 17, truncation below 1e-17 there), chosen and signed by
/// `k mod 4`. Within a few ulp of libm. No fused multiply-add, so every instruction set rounds
/// alike.
#[inline(always)]
pub(super) fn cos(x: f64) -> f64 {
    const PIO2_1: f64 = 1.570_796_326_734_125_6;
    const PIO2_2: f64 = 6.077_100_506_303_966e-11;
    const PIO2_3: f64 = 2.022_266_248_711_166_5e-21;
    const SHIFTER: f64 = 6_755_399_441_055_744.0;
    // (−1)^i / (2i)! and (−1)^i / (2i + 1)! for i = 0..=8.
    const C: [f64; 9] = [
        1.0,
        -1.0 / 2.0,
        1.0 / 24.0,
        -1.0 / 720.0,
        1.0 / 40_320.0,
        -1.0 / 3_628_800.0,
        1.0 / 479_001_600.0,
        -1.0 / 87_178_291_200.0,
        1.0 / 20_922_789_888_000.0,
    ];
    const S: [f64; 9] = [
        1.0,
        -1.0 / 6.0,
        1.0 / 120.0,
        -1.0 / 5_040.0,
        1.0 / 362_880.0,
        -1.0 / 39_916_800.0,
        1.0 / 6_227_020_800.0,
        -1.0 / 1_307_674_368_000.0,
        1.0 / 355_687_428_096_000.0,
    ];
    let t = x * std::f64::consts::FRAC_2_PI + SHIFTER;
    let k = t - SHIFTER;
    let quadrant = t.to_bits() & 3;
    let r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
    let r2 = r * r;
    let mut c = C[8];
    let mut s = S[8];
    for i in (0..8).rev() {
        c = c * r2 + C[i];
        s = s * r2 + S[i];
    }
    let s = s * r;
    let value = if quadrant & 1 == 0 { c } else { s };
    if (quadrant + 1) & 2 == 0 {
        value
    } else {
        -value
    }
}

#[cfg(test)]
mod tests {
    use super::{COS_LIMIT, cos};

    #[test]
    fn cos_matches_libm_to_a_few_ulp() {
        let mut worst: f64 = 0.0;
        for i in 0..400_000 {
            let u = i as f64 / 400_000.0;
            // Dense near 0, up to the limit, both signs.
            let x = (if i % 2 == 0 { 1.0 } else { -1.0 }) * COS_LIMIT * u.powi(4);
            worst = worst.max((cos(x) - x.cos()).abs());
        }
        assert!(worst < 1e-15, "worst absolute error {worst:e}");
        assert_eq!(cos(0.0), 1.0);
        assert!((cos(std::f64::consts::PI) + 1.0).abs() < 1e-16);
    }
}
