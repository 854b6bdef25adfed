//! What a user sets for each contextual method, and the settings the methods share:
//! the joint (decision, context) GP, the UCB multiplier, the acquisition maximiser and the
//! context box ([`ContextualSettings`]), and the KDE of SBO-KDE and DRBO-KDE ([`KdeSettings`]).
//! Each parameter is declared once, as a field.

use bosweep_model::{BandwidthRule, FitMode, KernelKind, Priors};
use bosweep_toolkit::AlgorithmError;

bosweep_core::choices! {
    /// The covariance kernel of the joint GP (ARD lengthscales, with an outputscale).
    pub enum JointKernel {
        /// Matérn 5/2 (the default, BoTorch's).
        Matern52 = "matern52",
        /// Squared exponential.
        SquaredExponential = "se",
    }
}

impl JointKernel {
    /// The kernel's kind.
    pub fn kind(self) -> KernelKind {
        match self {
            Self::Matern52 => KernelKind::Matern52,
            Self::SquaredExponential => KernelKind::SquaredExponential,
        }
    }
}

bosweep_core::choices! {
    /// How the joint GP's hyperparameters are refitted at every step.
    pub enum JointFit {
        /// MAP with BoTorch's late-2023 Gamma priors (the default).
        Map = "map",
        /// Maximum marginal likelihood (ML-II).
        Mle = "mle",
    }
}

impl JointFit {
    /// The fit's mode.
    pub fn mode(self) -> FitMode {
        match self {
            Self::Map => FitMode::Map {
                priors: Priors::botorch(),
            },
            Self::Mle => FitMode::Mle,
        }
    }
}

bosweep_core::choices! {
    /// How the UCB multiplier κ is chosen.
    pub enum KappaSchedule {
        /// A constant κ (`ucb_multiplier`).
        Constant = "constant",
        /// κ = √β_t of the regret bounds (`theory_a`, `theory_b`, `theory_r`).
        Theory = "theory",
    }
}

/// The UCB multiplier κ of `u(x, c) = μ(x, c) + κ σ(x, c)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UcbMultiplier {
    /// A constant κ (default 1.5, Huang et al.'s `√β` for every method).
    Constant(f64),
    /// `κ = √β_t` with the β_t of the regret bounds,
    /// `2 ln(t²/√(2π)) + 2 Dx ln(t² Dx a b r √π / 2)`: `a`, `b` the derivative tail constants,
    /// `r` the side of the box `[0, r]^D`.
    Theory {
        /// Derivative tail constant a.
        a: f64,
        /// Derivative tail constant b.
        b: f64,
        /// Side r of the box.
        r: f64,
    },
}

bosweep_core::choices! {
    /// The acquisition maximiser's budget when `raw_samples` or `restarts` is not given.
    pub enum OptimizerProfile {
        /// As the papers' code: 32 raw samples and 5 restarts for DRBO-KDE and DRBO-MMD (the
        /// default), 1024 and 50 for the others.
        Paper = "paper",
        /// 1024 raw samples and 50 restarts for every method.
        Full = "full",
    }
}

