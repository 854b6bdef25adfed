//! Thompson sampling over a finite candidate set, drawn jointly (Eriksson et al., NeurIPS 2019,
//! Section 2: a batch is the arg-maxima of `q` sample paths of the GP posterior over the
//! candidates). The joint posterior's kernel blocks come from the engine
//! ([`Engine::cross_covariance`], the batch operation a GPU runs); the conditioning and the
//! Cholesky factor of the `m × m` posterior covariance are computed on the CPU in f64.

use nalgebra::{DMatrix, DVector};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::{GpState, jittered_cholesky, largest_jitter};
use bosweep_toolkit::surrogate::OutputTransform;

/// The GP's joint posterior of the latent function over `m` candidates (in the GP's units):
/// its mean and a lower-triangular factor `L` with `L Lᵀ = Σ + jitter · I`.
#[derive(Clone, Debug)]
pub(super) struct JointPosterior {
    mean: DVector<f64>,
    factor: DMatrix<f64>,
    jitter: f64,
}

impl JointPosterior {
    /// The posterior of `gp` at `candidates`: `μ = m + K_xcᵀ α`,
    /// `Σ = (K_cc − (L⁻¹K_xc)ᵀ (L⁻¹K_xc)) / λ`, as [`GpState`] defines them, then factorised with
    /// the smallest jitter of [`bosweep_model::JITTER_LADDER`] that succeeds.
    pub fn new(
        engine: &dyn Engine,
        gp: &GpState,
        candidates: &Points,
    ) -> Result<Self, EngineError> {
        let kernel = gp.kernel();
        let mut covariance = engine.cross_covariance(kernel, candidates, candidates)?;
        let cross = engine.cross_covariance(kernel, gp.train(), candidates)?;
        let mean = cross.tr_mul(gp.alpha()).add_scalar(gp.mean());
        let whitened = gp.linv() * &cross;
        covariance.gemm(-1.0, &whitened.transpose(), &whitened, 1.0);
        covariance /= gp.lambda();
        let m = covariance.nrows();
        let (factor, jitter) = jittered_cholesky(&covariance).ok_or_else(|| {
            EngineError::invalid(format!(
                "the posterior covariance of {m} candidates is not positive definite even with \
                 jitter {:e}",
                largest_jitter(&covariance)
            ))
        })?;
        Ok(Self {
            mean,
            factor,
            jitter,
        })
    }

    /// The diagonal jitter the factorisation needed (0 when none).
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// The posterior mean at each candidate.
    pub fn mean(&self) -> &[f64] {
        self.mean.as_slice()
    }

    /// The factor `L` (lower triangular) of the jittered posterior covariance.
    #[cfg(test)]
    pub fn factor(&self) -> &DMatrix<f64> {
        &self.factor
    }

    /// One sample path `μ + L z` at the candidates, `z` standard normal from `rng`.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Vec<f64> {
        let z = DVector::from_iterator(
            self.mean.len(),
            (0..self.mean.len()).map(|_| StandardNormal.sample(rng)),
        );
        let mut path = self.mean.clone();
        path.gemv(1.0, &self.factor, &z, 1.0);
        path.as_slice().to_vec()
    }
}

/// A batch's Thompson draws on one fitted model: each ask draws a new, independent sample path
/// and takes its arg-max among the candidates not yet chosen, so that a batch never holds a
/// candidate twice (drawing the `q` paths one ask at a time is drawing them jointly: they share
/// the posterior and are independent given it).
#[derive(Clone, Debug)]
pub(super) struct ThompsonBatch {
    posterior: JointPosterior,
    chosen: Vec<bool>,
}

impl ThompsonBatch {
    /// Draws on `posterior`, nothing chosen yet.
    pub fn new(posterior: JointPosterior) -> Self {
        let m = posterior.mean().len();
        Self {
            posterior,
            chosen: vec![false; m],
        }
    }

    /// Whether some candidate is still unchosen.
    pub fn has_unchosen(&self) -> bool {
        self.chosen.contains(&false)
    }

    /// The candidate (index) of the next sample path's maximum among those not chosen yet (the
    /// lowest index among ties); `None` once every candidate is chosen.
    pub fn next(&mut self, rng: &mut ChaCha8Rng) -> Option<usize> {
        if !self.has_unchosen() {
            return None;
        }
        let path = self.posterior.sample(rng);
        let best = (0..path.len())
            .filter(|&i| !self.chosen[i])
            .reduce(|b, i| if path[i] > path[b] { i } else { b })?;
        self.chosen[best] = true;
        Some(best)
    }

    /// SCBO's constrained Thompson sampling (Eriksson and Poloczek 2021; BoTorch's
    /// `ConstrainedMaxPosteriorSampling`): a new path of the objective, then one of each
    /// constraint (`constraints`: its joint posterior over the candidates and the map from its
    /// GP's units to its own), all from `rng`; among the candidates not chosen yet, the
    /// objective path's maximum over those whose constraint paths are all ≤ 0, else (none is)
    /// the smallest total violation `Σ_j max(c_j, 0)`; the lowest index among ties.
    pub fn next_constrained(
        &mut self,
        constraints: &[(JointPosterior, OutputTransform)],
        rng: &mut ChaCha8Rng,
    ) -> Option<usize> {
        if !self.has_unchosen() {
            return None;
        }
        let path = self.posterior.sample(rng);
        let mut violation = vec![0.0; path.len()];
        for (posterior, output) in constraints {
            for (v, c) in violation.iter_mut().zip(posterior.sample(rng)) {
                *v += output.inverse(c).max(0.0);
            }
        }
        let unchosen = || (0..path.len()).filter(|&i| !self.chosen[i]);
        let best = if unchosen().any(|i| violation[i] == 0.0) {
            unchosen()
                .filter(|&i| violation[i] == 0.0)
                .reduce(|b, i| if path[i] > path[b] { i } else { b })
        } else {
            unchosen().reduce(|b, i| if violation[i] < violation[b] { i } else { b })
        }?;
        self.chosen[best] = true;
        Some(best)
    }
}
