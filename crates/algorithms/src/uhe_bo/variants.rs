//! The typed settings of each member of the family, one type per registry name: the GP-UCB
//! step they share ([`UheGpSettings`]) and what makes the member what it is. Each builds the
//! one algorithm of the family ([`UheBoRunner`](super::UheBoRunner)) with its switches set
//! ([`Variant`]).

use super::settings::{
    ADAPTIVE, AdaptiveScalingSettings, EXP3_PAIRS, Exp3PairSettings, M_FACTOR, MCMC, McmcSettings,
    PORTFOLIO, PairGamma, PortfolioArms, PortfolioSettings, SHARED, SHRINK, ShrinkingBoundSettings,
    UheGpSettings,
};
use super::{Arms, Estimator, FitData, Variant};
use crate::optimizer::AlgorithmSettings;
use bosweep_core::params::{ParamTable, ParamValue, Params};

/// Every parameter of `table` at its default, as the registry declares them for `name`.
fn defaults(name: &'static str, table: ParamTable) -> Params {
    Params::defaults("algorithm", name, &table.to_vec())
}

/// Typed settings of UHE-BO (`uhe-bo`; Ha, Nguyen, Zhang & van den Hengel 2023,
/// arXiv:2306.06844, Algorithm 1): EXP3 chooses, for each pair of iterations, between a
/// uniform point then a GP-UCB point and two GP-UCB points; θ is fitted by MAP on a
/// nearest-neighbour pseudo-dataset of uniform points (Eq. 2), unbiased where the adaptively
/// collected data are not.
///
/// ```
/// use bosweep_algorithms::{Optimizer, UheBo};
///
/// let mut opt = Optimizer::builder(UheBo::default().ucb_beta(4.0).m_factor(3.0))
///     .bounds(&[(-1.0, 1.0); 2])
///     .seed(7)
///     .init(4)
///     .minimize()
///     .build()?;
/// for _ in 0..6 {
///     for x in opt.ask(1)? {
///         let y = x[0].powi(2) + (x[1] - 0.5).powi(2);
///         opt.tell(&x, y)?;
///     }
/// }
/// assert_eq!(opt.recommend().map(<[f64]>::len), Some(2));
/// # Ok::<(), bosweep_algorithms::OptimizerError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct UheBo {
    /// The GP-UCB step.
    pub gp: UheGpSettings,
    /// Pseudo-dataset size `M_t = ⌈m_factor · |D_{t−1}|⌉` (default 2).
    pub m_factor: f64,
    /// EXP3 over iteration pairs.
    pub pairs: Exp3PairSettings,
}

impl UheBo {
    pub(super) const NAME: &'static str = "uhe-bo";
    pub(super) const PARAMETERS: ParamTable = ParamTable(&[SHARED, EXP3_PAIRS]);

    /// β of the UCB `μ + √β σ`.
    pub fn ucb_beta(mut self, beta: f64) -> Self {
        self.gp.ucb_beta = beta;
        self
    }

    /// Pseudo-points per observation.
    pub fn m_factor(mut self, m_factor: f64) -> Self {
        self.m_factor = m_factor;
        self
    }

    /// EXP3's γ_t over pairs.
    pub fn gamma(mut self, gamma: PairGamma) -> Self {
        self.pairs.gamma = gamma;
        self
    }

    /// The settings the registry's checked `params` give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            gp: UheGpSettings::from_params(params),
            m_factor: M_FACTOR.of(params),
            pairs: Exp3PairSettings::from_params(params),
        }
    }

    /// The algorithm's switches.
    pub(super) fn variant(self) -> Variant {
        Variant {
            gp: self.gp,
            arms: Arms::Pairs(self.pairs),
            fit_data: FitData::Pseudo {
                m_factor: self.m_factor,
            },
            estimator: Estimator::Point,
        }
    }
}

impl Default for UheBo {
    fn default() -> Self {
        Self::from_params(&defaults(Self::NAME, Self::PARAMETERS))
    }
}

