//! Typed settings of the unknown-prior algorithms (Ziomek, Adachi and Osborne, "Time-Varying
//! Gaussian Process Bandits with Unknown Prior", AISTATS 2025): PE-GP-UCB and the baselines of
//! its experiments (Section 7). Each is the shared [`UnknownPriorSettings`] and what its
//! prior-selection rule adds.

use super::posterior::PosteriorPath;
use crate::optimizer::AlgorithmSettings;
use bosweep_core::params::{
    ChoiceParam, FlagParam, IntegerParam, ParamSpec, ParamTable, ParamValue, Params, RealParam,
};

const NOISE_STD: RealParam = RealParam::new(
    "noise_std",
    0.1,
    1e-9,
    1e6,
    "known noise std R of the model (set it to the problem's noise_std)",
);
const DELTA: RealParam = RealParam::new(
    "delta",
    0.1,
    1e-12,
    0.999_999,
    "failure probability δ of β_t and ξ_t",
);
const HORIZON: IntegerParam = IntegerParam::new(
    "horizon",
    0,
    0,
    1 << 24,
    "planned horizon T inside β_t; 0 = the prior set's (toy 100, Intel 144)",
);
const BETA_SCALE: RealParam = RealParam::new(
    "beta_scale",
    1.0,
    0.0,
    1e6,
    "multiplier of β_t (1 = Theorem 4.1; < 1 voids the guarantee that the true prior survives)",
);
const POSTERIOR: ChoiceParam<PosteriorPath> = ChoiceParam::new(
    "posterior",
    &["incremental", "engine"],
    &[PosteriorPath::Incremental, PosteriorPath::Engine],
    "incremental",
    "incremental exact algebra, or refactorise every step through the engine (reference; stationary kernels only)",
);
/// The parameters every unknown-prior algorithm takes.
const SHARED: &[ParamSpec] = &[
    NOISE_STD.spec(),
    DELTA.spec(),
    HORIZON.spec(),
    BETA_SCALE.spec(),
    POSTERIOR.spec(),
];

const XI_STRICT: FlagParam = FlagParam::new(
    "xi_strict",
    false,
    "ξ_t with the factor 2 the proof of Lemma 5.1 drops (default: the printed Theorem 4.1 formula)",
);
const GUARD: FlagParam = FlagParam::new(
    "guard",
    true,
    "never eliminate the last surviving prior (log a misspecification event instead)",
);
const RB_LITERAL_LHS: FlagParam = FlagParam::new(
    "rb_literal_lhs",
    false,
    "use the printed pessimistic left-hand side of line 11 (default: optimistic, as Pacchiano et al.)",
);
const PRIOR: IntegerParam = IntegerParam::new(
    "prior",
    2,
    0,
    1 << 16,
    "index of the prior used (the toy's true prior is 2)",
);

/// The declared parameters of `pe-gp-ucb`.
pub(super) const PE_GP_UCB_PARAMS: ParamTable =
    ParamTable(&[SHARED, &[XI_STRICT.spec(), GUARD.spec()]]);
/// The declared parameters of `regret-balancing`.
pub(super) const REGRET_BALANCING_PARAMS: ParamTable =
    ParamTable(&[SHARED, &[XI_STRICT.spec(), RB_LITERAL_LHS.spec()]]);
/// The declared parameters of `mle-gp-ucb` and `fully-bayes-gp-ucb`.
pub(super) const SHARED_PARAMS: ParamTable = ParamTable(&[SHARED]);
/// The declared parameters of `oracle-gp-ucb`.
pub(super) const ORACLE_GP_UCB_PARAMS: ParamTable = ParamTable(&[SHARED, &[PRIOR.spec()]]);

/// The registry's defaults of the entry `name` declaring `table`.
fn defaults(name: &'static str, table: ParamTable) -> Params {
    Params::defaults("algorithm", name, &table.to_vec())
}

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

/// What every unknown-prior algorithm shares: the model's known noise, the confidence
/// parameters of Theorem 4.1 and how the posteriors are computed. The candidate priors and the
/// domain are the problem's. The defaults are the registry's (`bosweep list`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnknownPriorSettings {
    /// The known noise standard deviation `R` of the model, in output units (set it to the
    /// problem's). Default 0.1, the paper's toy problem.
    pub noise_std: f64,
    /// Failure probability `δ` of `β_t` and `ξ_t`, in (0, 1). Default 0.1.
    pub delta: f64,
    /// Planned horizon `T` inside `β_t`; `None`: the prior set's (100 on the toy problem, 144
    /// on Intel's). Default `None`.
    pub horizon: Option<usize>,
    /// Multiplier of `β_t`: 1 is Theorem 4.1; below 1 voids the guarantee that the true prior
    /// survives. Default 1.
    pub beta_scale: f64,
    /// How every prior's posterior is computed (both exact). Default: incremental.
    pub posterior: PosteriorPath,
}

