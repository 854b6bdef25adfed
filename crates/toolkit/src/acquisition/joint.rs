//! The joint posterior of one GP at a fixed set of points and one candidate at a time, sampled
//! with fixed base normals, as BoTorch's noisy MC acquisitions sample it (qLogNEI, qLogNEHVI).
//!
//! The fixed points' part is drawn once: `μ_F + L_F z_F`, `L_F` the Cholesky factor of their
//! posterior covariance. A candidate `x` adds one row to that factor, so each of its draws is
//! `μ(x) + cᵀ L_F⁻ᵀ z_F + σ_own z`, with `c` its posterior covariance with the fixed points and
//! `σ_own² = σ²(x) − ‖L_F⁻¹ c‖²`. Over a grid, the kernel matrices and posterior come from the
//! engine, the factor's new rows from dense products on the CPU.

use nalgebra::{DMatrix, DMatrixView};

use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::{GpState, jittered_cholesky, largest_jitter};

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
pub(crate) fn jittered_factor(
    covariance: DMatrix<f64>,
    what: &str,
) -> Result<DMatrix<f64>, EngineError> {
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
