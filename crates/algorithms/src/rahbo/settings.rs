//! Typed settings of the RAHBO family's four registry entries: each is the shared
//! [`RahboSettings`] and what the method adds (the objective GP's noise, RAHBO-US's rounds).

use super::config::{
    AlphaSource, FGP_NOISE, GP_UCB_HETERO_PARAMS, GPUCB_NOISE, Method, ObjectiveNoise,
    RAHBO_PARAMS, RAHBO_US_PARAMS, RahboSettings, Settings, US_ROUNDS,
};
use crate::optimizer::AlgorithmSettings;
use bosweep_core::params::{ParamTable, ParamValue, Params};

/// The registry's defaults of the entry `name` declaring `table`.
fn defaults(name: &'static str, table: ParamTable) -> Params {
    Params::defaults("algorithm", name, &table.to_vec())
}

/// The setters every member of the family has, on its [`RahboSettings`] (`shared`).
macro_rules! shared_setters {
    ($($settings:ty),+) => {$(
        impl $settings {
            /// Risk coefficient α of `f − α·ρ²`, used whatever α the problem has.
            pub fn alpha(mut self, alpha: f64) -> Self {
                self.shared.alpha = alpha;
                self.shared.alpha_source = AlphaSource::Parameter;
                self
            }

            /// Repeated evaluations per point.
            pub fn k(mut self, repeats: usize) -> Self {
                self.shared.k = repeats;
                self
            }

            /// Sobol candidates fixed for the run.
            pub fn grid_size(mut self, points: usize) -> Self {
                self.shared.grid_size = Some(points);
                self
            }
        }
    )+};
}

shared_setters!(Rahbo, RahboKnownVar, RahboUs, GpUcbHetero);

/// Typed settings of RAHBO (`rahbo`; Makarova et al., "Risk-averse Heteroscedastic Bayesian
/// Optimization", NeurIPS 2021, Algorithm 1): `k` repeats per point, a GP on the sample
/// variances and one on the sample means, the acquisition `ucb^f − α·lcb^var`.
///
/// ```
/// use bosweep_algorithms::{Optimizer, Rahbo};
///
/// let mut opt = Optimizer::builder(Rahbo::default().alpha(0.5).k(3).grid_size(64))
///     .bounds(&[(0.0, 2.0)])
///     .seed(3)
///     .init(3)
///     .maximize()
///     .build()?;
/// for _ in 0..5 {
///     for x in opt.ask(1)? {
///         // Three repeated evaluations, noisier to the right.
///         let ys: Vec<f64> = (0..3).map(|i| x[0].sin() + x[0] * (i as f64 - 1.0)).collect();
///         opt.tell_observation(&x, bosweep_problems::Observation::new(ys, None))?;
///     }
/// }
/// assert_eq!(opt.recommend().map(<[f64]>::len), Some(1));
/// # Ok::<(), bosweep_algorithms::OptimizerError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Rahbo {
    /// What the family shares.
    pub shared: RahboSettings,
    /// The objective GP's noise. Default: `Σ̂` of Eq. 16.
    pub objective_noise: ObjectiveNoise,
}

impl Default for Rahbo {
    fn default() -> Self {
        Self::from_params(&defaults("rahbo", RAHBO_PARAMS))
    }
}

impl Rahbo {
    /// Reads `rahbo`'s checked parameters.
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            shared: RahboSettings::from_params(p),
            objective_noise: FGP_NOISE.of(p),
        }
    }

    /// The method with its settings.
    pub(super) fn into_settings(self) -> Settings {
        Settings {
            method: Method::Rahbo {
                objective_noise: self.objective_noise,
            },
            shared: self.shared,
        }
    }
}

impl AlgorithmSettings for Rahbo {
    fn name(&self) -> &str {
        "rahbo"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.push(FGP_NOISE.given(self.objective_noise));
        given
    }
}

/// Typed settings of RAHBO with known variance (`rahbo-known-var`; Makarova et al. 2021,
/// Eq. 9): the problem's true noise variance `ρ²` in place of the variance GP, the acquisition
/// `ucb^f − α·ρ²` and the objective GP's noise `ρ²/k`; `k = 1` is allowed. The registry also
/// declares `fgp_noise` for it, which it does not use.
#[derive(Clone, Debug, PartialEq)]
pub struct RahboKnownVar {
    /// What the family shares; the variance GP's settings go unused.
    pub shared: RahboSettings,
}

