//! How each member's settings become its runner: the kernel-regression runner of BOKE and its
//! ablations, KR-UCB's, and the BOKE paper's GP-UCB.

use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

use super::family::FamilyState;
use super::gp_ucb_fixed::GpUcbFixedRunner;
use super::ikr::{BokeRunner, StepRule};
use super::kr_ucb::KrUcbRunner;
use super::settings::{Boke, BokePlus, DensityExploration, GpUcbFixed, KrUcb};

impl Method for GpUcbFixed {
    const NAME: &'static str = "gp-ucb-fixed";
    const DESCRIPTION: &'static str = "the BOKE paper's GP-UCB: RBF GP, fixed β, length scale by ML-II on the initial design then frozen";
    const REQUIRES: Requirement = Requirement::Continuous;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(GpUcbFixedRunner {
            state: FamilyState::new(params, self.search.lhs_init),
            search: self.search.config(),
            beta: self.beta,
            noise_var: self.noise_var,
            lengthscale: (self.lengthscale > 0.0).then_some(self.lengthscale),
        }))
    }
}

impl Method for Boke {
    const NAME: &'static str = "boke";
    const DESCRIPTION: &'static str =
        "BOKE (Zhu et al.): maximise NW mean + √β_t·W_t^(−1/2) (IKR-UCB), Scott bandwidth, no GP";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let rule = StepRule::Mixed {
            p: 1.0,
            dedupe_exploit: false,
        };
        Ok(Box::new(BokeRunner::new(params, self.ikr, rule)))
    }
}

impl Method for BokePlus {
    const NAME: &'static str = "boke-plus";
    const DESCRIPTION: &'static str =
        "BOKE+: IKR-UCB step with probability p, else pure exploitation argmax of the NW mean";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let rule = StepRule::Mixed {
            p: self.p,
            dedupe_exploit: self.dedupe_exploit,
        };
        Ok(Box::new(BokeRunner::new(params, self.ikr, rule)))
    }
}

impl Method for DensityExploration {
    const NAME: &'static str = "density-exploration";
    const DESCRIPTION: &'static str =
        "pure density-based exploration: argmin of the unnormalised KDE W_t (Eq. 3.10)";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(BokeRunner::new(
            params,
            self.ikr,
            StepRule::DensityExploration,
        )))
    }
}

impl Method for KrUcb {
    const NAME: &'static str = "kr-ucb";
    const DESCRIPTION: &'static str = "KR-UCB (Yee et al. 2016): UCB over sampled points with NW mean and KDE counts, progressive widening";
    const REQUIRES: Requirement = Requirement::Continuous;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(KrUcbRunner {
            state: FamilyState::new(params, self.search.lhs_init),
            surrogate: self.surrogate,
            widening: self.widening,
        }))
    }
}
