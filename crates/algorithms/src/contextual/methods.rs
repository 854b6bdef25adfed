//! The typed settings of each contextual method: the shared [`ContextualSettings`] and the
//! method's own parameters.

use super::drbo_mmd::DrboMmdRunner;
use super::kde_bo::{KdeBo, Method, MethodParts};
use super::settings::{ContextualSettings, InfimumSettings, KdeSettings};
use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method as Declared;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

/// The `check` of a method whose only check is its context box.
macro_rules! context_box_checked {
    () => {
        fn check(&self) -> Result<(), AlgorithmError> {
            self.shared.check(Self::NAME)
        }
    };
}

bosweep_core::settings! {
    /// Typed settings of SBO-KDE (`sbo-kde`; Huang, Song, Xue and Qian, AAAI 2024,
    /// Algorithm 1): a joint GP over (decision, context), and at every step the mean UCB over M
    /// samples of a kernel density estimate of the observed contexts, maximised in the decision.
    ///
    /// ```
    /// use bosweep_algorithms::{Optimizer, SboKde};
    ///
    /// let settings = SboKde::default()
    ///     .shared(|s| s.ucb_multiplier(1.0).raw_samples(64))
    ///     .kde(|kde| kde.samples(64));
    /// let mut opt = Optimizer::builder(settings)
    ///     .bounds(&[(0.0, 1.0)])
    ///     .context_bounds(&[(0.0, 1.0)])
    ///     .seed(3)
    ///     .init(3)
    ///     .maximize()
    ///     .build()?;
    /// for step in 0..4 {
    ///     let x = opt.ask(1)?.remove(0);
    ///     let c = 0.25 * (step % 3) as f64;
    ///     let y = -(x[0] - c).powi(2);
    ///     opt.tell_observation(&x, bosweep_problems::Observation::new(vec![y], Some(vec![c])))?;
    /// }
    /// assert_eq!(opt.steps(), 4);
    /// # Ok::<(), bosweep_algorithms::OptimizerError>(())
    /// ```
    pub struct SboKde {
        /// The joint GP, UCB multiplier, maximiser and context box.
        shared: ContextualSettings = ContextualSettings::default() => {},
        /// The KDE of the context distribution.
        kde: KdeSettings = KdeSettings::default() => {},
    }
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
        Ok(Box::new(KdeBo::new(
            params,
            Method::SboKde,
            &self.shared,
            parts,
        )))
    }
}

bosweep_core::settings! {
    /// Typed settings of DRBO-KDE (`drbo-kde`; Huang et al., AAAI 2024, Algorithm 2): the worst
    /// case of SBO-KDE's mean UCB over an L1 (total-variation) ball around the KDE, in closed
    /// form.
    pub struct DrboKde {
        /// The joint GP, UCB multiplier, maximiser and context box.
        shared: ContextualSettings = ContextualSettings::default() => {},
        /// The KDE of the context distribution.
        kde: KdeSettings = KdeSettings::default() => {},
        /// The context points of the worst case.
        infimum: InfimumSettings = InfimumSettings::default() => {},
        /// For n observed contexts; the default 1 is the paper's schedule.
        l1_radius_scale: f64 = 1.0 => (
            "DRBO-KDE's L1 radius (twice TV) is δ = l1_radius_scale · n^{−2/(4+Dc)}; 0 gives SBO-KDE",
            0.0,
            1e6
        ),
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
        Ok(Box::new(KdeBo::new(
            params,
            Method::DrboKde,
            &self.shared,
            parts,
        )))
    }
}

bosweep_core::settings! {
    /// Typed settings of DRBO-MMD-MinimaxApprox (`drbo-mmd-minimax`; Tay et al. 2022): a
    /// closed-form minimax approximation of the worst-case UCB expectation over an MMD ball
    /// around the empirical context distribution on a context grid.
    pub struct DrboMmdMinimax {
        /// The joint GP, UCB multiplier, maximiser and context box.
        shared: ContextualSettings = ContextualSettings::default() => {},
        grid_size: usize = 1024 => (
            "context grid: the Cartesian product of ⌈grid_size^{1/Dc}⌉ points per coordinate",
            1,
            1 << 16
        ),
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
        Ok(Box::new(KdeBo::new(
            params,
            Method::MinimaxApprox,
            &self.shared,
            parts,
        )))
    }
}

bosweep_core::settings! {
    /// Typed settings of DRBO-MMD (`drbo-mmd`; Kirschner, Bogunovic, Jegelka and Krause 2020):
    /// the exact worst-case UCB expectation over an MMD ball around the empirical context
    /// distribution on a grid, one convex program per evaluation.
    pub struct DrboMmd {
        /// The joint GP, UCB multiplier, maximiser and context box.
        shared: ContextualSettings = ContextualSettings::default() => {},
        grid_size: usize = 100 => (
            "context grid: the Cartesian product of ⌈grid_size^{1/Dc}⌉ points per coordinate",
            1,
            1 << 12
        ),
        mmd_radius_scale: f64 = 1.0 => (
            "the MMD radius is ε = mmd_radius_scale · (2 + √(2 ln 10))/√n; 0 gives the expectation under the empirical grid distribution",
            0.0,
            1e6
        ),
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

bosweep_core::settings! {
    /// Typed settings of StableOpt (`stableopt`; Bogunovic, Scarlett, Jegelka and Cevher 2018):
    /// maximises the minimum UCB over the context box mean ± sd of the observed contexts.
    pub struct StableOpt {
        /// The joint GP, UCB multiplier, maximiser and context box.
        shared: ContextualSettings = ContextualSettings::default() => {},
        /// The context points of the worst case.
        infimum: InfimumSettings = InfimumSettings::default() => {},
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
        Ok(Box::new(KdeBo::new(
            params,
            Method::StableOpt,
            &self.shared,
            parts,
        )))
    }
}
