//! Blocked GP posterior on the CPU: kernel block `K_x` (B × n), then `V = K_x L⁻ᵀ` by column
//! panels so that the triangular zeros of `L⁻¹` are skipped, through the `gemm` crate (AVX-512/AVX2 kernels chosen at run time).

use super::scaled::KernelRows;
use bosweep_model::GpState;

/// Candidates per block: large enough for GEMM efficiency, small enough to stay in cache.
pub const BLOCK: usize = 256;
/// Rows of `L⁻¹` per panel.
const PANEL: usize = 32;

/// Posterior of one GP over many candidate blocks, sharing the scaled training set.
pub struct BlockPosterior<'a> {
    gp: &'a GpState,
    rows: KernelRows<'a>,
}

impl<'a> BlockPosterior<'a> {
    pub fn new(gp: &'a GpState) -> Self {
        Self {
            gp,
            rows: KernelRows::new(gp.kernel(), gp.train()),
        }
    }

    /// Mean and variance at the `mean.len()` row-major points of `block`.
    pub fn eval(&self, block: &[f64], mean: &mut [f64], var: &mut [f64]) {
        let gp = self.gp;
        let n = gp.train().rows();
        let b = mean.len();
        let dim = gp.train().dim();
        let kxx = gp.kernel().diag();
        if n == 0 {
            mean.fill(gp.mean());
            var.fill(kxx / gp.lambda());
            return;
        }
        let mut kx = vec![0.0; b * n];
        for (x, row) in block.chunks_exact(dim).zip(kx.chunks_exact_mut(n)) {
            self.rows.fill(x, row);
        }
        let alpha = gp.alpha().as_slice();
        for (m, row) in mean.iter_mut().zip(kx.chunks_exact(n)) {
            *m = gp.mean() + dot(row, alpha);
        }
        let quad = quadratic_norms(&kx, b, n, gp.linv().as_slice());
        for (v, q) in var.iter_mut().zip(quad) {
            *v = (kxx - q).max(0.0) / gp.lambda();
        }
    }
}

/// `‖L⁻¹ k_r‖²` for each of the `b` rows `k_r` of `kx` (row-major b × n), where `linv` is the
/// column-major dense lower-triangular `L⁻¹` (so it is `L⁻ᵀ` read row-major).
pub(super) fn quadratic_norms(kx: &[f64], b: usize, n: usize, linv: &[f64]) -> Vec<f64> {
    let mut quad = vec![0.0; b];
    let mut panel = vec![0.0; b * PANEL.min(n)];
    for j0 in (0..n).step_by(PANEL) {
        let j1 = (j0 + PANEL).min(n);
        let width = j1 - j0;
        // panel[r, c] = Σ_{k < j1} kx[r, k] · L⁻¹[j0 + c, k]; entries with k > j0 + c are zero.
        gemm_into(
            [b, width, j1],
            (&mut panel, width),
            (kx, n),
            (&linv[j0..], n),
        );
        for (q, row) in quad.iter_mut().zip(panel.chunks_exact(width)) {
            *q += dot(row, row);
        }
    }
    quad
}

/// `dst = lhs · rhs` for an `m × k` `lhs` and a `k × n` `rhs`, overwriting the `m × n` `dst`,
/// on the calling thread (callers parallelise over blocks): the one GEMM both CPU kernels run.
/// Each operand is a slice and its row stride, row-major with unit column stride from the
/// slice's first element.
///
/// Panics where a slice is too short for its block: that check is what makes the raw call sound.
pub(super) fn gemm_into(
    [m, n, k]: [usize; 3],
    (dst, dst_stride): (&mut [f64], usize),
    (lhs, lhs_stride): (&[f64], usize),
    (rhs, rhs_stride): (&[f64], usize),
) {
    let fits = |len: usize, rows: usize, cols: usize, stride: usize| {
        rows == 0 || cols == 0 || (rows - 1) * stride + cols <= len
    };
    assert!(
        fits(dst.len(), m, n, dst_stride)
            && fits(lhs.len(), m, k, lhs_stride)
            && fits(rhs.len(), k, n, rhs_stride),
        "GEMM operands out of their slices"
    );
    // SAFETY: by the assertion, each pointer with its row stride and unit column stride
    // addresses only elements of its own slice, and `dst` is borrowed mutably alone.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            dst_stride as isize,
            false,
            lhs.as_ptr(),
            1,
            lhs_stride as isize,
            rhs.as_ptr(),
            1,
            rhs_stride as isize,
            0.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

/// `Σ a_i b_i` over the shorter slice, in eight interleaved partial sums added in a fixed order:
/// a serial sum cannot vectorise (its order is the result), eight lanes can, and they round the
/// same on every instruction set and thread count.
#[inline(always)]
pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    let (a8, a_tail) = a.as_chunks::<8>();
    let (b8, b_tail) = b.as_chunks::<8>();
    let mut lanes = [0.0; 8];
    for (x, y) in a8.iter().zip(b8) {
        for ((l, x), y) in lanes.iter_mut().zip(x).zip(y) {
            *l += x * y;
        }
    }
    let tail: f64 = a_tail.iter().zip(b_tail).map(|(x, y)| x * y).sum();
    let [l0, l1, l2, l3, l4, l5, l6, l7] = lanes;
    (((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 + l7))) + tail
}

#[cfg(test)]
mod tests {
    use super::dot;

    #[test]
    fn dot_matches_the_serial_sum_at_every_length() {
        for len in [0, 1, 7, 8, 9, 23, 64, 110] {
            let a: Vec<f64> = (0..len).map(|i| (i as f64 * 0.37).sin()).collect();
            let b: Vec<f64> = (0..len).map(|i| 1.0 + (i as f64 * 0.11).cos()).collect();
            let serial: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert!(
                (dot(&a, &b) - serial).abs() <= 1e-14 * (1.0 + serial.abs()),
                "len {len}"
            );
            // The shorter slice bounds the sum.
            assert_eq!(dot(&a, &b[..len / 2]), dot(&a[..len / 2], &b[..len / 2]));
        }
        assert_eq!(dot(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]), 32.0);
    }
}