impl UnknownPriorSettings {
    /// Reads the shared parameters of one registry entry.
    fn from_params(p: &Params) -> Self {
        Self {
            noise_std: NOISE_STD.of(p),
            delta: DELTA.of(p),
            horizon: HORIZON.nonzero_of(p),
            beta_scale: BETA_SCALE.of(p),
            posterior: POSTERIOR.of(p),
        }
    }

    /// The settings as given parameters, the inverse of [`UnknownPriorSettings::from_params`].
    fn given(&self) -> Vec<(&'static str, ParamValue)> {
        vec![
            NOISE_STD.given(self.noise_std),
            DELTA.given(self.delta),
            HORIZON.given(self.horizon.unwrap_or(0)),
            BETA_SCALE.given(self.beta_scale),
            POSTERIOR.given(self.posterior),
        ]
    }

    /// The settings of a rule without the strict `ξ_t`.
    fn with_printed_xi(self) -> Settings {
        Settings {
            shared: self,
            xi_strict: false,
        }
    }
}

/// Typed settings of PE-GP-UCB (`pe-gp-ucb`; Ziomek, Adachi and Osborne, AISTATS 2025,
/// Algorithm 1): the joint UCB arg-max over the surviving candidate priors and the allowed set,
/// a prior eliminated when its prediction errors exceed its confidence.
///
/// ```
/// use bosweep_algorithms::{Optimizer, PeGpUcb};
/// use bosweep_problems::ParamValue;
///
/// // The candidate priors and the allowed sets are the problem's: the toy's instance 3.
/// let given = [("instance", ParamValue::Number(3.0))];
/// let toy = bosweep_problems::build("pe-toy", &given)?;
/// let mut opt = Optimizer::builder(PeGpUcb::default().noise_std(0.1))
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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeGpUcb {
    /// What the unknown-prior algorithms share.
    pub shared: UnknownPriorSettings,
    /// `ξ_t` with the factor 2 that the proof of Lemma 5.1 drops, instead of Theorem 4.1's
    /// printed formula. Default `false`.
    pub xi_strict: bool,
    /// Never eliminate the last surviving prior (a misspecification event is logged
    /// instead). Default `true`.
    pub guard: bool,
}

impl Default for PeGpUcb {
    fn default() -> Self {
        Self::from_params(&defaults("pe-gp-ucb", PE_GP_UCB_PARAMS))
    }
}

impl PeGpUcb {
    /// Reads `pe-gp-ucb`'s checked parameters.
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            shared: UnknownPriorSettings::from_params(p),
            xi_strict: XI_STRICT.of(p),
            guard: GUARD.of(p),
        }
    }

    /// The rule and the settings it runs with.
    pub(super) fn split(self) -> (Rule, Settings) {
        let settings = Settings {
            shared: self.shared,
            xi_strict: self.xi_strict,
        };
        (Rule::PriorElimination { guard: self.guard }, settings)
    }
}

impl AlgorithmSettings for PeGpUcb {
    fn name(&self) -> &str {
        "pe-gp-ucb"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.extend([XI_STRICT.given(self.xi_strict), GUARD.given(self.guard)]);
        given
    }
}

/// Typed settings of Regret Balancing over the candidate priors (`regret-balancing`; Ziomek,
/// Adachi and Osborne 2025, Appendix D, Algorithm 2, after Pacchiano et al. 2020) with
/// `R^p(n) = n`: round-robin over the surviving priors, elimination by average reward.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RegretBalancing {
    /// What the unknown-prior algorithms share.
    pub shared: UnknownPriorSettings,
    /// `ξ_t` with the factor 2 that the proof of Lemma 5.1 drops. Default `false`.
    pub xi_strict: bool,
    /// The printed pessimistic left-hand side of line 11 instead of the optimistic one of
    /// Pacchiano et al. Default `false`.
    pub literal_lhs: bool,
}

impl Default for RegretBalancing {
    fn default() -> Self {
        Self::from_params(&defaults("regret-balancing", REGRET_BALANCING_PARAMS))
    }
}

