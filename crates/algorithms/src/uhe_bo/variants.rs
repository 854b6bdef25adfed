//! The typed settings of each member of the family, one type per registry name, each
//! declaring exactly its own parameters: the GP-UCB step they share ([`UheGpSettings`]) and
//! what makes the member what it is. Each builds the one algorithm of the family
//! ([`UheBoRunner`]) with its switches set ([`Variant`]).

use super::estimators::{AdaptiveScaling, Mcmc, PointEstimate, ShrinkingBound};
use super::settings::{Exp3PairSettings, PortfolioArms, PseudoData, RewardClip, UheGpSettings};
use super::{Arms, FitData, UheBoRunner, Variant};
use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmEntry, AlgorithmError, Requirement};

/// UHE-BO, its ablations and its baselines, as `bosweep` builds them by name.
pub(crate) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::of::<UheBo>(),
    AlgorithmEntry::of::<RaBo>(),
    AlgorithmEntry::of::<RandomExp3>(),
    AlgorithmEntry::of::<MapGpUcb>(),
    AlgorithmEntry::of::<McmcGpUcb>(),
    AlgorithmEntry::of::<AGpUcb>(),
    AlgorithmEntry::of::<WangDeFreitas>(),
    AlgorithmEntry::of::<Portfolio>(),
];

/// The family's algorithm with `variant`'s switches; `params` (the settings `variant` was
/// built from) go to the trace header.
fn runner(variant: Variant, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    Ok(Box::new(UheBoRunner::new(params, variant)))
}

bosweep_core::settings! {
    /// Typed settings of UHE-BO (`uhe-bo`; Ha, Nguyen, Zhang & van den Hengel 2023,
    /// arXiv:2306.06844, Algorithm 1): EXP3 chooses, for each pair of iterations, between a
    /// uniform point then a GP-UCB point and two GP-UCB points; θ is fitted by MAP on a
    /// nearest-neighbour pseudo-dataset of uniform points (Eq. 2), unbiased where the adaptively
    /// collected data are not.
    ///
    /// ```
    /// use bosweep_algorithms::{Optimizer, UheBo};
    ///
    /// let settings = UheBo::default()
    ///     .gp(|gp| gp.ucb_beta(4.0))
    ///     .pseudo(|p| p.m_factor(3.0));
    /// let mut opt = Optimizer::builder(settings)
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
    pub struct UheBo {
        /// The GP-UCB step.
        gp: UheGpSettings = UheGpSettings::default() => {},
        /// The pseudo-dataset θ is fitted on.
        pseudo: PseudoData = PseudoData::default() => {},
        /// EXP3 over iteration pairs.
        pairs: Exp3PairSettings = Exp3PairSettings::default() => {},
    }
}

impl Method for UheBo {
    const NAME: &'static str = "uhe-bo";
    const DESCRIPTION: &'static str = "UHE-BO (Ha et al. 2023, arXiv:2306.06844): EXP3 over pairs {random+UCB, UCB+UCB}, θ by MAP on nearest-neighbour pseudo-data, GP-UCB μ + √β σ";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant {
            gp: self.gp,
            arms: Arms::Pairs(self.pairs),
            fit_data: FitData::Pseudo {
                m_factor: self.pseudo.m_factor,
            },
            estimator: Box::new(PointEstimate),
        };
        runner(variant, params)
    }
}

bosweep_core::settings! {
    /// Typed settings of RA-BO (`ra-bo`), the algorithm Ha et al. (2023) analyse (Sec. 6,
    /// Proposition 6.3 and Theorem 6.5) and ablate (Sec. 7.2): UHE-BO with arm 1 always, a
    /// uniform point at every odd iteration and a GP-UCB point at every even one, θ on the
    /// pseudo-dataset.
    pub struct RaBo {
        /// The GP-UCB step.
        gp: UheGpSettings = UheGpSettings::default() => {},
        /// The pseudo-dataset θ is fitted on.
        pseudo: PseudoData = PseudoData::default() => {},
    }
}

impl Method for RaBo {
    const NAME: &'static str = "ra-bo";
    const DESCRIPTION: &'static str = "RA-BO (UHE-BO ablation): random point at every odd step, GP-UCB at every even step, θ on pseudo-data";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant {
            gp: self.gp,
            arms: Arms::AlwaysRandom,
            fit_data: FitData::Pseudo {
                m_factor: self.pseudo.m_factor,
            },
            estimator: Box::new(PointEstimate),
        };
        runner(variant, params)
    }
}

