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
//! One evaluation costs one Cholesky factorisation and one inverse: O(n³).

use nalgebra::{DMatrix, DVector};

use super::gp::{Noise, lower_triangular_inverse};
use super::kernel::{Kernel, KernelKind};
use bosweep_core::data::{EngineError, Points};

const HALF_LN_2PI: f64 = 0.918_938_533_204_672_7;

/// Derivative of the radial profile with respect to `r²`, for `r² > 0` (at `r² = 0` the caller
/// multiplies it by `z_d² = 0`; Matérn ½ is the only profile whose slope diverges there).
pub(crate) fn profile_slope(kind: KernelKind, r2: f64) -> f64 {
    match kind {
        KernelKind::SquaredExponential => -0.5 * (-0.5 * r2).exp(),
        KernelKind::Matern12 => {
            if r2 > 0.0 {
                let r = r2.sqrt();
                -0.5 * (-r).exp() / r
            } else {
                0.0
            }
        }
        KernelKind::Matern32 => -1.5 * (-(3.0 * r2).sqrt()).exp(),
        KernelKind::Matern52 => {
            let s = (5.0 * r2.min(KernelKind::MAX_SCALED_SQ_DISTANCE)).sqrt();
            -(5.0 / 6.0) * (1.0 + s) * (-s).exp()
        }
        KernelKind::RationalQuadratic { alpha } => {
            -0.5 * (1.0 + r2 / (2.0 * alpha)).powf(-alpha - 1.0)
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
    pub value: f64,
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
    let n = train.rows();
    let dims = kernel.spatial_dim();
    let kind = kernel.kind();
    let s2 = kernel.signal_variance();
    let ls = kernel.lengthscales();
    let decay = kernel.time_decay();
    let noise_var = |i: usize| match noise {
        Noise::Homoscedastic(v) => *v,
        Noise::PerPoint(v) => v[i],
    };

    // K (kernel part only) and the slope factor s² ψ'(r²) T of every pair.
    let mut k = DMatrix::<f64>::zeros(n, n);
    let mut slope = if gradient {
        DMatrix::<f64>::zeros(n, n)
    } else {
        DMatrix::<f64>::zeros(0, 0)
    };
    for j in 0..n {
        let xj = train.row(j);
        k[(j, j)] = s2;
        for i in j + 1..n {
            let xi = train.row(i);
            let r2 = kernel.scaled_sq_dist(xi, xj);
            let t = decay.map_or(1.0, |d| d.factor(xi[dims] - xj[dims]));
            let v = s2 * kind.profile(r2) * t;
            k[(i, j)] = v;
            k[(j, i)] = v;
            if gradient {
                slope[(i, j)] = s2 * profile_slope(kind, r2) * t;
            }
        }
    }
    let mut a = k.clone();
    for i in 0..n {
        a[(i, i)] += lambda * noise_var(i);
    }
    let chol = a.cholesky()?.unpack();
    let resid = DVector::from_iterator(n, targets.iter().map(|y| y - mean));
    let log_det_half: f64 = chol.diagonal().iter().map(|d| d.ln()).sum();
    let mut grad = LmlGradient {
        log_lengthscales: vec![0.0; dims],
        log_signal_variance: 0.0,
        log_noise_variance: 0.0,
        mean: 0.0,
    };
    if !gradient {
        // The value alone needs one triangular solve, not the inverse.
        let v = chol.solve_lower_triangular(&resid)?;
        let value = -0.5 * v.norm_squared() - log_det_half - n as f64 * HALF_LN_2PI;
        return value.is_finite().then_some(LogMarginalLikelihood {
            value,
            gradient: grad,
        });
    }
    let linv = lower_triangular_inverse(&chol);
    let v = &linv * &resid;
    let alpha = linv.tr_mul(&v);
    let value = -0.5 * v.norm_squared() - log_det_half - n as f64 * HALF_LN_2PI;
    if !value.is_finite() {
        return None;
    }
    grad.mean = alpha.sum();
    {
        // W = ααᵀ − A⁻¹, A⁻¹ = L⁻ᵀ L⁻¹.
        // (An explicit transpose lets the product go through nalgebra's blocked gemm; `tr_mul`
        // takes column dot products and is several times slower from n ≈ 200.)
        let ainv = linv.transpose() * &linv;
        let w = |i: usize, j: usize| alpha[i] * alpha[j] - ainv[(i, j)];
        let mut g_s2 = 0.0;
        let mut g_noise = 0.0;
        let g_ls = &mut grad.log_lengthscales;
        for j in 0..n {
            let xj = train.row(j);
            let wjj = w(j, j);
            g_s2 += 0.5 * wjj * k[(j, j)];
            g_noise += 0.5 * wjj * lambda * noise_var(j);
            for i in j + 1..n {
                let wij = w(i, j);
                // Off-diagonal pairs count twice in the trace: ½ · 2 = 1.
                g_s2 += wij * k[(i, j)];
                let c = wij * slope[(i, j)];
                if c != 0.0 {
                    let xi = train.row(i);
                    for (d, g) in g_ls.iter_mut().enumerate() {
                        let z = (xi[d] - xj[d]) / ls[d];
                        *g -= 2.0 * c * z * z;
                    }
                }
            }
        }
        grad.log_signal_variance = g_s2;
        grad.log_noise_variance = g_noise;
        let finite = grad.log_lengthscales.iter().all(|g| g.is_finite())
            && g_s2.is_finite()
            && g_noise.is_finite()
            && grad.mean.is_finite();
        if !finite {
            return None;
        }
    }
    Some(LogMarginalLikelihood {
        value,
        gradient: grad,
    })
}
