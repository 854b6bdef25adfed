//! How `logei-pof`'s settings become its algorithm.

use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

use super::algorithm::ConstrainedLogEi;
use super::settings::LogEiPof;

impl Method for LogEiPof {
    const NAME: &'static str = "logei-pof";
    const DESCRIPTION: &'static str = "LogEI × probability of feasibility (Gardner et al. 2014; Gelbart et al. 2014), BoTorch's LogConstrainedExpectedImprovement: log EI over the best feasible value plus Σ log Φ(−μ_j/σ_j) of one GP per constraint (BoTorch's default model each); the log probability of feasibility alone until a point is feasible";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(ConstrainedLogEi::new(
            params,
            self.gp,
            self.maximizer.config(),
        )))
    }
}