bosweep_core::settings! {
    /// Typed settings of Random+EXP3 (`random-exp3`), Ha et al.'s (2023, Sec. 7.2) ablation:
    /// UHE-BO's EXP3 arm schedule with θ fitted by MAP on the real data.
    pub struct RandomExp3 {
        /// The GP-UCB step.
        gp: UheGpSettings = UheGpSettings::default() => {},
        /// Declared as for UHE-BO, so that the two take the same parameters; unused, since
        /// Random+EXP3 fits no pseudo-data.
        pseudo: PseudoData = PseudoData::default() => {},
        /// EXP3 over iteration pairs.
        pairs: Exp3PairSettings = Exp3PairSettings::default() => {},
    }
}

impl Method for RandomExp3 {
    const NAME: &'static str = "random-exp3";
    const DESCRIPTION: &'static str =
        "Random+EXP3 (UHE-BO ablation): UHE-BO's EXP3 arm schedule, θ by MAP on the real data";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant {
            gp: self.gp,
            arms: Arms::Pairs(self.pairs),
            fit_data: FitData::Real,
            estimator: Box::new(PointEstimate),
        };
        runner(variant, params)
    }
}

bosweep_core::settings! {
    /// Typed settings of MAP-GP-UCB (`map-gp-ucb`), UHE-BO's standard baseline (Ha et al.
    /// 2023, Sec. 7): GP-UCB at every step, θ by MAP on the real data with the same priors.
    pub struct MapGpUcb {
        /// The GP-UCB step.
        gp: UheGpSettings = UheGpSettings::default() => {},
    }
}

impl Method for MapGpUcb {
    const NAME: &'static str = "map-gp-ucb";
    const DESCRIPTION: &'static str = "MAP-GP-UCB (UHE-BO's baseline): GP-UCB μ + √β σ every step, θ by MAP with Gamma(1e-3, 10) priors, best observed y recommended";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant {
            gp: self.gp,
            arms: Arms::AlwaysAcquisition,
            fit_data: FitData::Real,
            estimator: Box::new(PointEstimate),
        };
        runner(variant, params)
    }
}

bosweep_core::settings! {
    /// Typed settings of MCMC-GP-UCB (`mcmc-gp-ucb`), UHE-BO's baseline (Ha et al. 2023,
    /// Sec. 7 and App. C): θ slice-sampled from its posterior on the real data, in log space,
    /// the UCB averaged over the samples (the paper runs HMC, Neal 2011, with 200 burn-in and
    /// 10 kept samples).
    pub struct McmcGpUcb {
        /// The GP-UCB step (its fit starts the chain).
        gp: UheGpSettings = UheGpSettings::default() => {},
        mcmc_burn_in: usize = 200 => (
            "slice-sampling sweeps discarded before the kept samples (paper: 200 HMC burn-in)",
            0,
            1_000_000
        ),
        mcmc_samples: usize = 10 => (
            "hyperparameter samples kept, the UCB averaged over them (paper: 10)",
            1,
            10_000
        ),
        mcmc_thin: usize = 1 => ("sweeps between kept samples", 1, 10_000),
        slice_width: f64 = 1.0 => (
            "initial slice width in log-hyperparameter units",
            1e-3,
            100.0
        ),
    }
}

impl Method for McmcGpUcb {
    const NAME: &'static str = "mcmc-gp-ucb";
    const DESCRIPTION: &'static str = "MCMC-GP-UCB (UHE-BO's baseline): θ slice-sampled from its posterior (200 burn-in sweeps, 10 samples), UCB averaged over the samples";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant {
            gp: self.gp,
            arms: Arms::AlwaysAcquisition,
            fit_data: FitData::Real,
            estimator: Box::new(Mcmc::new(
                self.mcmc_burn_in,
                self.mcmc_samples,
                self.mcmc_thin,
                self.slice_width,
            )),
        };
        runner(variant, params)
    }
}

bosweep_core::settings! {
    /// Typed settings of A-GP-UCB (`a-gp-ucb`; Berkenkamp, Schoellig & Krause 2019), UHE-BO's
    /// baseline: the MAP lengthscales divided by a growing `g(t)`, capped by the reference
    /// regret `p(t) = t^agp_exponent`, so that the hypothesis space keeps expanding.
    pub struct AGpUcb {
        /// The GP-UCB step.
        gp: UheGpSettings = UheGpSettings::default() => {},
        /// In [0.5, 1]; 0.9 as UHE-BO's paper sets it.
        agp_exponent: f64 = 0.9 => ("reference regret p(t) = t^agp_exponent (paper: 0.9)", 0.5, 1.0),
        agp_ratio: f64 = 1.1 => (
            "ratio of the geometric grid searched for the one-step-prediction divisor h(t)",
            1.0001,
            10.0
        ),
    }
}

