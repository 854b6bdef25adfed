//! Typed settings of the unknown-prior algorithms (Ziomek, Adachi and Osborne, "Time-Varying
//! Gaussian Process Bandits with Unknown Prior", AISTATS 2025): PE-GP-UCB and the baselines of
//! its experiments (Section 7). Each is the shared [`UnknownPriorSettings`] and what its
//! prior-selection rule adds.

use super::posterior::PosteriorPath;

/// How a step chooses its prior.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// PE-GP-UCB (Algorithm 1): joint arg-max of the UCB over surviving priors and the allowed
    /// set; the selected prior is eliminated when its signed prediction-error sum exceeds the
    /// noise term plus its accumulated confidence widths. With `guard`, the last surviving prior
    /// is never eliminated (a misspecification event is logged instead).
    PriorElimination {
        /// Never eliminate the last surviving prior.
        guard: bool,
    },
    /// Regret Balancing (Appendix D, Algorithm 2) with `R^p(n) = n`: round-robin over the
    /// surviving priors, elimination by comparing average rewards. `literal` uses the printed
    /// pessimistic left-hand side of line 11 instead of the optimistic one.
    RegretBalancing {
        /// The printed pessimistic left-hand side of line 11.
        literal: bool,
    },
    /// The prior of largest marginal likelihood, over all priors, then GP-UCB.
    MaximumLikelihood,
    /// The posterior-weighted average of every prior's UCB (uniform hyperprior).
    FullyBayesian,
}

/// Everything but the rule: what the unknown-prior algorithms share, and which `ξ_t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The known noise, the confidence parameters and the posterior's path.
    pub shared: UnknownPriorSettings,
    /// `ξ_t` with the factor 2 that the proof of Lemma 5.1 drops (only PE-GP-UCB and Regret
    /// Balancing declare it).
    pub xi_strict: bool,
}

bosweep_core::settings! {
    /// What every unknown-prior algorithm shares: the model's known noise, the confidence
    /// parameters of Theorem 4.1 and how the posteriors are computed. The candidate priors and
    /// the domain are the problem's.
    #[derive(Copy)]
    pub struct UnknownPriorSettings {
        /// In output units; the default 0.1 is the paper's toy problem's.
        noise_std: f64 = 0.1 => (
            "known noise std R of the model (set it to the problem's noise_std)",
            1e-9,
            1e6
        ),
        delta: f64 = 0.1 => ("failure probability δ of β_t and ξ_t", 1e-12, 0.999_999),
        horizon: usize = 0 => (
            "planned horizon T inside β_t; 0 = the prior set's (toy 100, Intel 144)",
            0,
            1 << 24
        ),
        beta_scale: f64 = 1.0 => (
            "multiplier of β_t (1 = Theorem 4.1; < 1 voids the guarantee that the true prior survives)",
            0.0,
            1e6
        ),
        /// Both paths are exact.
        posterior: PosteriorPath = PosteriorPath::Incremental => (
            "incremental exact algebra, or refactorise every step through the engine (reference; stationary kernels only)"
        ),
    }
}

/// The settings of a method that eliminates candidate priors (`pe-gp-ucb`,
/// `regret-balancing`): what the unknown-prior algorithms share, which `ξ_t` (declared once for
/// both), then the method's own `$extra` fields.
macro_rules! eliminating_settings {
    ($(#[$doc:meta])* $settings:ident { $($extra:tt)* }) => {
        bosweep_core::settings! {
            $(#[$doc])*
            #[derive(Copy)]
            pub struct $settings {
                /// What the unknown-prior algorithms share.
                shared: UnknownPriorSettings = UnknownPriorSettings::default() => {},
                /// Instead of Theorem 4.1's printed formula.
                xi_strict: bool = false => (
                    "ξ_t with the factor 2 the proof of Lemma 5.1 drops (default: the printed Theorem 4.1 formula)"
                ),
                $($extra)*
            }
        }
    };
}

eliminating_settings! {
    /// Typed settings of PE-GP-UCB (`pe-gp-ucb`; Ziomek, Adachi and Osborne, AISTATS 2025,
    /// Algorithm 1): the joint UCB arg-max over the surviving candidate priors and the allowed
    /// set, a prior eliminated when its prediction errors exceed its confidence.
    ///
    /// ```
    /// use bosweep_algorithms::{Optimizer, PeGpUcb};
    /// use bosweep_problems::ParamValue;
    ///
    /// // The candidate priors and the allowed sets are the problem's: the toy's instance 3.
    /// let given = [("instance", ParamValue::Number(3.0))];
    /// let toy = bosweep_problems::build("pe-toy", &given)?;
    /// let mut opt = Optimizer::builder(PeGpUcb::default().shared(|s| s.noise_std(0.1)))
    ///     .problem(bosweep_problems::build("pe-toy", &given)?)
    ///     .init(0)
    ///     .seed(1)
    ///     .build()?;
    /// for t in 1..=3 {
    ///     let x = opt.ask(1)?.remove(0);
    ///     opt.tell(&x, toy.objective_of_interest(&x, t).unwrap())?;
    /// }
    /// assert_eq!(opt.steps(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    PeGpUcb {
        /// A misspecification event is logged instead.
        guard: bool = true => (
            "never eliminate the last surviving prior (log a misspecification event instead)"
        ),
    }
}

eliminating_settings! {
    /// Typed settings of Regret Balancing over the candidate priors (`regret-balancing`;
    /// Ziomek, Adachi and Osborne 2025, Appendix D, Algorithm 2, after Pacchiano et al. 2020)
    /// with `R^p(n) = n`: round-robin over the surviving priors, elimination by average reward.
    RegretBalancing {
        rb_literal_lhs: bool = false => (
            "use the printed pessimistic left-hand side of line 11 (default: optimistic, as Pacchiano et al.)"
        ),
    }
}

bosweep_core::settings! {
    /// Typed settings of GP-UCB with the candidate prior of largest marginal likelihood,
    /// re-chosen every step (`mle-gp-ucb`; the MLE baseline of Ziomek, Adachi and Osborne 2025,
    /// Section 7).
    #[derive(Copy)]
    pub struct MleGpUcb {
        /// What the unknown-prior algorithms share.
        shared: UnknownPriorSettings = UnknownPriorSettings::default() => {},
    }
}

bosweep_core::settings! {
    /// Typed settings of the fully Bayesian baseline (`fully-bayes-gp-ucb`; Ziomek, Adachi and
    /// Osborne 2025, Section 7): the arg-max of the posterior-weighted average of every candidate
    /// prior's UCB, under a uniform hyperprior.
    #[derive(Copy)]
    pub struct FullyBayesGpUcb {
        /// What the unknown-prior algorithms share.
        shared: UnknownPriorSettings = UnknownPriorSettings::default() => {},
    }
}

bosweep_core::settings! {
    /// Typed settings of TV-GP-UCB with one given candidate prior (`oracle-gp-ucb`): PE-GP-UCB
    /// with the candidate set `{p}`, the true prior's oracle when `p` is the true one.
    #[derive(Copy)]
    pub struct OracleGpUcb {
        /// What the unknown-prior algorithms share.
        shared: UnknownPriorSettings = UnknownPriorSettings::default() => {},
        /// In the problem's candidate set.
        prior: usize = 2 => ("index of the prior used (the toy's true prior is 2)", 0, 1 << 16),
    }
}
