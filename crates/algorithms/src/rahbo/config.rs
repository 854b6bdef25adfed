//! RAHBO's settings (`specs/rahbo.md` §2.5–2.8, §3, pitfalls P1–P23), read from declared
//! parameters.

use super::super::AlgorithmError;
use bosweep_core::params::Params;
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

impl ObjectiveNoise {
    fn parse(word: &str) -> Self {
        match word {
            "sample_var_over_k" => Self::SampleVarOverK,
            "sample_var" => Self::SampleVar,
            _ => Self::UcbVarOverK,
        }
    }
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

impl Settings {
    /// Reads the parameters of one registry entry; `method` fixes which ones apply.
    pub fn from_params(method: Method, p: &Params) -> Result<Self, AlgorithmError> {
        let k = p.integer("k");
        if k < 2 && method != Method::KnownVariance {
            return Err(AlgorithmError::Config(format!(
                "{}: k = {k}, but the sample variance needs k ≥ 2 repeats per point \
                 (only rahbo-known-var accepts k = 1)",
                p.name()
            )));
        }
        let positive_or_auto = |name: &str| match p.number(name) {
            v if v > 0.0 => Some(v),
            _ => None,
        };
        let beta = match p.choice("beta_mode") {
            "theory" => BetaMode::Theory {
                delta: p.number("delta"),
                norm_f: p.number("norm_bound_f"),
                norm_var: p.number("norm_bound_var"),
            },
            _ => BetaMode::Constant {
                f: p.number("beta_f_mult"),
                var: p.number("beta_var_mult"),
            },
        };
        let variance_noise = match p.choice("vargp_noise") {
            "fixed_conservative" => VarianceNoise::Conservative,
            "fixed_value" => VarianceNoise::Value(p.number("vargp_noise_value")),
            _ => VarianceNoise::Learned,
        };
        let noise_key = match method {
            Method::GpUcb => "gpucb_noise",
            _ => "fgp_noise",
        };
        let report = match p.choice("report") {
            "corollary" => ReportRule::Corollary,
            "empirical_mv" => ReportRule::EmpiricalMv,
            "best_observed" => ReportRule::BestObserved,
            _ => ReportRule::FinalLcb,
        };
        let fit_mode = match p.choice("fit") {
            "mle" => FitMode::Mle,
            "fixed" => FitMode::Fixed,
            _ => FitMode::Map {
                priors: Priors::botorch(),
            },
        };
        Ok(Self {
            method,
            alpha: p.number("alpha"),
            alpha_from_problem: p.choice("alpha_source") == "problem",
            k,
            lambda: p.number("lambda"),
            beta,
            objective_noise: ObjectiveNoise::parse(p.choice(noise_key)),
            variance_noise,
            rho2_max: positive_or_auto("rho2_max"),
            rho2_min: positive_or_auto("rho2_min"),
            plugin_floor: p.number("plugin_floor"),
            clamp_lcb_var: p.choice("clamp_lcb_var") == "true",
            report,
            fit_mode,
            learned_mean: p.choice("prior_mean") == "constant",
            refit_every: p.integer("refit_every"),
            initial_lengthscale: p.number("lengthscale"),
            grid_size: p.integer("grid_size"),
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