impl Method for AGpUcb {
    const NAME: &'static str = "a-gp-ucb";
    const DESCRIPTION: &'static str = "A-GP-UCB (Berkenkamp et al. 2019, UHE-BO's baseline): MAP lengthscales divided by a growing g(t), p(t) = t^0.9";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant {
            gp: self.gp,
            arms: Arms::AlwaysAcquisition,
            fit_data: FitData::Real,
            estimator: Box::new(AdaptiveScaling::new(self.agp_exponent, self.agp_ratio)),
        };
        runner(variant, params)
    }
}

bosweep_core::settings! {
    /// Typed settings of Wang & de Freitas' method (`wang-de-freitas`; Wang & de Freitas 2014,
    /// arXiv:1406.7758), UHE-BO's baseline: MAP under a lengthscale upper bound shrunk until the
    /// posterior std at the proposal reaches κ, in the grid-search form Berkenkamp et al. (2019)
    /// and UHE-BO's paper run: the bound is scaled by `wdf_shrink^k`, `k = 1, 2, …`.
    pub struct WangDeFreitas {
        /// The GP-UCB step.
        gp: UheGpSettings = UheGpSettings::default() => {},
        wdf_kappa: f64 = 0.1 => (
            "κ: the lengthscale bound shrinks until σ(x_next) ≥ κ (standardised outputs; paper: 0.1)",
            0.0,
            100.0
        ),
        wdf_shrink: f64 = 0.9 => (
            "grid ratio of the bound's scale factors: bound · wdf_shrink^k, k = 1, 2, …",
            0.01,
            0.9999
        ),
        wdf_max_steps: usize = 50 => ("most grid steps per iteration", 1, 10_000),
    }
}

impl Method for WangDeFreitas {
    const NAME: &'static str = "wang-de-freitas";
    const DESCRIPTION: &'static str = "Wang & de Freitas 2014 (UHE-BO's baseline): MAP under a lengthscale bound shrunk until σ(x_next) ≥ κ = 0.1";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant {
            gp: self.gp,
            arms: Arms::AlwaysAcquisition,
            fit_data: FitData::Real,
            estimator: Box::new(ShrinkingBound::new(
                self.wdf_kappa,
                self.wdf_shrink,
                self.wdf_max_steps,
            )),
        };
        runner(variant, params)
    }
}

bosweep_core::settings! {
    /// Typed settings of Portfolio (`portfolio`; Hoffman, Brochu & de Freitas 2011), UHE-BO's
    /// baseline: EXP3 at every step over a uniform point and the GP-UCB point (or GP-Hedge's EI,
    /// PI and GP-UCB), each arm rewarded with the posterior mean at its point once the GP is
    /// refitted, θ by MAP on the real data.
    pub struct Portfolio {
        /// The GP-UCB step (and the GP of EI and PI).
        gp: UheGpSettings = UheGpSettings::default() => {},
        reward_clip: RewardClip = RewardClip::None => (
            "clip the D_0-scaled reward to [0, 1] (unit) or not (none)"
        ),
        /// Random and GP-UCB by default, as UHE-BO's paper runs Portfolio (App. C).
        portfolio_arms: PortfolioArms = PortfolioArms::RandomUcb => (
            "EXP3's arms: random point and GP-UCB (UHE-BO paper, App. C) or GP-Hedge's EI, PI and GP-UCB (Hoffman et al. 2011)"
        ),
        pi_xi: f64 = 0.01 => (
            "PI's margin ξ in standardised output units (ei-pi-ucb only)",
            0.0,
            10.0
        ),
    }
}

