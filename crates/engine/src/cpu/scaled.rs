//! Kernel rows against a fixed training set: the CPU backend's innermost loop.
//!
//! The training points are stored divided by the lengthscales and dimension-major, so the
//! distance pass runs one long contiguous loop per dimension, and the profile pass is one
//! branch-free loop per kernel kind with an inlined `exp`; both auto-vectorise.

use super::simd::vectorized;
use crate::Points;
use bosweep_model::{Kernel, KernelKind, TimeDecay};

/// A kernel bound to its training points, ready to fill rows `k(x, X)`.
pub struct KernelRows<'a> {
    kind: KernelKind,
    signal_variance: f64,
    inv_lengthscales: Vec<f64>,
    decay: Option<TimeDecay>,
    /// Scaled spatial coordinates, dimension-major: `scaled[d * n + j] = X[j, d] / ℓ_d`.
    scaled: Vec<f64>,
    train: &'a Points,
}

impl<'a> KernelRows<'a> {
    pub fn new(kernel: &Kernel, train: &'a Points) -> Self {
        let inv_lengthscales: Vec<f64> = kernel.lengthscales().iter().map(|l| 1.0 / l).collect();
        let scaled = inv_lengthscales
            .iter()
            .enumerate()
            .flat_map(|(d, il)| train.iter().map(move |row| row[d] * il))
            .collect();
        Self {
            kind: kernel.kind(),
            signal_variance: kernel.signal_variance(),
            inv_lengthscales,
            decay: kernel.time_decay(),
            scaled,
            train,
        }
    }

    /// Writes `k(x, X_j)` for every training point `j` into `out` (length `X.rows()`), with the
    /// widest SIMD the processor offers (the loops are the same; only the instruction set
    /// differs, so results agree to rounding).
    pub fn fill(&self, x: &[f64], out: &mut [f64]) {
        vectorized(
            #[inline(always)]
            || self.fill_portable(x, out),
        )
    }

    #[inline(always)]
    fn fill_portable(&self, x: &[f64], out: &mut [f64]) {
        let n = out.len();
        out.fill(0.0);
        for ((xd, il), column) in x
            .iter()
            .zip(&self.inv_lengthscales)
            .zip(self.scaled.chunks_exact(n.max(1)))
        {
            let xs = xd * il;
            for (o, t) in out.iter_mut().zip(column) {
                let z = xs - t;
                *o += z * z;
            }
        }
        apply_profile(self.kind, self.signal_variance, out);
        if let Some(decay) = self.decay {
            let t = self.inv_lengthscales.len();
            for (j, o) in out.iter_mut().enumerate() {
                *o *= decay.factor(x[t] - self.train.row(j)[t]);
            }
        }
    }
}

/// Replaces each scaled squared distance in `values` by `s² ψ(r²)`.
#[inline(always)]
pub(super) fn apply_profile(kind: KernelKind, s2: f64, values: &mut [f64]) {
    match kind {
        KernelKind::SquaredExponential => values.iter_mut().for_each(|v| *v = s2 * exp(-0.5 * *v)),
        KernelKind::Matern12 => values.iter_mut().for_each(|v| *v = s2 * exp(-v.sqrt())),
        KernelKind::Matern32 => values.iter_mut().for_each(|v| {
            let s = (3.0 * v.min(KernelKind::MAX_SCALED_SQ_DISTANCE)).sqrt();
            *v = s2 * (1.0 + s) * exp(-s);
        }),
        KernelKind::Matern52 => values.iter_mut().for_each(|v| {
            *v = v.min(KernelKind::MAX_SCALED_SQ_DISTANCE);
            let s = (5.0 * *v).sqrt();
            *v = s2 * (1.0 + s + 5.0 * *v / 3.0) * exp(-s);
        }),
        rq @ KernelKind::RationalQuadratic { .. } => {
            values.iter_mut().for_each(|v| *v = s2 * rq.profile(*v))
        }
    }
}

/// `eˣ` for `x ≤ 0` (the kernels' range), inlinable and branch-free so that the profile loops
/// vectorise: Cody–Waite reduction `x = k ln2 + r`, `|r| ≤ ln2/2`, a degree-13 Taylor polynomial
/// (truncation below 1e-17), and `2^k` assembled from its exponent bits. Within 2 ulp of libm;
/// values below e^-708 flush to 0.
///
/// The polynomial is evaluated by Estrin's scheme (pairs, then powers r², r⁴, r⁸): eight
/// dependent steps instead of Horner's twenty-six, so a vector of pairs is not waiting on one
/// long chain of adds (there is no fused multiply-add here: the portable and SIMD paths must
/// round alike).
#[inline(always)]
pub(super) fn exp(x: f64) -> f64 {
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    // 1.5 · 2^52: adding it rounds to an integer held in the low mantissa bits.
    const SHIFTER: f64 = 6_755_399_441_055_744.0;
    // 1/i! for i = 0..=13.
    const C: [f64; 14] = [
        1.0,
        1.0,
        0.5,
        1.0 / 6.0,
        1.0 / 24.0,
        1.0 / 120.0,
        1.0 / 720.0,
        1.0 / 5_040.0,
        1.0 / 40_320.0,
        1.0 / 362_880.0,
        1.0 / 3_628_800.0,
        1.0 / 39_916_800.0,
        1.0 / 479_001_600.0,
        1.0 / 6_227_020_800.0,
    ];
    let xc = x.max(-708.0);
    let t = xc * LOG2E + SHIFTER;
    let k = t - SHIFTER;
    let r = (xc - k * LN2_HI) - k * LN2_LO;
    let r2 = r * r;
    let r4 = r2 * r2;
    let r8 = r4 * r4;
    let pair = |i: usize| C[i] + C[i + 1] * r;
    let low = (pair(0) + pair(2) * r2) + (pair(4) + pair(6) * r2) * r4;
    let high = (pair(8) + pair(10) * r2) + pair(12) * r4;
    let p = low + high * r8;
    let ki = (t.to_bits() as i64).wrapping_sub(SHIFTER.to_bits() as i64);
    let scale = f64::from_bits(((ki + 1023) as u64) << 52);
    if x < -708.0 { 0.0 } else { p * scale }
}

#[cfg(test)]
mod tests {
    use super::exp;

    #[test]
    fn inline_exp_matches_libm_to_two_ulp() {
        let mut worst: f64 = 0.0;
        for i in 0..200_000 {
            let x = -700.0 * (i as f64 / 200_000.0).powi(3);
            let rel = ((exp(x) - x.exp()) / x.exp()).abs();
            worst = worst.max(rel);
        }
        assert!(worst < 4.5e-16, "worst relative error {worst:e}");
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(-800.0), 0.0);
    }
}
