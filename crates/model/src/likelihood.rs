//! The exact-GP log marginal likelihood and its analytic gradient.
//!
//! Model: `y ~ N(m·1, A)` with `A = K + λΣ`, `K_ij = s² ψ(r²_ij) [· T(t_i − t_j)]` (the
//! time-decay factor `T` of [`Kernel::with_time_decay`] is kept fixed), and
//!
//! ```text
//! ln p(y) = −½ (y − m)ᵀ α − Σ_i ln L_ii − (n/2) ln 2π,   α = A⁻¹ (y − m),  L Lᵀ = A.
//! ∂ ln p / ∂θ = ½ tr((ααᵀ − A⁻¹) ∂A/∂θ)
//! ```
//!
//! with, for `W = ααᵀ − A⁻¹`:
//!
//! * `∂A_ij/∂ln ℓ_d = s² ψ'(r²) · (−2 z_d²) · T`, `z_d = (x_id − x_jd)/ℓ_d`, where `ψ'` is the
//!   derivative of the radial profile with respect to `r²` (finite for every profile except
//!   Matérn ½ at `r = 0`, where `z_d² = 0` makes the product 0);
//! * `∂A/∂ln s² = K`;
//! * `∂A/∂ln c = λΣ` for a common factor `c` on every noise variance (for homoscedastic noise this
//!   is `∂/∂ln σ²`);
//! * `∂ ln p/∂m = 1ᵀα`.
//!
//! One evaluation costs one Cholesky factorisation, the inverse of the factor and the lower half
//! of `A⁻¹` (`n³` flops in all, through faer's blocked kernels) and an `O(n²d)`
//! kernel fill and gradient sweep, both parallel over columns.

use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;

use super::dense;
use super::gp::Noise;
use super::kernel::{Kernel, KernelKind, exp_of_negative};
use bosweep_core::data::{EngineError, Points};

const HALF_LN_2PI: f64 = 0.918_938_533_204_672_7;

/// The radial profile `ψ(r²)` and its derivative with respect to `r²`, sharing one exponential.
/// At `r² = 0` Matérn ½'s slope diverges; it is returned as 0 there, because the caller
/// multiplies it by `z_d² = 0`.
pub(crate) fn profile_and_slope(kind: KernelKind, r2: f64) -> (f64, f64) {
    match kind {
        KernelKind::SquaredExponential => {
            let e = exp_of_negative(0.5 * r2);
            (e, -0.5 * e)
        }
        KernelKind::Matern12 => {
            let r = r2.sqrt();
            let e = exp_of_negative(r);
            (e, if r2 > 0.0 { -0.5 * e / r } else { 0.0 })
        }
        KernelKind::Matern32 => {
            let s = (3.0 * r2.min(KernelKind::MAX_SCALED_SQ_DISTANCE)).sqrt();
            let e = exp_of_negative(s);
            ((1.0 + s) * e, -1.5 * e)
        }
        KernelKind::Matern52 => {
            let r2 = r2.min(KernelKind::MAX_SCALED_SQ_DISTANCE);
            let s = (5.0 * r2).sqrt();
            let e = exp_of_negative(s);
            ((1.0 + s + 5.0 * r2 / 3.0) * e, -(5.0 / 6.0) * (1.0 + s) * e)
        }
        KernelKind::RationalQuadratic { alpha } => {
            let base = 1.0 + r2 / (2.0 * alpha);
            let p = base.powf(-alpha);
            (p, -0.5 * p / base)
        }
    }
}

/// Gradient of the log marginal likelihood.
#[derive(Clone, Debug, PartialEq)]
pub struct LmlGradient {
    /// `∂/∂ ln ℓ_d`, one per spatial dimension.
    pub log_lengthscales: Vec<f64>,
    /// `∂/∂ ln s²`.
    pub log_signal_variance: f64,
    /// `∂/∂ ln c`, where every noise variance is multiplied by a common factor `c` (at `c = 1`);
    /// for homoscedastic noise this is `∂/∂ ln σ²`.
    pub log_noise_variance: f64,
    /// `∂/∂m`, the constant prior mean.
    pub mean: f64,
}

/// The log marginal likelihood and its gradient at one set of hyperparameters.
#[derive(Clone, Debug, PartialEq)]
pub struct LogMarginalLikelihood {
    /// `ln p(y | θ)`.
    pub value: f64,
    /// Its derivatives with respect to the log hyperparameters and the mean.
    pub gradient: LmlGradient,
}

