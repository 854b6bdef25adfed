//! Each method of the family as a registry entry: its name, line and requirement, its checks,
//! and the algorithm its settings make.

use super::algorithm::RahboAlgorithm;
use super::settings::{GpUcbHetero, Rahbo, RahboKnownVar, RahboUs, RunSettings, Variant};
use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

impl Method for Rahbo {
    const NAME: &'static str = "rahbo";
    const DESCRIPTION: &'static str = "RAHBO: k repeats per point, variance-proxy GP, acquisition ucb^f − α·lcb^var, lcb^MV reporting";
    const REQUIRES: Requirement = Requirement::Any;

    fn check(&self) -> Result<(), AlgorithmError> {
        self.risk.check_repeats(Self::NAME)
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant::Rahbo {
            objective_noise: self.fgp_noise,
        };
        RahboAlgorithm::boxed(RunSettings::new(variant, self.risk, self.models), params)
    }
}

impl Method for RahboKnownVar {
    const NAME: &'static str = "rahbo-known-var";
    const DESCRIPTION: &'static str =
        "RAHBO with the true noise variance ρ² (Eq. 9 oracle): ucb^f − α·ρ², f-GP noise ρ²/k";
    const REQUIRES: Requirement = Requirement::KnownNoiseVariance;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let settings = RunSettings::new(Variant::KnownVariance, self.risk, self.models);
        RahboAlgorithm::boxed(settings, params)
    }
}

impl Method for RahboUs {
    const NAME: &'static str = "rahbo-us";
    const DESCRIPTION: &'static str =
        "RAHBO-US: uncertainty sampling of the variance GP, then GP-UCB on f − α·max(μ^var, floor)";
    const REQUIRES: Requirement = Requirement::Any;

    fn check(&self) -> Result<(), AlgorithmError> {
        self.risk.check_repeats(Self::NAME)
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant::UncertaintySampling {
            rounds: self.us_rounds,
        };
        RahboAlgorithm::boxed(RunSettings::new(variant, self.risk, self.models), params)
    }
}

impl Method for GpUcbHetero {
    const NAME: &'static str = "gp-ucb-hetero";
    const DESCRIPTION: &'static str = "risk-neutral GP-UCB on the k-sample means with heteroscedastic fixed noise, lcb^f reporting";
    const REQUIRES: Requirement = Requirement::Any;

    fn check(&self) -> Result<(), AlgorithmError> {
        self.risk.check_repeats(Self::NAME)
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant::GpUcb {
            objective_noise: self.gpucb_noise.0,
        };
        RahboAlgorithm::boxed(RunSettings::new(variant, self.risk, self.models), params)
    }
}
