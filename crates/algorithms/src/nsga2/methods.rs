//! How NSGA-II (`nsga2`)'s settings become the algorithm.

use super::algorithm::Nsga2Algorithm;
use super::settings::Nsga2;
use bosweep_core::params::Params;
use bosweep_toolkit::Requirement;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError};

impl Method for Nsga2 {
    const NAME: &'static str = "nsga2";
    const DESCRIPTION: &'static str = "NSGA-II (Deb et al. 2002): non-dominated sorting and crowding, SBX and polynomial mutation with pymoo's defaults, in the unit cube; model-free, several objectives";
    const REQUIRES: Requirement = Requirement::Continuous;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(Nsga2Algorithm::new(params, self)))
    }
}