impl AlgorithmSettings for UheBo {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.gp.given();
        given.push(M_FACTOR.given(self.m_factor));
        given.extend(self.pairs.given());
        given
    }
}

/// Typed settings of RA-BO (`ra-bo`), the algorithm Ha et al. (2023) analyse (Sec. 6,
/// Proposition 6.3 and Theorem 6.5) and ablate (Sec. 7.2): UHE-BO with arm 1 always, a uniform
/// point at every odd iteration and a GP-UCB point at every even one, θ on the pseudo-dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct RaBo {
    /// The GP-UCB step.
    pub gp: UheGpSettings,
    /// Pseudo-dataset size `M_t = ⌈m_factor · |D_{t−1}|⌉` (default 2).
    pub m_factor: f64,
}

impl RaBo {
    pub(super) const NAME: &'static str = "ra-bo";
    pub(super) const PARAMETERS: ParamTable = ParamTable(&[SHARED, &[M_FACTOR.spec()]]);

    /// β of the UCB `μ + √β σ`.
    pub fn ucb_beta(mut self, beta: f64) -> Self {
        self.gp.ucb_beta = beta;
        self
    }

    /// Pseudo-points per observation.
    pub fn m_factor(mut self, m_factor: f64) -> Self {
        self.m_factor = m_factor;
        self
    }

    /// The settings the registry's checked `params` give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            gp: UheGpSettings::from_params(params),
            m_factor: M_FACTOR.of(params),
        }
    }

    /// The algorithm's switches.
    pub(super) fn variant(self) -> Variant {
        Variant {
            gp: self.gp,
            arms: Arms::AlwaysRandom,
            fit_data: FitData::Pseudo {
                m_factor: self.m_factor,
            },
            estimator: Estimator::Point,
        }
    }
}

impl Default for RaBo {
    fn default() -> Self {
        Self::from_params(&defaults(Self::NAME, Self::PARAMETERS))
    }
}

impl AlgorithmSettings for RaBo {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.gp.given();
        given.push(M_FACTOR.given(self.m_factor));
        given
    }
}

/// Typed settings of Random+EXP3 (`random-exp3`), Ha et al.'s (2023, Sec. 7.2) ablation:
/// UHE-BO's EXP3 arm schedule with θ fitted by MAP on the real data. The registry declares
/// `m_factor` for it as for UHE-BO, but it fits no pseudo-data, so it has no field here.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomExp3 {
    /// The GP-UCB step.
    pub gp: UheGpSettings,
    /// EXP3 over iteration pairs.
    pub pairs: Exp3PairSettings,
}

impl RandomExp3 {
    pub(super) const NAME: &'static str = "random-exp3";
    pub(super) const PARAMETERS: ParamTable = ParamTable(&[SHARED, EXP3_PAIRS]);

    /// β of the UCB `μ + √β σ`.
    pub fn ucb_beta(mut self, beta: f64) -> Self {
        self.gp.ucb_beta = beta;
        self
    }

    /// EXP3's γ_t over pairs.
    pub fn gamma(mut self, gamma: PairGamma) -> Self {
        self.pairs.gamma = gamma;
        self
    }

    /// The settings the registry's checked `params` give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            gp: UheGpSettings::from_params(params),
            pairs: Exp3PairSettings::from_params(params),
        }
    }

    /// The algorithm's switches.
    pub(super) fn variant(self) -> Variant {
        Variant {
            gp: self.gp,
            arms: Arms::Pairs(self.pairs),
            fit_data: FitData::Real,
            estimator: Estimator::Point,
        }
    }
}

impl Default for RandomExp3 {
    fn default() -> Self {
        Self::from_params(&defaults(Self::NAME, Self::PARAMETERS))
    }
}

impl AlgorithmSettings for RandomExp3 {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.gp.given();
        given.extend(self.pairs.given());
        given
    }
}

