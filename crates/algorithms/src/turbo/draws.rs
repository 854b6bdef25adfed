//! One step of TuRBO's trust-region search, shared by `turbo` and `baxus` (which takes it in its
//! embedding's target space): the GP refitted to the restart's data, candidates in the region
//! around their best point, and Thompson draws from the joint posterior over them, which a
//! batch's asks share until a value is told.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;

use super::candidates::perturbed_candidates;
use super::thompson::{JointPosterior, ThompsonBatch};
use super::trust_region::TrustRegion;
use bosweep_engine::Points;
use bosweep_toolkit::surrogate::GpModel;
use bosweep_toolkit::{
    AlgorithmError, AskContext, GpSettings, History, StepCost, fit_gp_model, gp_memory_bytes,
};

/// The Thompson draws of one fit: the candidates (unit cube of the searched space) and the
/// batch's draws on them, valid while no value has been told since (`told` observations in
/// all).
pub(crate) struct Draws {
    told: usize,
    candidates: Points,
    batch: ThompsonBatch,
    jitter: f64,
}

impl Draws {
    /// A fresh fit of `gp` to `data` (in `ctx.domain`'s coordinates, warm-started from
    /// `previous`), `count` candidates in `region` around the data's best point and their joint
    /// posterior, when `told` observations have been told; the fit's seconds and the rest's go
    /// to `cost`. Returns the draws and the fit (the next fit's warm start).
    #[allow(clippy::too_many_arguments)]
    pub fn fit(
        gp: &GpSettings,
        data: &History,
        previous: Option<&GpModel>,
        region: &TrustRegion,
        count: usize,
        told: usize,
        ctx: &mut AskContext<'_>,
        cost: &mut StepCost,
    ) -> Result<(Self, GpModel), AlgorithmError> {
        let start = Instant::now();
        let model = fit_gp_model(gp, data, previous, ctx)?;
        cost.model_seconds += start.elapsed().as_secs_f64();
        let start = Instant::now();
        let centre = ctx.domain.to_unit(&data.best_x());
        let bounds = region.bounds(&centre, model.state().kernel().lengthscales());
        let candidates = perturbed_candidates(&centre, bounds, count, ctx.rng)?;
        let posterior = JointPosterior::new(ctx.engine, model.state(), &candidates)?;
        let jitter = posterior.jitter();
        cost.acq_seconds += start.elapsed().as_secs_f64();
        let draws = Self {
            told,
            candidates,
            batch: ThompsonBatch::new(posterior),
            jitter,
        };
        Ok((draws, model))
    }

    /// Whether an ask with points pending (`pending`) after `told` observations may draw from
    /// these: nothing was told since they were made and a candidate is left.
    pub fn serve(&self, pending: bool, told: usize) -> bool {
        pending && self.told == told && self.batch.has_unchosen()
    }

    /// The Cholesky jitter of the joint posterior.
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// The next sample path's best candidate not chosen yet, in unit-cube coordinates.
    ///
    /// # Panics
    /// If every candidate is chosen ([`Self::serve`] says whether one is left).
    pub fn next(&mut self, rng: &mut ChaCha8Rng) -> &[f64] {
        let chosen = self.batch.next(rng).expect("a candidate is left");
        self.candidates.row(chosen)
    }
}

/// A GP's memory (with no grid) plus the candidates' joint posterior: the covariance and its
/// factor (`m × m` each) and the `n × m` cross-covariance, for `candidates` (`m`) per step, a
/// run of `budget` (`n`) evaluations in `dim` dimensions.
pub(crate) fn draws_memory_bytes(candidates: usize, budget: usize, dim: usize) -> u64 {
    let m = candidates as u64;
    let n = budget as u64;
    let posterior = (2 * m)
        .saturating_mul(m)
        .saturating_add(m.saturating_mul(2 * n + dim as u64 + 2));
    gp_memory_bytes(budget, dim, 0).saturating_add(posterior.saturating_mul(8))
}
