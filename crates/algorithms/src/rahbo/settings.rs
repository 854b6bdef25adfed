//! The settings of the RAHBO family (Makarova et al., "Risk-averse Heteroscedastic Bayesian
//! Optimization", NeurIPS 2021, Sections 3–4 and Appendix A), declared once: two groups every
//! method shares, [`RahboRisk`] (the risk trade-off, the repeats and the confidence
//! multipliers) and [`RahboModels`] (both GPs, the noise bounds, the report rule and the
//! candidate set), listed around what each method adds (the objective GP's noise, RAHBO-US's
//! rounds); and the variant each registry entry runs.

use bosweep_core::params::Choice;
use bosweep_model::{FitMode, Priors};
use bosweep_toolkit::AlgorithmError;

bosweep_core::choices! {
    /// The noise matrix of the objective GP, which the paper fixes for RAHBO (Eq. 16) and
    /// leaves open for GP-UCB.
    pub enum ObjectiveNoise {
        /// `Σ̂ = clip(ucb^var, ϱ_², ϱ̄²)/k`: Eq. 16 with a floor that keeps the noise positive.
        UcbVarOverK = "ucb_var_over_k",
        /// `max(ŝ², ϱ_²)/k`: the sample variance of each mean of `k` repeats.
        SampleVarOverK = "sample_var_over_k",
        /// `max(ŝ², ϱ_²)`: the raw sample variance, as the authors' code does.
        SampleVar = "sample_var",
    }
}

/// The objective GP's noise of the risk-neutral baseline: [`ObjectiveNoise`] with its words
/// listed from the baseline's default, `sample_var_over_k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpUcbNoise(pub ObjectiveNoise);

impl Choice for GpUcbNoise {
    const WORDS: &'static [&'static str] = &["sample_var_over_k", "sample_var", "ucb_var_over_k"];
    const VALUES: &'static [Self] = &[
        Self(ObjectiveNoise::SampleVarOverK),
        Self(ObjectiveNoise::SampleVar),
        Self(ObjectiveNoise::UcbVarOverK),
    ];
}

bosweep_core::choices! {
    /// The variance GP's homoscedastic noise `ρ²_η` (Assumption 2 and Appendix A.2).
    pub enum VarianceNoise {
        /// Fitted with the hyperparameters, as in the experiments.
        Learned = "learned",
        /// `2ϱ̄⁴/(k−1)`, the conservative value of the theory (Appendix A.2).
        Conservative = "fixed_conservative",
        /// The given value, [`RahboModels::vargp_noise_value`].
        Value = "fixed_value",
    }
}

bosweep_core::choices! {
    /// Which evaluated point is reported.
    pub enum ReportRule {
        /// argmax of each method's lcb under the latest models, over all evaluated points (the
        /// rule of the paper's figures).
        FinalLcb = "final_lcb",
        /// Corollary 1.1: argmax of `lcb^MV_t(x_t)` stored in the round `x_t` was chosen.
        Corollary = "corollary",
        /// argmax of the empirical `m̂ − α·ŝ²` (Fig. 5).
        EmpiricalMv = "empirical_mv",
        /// argmax of `m̂` (Fig. 10a).
        BestObserved = "best_observed",
    }
}

bosweep_core::choices! {
    /// How `β_t` and `β^var_t`, the multipliers of `σ` and `σ^var`, are chosen.
    pub enum BetaMode {
        /// Constant multipliers of `σ` ([`RahboRisk::beta_f_mult`], [`RahboRisk::beta_var_mult`]):
        /// 2 in the paper's experiments; the authors' code passes 2 to BoTorch, which multiplies
        /// by √2.
        Constant = "constant",
        /// Lemma 1 from the data, with `δ/2` per GP (a union bound over the two GPs).
        Theory = "theory",
    }
}

