//! The typed settings of each contextual method: the shared [`ContextualSettings`] and the
//! method's own parameters, read from and given back to the registry's declaration.

use super::drbo_mmd::DrboMmdRunner;
use super::kde_bo::{KdeBo, Method, MethodParts};
use super::settings::{
    ContextualSettings, DRBO_KDE_TABLE, DRBO_MMD_TABLE, INFIMUM_POINTS, KdeSettings, MINIMAX_GRID,
    MINIMAX_TABLE, MMD_GRID, MMD_RADIUS_SCALE, RADIUS_SCALE, SBO_KDE_TABLE, STABLEOPT_TABLE,
    UcbMultiplier, defaults,
};
use crate::AlgorithmError;
use crate::optimizer::AlgorithmSettings;
use bosweep_core::params::{ParamValue, Params};

/// Typed settings of SBO-KDE (`sbo-kde`; Huang, Song, Xue and Qian, AAAI 2024, Algorithm 1):
/// a joint GP over (decision, context), and at every step the mean UCB over M samples of a
/// kernel density estimate of the observed contexts, maximised in the decision.
///
/// ```
/// use bosweep_algorithms::{Optimizer, SboKde};
///
/// let mut settings = SboKde::default().ucb_multiplier(1.0);
/// settings.kde.samples = 64;
/// settings.shared.raw_samples = Some(64);
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
#[derive(Clone, Debug, PartialEq)]
pub struct SboKde {
    /// The joint GP, UCB multiplier, maximiser and context box.
    pub shared: ContextualSettings,
    /// The KDE of the context distribution.
    pub kde: KdeSettings,
}

impl Default for SboKde {
    fn default() -> Self {
        Self::from_params(&defaults("sbo-kde", SBO_KDE_TABLE))
    }
}

impl SboKde {
    /// A constant UCB multiplier κ (Huang et al.'s experiments: 1.5).
    pub fn ucb_multiplier(mut self, kappa: f64) -> Self {
        self.shared.ucb = UcbMultiplier::Constant(kappa);
        self
    }

    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            shared: ContextualSettings::from_params(params),
            kde: KdeSettings::from_params(params),
        }
    }

    pub(super) fn into_algorithm(self, params: Params) -> Result<KdeBo, AlgorithmError> {
        let parts = MethodParts {
            samples: self.kde.samples,
            bandwidth: self.kde.bandwidth,
            ..MethodParts::default()
        };
        KdeBo::new(params, Method::SboKde, &self.shared, parts)
    }
}

impl AlgorithmSettings for SboKde {
    fn name(&self) -> &str {
        "sbo-kde"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.extend(self.kde.given());
        given
    }
}

/// Typed settings of DRBO-KDE (`drbo-kde`; Huang et al., AAAI 2024, Algorithm 2): the worst
/// case of SBO-KDE's mean UCB over an L1 (total-variation) ball around the KDE, in closed form.
#[derive(Clone, Debug, PartialEq)]
pub struct DrboKde {
    /// The joint GP, UCB multiplier, maximiser and context box.
    pub shared: ContextualSettings,
    /// The KDE of the context distribution.
    pub kde: KdeSettings,
    /// Scrambled-Sobol context points, drawn once per step, for the infimum over the context
    /// box (default 1024).
    pub infimum_points: usize,
    /// The L1 radius (twice the total variation) is `l1_radius_scale · n^(−2/(4+Dc))` for n
    /// observed contexts (default 1, the paper's schedule; 0 gives SBO-KDE).
    pub l1_radius_scale: f64,
}

impl Default for DrboKde {
    fn default() -> Self {
        Self::from_params(&defaults("drbo-kde", DRBO_KDE_TABLE))
    }
}

impl DrboKde {
    /// A constant UCB multiplier κ (Huang et al.'s experiments: 1.5).
    pub fn ucb_multiplier(mut self, kappa: f64) -> Self {
        self.shared.ucb = UcbMultiplier::Constant(kappa);
        self
    }

    /// The scale of the L1 radius.
    pub fn l1_radius_scale(mut self, scale: f64) -> Self {
        self.l1_radius_scale = scale;
        self
    }

    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            shared: ContextualSettings::from_params(params),
            kde: KdeSettings::from_params(params),
            infimum_points: INFIMUM_POINTS.of(params),
            l1_radius_scale: RADIUS_SCALE.of(params),
        }
    }

    pub(super) fn into_algorithm(self, params: Params) -> Result<KdeBo, AlgorithmError> {
        let parts = MethodParts {
            samples: self.kde.samples,
            bandwidth: self.kde.bandwidth,
            infimum_points: self.infimum_points,
            radius_scale: self.l1_radius_scale,
            grid_size: 0,
        };
        KdeBo::new(params, Method::DrboKde, &self.shared, parts)
    }
}

impl AlgorithmSettings for DrboKde {
    fn name(&self) -> &str {
        "drbo-kde"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.extend(self.kde.given());
        given.extend([
            INFIMUM_POINTS.given(self.infimum_points),
            RADIUS_SCALE.given(self.l1_radius_scale),
        ]);
        given
    }
}