bosweep_core::settings! {
    /// What every contextual method shares: the GP over the joint (decision, context) space,
    /// refitted at every step, the UCB multiplier, the acquisition's maximiser (a Sobol grid,
    /// then L-BFGS-B from its best points, as BoTorch's `optimize_acqf`) and the context box.
    pub struct ContextualSettings {
        kernel: JointKernel = JointKernel::Matern52 => (
            "joint-space GP kernel (ARD lengthscales, with outputscale)"
        ),
        fit: JointFit = JointFit::Map => (
            "hyperparameters refitted every step: MAP with BoTorch's late-2023 Gamma priors, or ML-II"
        ),
        lengthscale: f64 = 1.0 / 3.0 => (
            "initial lengthscale (unit cube; the Gamma(3, 6) prior mode)",
            1e-3,
            1e3
        ),
        signal_var: f64 = 1.0 => ("initial outputscale (standardised outputs)", 1e-4, 1e4),
        noise_var: f64 = 2.0 => (
            "initial noise variance (standardised outputs; the Gamma(1.1, 0.05) prior mode)",
            1e-4,
            10.0
        ),
        beta_schedule: KappaSchedule = KappaSchedule::Constant => (
            "constant: κ = ucb_multiplier; theory: κ = √β_t, β_t = 2 ln(t²/√(2π)) + 2Dx ln(t² Dx a b r √π/2)"
        ),
        ucb_multiplier: f64 = 1.5 => (
            "κ in μ + κσ (the paper's √β = 1.5 for every method)",
            0.0,
            1e6
        ),
        theory_a: f64 = 1.0 => ("a of the theory schedule (derivative tail constant)", 1e-12, 1e12),
        theory_b: f64 = 1.0 => ("b of the theory schedule (derivative tail constant)", 1e-12, 1e12),
        theory_r: f64 = 1.0 => ("r of the theory schedule (side of the box [0, r]^D)", 1e-12, 1e12),
        optimizer_profile: OptimizerProfile = OptimizerProfile::Paper => (
            "paper: 32 raw samples and 5 restarts for DRBO-KDE and DRBO-MMD, 1024 and 50 otherwise; full: 1024 and 50 for all"
        ),
        raw_samples: usize = 0 => (
            "Sobol candidates of the acquisition grid; 0 = the profile's",
            0,
            1 << 20
        ),
        restarts: usize = 0 => ("best grid points refined by L-BFGS-B; 0 = the profile's", 0, 4096),
        max_iters: usize = 100 => ("L-BFGS-B iterations per restart", 1, 100_000),
        /// scipy's default `ftol`, as BoTorch's `optimize_acqf` uses it.
        tolerance: f64 = 2.2e-9 => (
            "L-BFGS-B stops at this relative decrease of the acquisition (scipy's default ftol, as BoTorch's optimize_acqf)",
            0.0,
            1.0
        ),
        gradient_tolerance: f64 = 1e-5 => (
            "L-BFGS-B stops when the projected gradient's ∞-norm is ≤ this (scipy's default pgtol, as BoTorch's optimize_acqf)",
            0.0,
            1.0
        ),
        context_lo: f64 = 0.0 => (
            "lower bound of every context coordinate (the box C)",
            -1e12,
            1e12
        ),
        /// Above `context_lo`.
        context_hi: f64 = 1.0 => (
            "upper bound of every context coordinate (the box C)",
            -1e12,
            1e12
        ),
    }
}

impl ContextualSettings {
    /// The UCB multiplier κ the schedule's parameters describe.
    pub fn ucb(&self) -> UcbMultiplier {
        match self.beta_schedule {
            KappaSchedule::Constant => UcbMultiplier::Constant(self.ucb_multiplier),
            KappaSchedule::Theory => UcbMultiplier::Theory {
                a: self.theory_a,
                b: self.theory_b,
                r: self.theory_r,
            },
        }
    }

    /// The context box of method `name` is not empty.
    pub(super) fn check(&self, name: &str) -> Result<(), AlgorithmError> {
        let (context_lo, context_hi) = (self.context_lo, self.context_hi);
        if context_lo >= context_hi {
            return Err(AlgorithmError::Config(format!(
                "{name}: context_lo = {context_lo} must be below context_hi = {context_hi}"
            )));
        }
        Ok(())
    }

    /// Raw samples and restarts of the maximiser: the given ones, else `small` (32, 5) under
    /// the paper's profile where the paper gave the method that budget, else (1024, 50).
    pub(super) fn budget(&self, small: bool) -> (usize, usize) {
        let (raw, starts) = if small && self.optimizer_profile == OptimizerProfile::Paper {
            (32, 5)
        } else {
            (1024, 50)
        };
        let given = |n: usize, otherwise: usize| if n > 0 { n } else { otherwise };
        (given(self.raw_samples, raw), given(self.restarts, starts))
    }
}

bosweep_core::settings! {
    /// The kernel density estimate of the context distribution that SBO-KDE and DRBO-KDE
    /// sample.
    pub struct KdeSettings {
        samples: usize = 1024 => (
            "M, KDE samples drawn per step and held fixed while maximising",
            1,
            1 << 20
        ),
        /// `c(Dc) σ̂_d n^(−1/(Dc+4))`.
        bandwidth: BandwidthRule = BandwidthRule::Silverman => (
            "KDE bandwidth rule c(Dc) σ̂_d n^{−1/(Dc+4)}: silverman c = (4/(Dc+2))^{1/(Dc+4)}, scott c = 1"
        ),
    }
}

bosweep_core::settings! {
    /// The context points over which DRBO-KDE and StableOpt take their worst case.
    pub struct InfimumSettings {
        infimum_points: usize = 1024 => (
            "scrambled-Sobol context points, drawn once per step, for the infimum over C (DRBO-KDE) or over the confidence box (StableOpt)",
            1,
            1 << 20
        ),
    }
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
