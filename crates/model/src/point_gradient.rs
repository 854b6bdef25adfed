//! A GP's posterior at one point with its gradient in the point, for maximisers that ascend an
//! acquisition on analytic gradients (as BoTorch gets them from autograd) instead of central
//! differences, which cost `2d + 1` posterior evaluations per gradient.

use nalgebra::{DMatrix, DVector};

use super::gp::GpState;
use super::kernel::{Kernel, KernelKind};
use super::likelihood::profile_and_slope;
use bosweep_core::data::{EngineError, Points};

impl Kernel {
    /// Whether `k(x, ·)` has a gradient in `x` everywhere: every profile but Matérn-1/2's (whose
    /// slope diverges at the data), and no time-decay column (whose factor has a kink at equal
    /// times).
    pub fn differentiable(&self) -> bool {
        self.kind() != KernelKind::Matern12 && self.time_decay().is_none()
    }

    /// `k(p_i, x)` for every row `p_i` of `points` into `values`, and its gradient in `x` into
    /// row `i` of `jacobian` (`points.rows() × d`): `s² ψ'(r²) · 2 (x − p_i) / ℓ²` per
    /// coordinate. For a [`Kernel::differentiable`] kernel only.
    pub fn column_with_jacobian(
        &self,
        points: &Points,
        x: &[f64],
        values: &mut DVector<f64>,
        jacobian: &mut DMatrix<f64>,
    ) {
        let (kind, s2) = (self.kind(), self.signal_variance());
        let lengthscales = self.lengthscales();
        let d = lengthscales.len();
        values.resize_vertically_mut(points.rows(), 0.0);
        jacobian.resize_mut(points.rows(), d, 0.0);
        for i in 0..points.rows() {
            let p = points.row(i);
            let r2 = self.scaled_sq_dist(x, p);
            let (profile, slope) = profile_and_slope(kind, r2);
            values[i] = s2 * profile;
            for (c, l) in lengthscales.iter().enumerate() {
                jacobian[(i, c)] = s2 * slope * 2.0 * (x[c] - p[c]) / (l * l);
            }
        }
    }
}

/// The posterior of the latent function at one point and its gradient there.
#[derive(Clone, Debug, PartialEq)]
pub struct PointPosterior {
    /// `μ(x) = m + k_xᵀ α`.
    pub mean: f64,
    /// `σ²(x) = (k(x, x) − ‖L⁻¹ k_x‖²) / λ`, not clamped (it may round below 0 at the data).
    pub variance: f64,
    /// `∇μ(x) = J_xᵀ α`, `J_x` the Jacobian of `k_x = k(X, x)`.
    pub mean_gradient: Vec<f64>,
    /// `∇σ²(x) = −2 J_xᵀ (K + λΣ)⁻¹ k_x / λ`.
    pub variance_gradient: Vec<f64>,
}

/// Buffers of [`GpState::posterior_with_gradient`], reused across the points of one ascent.
#[derive(Clone, Debug, Default)]
pub struct PointScratch {
    /// `k_x`.
    pub column: DVector<f64>,
    /// `J_x`, `n × d`.
    pub jacobian: DMatrix<f64>,
    /// `L⁻¹ k_x`.
    pub whitened: DVector<f64>,
    /// `(K + λΣ)⁻¹ k_x = L⁻ᵀ L⁻¹ k_x`.
    pub solved: DVector<f64>,
}

impl GpState {
    /// The posterior mean and variance at `x` with their gradients, in f64 on the CPU: two
    /// products with the stored `L⁻¹` (`2n²` flops each) and the kernel's Jacobian (`O(n d)`).
    /// Fails for a kernel that is not [`Kernel::differentiable`] or a point of the wrong width.
    pub fn posterior_with_gradient(
        &self,
        x: &[f64],
        scratch: &mut PointScratch,
    ) -> Result<PointPosterior, EngineError> {
        let kernel = self.kernel();
        if !kernel.differentiable() {
            return Err(EngineError::invalid(
                "posterior gradient: the Matérn-1/2 kernel and time-decay kernels have no \
                 gradient everywhere",
            ));
        }
        if x.len() != kernel.input_dim() {
            return Err(EngineError::invalid(format!(
                "posterior gradient: the point has {} coordinates but the GP takes {}",
                x.len(),
                kernel.input_dim()
            )));
        }
        kernel.column_with_jacobian(self.train(), x, &mut scratch.column, &mut scratch.jacobian);
        let linv = self.linv();
        scratch.whitened.resize_vertically_mut(linv.nrows(), 0.0);
        scratch.whitened.gemv(1.0, linv, &scratch.column, 0.0);
        scratch.solved.resize_vertically_mut(linv.nrows(), 0.0);
        scratch.solved.gemv_tr(1.0, linv, &scratch.whitened, 0.0);
        let lambda = self.lambda();
        let mean = self.mean() + scratch.column.dot(self.alpha());
        let variance = (kernel.diag() - scratch.whitened.norm_squared()) / lambda;
        let mean_gradient = scratch.jacobian.tr_mul(self.alpha());
        let variance_gradient = scratch.jacobian.tr_mul(&scratch.solved) * (-2.0 / lambda);
        Ok(PointPosterior {
            mean,
            variance,
            mean_gradient: mean_gradient.iter().copied().collect(),
            variance_gradient: variance_gradient.iter().copied().collect(),
        })
    }
}
