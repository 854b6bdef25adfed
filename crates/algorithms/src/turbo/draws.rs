//! One step of TuRBO's trust-region search, shared by `turbo` and `baxus` (which takes it in its
//! embedding's target space): the GP refitted to the restart's data, candidates in the region
//! around their best point, and Thompson draws over them (from their joint posterior, or by
//! pathwise conditioning: [`Sampling`]), which a batch's asks share until a value is told.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;

use super::candidates::perturbed_candidates;
use super::pathwise::PathwiseBatch;
use super::sampling::{Sampling, ThompsonSampler};
use super::thompson::{JointPosterior, ThompsonBatch};
use super::trust_region::TrustRegion;
use bosweep_engine::{Engine, Points};
use bosweep_toolkit::surrogate::{GpModel, OutputTransform};
use bosweep_toolkit::{
    AlgorithmError, AskContext, GpSettings, History, StepCost, fit_gp_model, gp_memory_bytes,
};

/// A batch's draws by either sampler.
enum Batch {
    Exact(ThompsonBatch),
    Pathwise(PathwiseBatch),
}

/// The Thompson draws of one fit: the candidates (unit cube of the searched space) and the
/// batch's draws on them, valid while no value has been told since (`told` observations in
/// all).
pub(crate) struct Draws {
    told: usize,
    candidates: Points,
    batch: Batch,
    jitter: f64,
    /// Each black-box constraint's joint posterior over the candidates, with the map from its
    /// GP's units to the constraint's (SCBO's constrained Thompson sampling; none without
    /// constraints).
    constraints: Vec<(JointPosterior, OutputTransform)>,
}

impl Draws {
    /// A fresh fit of `gp` to `data` (in `ctx.domain`'s coordinates, warm-started from
    /// `previous`), `sampling.candidates` candidates in `region` around the data's best point
    /// and (exact sampler) their joint posterior, when `told` observations have been told; the
    /// fit's seconds and the rest's go to `cost`. Returns the draws and the fit (the next fit's
    /// warm start).
    #[allow(clippy::too_many_arguments)]
    pub fn fit(
        gp: &GpSettings,
        data: &History,
        previous: Option<&GpModel>,
        region: &TrustRegion,
        sampling: Sampling,
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
        let candidates = perturbed_candidates(&centre, bounds, sampling.candidates, ctx.rng)?;
        let (batch, jitter) = match sampling.sampler {
            ThompsonSampler::Exact => {
                let posterior = JointPosterior::new(ctx.engine, model.state(), &candidates)?;
                let jitter = posterior.jitter();
                (Batch::Exact(ThompsonBatch::new(posterior)), jitter)
            }
            ThompsonSampler::Pathwise => {
                let state = model.state();
                let batch = PathwiseBatch::new(state.clone(), sampling.features);
                (Batch::Pathwise(batch), state.jitter())
            }
        };
        cost.acq_seconds += start.elapsed().as_secs_f64();
        let draws = Self {
            told,
            candidates,
            batch,
            jitter,
            constraints: Vec::new(),
        };
        Ok((draws, model))
    }

    /// Makes the draws SCBO's: each of the constraints' `models` gets its joint posterior over
    /// the candidates, and [`Self::next`] draws one path of each beside the objective's. The
    /// exact sampler only: the pathwise sampler's engine keeps a path's maximum, not its
    /// values, which the feasibility of each candidate needs.
    pub fn constrain(
        &mut self,
        engine: &dyn Engine,
        models: &[GpModel],
    ) -> Result<(), AlgorithmError> {
        if models.is_empty() {
            return Ok(());
        }
        if !matches!(self.batch, Batch::Exact(_)) {
            return Err(AlgorithmError::Config(
                "black-box constraints take Thompson sampling with sampler = exact".into(),
            ));
        }
        self.constraints = models
            .iter()
            .map(|model| {
                let posterior = JointPosterior::new(engine, model.state(), &self.candidates)?;
                self.jitter = self.jitter.max(posterior.jitter());
                Ok((posterior, model.output_transform()))
            })
            .collect::<Result<_, AlgorithmError>>()?;
        Ok(())
    }

    /// Whether an ask with points pending (`pending`) after `told` observations may draw from
    /// these: nothing was told since they were made and a candidate is left.
    pub fn serve(&self, pending: bool, told: usize) -> bool {
        let left = match &self.batch {
            Batch::Exact(batch) => batch.has_unchosen(),
            Batch::Pathwise(batch) => batch.has_unchosen(self.candidates.rows()),
        };
        pending && self.told == told && left
    }

    /// The Cholesky jitter of the joint posterior (exact sampler) or of the GP's own factor
    /// (pathwise sampler, which factorises nothing else).
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// The next sample path's best candidate not chosen yet, in unit-cube coordinates (the
    /// pathwise sampler's found by `engine`); an error once every candidate is chosen
    /// ([`Self::serve`] says whether one is left).
    pub fn next(
        &mut self,
        engine: &dyn Engine,
        rng: &mut ChaCha8Rng,
    ) -> Result<&[f64], AlgorithmError> {
        let chosen = match &mut self.batch {
            Batch::Exact(batch) if !self.constraints.is_empty() => {
                batch.next_constrained(&self.constraints, rng)
            }
            Batch::Exact(batch) => batch.next(rng),
            Batch::Pathwise(batch) => batch.next(engine, &self.candidates, rng)?,
        };
        let chosen = chosen.ok_or_else(|| {
            AlgorithmError::Config(format!(
                "every one of the {} Thompson-sampling candidates is already in the batch",
                self.candidates.rows()
            ))
        })?;
        Ok(self.candidates.row(chosen))
    }
}

/// A GP's memory (with no grid) plus the draws', for `sampling.candidates` (`m`) per step, a
/// run of `budget` (`n`) evaluations in `dim` dimensions: with the exact sampler the
/// candidates' joint posterior (the covariance and its factor, `m × m` each, and the `n × m`
/// cross-covariance); with the pathwise sampler the candidates (`m × d`), a path's basis and
/// weights (`F × (d + 2) + 2n`) and a copy of the GP's factor (`n × n`).
pub(crate) fn draws_memory_bytes(sampling: Sampling, budget: usize, dim: usize) -> u64 {
    let m = sampling.candidates as u64;
    let n = budget as u64;
    let d = dim as u64;
    let draws = match sampling.sampler {
        ThompsonSampler::Exact => (2 * m)
            .saturating_mul(m)
            .saturating_add(m.saturating_mul(2 * n + d + 2)),
        ThompsonSampler::Pathwise => {
            let features = sampling.features as u64;
            m.saturating_mul(d)
                .saturating_add(features.saturating_mul(d + 2))
                .saturating_add(n.saturating_mul(n + 2))
        }
    };
    gp_memory_bytes(budget, dim, 0).saturating_add(draws.saturating_mul(8))
}