/// Typed settings of MAP-GP-UCB (`map-gp-ucb`), UHE-BO's standard baseline (Ha et al. 2023,
/// Sec. 7): GP-UCB at every step, θ by MAP on the real data with the same priors.
#[derive(Clone, Debug, PartialEq)]
pub struct MapGpUcb {
    /// The GP-UCB step.
    pub gp: UheGpSettings,
}

impl MapGpUcb {
    pub(super) const NAME: &'static str = "map-gp-ucb";
    pub(super) const PARAMETERS: ParamTable = ParamTable(&[SHARED]);

    /// β of the UCB `μ + √β σ`.
    pub fn ucb_beta(mut self, beta: f64) -> Self {
        self.gp.ucb_beta = beta;
        self
    }

    /// The settings the registry's checked `params` give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            gp: UheGpSettings::from_params(params),
        }
    }

    /// The algorithm's switches.
    pub(super) fn variant(self) -> Variant {
        Variant {
            gp: self.gp,
            arms: Arms::AlwaysAcquisition,
            fit_data: FitData::Real,
            estimator: Estimator::Point,
        }
    }
}

impl Default for MapGpUcb {
    fn default() -> Self {
        Self::from_params(&defaults(Self::NAME, Self::PARAMETERS))
    }
}

impl AlgorithmSettings for MapGpUcb {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        self.gp.given()
    }
}

/// Typed settings of MCMC-GP-UCB (`mcmc-gp-ucb`), UHE-BO's baseline (Ha et al. 2023, Sec. 7
/// and App. C): θ sampled from its posterior on the real data, the UCB averaged over the
/// samples.
#[derive(Clone, Debug, PartialEq)]
pub struct McmcGpUcb {
    /// The GP-UCB step (its fit starts the chain).
    pub gp: UheGpSettings,
    /// The chain.
    pub mcmc: McmcSettings,
}

impl McmcGpUcb {
    pub(super) const NAME: &'static str = "mcmc-gp-ucb";
    pub(super) const PARAMETERS: ParamTable = ParamTable(&[SHARED, MCMC]);

    /// β of the UCB `μ + √β σ`.
    pub fn ucb_beta(mut self, beta: f64) -> Self {
        self.gp.ucb_beta = beta;
        self
    }

    /// Samples kept after `burn_in` sweeps.
    pub fn samples(mut self, burn_in: usize, samples: usize) -> Self {
        self.mcmc.burn_in = burn_in;
        self.mcmc.samples = samples;
        self
    }

    /// The settings the registry's checked `params` give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            gp: UheGpSettings::from_params(params),
            mcmc: McmcSettings::from_params(params),
        }
    }

    /// The algorithm's switches.
    pub(super) fn variant(self) -> Variant {
        Variant {
            gp: self.gp,
            arms: Arms::AlwaysAcquisition,
            fit_data: FitData::Real,
            estimator: Estimator::Mcmc(self.mcmc),
        }
    }
}

impl Default for McmcGpUcb {
    fn default() -> Self {
        Self::from_params(&defaults(Self::NAME, Self::PARAMETERS))
    }
}

impl AlgorithmSettings for McmcGpUcb {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.gp.given();
        given.extend(self.mcmc.given());
        given
    }
}

/// Typed settings of A-GP-UCB (`a-gp-ucb`; Berkenkamp, Schoellig & Krause 2019), UHE-BO's
/// baseline: the MAP lengthscales divided by a growing `g(t)`, so that the hypothesis space
/// keeps expanding.
#[derive(Clone, Debug, PartialEq)]
pub struct AGpUcb {
    /// The GP-UCB step.
    pub gp: UheGpSettings,
    /// The lengthscale schedule.
    pub adaptive: AdaptiveScalingSettings,
}

impl AGpUcb {
    pub(super) const NAME: &'static str = "a-gp-ucb";
    pub(super) const PARAMETERS: ParamTable = ParamTable(&[SHARED, ADAPTIVE]);

    /// β of the UCB `μ + √β σ`.
    pub fn ucb_beta(mut self, beta: f64) -> Self {
        self.gp.ucb_beta = beta;
        self
    }