/// The log marginal likelihood `ln N(y; m·1, K + λΣ)` of the data under `kernel`, `noise`,
/// constant mean `mean` and scale `lambda`, with its gradient (see the module docs).
///
/// Fails with [`EngineError::InvalidInput`] on inconsistent inputs, and when `K + λΣ` is not
/// numerically positive definite (no jitter is added here: the value would not be the
/// likelihood of the stated model).
pub fn log_marginal_likelihood(
    train: &Points,
    targets: &[f64],
    kernel: &Kernel,
    noise: &Noise,
    mean: f64,
    lambda: f64,
) -> Result<LogMarginalLikelihood, EngineError> {
    super::gp::check_inputs(train, targets, kernel, noise, mean, lambda)?;
    evaluate(train, targets, kernel, noise, mean, lambda, true).ok_or_else(|| {
        EngineError::invalid(format!(
            "the {n}×{n} matrix K + λΣ is not positive definite at these hyperparameters",
            n = train.rows()
        ))
    })
}

/// The unchecked evaluation; `None` when the Cholesky factorisation fails or the result is not
/// finite. Without `gradient` only the value is computed (the gradient fields are zero).
pub fn evaluate(
    train: &Points,
    targets: &[f64],
    kernel: &Kernel,
    noise: &Noise,
    mean: f64,
    lambda: f64,
    gradient: bool,
) -> Option<LogMarginalLikelihood> {
    let mut workspace = Workspace::default();
    evaluate_in(
        &mut workspace,
        train,
        targets,
        kernel,
        noise,
        mean,
        lambda,
        gradient,
    )
}

/// The `n × n` buffers of one evaluation, kept between the evaluations of one optimisation run:
/// allocating four fresh matrices per evaluation page-faulted them in from the kernel every time
/// (at n = 1000, 32 MB and as much time as the factorisation).
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    /// `K` (lower triangle).
    k: DMatrix<f64>,
    /// `s² ψ'(r²) T` (lower triangle; empty when no gradient was asked for).
    slope: DMatrix<f64>,
    /// `L`, then the lower triangle of `A⁻¹`.
    factor: DMatrix<f64>,
    /// `L⁻¹` (lower triangle).
    linv: DMatrix<f64>,
}

impl Workspace {
    fn fit_to(&mut self, n: usize, gradient: bool) {
        let sized = |m: &mut DMatrix<f64>, rows: usize| {
            if m.shape() != (rows, rows) {
                *m = DMatrix::zeros(rows, rows);
            }
        };
        sized(&mut self.k, n);
        sized(&mut self.factor, n);
        if gradient {
            sized(&mut self.slope, n);
            sized(&mut self.linv, n);
        }
    }
}