bosweep_core::choices! {
    /// Where the risk coefficient α comes from.
    pub enum AlphaSource {
        /// The problem's own α where it has one (so the algorithm and the regret use the same α
        /// in a sweep), else [`RahboRisk::alpha`].
        Problem = "problem",
        /// [`RahboRisk::alpha`] always.
        Parameter = "parameter",
    }
}

bosweep_core::choices! {
    /// How both GPs' hyperparameters are chosen.
    pub enum HyperparameterFit {
        /// MAP with BoTorch's Gamma priors, as the authors' code.
        Map = "map",
        /// ML-II: the marginal likelihood alone, as the paper states.
        Mle = "mle",
        /// The initial values, unchanged.
        Fixed = "fixed",
    }
}

impl HyperparameterFit {
    /// The model's fit mode.
    pub(super) fn mode(self) -> FitMode {
        match self {
            Self::Map => FitMode::Map {
                priors: Priors::botorch(),
            },
            Self::Mle => FitMode::Mle,
            Self::Fixed => FitMode::Fixed,
        }
    }
}

bosweep_core::choices! {
    /// Both GPs' prior mean.
    pub enum PriorMean {
        /// A learned constant (practical: a zero-mean variance GP pulls `μ^var` to 0 far from
        /// the data and inflates exploration).
        Constant = "constant",
        /// Zero, as in Algorithm 1.
        Zero = "zero",
    }
}

bosweep_core::settings! {
    /// What every method of the RAHBO family shares before the objective GP's noise: the risk
    /// trade-off, the repeats per point and the confidence multipliers.
    pub struct RahboRisk {
        /// The mean-variance objective is `MV(x) = f(x) − α·ρ²(x)` (Eq. 2); 0 is risk-neutral.
        /// It is used only where the problem has no α of its own, unless
        /// [`alpha_source`](Self::alpha_source) says otherwise.
        alpha: f64 = 1.0 => ("risk coefficient α of f − α·ρ² (units 1/[y])", 0.0, 1e12),
        alpha_source: AlphaSource = AlphaSource::Problem => (
            "α from the problem's alpha parameter where it has one (so regret and algorithm agree), or always alpha"
        ),
        /// Section 3.3: the sample variance of the repeats is the variance GP's target.
        k: usize = 10 => ("repeated evaluations per point (k ≥ 2 except rahbo-known-var)", 1, 100_000),
        /// Eqs. 5–6; the experiments use 1.
        lambda: f64 = 1.0 => ("regulariser λ of K + λΣ (σ² divided by λ)", 1e-12, 1e12),
        beta_mode: BetaMode = BetaMode::Constant => (
            "constant multipliers, or Lemma 1's β from the data with δ/2 per GP"
        ),
        beta_f_mult: f64 = 2.0 => ("β multiplying σ of the f-GP (paper 2; reference √2)", 0.0, 1e6),
        beta_var_mult: f64 = 2.0 => ("β^var multiplying σ^var (paper 2; reference √2)", 0.0, 1e6),
        delta: f64 = 0.1 => ("failure probability δ of the theory β", 1e-12, 0.999_999),
        norm_bound_f: f64 = 1.0 => ("RKHS-norm bound B_f of the theory β", 0.0, 1e12),
        norm_bound_var: f64 = 1.0 => ("RKHS-norm bound B_var of the theory β^var", 0.0, 1e12),
    }
}

impl RahboRisk {
    /// The sample variance needs `k ≥ 2` repeats per point: the check of every method but the
    /// known-variance one.
    pub(super) fn check_repeats(&self, name: &str) -> Result<(), AlgorithmError> {
        if self.k >= 2 {
            return Ok(());
        }
        Err(AlgorithmError::Config(format!(
            "{name}: k = {}, but the sample variance needs k ≥ 2 repeats per point \
             (only rahbo-known-var accepts k = 1)",
            self.k
        )))
    }
}

