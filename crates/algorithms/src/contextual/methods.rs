//! How each contextual method's settings become its algorithm: the KDE methods' [`KdeBo`] with
//! its [`Method`], and the MMD methods' runner.

use super::drbo_mmd::DrboMmdRunner;
use super::kde_bo::{KdeBo, Method, MethodParts};
use super::settings::{ContextualSettings, DrboKde, DrboMmd, DrboMmdMinimax, SboKde, StableOpt};
use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method as Declared;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

/// The KDE-family algorithm of `method` with its `parts`, the settings it shares in `shared`.
fn kde_bo(
    params: Params,
    method: Method,
    shared: &ContextualSettings,
    parts: MethodParts,
) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    Ok(Box::new(KdeBo::new(params, method, shared, parts)))
}

/// The `check` of a method whose only check is its context box.
macro_rules! context_box_checked {
    () => {
        fn check(&self) -> Result<(), AlgorithmError> {
            self.shared.check(Self::NAME)
        }
    };
}

impl Declared for SboKde {
    const NAME: &'static str = "sbo-kde";
    const DESCRIPTION: &'static str = "SBO-KDE: joint GP over (x, c), maximises the mean UCB over M samples of a KDE of the observed contexts";
    const REQUIRES: Requirement = Requirement::Context;

    context_box_checked!();

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let parts = MethodParts {
            samples: self.kde.samples,
            bandwidth: self.kde.bandwidth,
            ..MethodParts::default()
        };
        kde_bo(params, Method::SboKde, &self.shared, parts)
    }
}

impl Declared for DrboKde {
    const NAME: &'static str = "drbo-kde";
    const DESCRIPTION: &'static str = "DRBO-KDE: the worst-case mean UCB over an L1 (total-variation) ball around the KDE, closed form";
    const REQUIRES: Requirement = Requirement::Context;

    context_box_checked!();

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let parts = MethodParts {
            samples: self.kde.samples,
            bandwidth: self.kde.bandwidth,
            infimum_points: self.infimum.infimum_points,
            radius_scale: self.l1_radius_scale,
            grid_size: 0,
        };
        kde_bo(params, Method::DrboKde, &self.shared, parts)
    }
}

impl Declared for DrboMmdMinimax {
    const NAME: &'static str = "drbo-mmd-minimax";
    const DESCRIPTION: &'static str = "DRBO-MMD-MinimaxApprox: closed-form minimax approximation of the worst case over an MMD ball on a context grid";
    const REQUIRES: Requirement = Requirement::Context;

    context_box_checked!();

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let parts = MethodParts {
            grid_size: self.grid_size,
            ..MethodParts::default()
        };
        kde_bo(params, Method::MinimaxApprox, &self.shared, parts)
    }
}

impl Declared for DrboMmd {
    const NAME: &'static str = "drbo-mmd";
    const DESCRIPTION: &'static str = "DRBO-MMD (Kirschner et al. 2020): the exact worst-case mean UCB over an MMD ball around the empirical context distribution on a grid (a convex program per candidate, Clarabel)";
    const REQUIRES: Requirement = Requirement::Context;

    context_box_checked!();

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(DrboMmdRunner::new(
            params,
            &self.shared,
            self.grid_size,
            self.mmd_radius_scale,
        )))
    }
}

impl Declared for StableOpt {
    const NAME: &'static str = "stableopt";
    const DESCRIPTION: &'static str =
        "StableOpt: maximises min UCB over the context box mean ± std of the observed contexts";
    const REQUIRES: Requirement = Requirement::Context;

    context_box_checked!();

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let parts = MethodParts {
            infimum_points: self.infimum.infimum_points,
            ..MethodParts::default()
        };
        kde_bo(params, Method::StableOpt, &self.shared, parts)
    }
}