    /// The reference regret `p(t) = t^exponent`.
    pub fn exponent(mut self, exponent: f64) -> Self {
        self.adaptive.exponent = exponent;
        self
    }

    /// The settings the registry's checked `params` give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            gp: UheGpSettings::from_params(params),
            adaptive: AdaptiveScalingSettings::from_params(params),
        }
    }

    /// The algorithm's switches.
    pub(super) fn variant(self) -> Variant {
        Variant {
            gp: self.gp,
            arms: Arms::AlwaysAcquisition,
            fit_data: FitData::Real,
            estimator: Estimator::AdaptiveScaling(self.adaptive),
        }
    }
}

impl Default for AGpUcb {
    fn default() -> Self {
        Self::from_params(&defaults(Self::NAME, Self::PARAMETERS))
    }
}

impl AlgorithmSettings for AGpUcb {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.gp.given();
        given.extend(self.adaptive.given());
        given
    }
}

/// Typed settings of Wang & de Freitas' method (`wang-de-freitas`; Wang & de Freitas 2014,
/// arXiv:1406.7758), UHE-BO's baseline: MAP under a lengthscale upper bound shrunk until the
/// posterior std at the proposal reaches κ.
#[derive(Clone, Debug, PartialEq)]
pub struct WangDeFreitas {
    /// The GP-UCB step.
    pub gp: UheGpSettings,
    /// The shrinking bound.
    pub shrink: ShrinkingBoundSettings,
}

impl WangDeFreitas {
    pub(super) const NAME: &'static str = "wang-de-freitas";
    pub(super) const PARAMETERS: ParamTable = ParamTable(&[SHARED, SHRINK]);

    /// β of the UCB `μ + √β σ`.
    pub fn ucb_beta(mut self, beta: f64) -> Self {
        self.gp.ucb_beta = beta;
        self
    }

    /// The posterior std κ the proposal must reach.
    pub fn kappa(mut self, kappa: f64) -> Self {
        self.shrink.kappa = kappa;
        self
    }

    /// The settings the registry's checked `params` give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            gp: UheGpSettings::from_params(params),
            shrink: ShrinkingBoundSettings::from_params(params),
        }
    }

    /// The algorithm's switches.
    pub(super) fn variant(self) -> Variant {
        Variant {
            gp: self.gp,
            arms: Arms::AlwaysAcquisition,
            fit_data: FitData::Real,
            estimator: Estimator::ShrinkingBound(self.shrink),
        }
    }
}

impl Default for WangDeFreitas {
    fn default() -> Self {
        Self::from_params(&defaults(Self::NAME, Self::PARAMETERS))
    }
}

impl AlgorithmSettings for WangDeFreitas {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.gp.given();
        given.extend(self.shrink.given());
        given
    }
}

/// Typed settings of Portfolio (`portfolio`; Hoffman, Brochu & de Freitas 2011), UHE-BO's
/// baseline: EXP3 at every step over a uniform point and the GP-UCB point (or GP-Hedge's EI,
/// PI and GP-UCB), θ by MAP on the real data.
#[derive(Clone, Debug, PartialEq)]
pub struct Portfolio {
    /// The GP-UCB step (and the GP of EI and PI).
    pub gp: UheGpSettings,
    /// The bandit over the arms.
    pub bandit: PortfolioSettings,
}

impl Portfolio {
    pub(super) const NAME: &'static str = "portfolio";
    pub(super) const PARAMETERS: ParamTable = ParamTable(&[SHARED, PORTFOLIO]);

    /// β of the UCB `μ + √β σ`.
    pub fn ucb_beta(mut self, beta: f64) -> Self {
        self.gp.ucb_beta = beta;
        self
    }

    /// The bandit's arms.
    pub fn arms(mut self, arms: PortfolioArms) -> Self {
        self.bandit.arms = arms;
        self
    }

    /// The settings the registry's checked `params` give.
    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            gp: UheGpSettings::from_params(params),
            bandit: PortfolioSettings::from_params(params),
        }
    }

    /// The algorithm's switches.
    pub(super) fn variant(self) -> Variant {
        Variant {
            gp: self.gp,
            arms: Arms::Portfolio(self.bandit),
            fit_data: FitData::Real,
            estimator: Estimator::Point,
        }
    }
}