impl Method for Portfolio {
    const NAME: &'static str = "portfolio";
    const DESCRIPTION: &'static str = "Portfolio (Hoffman et al. 2011, UHE-BO's baseline): EXP3 each step over {random, GP-UCB} (or GP-Hedge's {EI, PI, UCB}), reward the posterior mean at the chosen point";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let variant = Variant {
            gp: self.gp,
            arms: Arms::Portfolio {
                arms: self.portfolio_arms,
                pi_xi: self.pi_xi,
                reward_clip: self.reward_clip,
            },
            fit_data: FitData::Real,
            estimator: Box::new(PointEstimate),
        };
        runner(variant, params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::resolve;
    use crate::{GammaSchedule, ThetaLoss};
    use bosweep_core::params::Settings;
    use bosweep_toolkit::acquisition::MaximizerSettings;
    use bosweep_toolkit::{AlgorithmSettings, Optimizer};

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
            gamma_schedule: GammaSchedule::Constant,
            gamma: 0.3,
            reward_clip: RewardClip::Unit,
        }
    }

    #[test]
    fn defaults_are_the_papers_and_ours() {
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
        let family: Vec<&str> = ENTRIES.iter().map(|e| e.name).collect();
        assert_eq!(names, family);
        let uhe = UheBo::default();
        assert_eq!(
            (uhe.gp.ucb_beta, uhe.gp.loss, uhe.gp.maximizer.top_k),
            (1.96, ThetaLoss::Map, 10)
        );
        assert_eq!(
            (uhe.pseudo.m_factor, uhe.pairs.gamma_schedule),
            (2.0, GammaSchedule::Paper)
        );
        assert_eq!(uhe.pairs.gamma_at(1), super::super::uhe_gamma(1));
        assert_eq!(uhe.gp.maximizer.grid_size, 0);
        assert_eq!(uhe.gp.grid_size(3), 3000);
        assert_eq!(McmcGpUcb::default().mcmc_burn_in, 200);
        assert_eq!(AGpUcb::default().agp_exponent, 0.9);
        assert_eq!(WangDeFreitas::default().wdf_kappa, 0.1);
        assert_eq!(
            Portfolio::default().portfolio_arms,
            PortfolioArms::RandomUcb
        );
    }

    #[test]
    fn settings_with_every_field_changed_round_trip() {
        let uhe = UheBo {
            gp: changed_gp(),
            pseudo: PseudoData { m_factor: 3.5 },
            pairs: changed_pairs(),
        };
        assert_eq!(UheBo::read(&resolve(&uhe)), uhe);
        assert_eq!(uhe.pairs.gamma_at(1), 0.3);
        let ra = RaBo {
            gp: changed_gp(),
            pseudo: PseudoData { m_factor: 0.5 },
        };
        assert_eq!(RaBo::read(&resolve(&ra)), ra);
        let random = RandomExp3 {
            gp: changed_gp(),
            pseudo: PseudoData { m_factor: 0.5 },
            pairs: changed_pairs(),
        };
        assert_eq!(RandomExp3::read(&resolve(&random)), random);
        let map = MapGpUcb { gp: changed_gp() };
        assert_eq!(MapGpUcb::read(&resolve(&map)), map);
        let mcmc = McmcGpUcb {
            gp: changed_gp(),
            mcmc_burn_in: 50,
            mcmc_samples: 4,
            mcmc_thin: 2,
            slice_width: 0.5,
        };
        assert_eq!(McmcGpUcb::read(&resolve(&mcmc)), mcmc);
        let agp = AGpUcb {
            gp: changed_gp(),
            agp_exponent: 0.7,
            agp_ratio: 1.5,
        };
        assert_eq!(AGpUcb::read(&resolve(&agp)), agp);
        let wdf = WangDeFreitas {
            gp: changed_gp(),
            wdf_kappa: 0.2,
            wdf_shrink: 0.5,
            wdf_max_steps: 7,
        };
        assert_eq!(WangDeFreitas::read(&resolve(&wdf)), wdf);
        let portfolio = Portfolio {
            gp: changed_gp(),
            reward_clip: RewardClip::Unit,
            portfolio_arms: PortfolioArms::EiPiUcb,
            pi_xi: 0.1,
        };
        assert_eq!(Portfolio::read(&resolve(&portfolio)), portfolio);
    }

    #[test]
    fn setters_change_their_fields() {
        let uhe = UheBo::default()
            .gp(|gp| gp.ucb_beta(3.0))
            .pseudo(|p| p.m_factor(4.0))
            .pairs(|p| p.gamma_schedule(GammaSchedule::Constant).gamma(0.2));
        assert_eq!(
            (uhe.gp.ucb_beta, uhe.pseudo.m_factor, uhe.pairs.gamma_at(5)),
            (3.0, 4.0, 0.2)
        );
        assert_eq!(McmcGpUcb::default().mcmc_samples(3).mcmc_samples, 3);
        assert_eq!(
            Portfolio::default()
                .portfolio_arms(PortfolioArms::EiPiUcb)
                .portfolio_arms,
            PortfolioArms::EiPiUcb
        );
    }

    #[test]
    fn out_of_range_values_are_refused_by_name() {
        let message = |settings: &dyn AlgorithmSettings| match settings.build() {
            Ok(_) => panic!("{} built out of range", settings.name()),
            Err(e) => e.to_string(),
        };
        let beta = message(&UheBo::default().gp(|gp| gp.ucb_beta(-1.0)));
        assert!(
            beta.contains("uhe-bo") && beta.contains("ucb_beta"),
            "{beta}"
        );
        let chain = message(&McmcGpUcb::default().mcmc_samples(0));
        assert!(chain.contains("mcmc_samples"), "{chain}");
        let gamma = message(
            &RandomExp3::default().pairs(|p| p.gamma_schedule(GammaSchedule::Constant).gamma(2.0)),
        );
        assert!(gamma.contains("parameter gamma "), "{gamma}");
        let kappa = message(&WangDeFreitas::default().wdf_kappa(-0.1));
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
        let settings = UheBo::default()
            .pseudo(|p| p.m_factor(1.0))
            .gp(|gp| gp.maximizer(|m| m.grid_size(256)));
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
