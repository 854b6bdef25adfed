//! Blocked GP posterior on the CPU: kernel block `K_x` (B × n), then `V = K_x L⁻ᵀ` by column
//! panels so that the triangular zeros of `L⁻¹` are skipped, through the `gemm` crate (AVX-512/AVX2 kernels chosen at run time).

use super::scaled::KernelRows;
use bosweep_model::GpState;

/// Candidates per block: large enough for GEMM efficiency, small enough to stay in cache.
pub const BLOCK: usize = 256;
/// Rows of `L⁻¹` per panel.
const PANEL: usize = 128;

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
            *m = gp.mean() + row.iter().zip(alpha).map(|(k, a)| k * a).sum::<f64>();
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
        // SAFETY: every pointer/stride pair addresses memory inside its slice: `kx` is b × n
        // read over k < j1 ≤ n; `linv` is n × n read at k·n + j for k < j1, j < j1; `panel`
        // is b × PANEL written at r·width + c with c < width ≤ PANEL.
        unsafe {
            gemm::gemm(
                b,
                width,
                j1,
                panel.as_mut_ptr(),
                1,
                width as isize,
                false,
                kx.as_ptr(),
                1,
                n as isize,
                linv.as_ptr().add(j0),
                1,
                n as isize,
                0.0,
                1.0,
                false,
                false,
                false,
                gemm::Parallelism::None,
            );
        }
        for (q, row) in quad.iter_mut().zip(panel.chunks_exact(width)) {
            *q += row.iter().map(|v| v * v).sum::<f64>();
        }
    }
    quad
}
