//! The settings the RAHBO family shares (Makarova et al., "Risk-averse Heteroscedastic Bayesian
//! Optimization", NeurIPS 2021, Sections 3–4 and Appendix A), their declared parameters, and the
//! method each registry entry runs.

use crate::acquisition::GRID_SIZE as GRID_SIZE_AUTO;
use bosweep_core::params::{
    ChoiceParam, FlagParam, IntegerParam, ParamSpec, ParamTable, ParamValue, Params, RealParam,
};
use bosweep_model::{FitMode, Priors};

/// Which of the paper's four methods runs (Algorithm 1, Eq. 9 and the baselines of Section 4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Method {
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

/// The noise matrix of the objective GP, which the paper fixes for RAHBO (Eq. 16) and leaves
/// open for GP-UCB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectiveNoise {
    /// `Σ̂ = clip(ucb^var, ϱ_², ϱ̄²)/k`: Eq. 16 with a floor that keeps the noise positive.
    UcbVarOverK,
    /// `max(ŝ², ϱ_²)/k`: the sample variance of each mean of `k` repeats.
    SampleVarOverK,
    /// `max(ŝ², ϱ_²)`: the raw sample variance, as the authors' code does.
    SampleVar,
}

/// The variance GP's homoscedastic noise `ρ²_η` (Assumption 2 and Appendix A.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VarianceNoise {
    /// Fitted with the hyperparameters, as in the experiments.
    Learned,
    /// `2ϱ̄⁴/(k−1)`, the conservative value of the theory (Appendix A.2).
    Conservative,
    /// A given value.
    Value(f64),
}

/// Which evaluated point is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportRule {
    /// argmax of each method's lcb under the latest models, over all evaluated points (the
    /// rule of the paper's figures).
    FinalLcb,
    /// Corollary 1.1: argmax of `lcb^MV_t(x_t)` stored in the round `x_t` was chosen.
    Corollary,
    /// argmax of the empirical `m̂ − α·ŝ²` (Fig. 5).
    EmpiricalMv,
    /// argmax of `m̂` (Fig. 10a).
    BestObserved,
}

/// How `β_t` and `β^var_t`, the multipliers of `σ` and `σ^var`, are chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BetaMode {
    /// Constant multipliers of `σ`: 2 in the paper's experiments; the authors' code passes 2 to
    /// BoTorch, which multiplies by √2.
    Constant {
        /// `β` of the objective GP.
        f: f64,
        /// `β^var` of the variance GP.
        var: f64,
    },
    /// Lemma 1 from the data, with `δ/2` per GP (a union bound over the two GPs).
    Theory {
        /// The failure probability `δ`.
        delta: f64,
        /// Bound `B_f` on the RKHS norm of `f`.
        norm_f: f64,
        /// Bound `B_var` on the RKHS norm of `ρ²`.
        norm_var: f64,
    },
}

/// Where the risk coefficient α comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlphaSource {
    /// The problem's own α where it has one (so the algorithm and the regret use the same α in
    /// a sweep), else [`RahboSettings::alpha`].
    Problem,
    /// [`RahboSettings::alpha`] always.
    Parameter,
}

/// How both GPs' hyperparameters are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HyperparameterFit {
    /// MAP with BoTorch's Gamma priors, as the authors' code.
    Map,
    /// ML-II: the marginal likelihood alone, as the paper states.
    Mle,
    /// The initial values, unchanged.
    Fixed,
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

/// Both GPs' prior mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriorMean {
    /// A learned constant (practical: a zero-mean variance GP pulls `μ^var` to 0 far from the
    /// data and inflates exploration).
    Constant,
    /// Zero, as in Algorithm 1.
    Zero,
}

