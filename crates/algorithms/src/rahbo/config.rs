//! RAHBO's settings (`specs/rahbo.md` §2.5–2.8, §3, pitfalls P1–P23), read from declared
//! parameters.

use super::super::AlgorithmError;
use crate::acquisition::GRID_SIZE as GRID_SIZE_AUTO;
use bosweep_core::params::{ChoiceParam, FlagParam, IntegerParam, ParamSpec, Params, RealParam};
use bosweep_model::{FitMode, Priors};

/// Which of the paper's four methods runs (§2.7–2.8).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// Algorithm 1: learned variance proxy, acquisition `ucb^f − α·lcb^var`.
    Rahbo,
    /// Eq. 9: the true `ρ²` from the problem, acquisition `ucb^f − α·ρ²`.
    KnownVariance,
    /// RAHBO-US: `rounds` of uncertainty sampling on the variance GP, then GP-UCB on
    /// `f − α·max(μ^var, floor)`.
    UncertaintySampling { rounds: usize },
    /// Risk-neutral GP-UCB with heteroscedastic fixed noise.
    GpUcb,
}

/// The noise matrix of the objective GP (P3 and the GP-UCB table of §2.8).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ObjectiveNoise {
    /// `Σ̂ = clip(ucb^var, ϱ_², ϱ̄²)/k` (Eq. 16, the paper).
    UcbVarOverK,
    /// `max(ŝ², ϱ_²)/k`.
    SampleVarOverK,
    /// `max(ŝ², ϱ_²)` (\[R\]).
    SampleVar,
}

/// The variance GP's homoscedastic noise `ρ²_η` (P6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VarianceNoise {
    /// Fitted with the hyperparameters (practical).
    Learned,
    /// `2ϱ̄⁴/(k−1)` (theory, App. A.2).
    Conservative,
    /// A given value.
    Value(f64),
}

/// Which evaluated point is reported (P9).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ReportRule {
    /// argmax of each method's lcb under the latest models, over all evaluated points.
    FinalLcb,
    /// Corollary 1.1: argmax of `lcb^MV_t(x_t)` stored in the round `x_t` was chosen.
    Corollary,
    /// argmax of `m̂ − α·ŝ²` (Fig. 5).
    EmpiricalMv,
    /// argmax of `m̂` (Fig. 10a).
    BestObserved,
}

/// How `β_t` and `β^var_t` are chosen (§2.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BetaMode {
    /// Constant multipliers of `σ` (2 in the paper's text, √2 in \[R\], P1).
    Constant { f: f64, var: f64 },
    /// Lemma 1 from the data, with `δ/2` per GP (P11) and RKHS-norm bounds.
    Theory {
        delta: f64,
        norm_f: f64,
        norm_var: f64,
    },
}

/// Everything a RAHBO-family run is configured with.
#[derive(Clone, Debug)]
pub struct Settings {
    pub method: Method,
    pub alpha: f64,
    /// Take α from the problem's [`Problem::risk_aversion`](bosweep_problems::Problem) where it
    /// has one, so that the algorithm and the regret use the same α in a sweep.
    pub alpha_from_problem: bool,
    pub k: usize,
    pub lambda: f64,
    pub beta: BetaMode,
    pub objective_noise: ObjectiveNoise,
    pub variance_noise: VarianceNoise,
    /// `ϱ̄²`; `None`: twice the largest observed sample variance, updated every round (P5).
    pub rho2_max: Option<f64>,
    /// `ϱ_²`; `None`: `1e-6·max(1, var(m̂))` (P4).
    pub rho2_min: Option<f64>,
    /// Floor of the plug-in `ρ̃² = max(μ^var, floor)` of RAHBO-US (P19; \[R\]: 0.02).
    pub plugin_floor: f64,
    pub clamp_lcb_var: bool,
    pub report: ReportRule,
    pub fit_mode: FitMode,
    /// Learned constant prior mean (practical) or zero (theory, Alg. 1).
    pub learned_mean: bool,
    /// Refit the hyperparameters every this many rounds; 0: once, after the initial design (P7).
    pub refit_every: usize,
    pub initial_lengthscale: f64,
    /// Candidates per round (a Sobol set fixed for the run); 0: the default for the dimension.
    pub grid_size: usize,
}

