//! How BAxUS (`baxus`)'s settings become the algorithm.

use super::algorithm::BaxusAlgorithm;
use super::settings::Baxus;
use crate::turbo::check_sampling;
use bosweep_core::params::Params;
use bosweep_toolkit::Requirement;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError};

impl Method for Baxus {
    const NAME: &'static str = "baxus";
    const DESCRIPTION: &'static str = "BAxUS (Papenmeier et al. 2022): TuRBO-1 in a sparse random embedding whose target dimensions split as the trust region collapses, up to the input dimension";
    const REQUIRES: Requirement = Requirement::Continuous;

    /// The side lengths in increasing order, and no more candidates than the sampler takes.
    fn check(&self) -> Result<(), AlgorithmError> {
        check_sampling(Self::NAME, self.sampler, self.n_candidates)?;
        if self.length_min <= self.length_init && self.length_init <= self.length_max {
            return Ok(());
        }
        Err(AlgorithmError::Config(format!(
            "algorithm baxus: length_min = {}, length_init = {}, length_max = {} must be in increasing order",
            self.length_min, self.length_init, self.length_max
        )))
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(BaxusAlgorithm::new(params, self)))
    }
}
