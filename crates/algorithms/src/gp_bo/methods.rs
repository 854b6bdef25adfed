//! How each GP baseline's settings become a [`GpBo`]: its registry name, description and
//! acquisition.

use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

use super::algorithm::{Acquisition, GpBo};
use super::settings::{Ei, GpUcb, LogEi, QLogNei, SaasboMap, UcbSchedule};

impl GpUcb {
    fn acquisition(&self) -> Acquisition {
        match self.beta_schedule {
            UcbSchedule::Constant => Acquisition::UcbMultiplier(self.ucb_multiplier),
            UcbSchedule::Srinivas => Acquisition::UcbSrinivas { delta: self.delta },
        }
    }
}

impl Method for GpUcb {
    const NAME: &'static str = "gp-ucb";
    const DESCRIPTION: &'static str = "GP upper confidence bound μ + κσ (constant κ = ucb_multiplier, or κ = √β_t of Srinivas et al.)";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let acquisition = self.acquisition();
        Ok(Box::new(
            GpBo::new(params, self.gp, &self.maximizer, acquisition)
                .with_batch(self.pending, self.bucb_c),
        ))
    }
}

/// An EI method (`ei`, `logei`): the two differ in their settings' model defaults only.
macro_rules! ei_method {
    ($settings:ident, $name:literal, $description:literal) => {
        impl Method for $settings {
            const NAME: &'static str = $name;
            const DESCRIPTION: &'static str = $description;
            const REQUIRES: Requirement = Requirement::Any;

            fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
                Ok(Box::new(
                    GpBo::new(
                        params,
                        self.gp,
                        &self.maximizer,
                        Acquisition::ExpectedImprovement,
                    )
                    .with_batch(self.pending, 0.0),
                ))
            }
        }
    };
}

ei_method!(
    Ei,
    "ei",
    "GP expected improvement over the best observation (maximised as log EI)"
);

ei_method!(
    LogEi,
    "logei",
    "LogEI (Ament et al. 2023): log expected improvement on BoTorch's default GP model (RBF kernel without outputscale, dimension-scaled priors, noise variance ≥ 1e-4)"
);

/// A qLogNEI method (`qlognei`, `saasbo-map`): the two differ in their settings' model defaults
/// only.
macro_rules! qlognei_method {
    ($settings:ident, $name:literal, $description:literal) => {
        impl Method for $settings {
            const NAME: &'static str = $name;
            const DESCRIPTION: &'static str = $description;
            const REQUIRES: Requirement = Requirement::Any;

            fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
                let acquisition = Acquisition::QLogNoisyExpectedImprovement {
                    samples: self.mc_samples,
                    prune: self.prune_baseline,
                    constraint_eta: self.constraint_eta,
                };
                Ok(Box::new(GpBo::new(
                    params,
                    self.gp,
                    &self.maximizer,
                    acquisition,
                )))
            }
        }
    };
}

qlognei_method!(
    QLogNei,
    "qlognei",
    "qLogNEI (Ament et al. 2023), BoTorch's default acquisition: the noisy batch LogEI over QMC samples of the joint posterior, on BoTorch's default GP model; batches point by point with the pending points sampled jointly; on a constrained problem, BoTorch's constrained qLogNEI (a GP per constraint, the best feasible value per sample, the smoothed feasibility indicator ln fatmoid(−c/η))"
);

qlognei_method!(
    SaasboMap,
    "saasbo-map",
    "SAASBO (Eriksson and Jankowiak 2021) with BoTorch's MAP SAAS model in place of NUTS: qLogNEI on a Matérn-5/2 GP whose lengthscales carry the SAAS prior (τ/ℓ² ~ HalfCauchy(1), τ ~ HalfCauchy(0.1)), all hyperparameters fitted jointly by MAP"
);
