//! How TuRBO-1 (`turbo`)'s settings become the algorithm.

use super::algorithm::TurboAlgorithm;
use super::sampling::check_sampling;
use super::settings::Turbo;
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
        if self.length_min <= self.length_init && self.length_init <= self.length_max {
            return Ok(());
        }
        Err(AlgorithmError::Config(format!(
            "algorithm turbo: length_min = {}, length_init = {}, length_max = {} must be in increasing order",
            self.length_min, self.length_init, self.length_max
        )))
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(TurboAlgorithm::new(params, self)))
    }
}