/// [`evaluate`] in the buffers of `workspace` (resized to the data when needed).
#[allow(clippy::too_many_arguments)]
pub fn evaluate_in(
    workspace: &mut Workspace,
    train: &Points,
    targets: &[f64],
    kernel: &Kernel,
    noise: &Noise,
    mean: f64,
    lambda: f64,
    gradient: bool,
) -> Option<LogMarginalLikelihood> {
    let n = train.rows();
    workspace.fit_to(n, gradient);
    let Workspace {
        k,
        slope,
        factor,
        linv,
    } = workspace;
    let dims = kernel.spatial_dim();
    let kind = kernel.kind();
    let s2 = kernel.signal_variance();
    let ls = kernel.lengthscales();
    let decay = kernel.time_decay();
    let noise_var = |i: usize| match noise {
        Noise::Homoscedastic(v) => *v,
        Noise::PerPoint(v) => v[i],
    };

    // Coordinates divided by their lengthscales once: `z_d = u_id − u_jd` below.
    let scaled: Vec<f64> = (0..n)
        .flat_map(|i| train.row(i)[..dims].iter().zip(ls).map(|(x, l)| x / l))
        .collect();
    let u = |i: usize| &scaled[i * dims..(i + 1) * dims];
    let sq_dist = |a: &[f64], b: &[f64]| -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| {
                let z = x - y;
                z * z
            })
            .sum()
    };
    // The lower triangles of K (kernel part only) and of the slope factor s² ψ'(r²) T of every
    // pair, a column per task. Only the lower triangles are read below.
    let fill_column = |j: usize, k_col: &mut [f64], slope_col: Option<&mut [f64]>| {
        let uj = u(j);
        k_col[j] = s2;
        let time_j = decay.map(|_| train.row(j)[dims]);
        let mut slope_col = slope_col;
        for i in j + 1..n {
            let r2 = sq_dist(u(i), uj);
            let t = match (decay, time_j) {
                (Some(d), Some(tj)) => d.factor(train.row(i)[dims] - tj),
                _ => 1.0,
            };
            match slope_col.as_deref_mut() {
                Some(slope_col) => {
                    let (profile, slope) = profile_and_slope(kind, r2);
                    k_col[i] = s2 * profile * t;
                    slope_col[i] = s2 * slope * t;
                }
                None => k_col[i] = s2 * kind.profile(r2) * t,
            }
        }
    };
    let columns = k.as_mut_slice().par_chunks_mut(n.max(1)).enumerate();
    if gradient {
        columns
            .zip(slope.as_mut_slice().par_chunks_mut(n.max(1)))
            .for_each(|((j, k_col), slope_col)| fill_column(j, k_col, Some(slope_col)));
    } else {
        columns.for_each(|(j, k_col)| fill_column(j, k_col, None));
    }
    factor.copy_from(k);
    for i in 0..n {
        factor[(i, i)] += lambda * noise_var(i);
    }
    if !dense::cholesky_in_place(factor) {
        return None;
    }
    let resid = DVector::from_iterator(n, targets.iter().map(|y| y - mean));
    let log_det_half: f64 = factor.diagonal().iter().map(|d| d.ln()).sum();
    let mut grad = LmlGradient {
        log_lengthscales: vec![0.0; dims],
        log_signal_variance: 0.0,
        log_noise_variance: 0.0,
        mean: 0.0,
    };
    // v = L⁻¹ r; the value needs nothing more.
    let v = factor.solve_lower_triangular(&resid)?;
    let value = -0.5 * v.norm_squared() - log_det_half - n as f64 * HALF_LN_2PI;
    if !value.is_finite() {
        return None;
    }
    if !gradient {
        return Some(LogMarginalLikelihood {
            value,
            gradient: grad,
        });
    }
    let alpha = factor.tr_solve_lower_triangular(&v)?;
    grad.mean = alpha.sum();
    // W = ααᵀ − A⁻¹ on and below the diagonal (A⁻¹ = L⁻ᵀ L⁻¹, lower triangle only). Each
    // column's contributions are summed in its own task and the columns in index order, so the
    // gradient does not depend on the thread count.
    dense::lower_triangular_inverse_into(factor, linv);
    dense::inverse_lower_from_factor_inverse_into(linv, factor);
    let ainv = &*factor;
    let column_terms = |j: usize| -> Vec<f64> {
        // [∂/∂ln ℓ_1 … ∂/∂ln ℓ_dims, ∂/∂ln s², ∂/∂ln c]
        let mut terms = vec![0.0; dims + 2];
        let uj = u(j);
        let ainv_col = ainv.column(j);
        let wjj = alpha[j] * alpha[j] - ainv_col[j];
        let mut g_s2 = 0.5 * wjj * k[(j, j)];
        for i in j + 1..n {
            let wij = alpha[i] * alpha[j] - ainv_col[i];
            // Off-diagonal pairs count twice in the trace: ½ · 2 = 1.
            g_s2 += wij * k[(i, j)];
            let c = wij * slope[(i, j)];
            if c != 0.0 {
                for ((g, ui), uj) in terms[..dims].iter_mut().zip(u(i)).zip(uj) {
                    let z = ui - uj;
                    *g -= 2.0 * c * z * z;
                }
            }
        }
        terms[dims] = g_s2;
        terms[dims + 1] = 0.5 * wjj * lambda * noise_var(j);
        terms
    };
    let per_column: Vec<Vec<f64>> = (0..n).into_par_iter().map(column_terms).collect();
    let mut totals = vec![0.0; dims + 2];
    for terms in &per_column {
        for (total, term) in totals.iter_mut().zip(terms) {
            *total += term;
        }
    }
    grad.log_lengthscales.copy_from_slice(&totals[..dims]);
    grad.log_signal_variance = totals[dims];
    grad.log_noise_variance = totals[dims + 1];
    let finite = totals.iter().all(|g| g.is_finite()) && grad.mean.is_finite();
    if !finite {
        return None;
    }
    Some(LogMarginalLikelihood {
        value,
        gradient: grad,
    })
}