bosweep_core::settings! {
    /// What every method of the RAHBO family shares after the objective GP's noise: the variance
    /// GP's noise, the bounds on the noise, both GPs' fit, the report rule and the candidate
    /// set.
    pub struct RahboModels {
        vargp_noise: VarianceNoise = VarianceNoise::Learned => (
            "variance-GP noise ρ²_η: fitted, 2ϱ̄⁴/(k−1), or vargp_noise_value"
        ),
        vargp_noise_value: f64 = 0.01 => ("ρ²_η when vargp_noise = fixed_value", 1e-12, 1e12),
        rho2_max: f64 = 0.0 => ("cap ϱ̄²; 0 = twice the largest observed ŝ², every round", 0.0, 1e12),
        rho2_min: f64 = 0.0 => ("floor ϱ_² of the noise; 0 = 1e-6·max(1, var(m̂))", 0.0, 1e12),
        /// RAHBO-US only.
        plugin_floor: f64 = 0.02 => (
            "floor of RAHBO-US's plug-in max(μ^var, floor) (the authors' code: 0.02)",
            0.0,
            1e12
        ),
        /// RAHBO only.
        clamp_lcb_var: bool = false => ("clamp lcb^var at ϱ_² in the acquisition (the paper does not)"),
        report: ReportRule = ReportRule::FinalLcb => (
            "reported point: final-model lcb, Corollary 1.1, argmax m̂ − α·ŝ², or argmax m̂"
        ),
        fit: HyperparameterFit = HyperparameterFit::Map => (
            "hyperparameters: MAP with BoTorch's Gamma priors, ML-II, or fixed initial values"
        ),
        prior_mean: PriorMean = PriorMean::Constant => (
            "learned constant prior mean (practical) or zero (Alg. 1)"
        ),
        /// The paper fits once, after the initial design.
        refit_every: usize = 0 => (
            "refit hyperparameters every this many rounds; 0 = once after the initial design",
            0,
            1_000_000
        ),
        /// Of both Matérn-5/2 kernels.
        lengthscale: f64 = 0.3 => ("initial lengthscale in unit-cube units", 1e-6, 1e6),
        grid_size: usize = 0 => (
            "Sobol candidates fixed for the run; 0 = min(2^12·d, 2^20); the allowed set when there is one",
            0,
            1 << 24
        ),
    }
}