const ALPHA: RealParam = RealParam::new(
    "alpha",
    1.0,
    0.0,
    1e12,
    "risk coefficient α of f − α·ρ² (units 1/[y])",
);
const ALPHA_SOURCE: ChoiceParam<AlphaSource> = ChoiceParam::new(
    "alpha_source",
    &["problem", "parameter"],
    &[AlphaSource::Problem, AlphaSource::Parameter],
    "problem",
    "α from the problem's alpha parameter where it has one (so regret and algorithm agree), or always alpha",
);
const K: IntegerParam = IntegerParam::new(
    "k",
    10,
    1,
    100_000,
    "repeated evaluations per point (k ≥ 2 except rahbo-known-var)",
);
const LAMBDA: RealParam = RealParam::new(
    "lambda",
    1.0,
    1e-12,
    1e12,
    "regulariser λ of K + λΣ (σ² divided by λ)",
);
/// Lemma 1's β (`true`) or constant multipliers.
const BETA_THEORY: ChoiceParam<bool> = ChoiceParam::new(
    "beta_mode",
    &["constant", "theory"],
    &[false, true],
    "constant",
    "constant multipliers, or Lemma 1's β from the data with δ/2 per GP",
);
const BETA_F: RealParam = RealParam::new(
    "beta_f_mult",
    2.0,
    0.0,
    1e6,
    "β multiplying σ of the f-GP (paper 2; reference √2)",
);
const BETA_VAR: RealParam = RealParam::new(
    "beta_var_mult",
    2.0,
    0.0,
    1e6,
    "β^var multiplying σ^var (paper 2; reference √2)",
);
const DELTA: RealParam = RealParam::new(
    "delta",
    0.1,
    1e-12,
    0.999_999,
    "failure probability δ of the theory β",
);
const NORM_F: RealParam = RealParam::new(
    "norm_bound_f",
    1.0,
    0.0,
    1e12,
    "RKHS-norm bound B_f of the theory β",
);
const NORM_VAR: RealParam = RealParam::new(
    "norm_bound_var",
    1.0,
    0.0,
    1e12,
    "RKHS-norm bound B_var of the theory β^var",
);
/// The parameters before the objective GP's noise choice, in listing order.
pub(super) const HEAD: &[ParamSpec] = &[
    ALPHA.spec(),
    ALPHA_SOURCE.spec(),
    K.spec(),
    LAMBDA.spec(),
    BETA_THEORY.spec(),
    BETA_F.spec(),
    BETA_VAR.spec(),
    DELTA.spec(),
    NORM_F.spec(),
    NORM_VAR.spec(),
];

/// The objective GP's noise choice of the RAHBO methods.
pub(super) const FGP_NOISE: ChoiceParam<ObjectiveNoise> = ChoiceParam::new(
    "fgp_noise",
    &["ucb_var_over_k", "sample_var_over_k", "sample_var"],
    &[
        ObjectiveNoise::UcbVarOverK,
        ObjectiveNoise::SampleVarOverK,
        ObjectiveNoise::SampleVar,
    ],
    "ucb_var_over_k",
    "f-GP noise: clip(ucb^var, ϱ_², ϱ̄²)/k (paper), max(ŝ², ϱ_²)/k, or ŝ² (reference)",
);
/// The objective GP's noise choice of the risk-neutral baseline.
pub(super) const GPUCB_NOISE: ChoiceParam<ObjectiveNoise> = ChoiceParam::new(
    "gpucb_noise",
    &["sample_var_over_k", "sample_var", "ucb_var_over_k"],
    &[
        ObjectiveNoise::SampleVarOverK,
        ObjectiveNoise::SampleVar,
        ObjectiveNoise::UcbVarOverK,
    ],
    "sample_var_over_k",
    "f-GP noise: max(ŝ², ϱ_²)/k, ŝ² (reference), or RAHBO's Σ̂ (GP-UCB ≡ RAHBO at α = 0)",
);

/// The words of `vargp_noise`; the value of a fixed value is `vargp_noise_value`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VarianceNoiseWord {
    Learned,
    Conservative,
    Value,
}

