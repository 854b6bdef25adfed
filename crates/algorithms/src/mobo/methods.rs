//! How each multi-objective GP method's settings become its algorithm.

use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

use super::algorithm::{MultiObjectiveAcquisition, MultiObjectiveBo, MultiObjectiveSettings};
use super::settings::{QLogNParEgoSettings, QLogNehvi};

impl Method for QLogNehvi {
    const NAME: &'static str = "qlognehvi";
    const DESCRIPTION: &'static str = "qLogNEHVI (Daulton et al. 2021; Ament et al. 2023), BoTorch's default for several objectives: the noisy expected hypervolume improvement in log space over QMC samples of independent GPs (BoTorch's default model each), the box decompositions and candidates × samples × cells on the engine; batches point by point with the pending points joining the front";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let settings = MultiObjectiveSettings {
            maximize: self.maximizer.config(),
            gp: self.gp,
            mc_samples: self.mc_samples,
            prune_baseline: self.prune_baseline,
        };
        Ok(Box::new(MultiObjectiveBo::new(
            params,
            Self::NAME,
            MultiObjectiveAcquisition::HypervolumeImprovement,
            settings,
        )))
    }
}

impl Method for QLogNParEgoSettings {
    const NAME: &'static str = "qlognparego";
    const DESCRIPTION: &'static str = "qLogNParEGO (Daulton et al. 2020; Ament et al. 2023), BoTorch's: qLogNEI of a random augmented Chebyshev scalarisation (new simplex weights at every ask) of QMC samples of independent GPs (BoTorch's default model each); batches point by point with the pending points joining the observed ones";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let settings = MultiObjectiveSettings {
            maximize: self.maximizer.config(),
            gp: self.gp,
            mc_samples: self.mc_samples,
            prune_baseline: self.prune_baseline,
        };
        Ok(Box::new(MultiObjectiveBo::new(
            params,
            Self::NAME,
            MultiObjectiveAcquisition::ParEgo,
            settings,
        )))
    }
}