impl Default for Portfolio {
    fn default() -> Self {
        Self::from_params(&defaults(Self::NAME, Self::PARAMETERS))
    }
}

impl AlgorithmSettings for Portfolio {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.gp.given();
        given.extend(self.bandit.given());
        given
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::acquisition::MaximizerSettings;
    use crate::testing::{registry_defaults, resolve};
    use crate::{Optimizer, ThetaLoss};

    /// A GP-UCB step with every field away from its default.
    fn changed_gp() -> UheGpSettings {
        UheGpSettings {
            ucb_beta: 4.0,
            loss: ThetaLoss::Mle,
            lengthscale: 0.5,
            signal_var: 2.0,
            noise_var: 0.05,
            random_starts: 5,
            maximizer: MaximizerSettings {
                grid_size: 512,
                top_k: 4,
                refine: false,
                max_iters: 30,
            },
        }
    }

    fn changed_pairs() -> Exp3PairSettings {
        Exp3PairSettings {
            gamma: PairGamma::Constant(0.3),
            reward_clip: true,
        }
    }

    #[test]
    fn defaults_are_the_registry_defaults() {
        let defaults: [&dyn AlgorithmSettings; 8] = [
            &UheBo::default(),
            &RaBo::default(),
            &RandomExp3::default(),
            &MapGpUcb::default(),
            &McmcGpUcb::default(),
            &AGpUcb::default(),
            &WangDeFreitas::default(),
            &Portfolio::default(),
        ];
        let names: Vec<&str> = defaults.iter().map(|s| s.name()).collect();
        let family: Vec<&str> = super::super::ENTRIES.iter().map(|e| e.name).collect();
        assert_eq!(names, family);
        for settings in defaults {
            assert_eq!(
                resolve(settings),
                registry_defaults(settings.name()),
                "{}",
                settings.name()
            );
        }
        let uhe = UheBo::default();
        assert_eq!(
            (uhe.gp.ucb_beta, uhe.gp.loss, uhe.gp.maximizer.top_k),
            (1.96, ThetaLoss::Map, 10)
        );
        assert_eq!((uhe.m_factor, uhe.pairs.gamma), (2.0, PairGamma::Paper));
        assert_eq!(uhe.gp.maximizer.grid_size, 0);
        assert_eq!(uhe.gp.grid_size(3), 3000);
        assert_eq!(McmcGpUcb::default().mcmc.burn_in, 200);
        assert_eq!(AGpUcb::default().adaptive.exponent, 0.9);
        assert_eq!(WangDeFreitas::default().shrink.kappa, 0.1);
        assert_eq!(Portfolio::default().bandit.arms, PortfolioArms::RandomUcb);
    }

    #[test]
    fn settings_with_every_field_changed_round_trip() {
        let uhe = UheBo {
            gp: changed_gp(),
            m_factor: 3.5,
            pairs: changed_pairs(),
        };
        assert_eq!(UheBo::from_params(&resolve(&uhe)), uhe);
        let ra = RaBo {
            gp: changed_gp(),
            m_factor: 0.5,
        };
        assert_eq!(RaBo::from_params(&resolve(&ra)), ra);
        let random = RandomExp3 {
            gp: changed_gp(),
            pairs: changed_pairs(),
        };
        assert_eq!(RandomExp3::from_params(&resolve(&random)), random);
        let map = MapGpUcb { gp: changed_gp() };
        assert_eq!(MapGpUcb::from_params(&resolve(&map)), map);
        let mcmc = McmcGpUcb {
            gp: changed_gp(),
            mcmc: McmcSettings {
                burn_in: 50,
                samples: 4,
                thin: 2,
                slice_width: 0.5,
            },
        };
        assert_eq!(McmcGpUcb::from_params(&resolve(&mcmc)), mcmc);
        let agp = AGpUcb {
            gp: changed_gp(),
            adaptive: AdaptiveScalingSettings {
                exponent: 0.7,
                ratio: 1.5,
            },
        };
        assert_eq!(AGpUcb::from_params(&resolve(&agp)), agp);
        let wdf = WangDeFreitas {
            gp: changed_gp(),
            shrink: ShrinkingBoundSettings {
                kappa: 0.2,
                shrink: 0.5,
                max_steps: 7,
            },
        };
        assert_eq!(WangDeFreitas::from_params(&resolve(&wdf)), wdf);
        let portfolio = Portfolio {
            gp: changed_gp(),
            bandit: PortfolioSettings {
                arms: PortfolioArms::EiPiUcb,
                pi_xi: 0.1,
                reward_clip: true,
            },
        };
        assert_eq!(Portfolio::from_params(&resolve(&portfolio)), portfolio);
    }

