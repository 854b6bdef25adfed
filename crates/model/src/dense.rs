//! The O(n³) steps of exact GP regression — Cholesky factorisation, the inverse of the factor
//! and the inverse of `A = L Lᵀ` — through faer's blocked, multithreaded kernels, working in place
//! on nalgebra's column-major storage (no copies, the same layout on both sides).
//!
//! nalgebra's own factorisation is unblocked and its triangular inverse goes column by column: a
//! few GFLOP/s where the blocked kernels reach tens. Every function here is deterministic: faer
//! splits work by matrix blocks, never by a reduction whose order depends on the thread count.

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor::{self, LltRegularization};
use faer::linalg::matmul::triangular::{BlockStructure, matmul};
use faer::linalg::triangular_inverse::invert_lower_triangular;
use faer::{Accum, MatMut, MatRef, Par};
use nalgebra::DMatrix;

/// From this order on the kernels fan out over rayon's pool; below it, thread hand-offs cost more
/// than they save (measured: at n = 200 a sequential factorisation takes 0.1 ms).
const PARALLEL_FROM: usize = 192;

fn parallelism(n: usize) -> Par {
    if n >= PARALLEL_FROM && rayon::current_num_threads() > 1 {
        Par::rayon(0)
    } else {
        Par::Seq
    }
}

fn view(m: &DMatrix<f64>) -> MatRef<'_, f64> {
    MatRef::from_column_major_slice(m.as_slice(), m.nrows(), m.ncols())
}

fn view_mut(m: &mut DMatrix<f64>) -> MatMut<'_, f64> {
    let (rows, cols) = m.shape();
    MatMut::from_column_major_slice_mut(m.as_mut_slice(), rows, cols)
}

/// Relative jitters tried in turn (times the mean diagonal) by [`jittered_cholesky`].
pub const JITTER_LADDER: [f64; 7] = [0.0, 1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2];

/// The Cholesky factor of the symmetric `a` (only its lower triangle is read) plus `jitter · I`,
/// with the smallest jitter of [`JITTER_LADDER`] (relative to the mean diagonal) that makes it
/// numerically positive definite, and that jitter; `None` when even the largest fails. Kernel
/// and posterior covariances of points close together are numerically singular without it.
pub fn jittered_cholesky(a: &DMatrix<f64>) -> Option<(DMatrix<f64>, f64)> {
    let n = a.nrows();
    let scale = if n == 0 {
        1.0
    } else {
        a.diagonal().mean().max(f64::MIN_POSITIVE)
    };
    JITTER_LADDER.iter().find_map(|relative| {
        let jitter = relative * scale;
        let mut factor = a.clone();
        for i in 0..n {
            factor[(i, i)] += jitter;
        }
        cholesky_in_place(&mut factor).then_some((factor, jitter))
    })
}

/// The largest jitter [`jittered_cholesky`] tries on `a`, for error messages.
pub fn largest_jitter(a: &DMatrix<f64>) -> f64 {
    let scale = if a.nrows() == 0 {
        1.0
    } else {
        a.diagonal().mean().max(f64::MIN_POSITIVE)
    };
    JITTER_LADDER[JITTER_LADDER.len() - 1] * scale
}

/// Overwrites the lower triangle of the symmetric matrix `a` (only that triangle is read) with
/// its Cholesky factor `L` and zeroes the strict upper triangle. `false` when `a` is not
/// numerically positive definite; `a` is then garbage.
///
/// Numerically positive definite means every pivot `L_ii²` exceeds `n·ε·A_ii`, the backward
/// error of the factorisation itself: a smaller pivot is rounding noise, whatever its sign (the
/// factor of an exactly singular matrix, such as a kernel matrix with duplicate inputs and no
/// noise, ends on one; which sign it has depends on the order of the floating-point
/// operations). Callers escalate jitter or reject the point instead.
pub fn cholesky_in_place(a: &mut DMatrix<f64>) -> bool {
    let n = a.nrows();
    debug_assert_eq!(n, a.ncols());
    let floors: Vec<f64> = a
        .diagonal()
        .iter()
        .map(|d| n as f64 * f64::EPSILON * d)
        .collect();
    let par = parallelism(n);
    let mut buffer = MemBuffer::new(factor::cholesky_in_place_scratch::<f64>(
        n,
        par,
        Default::default(),
    ));
    let factored = factor::cholesky_in_place(
        view_mut(a),
        LltRegularization::default(),
        par,
        MemStack::new(&mut buffer),
        Default::default(),
    )
    .is_ok();
    // (A NaN pivot passes this test; the finiteness check below catches it.)
    if !factored || (0..n).any(|i| a[(i, i)] * a[(i, i)] <= floors[i]) {
        return false;
    }
    for j in 1..n {
        a.column_mut(j).rows_mut(0, j).fill(0.0);
    }
    // A NaN entry below the diagonal does not trip the pivot test of later columns everywhere.
    a.iter().all(|v| v.is_finite())
}

