//! How each multi-objective GP method's settings become its algorithm.

use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

use super::algorithm::MultiObjectiveBo;
use super::settings::QLogNehvi;

impl Method for QLogNehvi {
    const NAME: &'static str = "qlognehvi";
    const DESCRIPTION: &'static str = "qLogNEHVI (Daulton et al. 2021; Ament et al. 2023), BoTorch's default for several objectives: the noisy expected hypervolume improvement in log space over QMC samples of independent GPs (BoTorch's default model each), the box decompositions and candidates × samples × cells on the engine; batches point by point with the pending points joining the front";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(MultiObjectiveBo::new(params, self)))
    }
}