impl RegretBalancing {
    /// Reads `regret-balancing`'s checked parameters.
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            shared: UnknownPriorSettings::from_params(p),
            xi_strict: XI_STRICT.of(p),
            literal_lhs: RB_LITERAL_LHS.of(p),
        }
    }

    /// The rule and the settings it runs with.
    pub(super) fn split(self) -> (Rule, Settings) {
        let settings = Settings {
            shared: self.shared,
            xi_strict: self.xi_strict,
        };
        let rule = Rule::RegretBalancing {
            literal: self.literal_lhs,
        };
        (rule, settings)
    }
}

impl AlgorithmSettings for RegretBalancing {
    fn name(&self) -> &str {
        "regret-balancing"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.extend([
            XI_STRICT.given(self.xi_strict),
            RB_LITERAL_LHS.given(self.literal_lhs),
        ]);
        given
    }
}

/// Typed settings of GP-UCB with the candidate prior of largest marginal likelihood, re-chosen
/// every step (`mle-gp-ucb`; the MLE baseline of Ziomek, Adachi and Osborne 2025, Section 7).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MleGpUcb {
    /// What the unknown-prior algorithms share.
    pub shared: UnknownPriorSettings,
}

impl Default for MleGpUcb {
    fn default() -> Self {
        Self::from_params(&defaults("mle-gp-ucb", SHARED_PARAMS))
    }
}

impl MleGpUcb {
    /// Reads `mle-gp-ucb`'s checked parameters.
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            shared: UnknownPriorSettings::from_params(p),
        }
    }

    /// The rule and the settings it runs with.
    pub(super) fn split(self) -> (Rule, Settings) {
        (Rule::MaximumLikelihood, self.shared.with_printed_xi())
    }
}

impl AlgorithmSettings for MleGpUcb {
    fn name(&self) -> &str {
        "mle-gp-ucb"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        self.shared.given()
    }
}

/// Typed settings of the fully Bayesian baseline (`fully-bayes-gp-ucb`; Ziomek, Adachi and
/// Osborne 2025, Section 7): the arg-max of the posterior-weighted average of every candidate
/// prior's UCB, under a uniform hyperprior.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FullyBayesGpUcb {
    /// What the unknown-prior algorithms share.
    pub shared: UnknownPriorSettings,
}

impl Default for FullyBayesGpUcb {
    fn default() -> Self {
        Self::from_params(&defaults("fully-bayes-gp-ucb", SHARED_PARAMS))
    }
}

impl FullyBayesGpUcb {
    /// Reads `fully-bayes-gp-ucb`'s checked parameters.
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            shared: UnknownPriorSettings::from_params(p),
        }
    }

    /// The rule and the settings it runs with.
    pub(super) fn split(self) -> (Rule, Settings) {
        (Rule::FullyBayesian, self.shared.with_printed_xi())
    }
}

impl AlgorithmSettings for FullyBayesGpUcb {
    fn name(&self) -> &str {
        "fully-bayes-gp-ucb"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        self.shared.given()
    }
}

/// Typed settings of TV-GP-UCB with one given candidate prior (`oracle-gp-ucb`): PE-GP-UCB
/// with the candidate set `{p}`, the true prior's oracle when `p` is the true one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OracleGpUcb {
    /// What the unknown-prior algorithms share.
    pub shared: UnknownPriorSettings,
    /// Index of the prior used in the problem's candidate set. Default 2, the true prior of
    /// the paper's toy problem.
    pub prior: usize,
}

impl Default for OracleGpUcb {
    fn default() -> Self {
        Self::from_params(&defaults("oracle-gp-ucb", ORACLE_GP_UCB_PARAMS))
    }
}

impl OracleGpUcb {
    /// Reads `oracle-gp-ucb`'s checked parameters.
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            shared: UnknownPriorSettings::from_params(p),
            prior: PRIOR.of(p),
        }
    }

    /// The rule and the settings it runs with: elimination, which never removes the one prior.
    pub(super) fn split(self) -> (Rule, Settings) {
        let rule = Rule::PriorElimination { guard: true };
        (rule, self.shared.with_printed_xi())
    }
}

impl AlgorithmSettings for OracleGpUcb {
    fn name(&self) -> &str {
        "oracle-gp-ucb"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.shared.given();
        given.push(PRIOR.given(self.prior));
        given
    }
}

/// The setters every unknown-prior algorithm has, on its [`UnknownPriorSettings`] (`shared`).
macro_rules! shared_setters {
    ($($settings:ty),+) => {$(
        impl $settings {
            /// The model's known noise standard deviation `R`.
            pub fn noise_std(mut self, noise_std: f64) -> Self {
                self.shared.noise_std = noise_std;
                self
            }

            /// Failure probability `δ` of `β_t` and `ξ_t`.
            pub fn delta(mut self, delta: f64) -> Self {
                self.shared.delta = delta;
                self
            }

            /// Multiplier of `β_t`.
            pub fn beta_scale(mut self, scale: f64) -> Self {
                self.shared.beta_scale = scale;
                self
            }
        }
    )+};
}