/// Writes `L⁻¹` of a lower-triangular `L` with a positive diagonal into the lower triangle of
/// `inv` (an `n × n` matrix whose strict upper triangle is left as it was).
pub(crate) fn lower_triangular_inverse_into(l: &DMatrix<f64>, inv: &mut DMatrix<f64>) {
    invert_lower_triangular(view_mut(inv), view(l), parallelism(l.nrows()));
}

/// `L⁻¹` of a lower-triangular `L` with a positive diagonal (zeros above the diagonal).
pub(crate) fn lower_triangular_inverse(l: &DMatrix<f64>) -> DMatrix<f64> {
    let n = l.nrows();
    let mut inv = DMatrix::<f64>::zeros(n, n);
    lower_triangular_inverse_into(l, &mut inv);
    for j in 1..n {
        inv.column_mut(j).rows_mut(0, j).fill(0.0);
    }
    inv
}

/// Writes the lower triangle (diagonal included) of `A⁻¹ = L⁻ᵀ L⁻¹` into `out`, given `L⁻¹` in
/// the lower triangle of `linv` (its strict upper triangle is not read); `out`'s strict upper
/// triangle is left as it was. `n³/3` flops, half of a full product.
pub(crate) fn inverse_lower_from_factor_inverse_into(linv: &DMatrix<f64>, out: &mut DMatrix<f64>) {
    let n = linv.nrows();
    let linv = view(linv);
    matmul(
        view_mut(out),
        BlockStructure::TriangularLower,
        Accum::Replace,
        linv.transpose(),
        BlockStructure::TriangularUpper,
        linv,
        BlockStructure::TriangularLower,
        1.0,
        parallelism(n),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A symmetric positive definite test matrix: a Gaussian kernel on a 1-D grid plus `nugget`.
    fn spd(n: usize, nugget: f64) -> DMatrix<f64> {
        DMatrix::from_fn(n, n, |i, j| {
            let z = (i as f64 - j as f64) / (n as f64 / 4.0);
            (-0.5 * z * z).exp() + if i == j { nugget } else { 0.0 }
        })
    }

    fn max_abs_diff(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
        (a - b).abs().max()
    }

    #[test]
    fn factor_matches_nalgebra_and_reconstructs_the_matrix() {
        // Both sides of the parallel threshold.
        for n in [1, 7, 64, 300] {
            let a = spd(n, 1e-3);
            let mut l = a.clone();
            assert!(cholesky_in_place(&mut l));
            let reference = a.clone().cholesky().unwrap().unpack();
            assert!(max_abs_diff(&l, &reference) < 1e-10, "n = {n}");
            assert!(max_abs_diff(&(&l * l.transpose()), &a) < 1e-12, "n = {n}");
            for j in 1..n {
                assert!(l.column(j).rows(0, j).iter().all(|v| *v == 0.0));
            }
        }
    }

    #[test]
    fn singular_matrices_are_refused_whatever_the_sign_of_the_last_pivot() {
        // Rows 1 and 3 are the same point: the matrix is exactly singular.
        let points: [f64; 5] = [0.1, 0.5, 0.9, 0.5, 0.2];
        let a = DMatrix::from_fn(5, 5, |i, j| {
            let z = (points[i] - points[j]) / 0.3;
            (-0.5 * z * z).exp()
        });
        assert!(!cholesky_in_place(&mut a.clone()));
        // A nugget far above rounding level makes it definite again.
        let mut nugget = a + DMatrix::<f64>::identity(5, 5) * 1e-10;
        assert!(cholesky_in_place(&mut nugget));
    }

    #[test]
    fn indefinite_and_non_finite_matrices_are_refused() {
        let mut a = spd(5, 0.0);
        a[(2, 2)] = -1.0;
        assert!(!cholesky_in_place(&mut a));
        let mut b = spd(5, 1e-3);
        b[(3, 1)] = f64::NAN;
        b[(1, 3)] = f64::NAN;
        assert!(!cholesky_in_place(&mut b));
    }

    #[test]
    fn inverses_are_inverses() {
        for n in [1, 9, 250] {
            let a = spd(n, 1e-2);
            let mut l = a.clone();
            assert!(cholesky_in_place(&mut l));
            let linv = lower_triangular_inverse(&l);
            let identity = DMatrix::<f64>::identity(n, n);
            assert!(max_abs_diff(&(&linv * &l), &identity) < 1e-9, "n = {n}");
            for j in 1..n {
                assert!(linv.column(j).rows(0, j).iter().all(|v| *v == 0.0));
            }
            let mut lower = DMatrix::<f64>::zeros(n, n);
            inverse_lower_from_factor_inverse_into(&linv, &mut lower);
            let full = linv.transpose() * &linv;
            for j in 0..n {
                for i in 0..n {
                    let expected = if i >= j { full[(i, j)] } else { 0.0 };
                    assert!((lower[(i, j)] - expected).abs() < 1e-9 * full.abs().max());
                }
            }
        }
    }
}
