//! How CMA-ES (`cmaes`)'s settings become the algorithm.

use super::algorithm::CmaesAlgorithm;
use super::settings::Cmaes;
use bosweep_core::params::Params;
use bosweep_toolkit::Requirement;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError};

impl Method for Cmaes {
    const NAME: &'static str = "cmaes";
    const DESCRIPTION: &'static str = "CMA-ES (Hansen's tutorial, 2016) with IPOP restarts (Auger and Hansen 2005) in the unit cube, mirrored at the bounds; model-free";
    const REQUIRES: Requirement = Requirement::Continuous;

    /// A population of one has no spread to adapt.
    fn check(&self) -> Result<(), AlgorithmError> {
        if self.popsize == 1 {
            return Err(AlgorithmError::Config(
                "algorithm cmaes: parameter popsize = 1 is invalid (must be 0 or at least 2)"
                    .into(),
            ));
        }
        Ok(())
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(CmaesAlgorithm::new(params, self)))
    }
}