impl Default for RahboKnownVar {
    fn default() -> Self {
        Self::from_params(&defaults("rahbo-known-var", RAHBO_PARAMS))
    }
}

impl RahboKnownVar {
    /// Reads `rahbo-known-var`'s checked parameters.
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            shared: RahboSettings::from_params(p),
        }
    }

    /// The method with its settings.
    pub(super) fn into_settings(self) -> Settings {
        Settings {
            method: Method::KnownVariance,
            shared: self.shared,
        }
    }
}

impl AlgorithmSettings for RahboKnownVar {
    fn name(&self) -> &str {
        "rahbo-known-var"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        self.shared.given()
    }
}

/// Typed settings of RAHBO-US (`rahbo-us`; Makarova et al. 2021, Section 4 and Appendix
/// A.6.2): uncertainty sampling of the variance GP for `us_rounds` rounds, then GP-UCB on
/// `f − α·max(μ^var, floor)`. The registry also declares `fgp_noise` for it, which it does not
/// use: its objective GP's noise is the plug-in `max(μ^var, floor)/k`.
#[derive(Clone, Debug, PartialEq)]
pub struct RahboUs {
    /// What the family shares.
    pub shared: RahboSettings,
    /// Rounds of uncertainty sampling on the variance GP before GP-UCB (the paper: 10 on
    /// Branin). Default 10.
    pub us_rounds: usize,
}

impl Default for RahboUs {
    fn default() -> Self {
        Self::from_params(&defaults("rahbo-us", RAHBO_US_PARAMS))
    }
}

impl RahboUs {
    /// Rounds of uncertainty sampling before GP-UCB.
    pub fn us_rounds(mut self, rounds: usize) -> Self {
        self.us_rounds = rounds;
        self
    }

    /// Reads `rahbo-us`'s checked parameters.
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            shared: RahboSettings::from_params(p),
            us_rounds: US_ROUNDS.of(p),
        }
    }

    /// The method with its settings.
    pub(super) fn into_settings(self) -> Settings {
        Settings {
            method: Method::UncertaintySampling {
                rounds: self.us_rounds,
            },
            shared: self.shared,
        }
    }
}

impl AlgorithmSettings for RahboUs {
    fn name(&self) -> &str {
        "rahbo-us"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.push(US_ROUNDS.given(self.us_rounds));
        given
    }
}

/// Typed settings of risk-neutral GP-UCB on the `k`-sample means with heteroscedastic fixed
/// noise (`gp-ucb-hetero`; the baseline of Makarova et al. 2021, Section 4), reporting the
/// point of largest `lcb^f`.
#[derive(Clone, Debug, PartialEq)]
pub struct GpUcbHetero {
    /// What the family shares; α enters only the empirical report rule.
    pub shared: RahboSettings,
    /// The objective GP's noise, which the paper leaves open. Default: `max(ŝ², ϱ_²)/k`.
    /// RAHBO's `Σ̂` makes this method RAHBO at α = 0.
    pub objective_noise: ObjectiveNoise,
}

impl Default for GpUcbHetero {
    fn default() -> Self {
        Self::from_params(&defaults("gp-ucb-hetero", GP_UCB_HETERO_PARAMS))
    }
}

impl GpUcbHetero {
    /// Reads `gp-ucb-hetero`'s checked parameters.
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            shared: RahboSettings::from_params(p),
            objective_noise: GPUCB_NOISE.of(p),
        }
    }

    /// The method with its settings.
    pub(super) fn into_settings(self) -> Settings {
        Settings {
            method: Method::GpUcb {
                objective_noise: self.objective_noise,
            },
            shared: self.shared,
        }
    }
}