shared_setters!(
    PeGpUcb,
    RegretBalancing,
    MleGpUcb,
    FullyBayesGpUcb,
    OracleGpUcb
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Optimizer;
    use crate::testing::{registry_defaults, resolve};

    /// Every shared field away from its default.
    const CHANGED: UnknownPriorSettings = UnknownPriorSettings {
        noise_std: 0.3,
        delta: 0.05,
        horizon: Some(50),
        beta_scale: 0.5,
        posterior: PosteriorPath::Engine,
    };

    #[test]
    fn defaults_are_the_registry_defaults() {
        let defaults: [&dyn AlgorithmSettings; 5] = [
            &PeGpUcb::default(),
            &RegretBalancing::default(),
            &MleGpUcb::default(),
            &FullyBayesGpUcb::default(),
            &OracleGpUcb::default(),
        ];
        for settings in defaults {
            assert_eq!(resolve(settings), registry_defaults(settings.name()));
        }
        let pe = PeGpUcb::default();
        assert_eq!(pe.shared.noise_std, 0.1);
        assert_eq!(pe.shared.horizon, None);
        assert!(pe.guard && !pe.xi_strict);
        assert_eq!(OracleGpUcb::default().prior, 2);
    }

    #[test]
    fn every_field_changed_round_trips() {
        let pe = PeGpUcb {
            shared: CHANGED,
            xi_strict: true,
            guard: false,
        };
        assert_eq!(PeGpUcb::from_params(&resolve(&pe)), pe);
        let rb = RegretBalancing {
            shared: CHANGED,
            xi_strict: true,
            literal_lhs: true,
        };
        assert_eq!(RegretBalancing::from_params(&resolve(&rb)), rb);
        let mle = MleGpUcb { shared: CHANGED };
        assert_eq!(MleGpUcb::from_params(&resolve(&mle)), mle);
        let fb = FullyBayesGpUcb { shared: CHANGED };
        assert_eq!(FullyBayesGpUcb::from_params(&resolve(&fb)), fb);
        let oracle = OracleGpUcb {
            shared: CHANGED,
            prior: 0,
        };
        assert_eq!(OracleGpUcb::from_params(&resolve(&oracle)), oracle);
    }

    #[test]
    fn out_of_range_values_are_refused_by_name() {
        let message =
            |settings: &dyn AlgorithmSettings| settings.build().err().unwrap().to_string();
        assert!(message(&PeGpUcb::default().delta(1.5)).contains("parameter delta = 1.5"));
        assert!(message(&MleGpUcb::default().noise_std(0.0)).contains("parameter noise_std = 0"));
        assert!(
            message(&RegretBalancing::default().beta_scale(-1.0))
                .contains("parameter beta_scale = -1")
        );
    }

    /// The points `settings` asks in 6 steps on the paper's toy problem (a fixed instance),
    /// told their noise-free values, and the last recommendation.
    fn run(settings: impl AlgorithmSettings + 'static, seed: u64) -> (Vec<Vec<f64>>, Vec<f64>) {
        let toy = || bosweep_problems::build("pe-toy", &[("instance", 3.0.into())]).unwrap();
        let problem = toy();
        let mut opt = Optimizer::builder(settings)
            .problem(toy())
            .seed(seed)
            .init(0)
            .build()
            .unwrap();
        let mut asked = Vec::new();
        for _ in 0..6 {
            let x = opt.ask(1).unwrap().remove(0);
            let step = opt.pending()[0].step;
            if let Some(set) = problem.allowed_set(step) {
                assert!(
                    set.iter().any(|c| c == x.as_slice()),
                    "{x:?} is not allowed"
                );
            }
            let y = problem.objective_of_interest(&x, step).unwrap();
            opt.tell(&x, y).unwrap();
            asked.push(x);
        }
        (asked, opt.recommend().unwrap().to_vec())
    }

    #[test]
    fn the_optimizer_runs_pe_gp_ucb_on_the_toy_problem_reproducibly() {
        let (asked, recommended) = run(PeGpUcb::default(), 4);
        assert_eq!(asked.len(), 6);
        // The recommendation is the last point evaluated.
        assert_eq!(Some(&recommended), asked.last());
        assert_eq!(run(PeGpUcb::default(), 4), (asked, recommended));
    }
}