const VARGP_NOISE: ChoiceParam<VarianceNoiseWord> = ChoiceParam::new(
    "vargp_noise",
    &["learned", "fixed_conservative", "fixed_value"],
    &[
        VarianceNoiseWord::Learned,
        VarianceNoiseWord::Conservative,
        VarianceNoiseWord::Value,
    ],
    "learned",
    "variance-GP noise ρ²_η: fitted, 2ϱ̄⁴/(k−1), or vargp_noise_value",
);
const VARGP_NOISE_VALUE: RealParam = RealParam::new(
    "vargp_noise_value",
    0.01,
    1e-12,
    1e12,
    "ρ²_η when vargp_noise = fixed_value",
);
const RHO2_MAX: RealParam = RealParam::new(
    "rho2_max",
    0.0,
    0.0,
    1e12,
    "cap ϱ̄²; 0 = twice the largest observed ŝ², every round",
);
const RHO2_MIN: RealParam = RealParam::new(
    "rho2_min",
    0.0,
    0.0,
    1e12,
    "floor ϱ_² of the noise; 0 = 1e-6·max(1, var(m̂))",
);
const PLUGIN_FLOOR: RealParam = RealParam::new(
    "plugin_floor",
    0.02,
    0.0,
    1e12,
    "floor of RAHBO-US's plug-in max(μ^var, floor) (the authors' code: 0.02)",
);
const CLAMP_LCB_VAR: FlagParam = FlagParam::new(
    "clamp_lcb_var",
    false,
    "clamp lcb^var at ϱ_² in the acquisition (the paper does not)",
);
const REPORT: ChoiceParam<ReportRule> = ChoiceParam::new(
    "report",
    &["final_lcb", "corollary", "empirical_mv", "best_observed"],
    &[
        ReportRule::FinalLcb,
        ReportRule::Corollary,
        ReportRule::EmpiricalMv,
        ReportRule::BestObserved,
    ],
    "final_lcb",
    "reported point: final-model lcb, Corollary 1.1, argmax m̂ − α·ŝ², or argmax m̂",
);

const FIT: ChoiceParam<HyperparameterFit> = ChoiceParam::new(
    "fit",
    &["map", "mle", "fixed"],
    &[
        HyperparameterFit::Map,
        HyperparameterFit::Mle,
        HyperparameterFit::Fixed,
    ],
    "map",
    "hyperparameters: MAP with BoTorch's Gamma priors, ML-II, or fixed initial values",
);
const PRIOR_MEAN: ChoiceParam<PriorMean> = ChoiceParam::new(
    "prior_mean",
    &["constant", "zero"],
    &[PriorMean::Constant, PriorMean::Zero],
    "constant",
    "learned constant prior mean (practical) or zero (Alg. 1)",
);
const REFIT_EVERY: IntegerParam = IntegerParam::new(
    "refit_every",
    0,
    0,
    1_000_000,
    "refit hyperparameters every this many rounds; 0 = once after the initial design",
);
const LENGTHSCALE: RealParam = RealParam::new(
    "lengthscale",
    0.3,
    1e-6,
    1e6,
    "initial lengthscale in unit-cube units",
);
const GRID_SIZE: IntegerParam = GRID_SIZE_AUTO.described(
    "Sobol candidates fixed for the run; 0 = min(2^12·d, 2^20); the allowed set when there is one",
);
/// The parameters after the objective GP's noise choice, in listing order.
pub(super) const TAIL: &[ParamSpec] = &[
    VARGP_NOISE.spec(),
    VARGP_NOISE_VALUE.spec(),
    RHO2_MAX.spec(),
    RHO2_MIN.spec(),
    PLUGIN_FLOOR.spec(),
    CLAMP_LCB_VAR.spec(),
    REPORT.spec(),
    FIT.spec(),
    PRIOR_MEAN.spec(),
    REFIT_EVERY.spec(),
    LENGTHSCALE.spec(),
    GRID_SIZE.spec(),
];
/// RAHBO-US's rounds of uncertainty sampling.
pub(super) const US_ROUNDS: IntegerParam = IntegerParam::new(
    "us_rounds",
    10,
    0,
    1_000_000,
    "rounds of uncertainty sampling on the variance GP before GP-UCB on f − α·μ^var",
);

