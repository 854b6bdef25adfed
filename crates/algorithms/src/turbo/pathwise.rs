//! Thompson sampling by pathwise conditioning (`sampler = pathwise`): each ask draws a new
//! path of the GP's posterior ([`PosteriorPaths`], its own random Fourier basis, so that a
//! batch's paths are independent given the posterior as the exact sampler's are) and takes the
//! engine's arg-max over the candidates not chosen yet; a batch never holds a candidate twice,
//! as with the exact sampler.

use rand_chacha::ChaCha8Rng;

use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::GpState;
use bosweep_toolkit::acquisition::PosteriorPaths;

/// A batch's pathwise draws on one fitted model.
#[derive(Clone, Debug)]
pub(super) struct PathwiseBatch {
    gp: GpState,
    features: usize,
    /// The candidates chosen so far, in order.
    chosen: Vec<usize>,
}

impl PathwiseBatch {
    /// Draws on `gp`'s posterior with `features` random Fourier features per path.
    pub fn new(gp: GpState, features: usize) -> Self {
        Self {
            gp,
            features,
            chosen: Vec::new(),
        }
    }

    /// Whether some of `candidates` candidates is still unchosen.
    pub fn has_unchosen(&self, candidates: usize) -> bool {
        self.chosen.len() < candidates
    }

    /// The candidate (index) of a new sample path's maximum among those not chosen yet, found
    /// by `engine`; `None` once every candidate is chosen.
    pub fn next(
        &mut self,
        engine: &dyn Engine,
        candidates: &Points,
        rng: &mut ChaCha8Rng,
    ) -> Result<Option<usize>, EngineError> {
        if !self.has_unchosen(candidates.rows()) {
            return Ok(None);
        }
        let paths = PosteriorPaths::draw(&self.gp, self.features, 1, rng)?;
        let best = paths.maxima(engine, candidates, &self.chosen)?[0].index;
        self.chosen.push(best);
        Ok(Some(best))
    }
}