/// The settings of a method that declares RAHBO's objective-noise choice `fgp_noise` between
/// the shared groups (`rahbo`, and `rahbo-known-var` and `rahbo-us`, which declare it without
/// using it), then the method's own `$extra` fields.
macro_rules! rahbo_settings {
    ($(#[$doc:meta])* $settings:ident { $($extra:tt)* }) => {
        bosweep_core::settings! {
            $(#[$doc])*
            pub struct $settings {
                /// The risk trade-off, the repeats and the confidence multipliers.
                risk: RahboRisk = RahboRisk::default() => {},
                fgp_noise: ObjectiveNoise = ObjectiveNoise::UcbVarOverK => (
                    "f-GP noise: clip(ucb^var, ϱ_², ϱ̄²)/k (paper), max(ŝ², ϱ_²)/k, or ŝ² (reference)"
                ),
                /// Both GPs, the report rule and the candidate set.
                models: RahboModels = RahboModels::default() => {},
                $($extra)*
            }
        }
    };
}

rahbo_settings! {
    /// Typed settings of RAHBO (`rahbo`; Makarova et al., "Risk-averse Heteroscedastic Bayesian
    /// Optimization", NeurIPS 2021, Algorithm 1): `k` repeats per point, a GP on the sample
    /// variances and one on the sample means, the acquisition `ucb^f − α·lcb^var`.
    ///
    /// ```
    /// use bosweep_algorithms::{Optimizer, Rahbo};
    ///
    /// let settings = Rahbo::default()
    ///     .risk(|risk| risk.alpha(0.5).k(3))
    ///     .models(|models| models.grid_size(64));
    /// let mut opt = Optimizer::builder(settings)
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
    Rahbo {}
}

rahbo_settings! {
    /// Typed settings of RAHBO with known variance (`rahbo-known-var`; Makarova et al. 2021,
    /// Eq. 9): the problem's true noise variance `ρ²` in place of the variance GP, the
    /// acquisition `ucb^f − α·ρ²` and the objective GP's noise `ρ²/k`; `k = 1` is allowed. The
    /// registry also declares `fgp_noise` for it, which it does not use, and the variance GP's
    /// settings go unused.
    RahboKnownVar {}
}

rahbo_settings! {
    /// Typed settings of RAHBO-US (`rahbo-us`; Makarova et al. 2021, Section 4 and Appendix
    /// A.6.2): uncertainty sampling of the variance GP for `us_rounds` rounds, then GP-UCB on
    /// `f − α·max(μ^var, floor)`. The registry also declares `fgp_noise` for it, which it does
    /// not use: its objective GP's noise is the plug-in `max(μ^var, floor)/k`.
    RahboUs {
        /// The paper runs 10 on Branin.
        us_rounds: usize = 10 => (
            "rounds of uncertainty sampling on the variance GP before GP-UCB on f − α·μ^var",
            0,
            1_000_000
        ),
    }
}

bosweep_core::settings! {
    /// Typed settings of risk-neutral GP-UCB on the `k`-sample means with heteroscedastic fixed
    /// noise (`gp-ucb-hetero`; the baseline of Makarova et al. 2021, Section 4), reporting the
    /// point of largest `lcb^f`.
    pub struct GpUcbHetero {
        /// The repeats and the confidence multipliers; α enters only the empirical report rule.
        risk: RahboRisk = RahboRisk::default() => {},
        /// The paper leaves it open; RAHBO's `Σ̂` makes this method RAHBO at α = 0.
        gpucb_noise: GpUcbNoise = GpUcbNoise(ObjectiveNoise::SampleVarOverK) => (
            "f-GP noise: max(ŝ², ϱ_²)/k, ŝ² (reference), or RAHBO's Σ̂ (GP-UCB ≡ RAHBO at α = 0)"
        ),
        /// Both GPs, the report rule and the candidate set.
        models: RahboModels = RahboModels::default() => {},
    }
}

/// Which of the paper's four methods runs (Algorithm 1, Eq. 9 and the baselines of Section 4),
/// with what it adds to the shared settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Variant {
    /// Algorithm 1: learned variance proxy, acquisition `ucb^f − α·lcb^var`, the objective GP's
    /// noise as chosen.
    Rahbo { objective_noise: ObjectiveNoise },
    /// Eq. 9: the true `ρ²` from the problem, acquisition `ucb^f − α·ρ²`.
    KnownVariance,
    /// RAHBO-US: `rounds` of uncertainty sampling on the variance GP, then GP-UCB on
    /// `f − α·max(μ^var, floor)`.
    UncertaintySampling { rounds: usize },
    /// Risk-neutral GP-UCB with heteroscedastic fixed noise as chosen.
    GpUcb { objective_noise: ObjectiveNoise },
}

/// A method of the family with the settings it runs with, as the models and the steps read
/// them.
#[derive(Clone, Debug)]
pub(crate) struct RunSettings {
    pub(crate) variant: Variant,
    pub(crate) risk: RahboRisk,
    pub(crate) models: RahboModels,
}

impl RunSettings {
    pub(super) fn new(variant: Variant, risk: RahboRisk, models: RahboModels) -> Self {
        Self {
            variant,
            risk,
            models,
        }
    }

    /// Whether the method keeps a variance-proxy GP.
    pub(crate) fn uses_variance_gp(&self) -> bool {
        match self.variant {
            Variant::Rahbo { .. } | Variant::UncertaintySampling { .. } => true,
            Variant::KnownVariance => false,
            Variant::GpUcb { objective_noise } => objective_noise == ObjectiveNoise::UcbVarOverK,
        }
    }
}