/// The declared parameters of `rahbo` and `rahbo-known-var`.
pub(super) const RAHBO_PARAMS: ParamTable = ParamTable(&[HEAD, &[FGP_NOISE.spec()], TAIL]);
/// The declared parameters of `rahbo-us`.
pub(super) const RAHBO_US_PARAMS: ParamTable =
    ParamTable(&[HEAD, &[FGP_NOISE.spec()], TAIL, &[US_ROUNDS.spec()]]);
/// The declared parameters of `gp-ucb-hetero`.
pub(super) const GP_UCB_HETERO_PARAMS: ParamTable =
    ParamTable(&[HEAD, &[GPUCB_NOISE.spec()], TAIL]);

/// The settings every method of the RAHBO family shares: the risk trade-off, the repeats per
/// point, the confidence multipliers, both GPs and the candidate set. The defaults are the
/// registry's (`bosweep list`); [`Rahbo`](crate::Rahbo), [`RahboKnownVar`](crate::RahboKnownVar),
/// [`RahboUs`](crate::RahboUs) and [`GpUcbHetero`](crate::GpUcbHetero) add what is their own.
#[derive(Clone, Debug, PartialEq)]
pub struct RahboSettings {
    /// Risk coefficient α of the mean-variance objective `MV(x) = f(x) − α·ρ²(x)` (Eq. 2), in
    /// units of 1/y (the objective's units); 0 is risk-neutral. Default 1.
    pub alpha: f64,
    /// Whether a problem's own α replaces [`alpha`](Self::alpha). Default: the problem's.
    pub alpha_source: AlphaSource,
    /// Repeated evaluations per point, `k` (Section 3.3); at least 2 except with the true
    /// variance. Default 10.
    pub k: usize,
    /// Regulariser λ of `K + λΣ` (Eqs. 5–6); the experiments use 1. Default 1.
    pub lambda: f64,
    /// The multipliers `β_t` and `β^var_t`. Default: constant 2 and 2, the paper's experiments.
    pub beta: BetaMode,
    /// The variance GP's noise `ρ²_η`. Default: learned.
    pub variance_noise: VarianceNoise,
    /// The cap `ϱ̄²` on the noise; `None`: twice the largest observed sample variance, every
    /// round. Default `None`.
    pub rho2_max: Option<f64>,
    /// The floor `ϱ_²` of the noise; `None`: `1e-6·max(1, var(m̂))`. Default `None`.
    pub rho2_min: Option<f64>,
    /// RAHBO-US only: floor of the plug-in `ρ̃² = max(μ^var, floor)`; the authors' code uses
    /// 0.02. Default 0.02.
    pub plugin_floor: f64,
    /// RAHBO only: clamp `lcb^var` at `ϱ_²` in the acquisition (the paper does not). Default
    /// `false`.
    pub clamp_lcb_var: bool,
    /// Which evaluated point is reported. Default: the final models' lcb.
    pub report: ReportRule,
    /// How the hyperparameters are chosen. Default: MAP with BoTorch's priors.
    pub fit: HyperparameterFit,
    /// Both GPs' prior mean. Default: a learned constant.
    pub prior_mean: PriorMean,
    /// Refit the hyperparameters every this many rounds; `None`: once, after the initial
    /// design, as the paper does. Default `None`.
    pub refit_every: Option<usize>,
    /// Initial lengthscale of both Matérn-5/2 kernels, in unit-cube units. Default 0.3.
    pub initial_lengthscale: f64,
    /// Sobol candidates fixed for the run; `None`: `min(2^12·d, 2^20)`. A problem's allowed set
    /// replaces them. Default `None`.
    pub grid_size: Option<usize>,
}