/// Typed settings of DRBO-MMD-MinimaxApprox (`drbo-mmd-minimax`; Tay et al. 2022): a
/// closed-form minimax approximation of the worst-case UCB expectation over an MMD ball around
/// the empirical context distribution on a context grid.
#[derive(Clone, Debug, PartialEq)]
pub struct DrboMmdMinimax {
    /// The joint GP, UCB multiplier, maximiser and context box.
    pub shared: ContextualSettings,
    /// Points of the context grid: the Cartesian product of `⌈grid_size^(1/Dc)⌉` points per
    /// coordinate (default 1024).
    pub grid_size: usize,
}

impl Default for DrboMmdMinimax {
    fn default() -> Self {
        Self::from_params(&defaults("drbo-mmd-minimax", MINIMAX_TABLE))
    }
}

impl DrboMmdMinimax {
    /// Points of the context grid.
    pub fn grid_size(mut self, points: usize) -> Self {
        self.grid_size = points;
        self
    }

    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            shared: ContextualSettings::from_params(params),
            grid_size: MINIMAX_GRID.of(params),
        }
    }

    pub(super) fn into_algorithm(self, params: Params) -> Result<KdeBo, AlgorithmError> {
        let parts = MethodParts {
            grid_size: self.grid_size,
            ..MethodParts::default()
        };
        KdeBo::new(params, Method::MinimaxApprox, &self.shared, parts)
    }
}

impl AlgorithmSettings for DrboMmdMinimax {
    fn name(&self) -> &str {
        "drbo-mmd-minimax"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.push(MINIMAX_GRID.given(self.grid_size));
        given
    }
}

/// Typed settings of DRBO-MMD (`drbo-mmd`; Kirschner, Bogunovic, Jegelka and Krause 2020): the
/// exact worst-case UCB expectation over an MMD ball around the empirical context distribution
/// on a grid, one convex program per evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct DrboMmd {
    /// The joint GP, UCB multiplier, maximiser and context box.
    pub shared: ContextualSettings,
    /// Points of the context grid: the Cartesian product of `⌈grid_size^(1/Dc)⌉` points per
    /// coordinate (default 100).
    pub grid_size: usize,
    /// The MMD radius is `mmd_radius_scale · (2 + √(2 ln 10))/√n` (default 1; 0 gives the
    /// expectation under the empirical grid distribution).
    pub mmd_radius_scale: f64,
}

impl Default for DrboMmd {
    fn default() -> Self {
        Self::from_params(&defaults("drbo-mmd", DRBO_MMD_TABLE))
    }
}

impl DrboMmd {
    /// Points of the context grid.
    pub fn grid_size(mut self, points: usize) -> Self {
        self.grid_size = points;
        self
    }

    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            shared: ContextualSettings::from_params(params),
            grid_size: MMD_GRID.of(params),
            mmd_radius_scale: MMD_RADIUS_SCALE.of(params),
        }
    }

    pub(super) fn into_algorithm(self, params: Params) -> Result<DrboMmdRunner, AlgorithmError> {
        DrboMmdRunner::new(params, &self.shared, self.grid_size, self.mmd_radius_scale)
    }
}

impl AlgorithmSettings for DrboMmd {
    fn name(&self) -> &str {
        "drbo-mmd"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.extend([
            MMD_GRID.given(self.grid_size),
            MMD_RADIUS_SCALE.given(self.mmd_radius_scale),
        ]);
        given
    }
}

/// Typed settings of StableOpt (`stableopt`; Bogunovic, Scarlett, Jegelka and Cevher 2018):
/// maximises the minimum UCB over the context box mean ± sd of the observed contexts.
#[derive(Clone, Debug, PartialEq)]
pub struct StableOpt {
    /// The joint GP, UCB multiplier, maximiser and context box.
    pub shared: ContextualSettings,
    /// Scrambled-Sobol context points, drawn once per step, for the minimum over the box
    /// (default 1024).
    pub infimum_points: usize,
}

impl Default for StableOpt {
    fn default() -> Self {
        Self::from_params(&defaults("stableopt", STABLEOPT_TABLE))
    }
}

impl StableOpt {
    /// A constant UCB multiplier κ (default 1.5).
    pub fn ucb_multiplier(mut self, kappa: f64) -> Self {
        self.shared.ucb = UcbMultiplier::Constant(kappa);
        self
    }

    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            shared: ContextualSettings::from_params(params),
            infimum_points: INFIMUM_POINTS.of(params),
        }
    }

    pub(super) fn into_algorithm(self, params: Params) -> Result<KdeBo, AlgorithmError> {
        let parts = MethodParts {
            infimum_points: self.infimum_points,
            ..MethodParts::default()
        };
        KdeBo::new(params, Method::StableOpt, &self.shared, parts)
    }
}

impl AlgorithmSettings for StableOpt {
    fn name(&self) -> &str {
        "stableopt"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.push(INFIMUM_POINTS.given(self.infimum_points));
        given
    }
}
