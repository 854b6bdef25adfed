//! How TuRBO-1 (`turbo`)'s settings become the algorithm.

use super::algorithm::{CandidateRule, TurboAlgorithm};
use super::sampling::check_sampling;
use super::settings::{Scbo, Turbo};
use bosweep_core::params::Params;
use bosweep_toolkit::Requirement;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError};

impl Method for Turbo {
    const NAME: &'static str = "turbo";
    const DESCRIPTION: &'static str = "TuRBO-1 (Eriksson et al. 2019): Thompson sampling from a GP in one trust region that doubles or halves on success or failure, restarted when it collapses";
    const REQUIRES: Requirement = Requirement::Continuous;

    /// The side lengths in increasing order, and no more candidates than the sampler takes.
    fn check(&self) -> Result<(), AlgorithmError> {
        check_sampling(Self::NAME, self.sampler, self.n_candidates)?;
        check_lengths(
            Self::NAME,
            self.length_min,
            self.length_init,
            self.length_max,
        )
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(TurboAlgorithm::new(
            params,
            self,
            CandidateRule::Turbo,
        )))
    }
}

impl Method for Scbo {
    const NAME: &'static str = "scbo";
    const DESCRIPTION: &'static str = "SCBO (Eriksson and Poloczek 2021): TuRBO-1 with a GP per black-box constraint, constrained Thompson sampling (the best sampled objective among the candidates sampled feasible, else the least sampled violation) and the region centred at the best feasible point, as BoTorch's SCBO tutorial runs it";
    const REQUIRES: Requirement = Requirement::Continuous;

    /// The side lengths in increasing order, as `turbo`'s.
    fn check(&self) -> Result<(), AlgorithmError> {
        check_lengths(
            Self::NAME,
            self.length_min,
            self.length_init,
            self.length_max,
        )
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(TurboAlgorithm::new(
            params,
            self.turbo(),
            CandidateRule::Scbo,
        )))
    }
}

/// Refuses side lengths out of increasing order, naming the algorithm.
fn check_lengths(
    algorithm: &str,
    length_min: f64,
    length_init: f64,
    length_max: f64,
) -> Result<(), AlgorithmError> {
    if length_min <= length_init && length_init <= length_max {
        return Ok(());
    }
    Err(AlgorithmError::Config(format!(
        "algorithm {algorithm}: length_min = {length_min}, length_init = {length_init}, \
         length_max = {length_max} must be in increasing order"
    )))
}