    #[test]
    fn setters_change_their_fields() {
        let uhe = UheBo::default()
            .ucb_beta(3.0)
            .m_factor(4.0)
            .gamma(PairGamma::Constant(0.2));
        assert_eq!(
            (uhe.gp.ucb_beta, uhe.m_factor, uhe.pairs.gamma),
            (3.0, 4.0, PairGamma::Constant(0.2))
        );
        assert_eq!(McmcGpUcb::default().samples(20, 3).mcmc.samples, 3);
        assert_eq!(
            Portfolio::default()
                .arms(PortfolioArms::EiPiUcb)
                .bandit
                .arms,
            PortfolioArms::EiPiUcb
        );
    }

    #[test]
    fn out_of_range_values_are_refused_by_name() {
        let message = |settings: &dyn AlgorithmSettings| match settings.build() {
            Ok(_) => panic!("{} built out of range", settings.name()),
            Err(e) => e.to_string(),
        };
        let beta = message(&UheBo::default().ucb_beta(-1.0));
        assert!(
            beta.contains("uhe-bo") && beta.contains("ucb_beta"),
            "{beta}"
        );
        let chain = message(&McmcGpUcb::default().samples(10, 0));
        assert!(chain.contains("mcmc_samples"), "{chain}");
        let gamma = message(&RandomExp3::default().gamma(PairGamma::Constant(2.0)));
        assert!(gamma.contains("parameter gamma "), "{gamma}");
        let kappa = message(&WangDeFreitas::default().kappa(-0.1));
        assert!(kappa.contains("wdf_kappa"), "{kappa}");
    }

    /// Minimises `(x₀ − 0.3)² + (x₁ + 0.2)²` on [−1, 1]² for `steps` steps after 4 initial
    /// points: every point asked, with its value, and the recommendation.
    fn run(settings: UheBo, steps: usize) -> (Vec<(Vec<f64>, f64)>, Vec<f64>) {
        let mut opt = Optimizer::builder(settings)
            .bounds(&[(-1.0, 1.0); 2])
            .seed(11)
            .init(4)
            .minimize()
            .build()
            .unwrap();
        let mut told = Vec::new();
        for _ in 0..4 + steps {
            for x in opt.ask(1).unwrap() {
                let y = (x[0] - 0.3).powi(2) + (x[1] + 0.2).powi(2);
                opt.tell(&x, y).unwrap();
                told.push((x, y));
            }
        }
        (told, opt.recommend().unwrap().to_vec())
    }

    #[test]
    fn the_optimizer_runs_uhe_bo_reproducibly_and_recommends_the_best_point() {
        let mut settings = UheBo::default().m_factor(1.0);
        settings.gp.maximizer.grid_size = 256;
        let (told, recommended) = run(settings.clone(), 6);
        assert_eq!(told.len(), 10);
        assert!(
            told.iter()
                .all(|(x, _)| x.iter().all(|v| (-1.0..=1.0).contains(v)))
        );
        let best = told
            .iter()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(x, _)| x.clone())
            .unwrap();
        assert_eq!(recommended, best);
        assert_eq!(run(settings, 6), (told, recommended));
    }
}
