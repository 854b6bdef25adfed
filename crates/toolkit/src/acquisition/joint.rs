//! The joint posterior of one GP at a fixed set of points and one candidate at a time, sampled
//! with fixed base normals, as BoTorch's noisy MC acquisitions sample it (qLogNEI, qLogNEHVI).
//!
//! The fixed points' part is drawn once: `μ_F + L_F z_F`, `L_F` the Cholesky factor of their
//! posterior covariance. A candidate `x` adds one row to that factor, so each of its draws is
//! `μ(x) + cᵀ L_F⁻ᵀ z_F + σ_own z`, with `c` its posterior covariance with the fixed points and
//! `σ_own² = σ²(x) − ‖L_F⁻¹ c‖²`. Over a grid, the kernel matrices and posterior come from the
//! engine, the factor's new rows from dense products on the CPU.

use nalgebra::{DMatrix, DMatrixView, DVector};

use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::{GpState, PointPosterior, PointScratch, jittered_cholesky, largest_jitter};

/// One GP's joint posterior at fixed points and a candidate, with fixed base normals.
pub(crate) struct JointPosterior<'a> {
    pub gp: &'a GpState,
    /// The fixed points (observed, then pending), in the GP's input units.
    pub fixed: Points,
    /// `L⁻¹ k(X, F)`: the training data's whitened covariance with the fixed points.
    pub whitened: DMatrix<f64>,
    /// The inverse of the fixed points' posterior Cholesky factor (lower triangular).
    pub chol_inverse: DMatrix<f64>,
    /// `L_F⁻ᵀ Z_Fᵀ` (fixed points × samples): a candidate's cross-covariance row times this is
    /// its samples' correlated part.
    pub lifted: DMatrix<f64>,
    /// Each sample's base normal of the candidate itself.
    pub own: Vec<f64>,
    /// The fixed points' draws, one row per sample (in the GP's output units).
    pub fixed_draws: DMatrix<f64>,
}

impl<'a> JointPosterior<'a> {
    /// The joint posterior of `gp` at `fixed` (at least one point), drawn with `fixed_normals`
    /// (samples × fixed points) and `own` (the candidate's normal per sample). `what` names
    /// the acquisition in errors.
    pub fn new(
        gp: &'a GpState,
        engine: &dyn Engine,
        fixed: Points,
        fixed_normals: DMatrixView<'_, f64>,
        own: Vec<f64>,
        what: &str,
    ) -> Result<Self, EngineError> {
        let n_fixed = fixed.rows();
        let whitened = gp.linv() * engine.cross_covariance(gp.kernel(), gp.train(), &fixed)?;
        let covariance = (engine.cross_covariance(gp.kernel(), &fixed, &fixed)?
            - whitened.tr_mul(&whitened))
            / gp.lambda();
        let chol = jittered_factor(covariance, what)?;
        let chol_inverse = chol
            .solve_lower_triangular(&DMatrix::identity(n_fixed, n_fixed))
            .ok_or_else(|| EngineError::invalid(format!("{what}: singular posterior factor")))?;
        let mean = engine.posterior(gp, &fixed)?.mean;
        // Draws of the fixed points, one row per sample: μ_F + L_F z.
        let mut fixed_draws = fixed_normals * chol.transpose();
        for mut row in fixed_draws.row_iter_mut() {
            for (value, m) in row.iter_mut().zip(&mean) {
                *value += m;
            }
        }
        Ok(Self {
            gp,
            fixed,
            whitened,
            lifted: chol_inverse.tr_mul(&fixed_normals.transpose()),
            chol_inverse,
            own,
            fixed_draws,
        })
    }

    /// Every candidate's draws, `candidates × samples`, each joint with the fixed points' draws.
    pub fn candidate_draws(
        &self,
        engine: &dyn Engine,
        candidates: &Points,
    ) -> Result<DMatrix<f64>, EngineError> {
        let gp = self.gp;
        let kernel = gp.kernel();
        let posterior = engine.posterior(gp, candidates)?;
        let whitened = gp.linv() * engine.cross_covariance(kernel, gp.train(), candidates)?;
        // Posterior covariance of candidates (rows) with the fixed points (columns).
        let covariance = (engine.cross_covariance(kernel, candidates, &self.fixed)?
            - whitened.tr_mul(&self.whitened))
            / gp.lambda();
        let factor_rows = &covariance * self.chol_inverse.transpose();
        let mut draws = &covariance * &self.lifted;
        for (i, mut row) in draws.row_iter_mut().enumerate() {
            let explained = factor_rows.row(i).norm_squared();
            let own_sd = (posterior.variance[i] - explained).max(0.0).sqrt();
            for (value, z) in row.iter_mut().zip(&self.own) {
                *value = posterior.mean[i] + *value + own_sd * z;
            }
        }
        Ok(draws)
    }
}

/// The lower Cholesky factor of `covariance` with the smallest jitter that makes it positive
/// definite (as GPyTorch's `psd_safe_cholesky` retries).
fn jittered_factor(covariance: DMatrix<f64>, what: &str) -> Result<DMatrix<f64>, EngineError> {
    match jittered_cholesky(&covariance) {
        Some((factor, _)) => Ok(factor),
        None => Err(EngineError::invalid(format!(
            "{what}: the {n}×{n} posterior covariance of the observed and pending points is not \
             positive definite even with jitter {:e}",
            largest_jitter(&covariance),
            n = covariance.nrows()
        ))),
    }
}