impl AlgorithmSettings for GpUcbHetero {
    fn name(&self) -> &str {
        "gp-ucb-hetero"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.push(GPUCB_NOISE.given(self.objective_noise));
        given
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::{BetaMode, HyperparameterFit, PriorMean, ReportRule, VarianceNoise};
    use super::*;
    use crate::Optimizer;
    use crate::testing::{registry_defaults, resolve};
    use bosweep_problems::Observation;

    /// Every shared field away from its default.
    fn changed_shared() -> RahboSettings {
        RahboSettings {
            alpha: 2.5,
            alpha_source: AlphaSource::Parameter,
            k: 4,
            lambda: 0.5,
            beta: BetaMode::Theory {
                delta: 0.05,
                norm_f: 2.0,
                norm_var: 3.0,
            },
            variance_noise: VarianceNoise::Value(0.3),
            rho2_max: Some(4.0),
            rho2_min: Some(0.01),
            plugin_floor: 0.1,
            clamp_lcb_var: true,
            report: ReportRule::Corollary,
            fit: HyperparameterFit::Mle,
            prior_mean: PriorMean::Zero,
            refit_every: Some(3),
            initial_lengthscale: 0.5,
            grid_size: Some(128),
        }
    }

    #[test]
    fn defaults_are_the_registry_defaults() {
        assert_eq!(resolve(&Rahbo::default()), registry_defaults("rahbo"));
        assert_eq!(
            resolve(&RahboKnownVar::default()),
            registry_defaults("rahbo-known-var")
        );
        assert_eq!(resolve(&RahboUs::default()), registry_defaults("rahbo-us"));
        assert_eq!(
            resolve(&GpUcbHetero::default()),
            registry_defaults("gp-ucb-hetero")
        );
        let rahbo = Rahbo::default();
        assert_eq!(rahbo.shared.k, 10);
        assert_eq!(rahbo.shared.beta, BetaMode::Constant { f: 2.0, var: 2.0 });
        assert_eq!(rahbo.objective_noise, ObjectiveNoise::UcbVarOverK);
        assert_eq!(
            GpUcbHetero::default().objective_noise,
            ObjectiveNoise::SampleVarOverK
        );
        assert_eq!(RahboUs::default().us_rounds, 10);
    }

    #[test]
    fn every_field_changed_round_trips() {
        let rahbo = Rahbo {
            shared: changed_shared(),
            objective_noise: ObjectiveNoise::SampleVar,
        };
        assert_eq!(Rahbo::from_params(&resolve(&rahbo)), rahbo);
        let known = RahboKnownVar {
            shared: RahboSettings {
                beta: BetaMode::Constant { f: 1.5, var: 0.5 },
                variance_noise: VarianceNoise::Conservative,
                ..changed_shared()
            },
        };
        assert_eq!(RahboKnownVar::from_params(&resolve(&known)), known);
        let us = RahboUs {
            shared: changed_shared(),
            us_rounds: 3,
        };
        assert_eq!(RahboUs::from_params(&resolve(&us)), us);
        let hetero = GpUcbHetero {
            shared: changed_shared(),
            objective_noise: ObjectiveNoise::UcbVarOverK,
        };
        assert_eq!(GpUcbHetero::from_params(&resolve(&hetero)), hetero);
    }

    #[test]
    fn out_of_range_values_are_refused_by_name() {
        let message =
            |settings: &dyn AlgorithmSettings| settings.build().err().unwrap().to_string();
        assert!(message(&Rahbo::default().alpha(-1.0)).contains("parameter alpha = -1"));
        assert!(message(&RahboUs::default().k(0)).contains("parameter k = 0"));
        // The sample variance needs two repeats: only the known-variance method takes one.
        assert!(message(&Rahbo::default().k(1)).contains("k = 1"));
        assert!(RahboKnownVar::default().k(1).build().is_ok());
    }

    /// Asks and tells `rounds` points of `settings` on a 1-D function whose repeats spread
    /// more to the right; the points asked and the last recommendation.
    fn run(settings: impl AlgorithmSettings + 'static, seed: u64) -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut opt = Optimizer::builder(settings)
            .bounds(&[(0.0, 2.0)])
            .seed(seed)
            .init(3)
            .maximize()
            .build()
            .unwrap();
        let mut asked = Vec::new();
        for _ in 0..6 {
            for x in opt.ask(1).unwrap() {
                let repeats = opt.pending()[0].repeats;
                let ys = (0..repeats)
                    .map(|i| (3.0 * x[0]).sin() + x[0] * (i as f64 - 1.0))
                    .collect();
                opt.tell_observation(&x, Observation::new(ys, None))
                    .unwrap();
                asked.push(x);
            }
        }
        (asked, opt.recommend().unwrap().to_vec())
    }

    #[test]
    fn the_optimizer_runs_rahbo_reproducibly_inside_the_box() {
        let settings = || Rahbo::default().k(3).grid_size(64);
        let (asked, recommended) = run(settings(), 5);
        assert_eq!(asked.len(), 6);
        assert!(asked.iter().all(|x| (0.0..=2.0).contains(&x[0])));
        assert!(asked.contains(&recommended));
        assert_eq!(run(settings(), 5), (asked, recommended));
    }
}
