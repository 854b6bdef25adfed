//! How SAASBO (`saasbo`)'s settings become the algorithm.

use super::algorithm::SaasboAlgorithm;
use super::settings::Saasbo;
use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

impl Method for Saasbo {
    const NAME: &'static str = "saasbo";
    const DESCRIPTION: &'static str = "SAASBO (Eriksson and Jankowiak 2021), fully Bayesian as BoTorch runs it: the SAAS model's hyperparameters drawn by NUTS at every step (512 warmup, 256 draws, every 16th kept), qLogNEI averaged over the 16 models in log space";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(SaasboAlgorithm::new(params, &self)))
    }
}
