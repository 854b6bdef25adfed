//! What a user sets for each member of UHE-BO's family, one type per registry name, each
//! declaring exactly its own parameters, and the settings they share, each declared once: the GP-UCB step
//! every member runs ([`UheGpSettings`]), EXP3 over iteration pairs ([`Exp3PairSettings`],
//! UHE-BO and Random+EXP3), and the words of the family's choice parameters.

use bosweep_toolkit::acquisition::MaximizerSettings;

bosweep_core::choices! {
    /// How θ = (ℓ_1..ℓ_d, σ_f², σ_n²) is estimated at every step (parameter `loss`).
    pub enum ThetaLoss {
        /// Maximum a posteriori with Gamma(1e−3, 10) priors on every hyperparameter, Jacobian of
        /// the log parameterisation included (Ha et al. 2023, App. C): the paper's choice.
        Map = "map",
        /// Maximum marginal likelihood (ML-II), no prior.
        Mle = "mle",
    }
}

bosweep_core::settings! {
    /// The GP-UCB step every member of the family shares: the zero-mean Matérn-5/2 ARD GP, the
    /// start of its hyperparameter fit (unit-cube inputs, standardised outputs), the UCB
    /// `μ + √β σ` and its maximiser.
    pub struct UheGpSettings {
        ucb_beta: f64 = 1.96 => (
            "β of GP-UCB under the square root: μ + √β σ (1.96 gives multiplier 1.4)",
            0.0,
            1e6
        ),
        loss: ThetaLoss = ThetaLoss::Map => (
            "hyperparameter loss: MAP with Gamma(1e-3, 10) priors (Jacobian included) or ML-II"
        ),
        lengthscale: f64 = 0.2 => ("default-start lengthscale, in unit-cube units", 1e-3, 10.0),
        signal_var: f64 = 1.0 => (
            "default-start signal variance, in standardised output units",
            1e-3,
            100.0
        ),
        noise_var: f64 = 1e-2 => (
            "default-start noise variance, in standardised output units",
            1e-8,
            1.0
        ),
        /// The warm start is the previous step's θ̂.
        random_starts: usize = 3 => (
            "log-uniform random starts within the bounds, besides the warm and default starts",
            0,
            64
        ),
        /// The acquisition maximiser: Sobol candidates then L-BFGS-B on the best `top_k`. Ten
        /// refined candidates, where the GP baselines refine 8, and a grid of 0 meaning
        /// `max(1000·d, 2000)` candidates: our choices, UHE-BO's paper does not say how the
        /// acquisition is maximised.
        maximizer: MaximizerSettings = MaximizerSettings::default().top_k(10) => {
            grid_size: "acquisition candidates per step; 0 = max(1000·d, 2000)",
            top_k: "best candidates refined by L-BFGS-B",
            refine: "refine the best candidates with bounded L-BFGS",
        },
    }
}

impl UheGpSettings {
    /// Sobol candidates per step in `dim` dimensions.
    pub(super) fn grid_size(&self, dim: usize) -> usize {
        match self.maximizer.grid_size {
            0 => (1000 * dim).max(2000),
            given => given,
        }
    }
}

bosweep_core::choices! {
    /// EXP3's exploration rate γ_t over iteration pairs.
    pub enum GammaSchedule {
        /// `γ_t = sqrt(4 ln 2 / ((e − 1) t))` (Ha et al. 2023, Algorithm 1 line 5).
        Paper = "paper",
        /// The same γ (`gamma`) at every pair.
        Constant = "constant",
    }
}

bosweep_core::choices! {
    /// Whether a bandit's reward, min-max scaled with the initial design, is clipped.
    pub enum RewardClip {
        /// Not clipped.
        None = "none",
        /// Clipped to [0, 1].
        Unit = "unit",
    }
}

bosweep_core::settings! {
    /// How an EXP3 member scales its reward (UHE-BO, Random+EXP3 and Portfolio): min-max with
    /// the initial design D_0, then clipped or not.
    #[derive(Copy)]
    pub struct RewardScaling {
        /// The paper only says "scale it using D_0" (Algorithm 1 line 20).
        reward_clip: RewardClip = RewardClip::None => (
            "clip the D_0-scaled reward to [0, 1] (unit) or not (none)"
        ),
    }
}

bosweep_core::settings! {
    /// EXP3 over iteration pairs (UHE-BO and Random+EXP3; Ha et al. 2023, Sec. 5.1 and
    /// Algorithm 1): arm 1 evaluates a uniform point then the acquisition's, arm 2 the
    /// acquisition's twice.
    pub struct Exp3PairSettings {
        gamma_schedule: GammaSchedule = GammaSchedule::Paper => (
            "EXP3 γ_t: paper = sqrt(4 ln2 / ((e−1) t)); constant = gamma"
        ),
        gamma: f64 = 0.1 => ("constant EXP3 γ (gamma_schedule=constant only)", 1e-9, 1.0),
        /// How the reward is scaled.
        scaling: RewardScaling = RewardScaling::default() => {},
    }
}

impl Exp3PairSettings {
    /// γ at iteration `t` (unclamped; the bandit clamps where it needs a mixture).
    pub fn gamma_at(&self, t: usize) -> f64 {
        match self.gamma_schedule {
            GammaSchedule::Paper => super::uhe_gamma(t),
            GammaSchedule::Constant => self.gamma,
        }
    }
}

bosweep_core::choices! {
    /// The arms of Portfolio's bandit.
    pub enum PortfolioArms {
        /// A uniform random point and the GP-UCB point, as UHE-BO's paper runs Portfolio
        /// (Ha et al. 2023, App. C).
        RandomUcb = "random-ucb",
        /// GP-Hedge's EI, PI and GP-UCB (Hoffman, Brochu & de Freitas 2011).
        EiPiUcb = "ei-pi-ucb",
    }
}

impl PortfolioArms {
    /// How many arms the bandit has.
    pub fn count(self) -> usize {
        match self {
            Self::RandomUcb => 2,
            Self::EiPiUcb => 3,
        }
    }
}

bosweep_core::settings! {
    /// The nearest-neighbour pseudo-dataset of uniform points that θ is fitted on, unbiased
    /// where the adaptively collected data are not (Ha et al. 2023, Eq. 2 and Algorithm 1).
    pub struct PseudoData {
        m_factor: f64 = 2.0 => ("pseudo-dataset size M_t = ⌈m_factor · |D_{t−1}|⌉", 1e-3, 1e3),
    }
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

bosweep_core::settings! {
    /// Typed settings of MAP-GP-UCB (`map-gp-ucb`), UHE-BO's standard baseline (Ha et al.
    /// 2023, Sec. 7): GP-UCB at every step, θ by MAP on the real data with the same priors.
    pub struct MapGpUcb {
        /// The GP-UCB step.
        gp: UheGpSettings = UheGpSettings::default() => {},
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

bosweep_core::settings! {
    /// Typed settings of Portfolio (`portfolio`; Hoffman, Brochu & de Freitas 2011), UHE-BO's
    /// baseline: EXP3 at every step over a uniform point and the GP-UCB point (or GP-Hedge's EI,
    /// PI and GP-UCB), each arm rewarded with the posterior mean at its point once the GP is
    /// refitted, θ by MAP on the real data.
    pub struct Portfolio {
        /// The GP-UCB step (and the GP of EI and PI).
        gp: UheGpSettings = UheGpSettings::default() => {},
        /// How the reward is scaled.
        scaling: RewardScaling = RewardScaling::default() => {},
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