const ALPHA: RealParam = RealParam::new(
    "alpha",
    1.0,
    0.0,
    1e12,
    "risk coefficient α of f − α·ρ² (units 1/[y])",
);
/// α from the problem (`true`) or from `alpha`.
const ALPHA_FROM_PROBLEM: ChoiceParam<bool> = ChoiceParam::new(
    "alpha_source",
    &["problem", "parameter"],
    &[true, false],
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
    ALPHA_FROM_PROBLEM.spec(),
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

/// The variance GP's noise choice; the value of `Value` is `vargp_noise_value`'s.
const VARGP_NOISE: ChoiceParam<VarianceNoise> = ChoiceParam::new(
    "vargp_noise",
    &["learned", "fixed_conservative", "fixed_value"],
    &[
        VarianceNoise::Learned,
        VarianceNoise::Conservative,
        VarianceNoise::Value(f64::NAN),
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
    "floor of RAHBO-US's plug-in max(μ^var, floor) ([R]: 0.02)",
);
const CLAMP_LCB_VAR: FlagParam = FlagParam::new(
    "clamp_lcb_var",
    false,
    "clamp lcb^var at ϱ_² in the acquisition (P19; the paper does not)",
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

/// How the hyperparameters are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FitChoice {
    Map,
    Mle,
    Fixed,
}

const FIT: ChoiceParam<FitChoice> = ChoiceParam::new(
    "fit",
    &["map", "mle", "fixed"],
    &[FitChoice::Map, FitChoice::Mle, FitChoice::Fixed],
    "map",
    "hyperparameters: MAP with BoTorch's Gamma priors, ML-II, or fixed initial values",
);
/// A learned constant prior mean (`true`) or zero.
const LEARNED_MEAN: ChoiceParam<bool> = ChoiceParam::new(
    "prior_mean",
    &["constant", "zero"],
    &[true, false],
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
    LEARNED_MEAN.spec(),
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

impl Settings {
    /// Reads the parameters of one registry entry; `method` fixes which ones apply.
    pub fn from_params(method: Method, p: &Params) -> Result<Self, AlgorithmError> {
        let k = K.of(p);
        if k < 2 && method != Method::KnownVariance {
            return Err(AlgorithmError::Config(format!(
                "{}: k = {k}, but the sample variance needs k ≥ 2 repeats per point \
                 (only rahbo-known-var accepts k = 1)",
                p.name()
            )));
        }
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
            VarianceNoise::Value(_) => VarianceNoise::Value(VARGP_NOISE_VALUE.of(p)),
            choice => choice,
        };
        let objective_noise = match method {
            Method::GpUcb => GPUCB_NOISE.of(p),
            _ => FGP_NOISE.of(p),
        };
        let fit_mode = match FIT.of(p) {
            FitChoice::Map => FitMode::Map {
                priors: Priors::botorch(),
            },
            FitChoice::Mle => FitMode::Mle,
            FitChoice::Fixed => FitMode::Fixed,
        };
        Ok(Self {
            method,
            alpha: ALPHA.of(p),
            alpha_from_problem: ALPHA_FROM_PROBLEM.of(p),
            k,
            lambda: LAMBDA.of(p),
            beta,
            objective_noise,
            variance_noise,
            rho2_max: positive_or_auto(RHO2_MAX),
            rho2_min: positive_or_auto(RHO2_MIN),
            plugin_floor: PLUGIN_FLOOR.of(p),
            clamp_lcb_var: CLAMP_LCB_VAR.of(p),
            report: REPORT.of(p),
            fit_mode,
            learned_mean: LEARNED_MEAN.of(p),
            refit_every: REFIT_EVERY.of(p),
            initial_lengthscale: LENGTHSCALE.of(p),
            grid_size: GRID_SIZE.of(p),
        })
    }

    /// Whether the method keeps a variance-proxy GP.
    pub fn uses_variance_gp(&self) -> bool {
        match self.method {
            Method::Rahbo | Method::UncertaintySampling { .. } => true,
            Method::KnownVariance => false,
            Method::GpUcb => self.objective_noise == ObjectiveNoise::UcbVarOverK,
        }
    }
}