/// The chain rule from a candidate's draws back to the candidate, as BoTorch's autograd takes
/// it through the joint posterior's Cholesky factor with the base samples fixed: each draw is
/// `μ + cᵀ L_F⁻ᵀ z_F + σ_own z`, whose gradient follows from `∇μ`, `∇σ²` and `∇c`. On the CPU
/// in f64.
pub(crate) struct JointSlopes<'j, 'a> {
    pub joint: &'j JointPosterior<'a>,
    /// `k(X, F)ᵀ (K + λΣ)⁻¹` (fixed points × training points): `∇c = (J_F − this · J_X)/λ`.
    fixed_solved: DMatrix<f64>,
    /// `Σ_F⁻¹ = L_F⁻ᵀ L_F⁻¹`: `∇‖L_F⁻¹c‖² = 2 ∇cᵀ Σ_F⁻¹ c`.
    fixed_precision: DMatrix<f64>,
}

/// Buffers of [`JointSlopes::draws_at`], reused across the points of one ascent.
#[derive(Default)]
pub(crate) struct JointScratch {
    point: PointScratch,
    fixed_column: DVector<f64>,
    fixed_jacobian: DMatrix<f64>,
}

/// A candidate's draws, one per sample, with what chains slopes in them back to the candidate.
pub(crate) struct DrawsAt {
    pub draws: Vec<f64>,
    at: PointPosterior,
    /// `∇c`, fixed points × inputs.
    covariance_gradient: DMatrix<f64>,
    /// `Σ_F⁻¹ c`.
    precision_c: DVector<f64>,
    own_sd: f64,
}

impl<'j, 'a> JointSlopes<'j, 'a> {
    /// `None` for a kernel without a gradient ([`bosweep_model::Kernel::differentiable`]).
    pub fn new(joint: &'j JointPosterior<'a>) -> Option<Self> {
        joint.gp.kernel().differentiable().then(|| Self {
            joint,
            fixed_solved: joint.whitened.tr_mul(joint.gp.linv()),
            fixed_precision: joint.chol_inverse.tr_mul(&joint.chol_inverse),
        })
    }

    /// The draws at `x`, joint with the fixed points' draws.
    pub fn draws_at(&self, x: &[f64], scratch: &mut JointScratch) -> Result<DrawsAt, EngineError> {
        let joint = self.joint;
        let gp = joint.gp;
        let lambda = gp.lambda();
        let at = gp.posterior_with_gradient(x, &mut scratch.point)?;
        gp.kernel().column_with_jacobian(
            &joint.fixed,
            x,
            &mut scratch.fixed_column,
            &mut scratch.fixed_jacobian,
        );
        let covariance =
            (&scratch.fixed_column - joint.whitened.tr_mul(&scratch.point.whitened)) / lambda;
        let covariance_gradient =
            (&scratch.fixed_jacobian - &self.fixed_solved * &scratch.point.jacobian) / lambda;
        let precision_c = &self.fixed_precision * &covariance;
        let explained = covariance.dot(&precision_c);
        let own_variance = at.variance - explained;
        let own_sd = own_variance.max(0.0).sqrt();
        let correlated = joint.lifted.tr_mul(&covariance);
        let draws = (0..joint.own.len())
            .map(|s| at.mean + correlated[s] + own_sd * joint.own[s])
            .collect();
        Ok(DrawsAt {
            draws,
            at,
            covariance_gradient,
            precision_c,
            own_sd,
        })
    }
}

impl DrawsAt {
    /// The gradient in the candidate of `Σ_s slopes_s · draw_s`: through the mean, through the
    /// correlated part's `c`, and through `σ_own`, which depends on `σ²` and on `c`.
    pub fn chain(&self, joint: &JointPosterior<'_>, slopes: &DVector<f64>) -> Vec<f64> {
        let mean_weight: f64 = slopes.iter().sum();
        let own_weight: f64 = slopes.iter().zip(&joint.own).map(|(g, z)| g * z).sum();
        // ∂/∂c: through the correlated part and through σ_own.
        let mut through_c = &joint.lifted * slopes;
        let own_sd_slope = if self.own_sd > 0.0 {
            own_weight / (2.0 * self.own_sd)
        } else {
            0.0
        };
        through_c.axpy(-2.0 * own_sd_slope, &self.precision_c, 1.0);
        let gradient = self.covariance_gradient.tr_mul(&through_c);
        (0..gradient.len())
            .map(|i| {
                mean_weight * self.at.mean_gradient[i]
                    + own_sd_slope * self.at.variance_gradient[i]
                    + gradient[i]
            })
            .collect()
    }
}

/// A GP's posterior at its own training points, as pruning draws from it: the Cholesky factor
/// of their posterior covariance and their posterior mean. `what` names the acquisition in
/// errors.
pub(crate) fn observed_posterior(
    gp: &GpState,
    engine: &dyn Engine,
    what: &str,
) -> Result<(DMatrix<f64>, Vec<f64>), EngineError> {
    let observed = gp.train();
    let prior = engine.cross_covariance(gp.kernel(), observed, observed)?;
    let whitened = gp.linv() * &prior;
    let covariance = (prior - whitened.tr_mul(&whitened)) / gp.lambda();
    let chol = jittered_factor(covariance, what)?;
    Ok((chol, engine.posterior(gp, observed)?.mean))
}

/// The points that won at least once (`wins[i]` times for point `i`), the most often first and
/// ties in data order, at most `max_points` of them (at least one place).
pub(crate) fn most_often(wins: &[usize], max_points: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..wins.len()).filter(|&i| wins[i] > 0).collect();
    order.sort_by(|&a, &b| wins[b].cmp(&wins[a]).then(a.cmp(&b)));
    order.truncate(max_points.max(1));
    order
}