impl RahboSettings {
    /// Reads the shared parameters of one registry entry.
    pub(super) fn from_params(p: &Params) -> Self {
        let positive_or_auto = |param: RealParam| Some(param.of(p)).filter(|v| *v > 0.0);
        let beta = if BETA_THEORY.of(p) {
            BetaMode::Theory {
                delta: DELTA.of(p),
                norm_f: NORM_F.of(p),
                norm_var: NORM_VAR.of(p),
            }
        } else {
            BetaMode::Constant {
                f: BETA_F.of(p),
                var: BETA_VAR.of(p),
            }
        };
        let variance_noise = match VARGP_NOISE.of(p) {
            VarianceNoiseWord::Learned => VarianceNoise::Learned,
            VarianceNoiseWord::Conservative => VarianceNoise::Conservative,
            VarianceNoiseWord::Value => VarianceNoise::Value(VARGP_NOISE_VALUE.of(p)),
        };
        Self {
            alpha: ALPHA.of(p),
            alpha_source: ALPHA_SOURCE.of(p),
            k: K.of(p),
            lambda: LAMBDA.of(p),
            beta,
            variance_noise,
            rho2_max: positive_or_auto(RHO2_MAX),
            rho2_min: positive_or_auto(RHO2_MIN),
            plugin_floor: PLUGIN_FLOOR.of(p),
            clamp_lcb_var: CLAMP_LCB_VAR.of(p),
            report: REPORT.of(p),
            fit: FIT.of(p),
            prior_mean: PRIOR_MEAN.of(p),
            refit_every: REFIT_EVERY.nonzero_of(p),
            initial_lengthscale: LENGTHSCALE.of(p),
            grid_size: GRID_SIZE.nonzero_of(p),
        }
    }

    /// The settings as given parameters, the inverse of [`RahboSettings::from_params`].
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        let mut given = vec![
            ALPHA.given(self.alpha),
            ALPHA_SOURCE.given(self.alpha_source),
            K.given(self.k),
            LAMBDA.given(self.lambda),
        ];
        given.extend(match self.beta {
            BetaMode::Constant { f, var } => vec![
                BETA_THEORY.given(false),
                BETA_F.given(f),
                BETA_VAR.given(var),
            ],
            BetaMode::Theory {
                delta,
                norm_f,
                norm_var,
            } => vec![
                BETA_THEORY.given(true),
                DELTA.given(delta),
                NORM_F.given(norm_f),
                NORM_VAR.given(norm_var),
            ],
        });
        given.extend(match self.variance_noise {
            VarianceNoise::Learned => vec![VARGP_NOISE.given(VarianceNoiseWord::Learned)],
            VarianceNoise::Conservative => {
                vec![VARGP_NOISE.given(VarianceNoiseWord::Conservative)]
            }
            VarianceNoise::Value(v) => vec![
                VARGP_NOISE.given(VarianceNoiseWord::Value),
                VARGP_NOISE_VALUE.given(v),
            ],
        });
        given.extend([
            RHO2_MAX.given(self.rho2_max.unwrap_or(0.0)),
            RHO2_MIN.given(self.rho2_min.unwrap_or(0.0)),
            PLUGIN_FLOOR.given(self.plugin_floor),
            CLAMP_LCB_VAR.given(self.clamp_lcb_var),
            REPORT.given(self.report),
            FIT.given(self.fit),
            PRIOR_MEAN.given(self.prior_mean),
            REFIT_EVERY.given(self.refit_every.unwrap_or(0)),
            LENGTHSCALE.given(self.initial_lengthscale),
            GRID_SIZE.given(self.grid_size.unwrap_or(0)),
        ]);
        given
    }
}

/// A method of the family with the settings it runs with, as the models and the steps read
/// them.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub(crate) method: Method,
    pub(crate) shared: RahboSettings,
}

impl Settings {
    /// Whether the method keeps a variance-proxy GP.
    pub(crate) fn uses_variance_gp(&self) -> bool {
        match self.method {
            Method::Rahbo { .. } | Method::UncertaintySampling { .. } => true,
            Method::KnownVariance => false,
            Method::GpUcb { objective_noise } => objective_noise == ObjectiveNoise::UcbVarOverK,
        }
    }
}
