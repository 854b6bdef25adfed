//! The settings the members of UHE-BO's family share, each declared once: the GP-UCB step
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
    /// EXP3 over iteration pairs (UHE-BO and Random+EXP3; Ha et al. 2023, Sec. 5.1 and
    /// Algorithm 1): arm 1 evaluates a uniform point then the acquisition's, arm 2 the
    /// acquisition's twice.
    pub struct Exp3PairSettings {
        gamma_schedule: GammaSchedule = GammaSchedule::Paper => (
            "EXP3 γ_t: paper = sqrt(4 ln2 / ((e−1) t)); constant = gamma"
        ),
        gamma: f64 = 0.1 => ("constant EXP3 γ (gamma_schedule=constant only)", 1e-9, 1.0),
        /// The paper only says "scale it using D_0" (Algorithm 1 line 20).
        reward_clip: RewardClip = RewardClip::None => (
            "clip the D_0-scaled reward to [0, 1] (unit) or not (none)"
        ),
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
