//! How each multi-objective GP method's settings become its algorithm.

use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

use super::algorithm::{MultiObjectiveAcquisition, MultiObjectiveBo, MultiObjectiveSettings};
use super::settings::{QLogNParEgoSettings, QLogNehvi};

/// A multi-objective GP method: its settings become a [`MultiObjectiveBo`] maximising
/// `$acquisition`.
macro_rules! multi_objective_method {
    ($settings:ident, $name:literal, $acquisition:expr, $description:literal) => {
        impl Method for $settings {
            const NAME: &'static str = $name;
            const DESCRIPTION: &'static str = $description;
            const REQUIRES: Requirement = Requirement::Any;

            fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
                let settings = MultiObjectiveSettings {
                    constraint_eta: self.constraint_eta,
                    maximize: self.maximizer.config(),
                    gp: self.gp,
                    mc_samples: self.mc_samples,
                    prune_baseline: self.prune_baseline,
                };
                Ok(Box::new(MultiObjectiveBo::new(
                    params,
                    Self::NAME,
                    $acquisition,
                    settings,
                )))
            }
        }
    };
}

multi_objective_method!(
    QLogNehvi,
    "qlognehvi",
    MultiObjectiveAcquisition::HypervolumeImprovement,
    "qLogNEHVI (Daulton et al. 2021; Ament et al. 2023), BoTorch's default for several objectives: the noisy expected hypervolume improvement in log space over QMC samples of independent GPs (BoTorch's default model each), the box decompositions and candidates × samples × cells on the engine; batches point by point with the pending points joining the front; on a constrained problem, BoTorch's constrained qLogNEHVI (a GP per constraint, each sample's front of its feasible points, the smoothed feasibility indicator)"
);

multi_objective_method!(
    QLogNParEgoSettings,
    "qlognparego",
    MultiObjectiveAcquisition::ParEgo,
    "qLogNParEGO (Daulton et al. 2020; Ament et al. 2023), BoTorch's: qLogNEI of a random augmented Chebyshev scalarisation (new simplex weights at every ask) of QMC samples of independent GPs (BoTorch's default model each); batches point by point with the pending points joining the observed ones; on a constrained problem, BoTorch's constrained qLogNParEGO (a GP per constraint, the best feasible scalarised value per sample, the smoothed feasibility indicator)"
);
