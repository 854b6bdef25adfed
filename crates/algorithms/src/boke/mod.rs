//! BOKE and its baselines (`specs/boke.md`): Bayesian optimisation by kernel regression and
//! density-based exploration. A Nadaraya–Watson mean replaces the GP and the inverse square root
//! of an unnormalised KDE replaces its posterior sd, so no matrix is factorised and the work per
//! iteration grows linearly in t. All kernels and bandwidths live in the unit cube (§2.1).

mod data;
mod gp_ucb_fixed;
mod ikr;
mod kr_ucb;
mod schedules;
mod search;
mod surrogate;

pub use gp_ucb_fixed::{GpUcbFixed, GpUcbSettings};
pub use ikr::{Boke, KrSettings, Recommendation, StepRule};
pub use kr_ucb::{KrUcb, Widening};
pub use schedules::{BetaRule, exploration_scale};
pub use search::{SearchConfig, farthest_unbounded};
pub use surrogate::{Evaluation, KrSurrogate, Score, exploration};

use super::AlgorithmError;
use super::registry::AlgorithmEntry;
use super::requirement::Requirement;
use bosweep_core::params::{ParamKind, ParamSpec, Params};
use bosweep_model::{BandwidthScale, BandwidthSchedule, SmoothingKernel};

/// `1/√12`: the sd of a uniform design on [0, 1], the proposed Scott constant (§2.5, P1).
const UNIT_SD: f64 = 0.288_675_134_594_812_9;

/// Parameters of the candidate search (§2.6), shared by every algorithm here.
macro_rules! search_params {
    ($($extra:expr),* $(,)?) => {
        &[
            ParamSpec {
                name: "lhs_init",
                kind: ParamKind::Integer { default: 0, min: 0, max: 100_000 },
                description: "Latin-hypercube points the algorithm proposes first (the paper's design; use with init = 0)",
            },
            ParamSpec {
                name: "candidates",
                kind: ParamKind::Integer { default: 0, min: 0, max: 1 << 24 },
                description: "global uniform candidates per step; 0 = 1000·d (plus 25 % local ones)",
            },
            ParamSpec {
                name: "starts",
                kind: ParamKind::Integer { default: 10, min: 1, max: 1024 },
                description: "best candidates refined by L-BFGS-B",
            },
            ParamSpec {
                name: "refine",
                kind: ParamKind::Choice { default: "true", options: &["true", "false"] },
                description: "refine the best candidates (false: candidate-set maximiser only)",
            },
            ParamSpec {
                name: "max_iters",
                kind: ParamKind::Integer { default: 100, min: 1, max: 100_000 },
                description: "L-BFGS-B iterations per start",
            },
            $($extra),*
        ]
    };
}

/// Parameters of the kernel-regression surrogate (§2.2–2.5, §2.12).
macro_rules! kr_params {
    ($($extra:expr),* $(,)?) => {
        search_params![
            ParamSpec {
                name: "kernel",
                kind: ParamKind::Choice {
                    default: "gaussian",
                    options: &["gaussian", "epanechnikov", "uniform"],
                },
                description: "smoothing kernel Ψ (compact kernels: candidate search only, no refinement)",
            },
            ParamSpec {
                name: "bandwidth",
                kind: ParamKind::Choice {
                    default: "scott",
                    options: &["scott", "silverman", "fixed"],
                },
                description: "h_t = c·t^(−1/(d+4)) (scott), c·(t(d+2)/4)^(−1/(d+4)) (silverman), or fixed_bandwidth",
            },
            ParamSpec {
                name: "bandwidth_scale",
                kind: ParamKind::Choice { default: "constant", options: &["constant", "data"] },
                description: "c = bandwidth_constant, or the pooled sd of the data (floor 1e-3)",
            },
            ParamSpec {
                name: "bandwidth_constant",
                kind: ParamKind::Real { default: UNIT_SD, min: 1e-6, max: 100.0 },
                description: "c of Scott/Silverman on unit-cube inputs (1/√12; 1 = scikit-learn's literal rule)",
            },
            ParamSpec {
                name: "fixed_bandwidth",
                kind: ParamKind::Real { default: 0.1, min: 1e-9, max: 100.0 },
                description: "h when bandwidth = fixed",
            },
            ParamSpec {
                name: "kappa",
                kind: ParamKind::Real { default: 0.3, min: 1e-9, max: 1e6 },
                description: "ς multiplier: ς_t = κ·sd(y) (1 = theory scale)",
            },
            ParamSpec {
                name: "recommend",
                kind: ParamKind::Choice {
                    default: "best-observed",
                    options: &["best-observed", "best-mean"],
                },
                description: "reported point: argmax y (noise-free) or argmax of the NW mean over observed points (noisy)",
            },
            $($extra),*
        ]
    };
}

/// The β schedule parameters of IKR-UCB.
macro_rules! beta_params {
    ($($extra:expr),* $(,)?) => {
        kr_params![
            ParamSpec {
                name: "beta",
                kind: ParamKind::Choice {
                    default: "general",
                    options: &["general", "finite"],
                },
                description: "β_t = 2ς² ln(2π²t²/(3δ)) (Thm 4.13, general) or 4ς² ln t (Thm 4.10, finite)",
            },
            ParamSpec {
                name: "delta",
                kind: ParamKind::Real { default: 0.1, min: 1e-12, max: 0.999_999 },
                description: "confidence δ of the general β_t",
            },
            $($extra),*
        ]
    };
}

fn search_config(p: &Params) -> SearchConfig {
    SearchConfig {
        global: match p.integer("candidates") {
            0 => None,
            n => Some(n),
        },
        starts: p.integer("starts"),
        refine: p.choice("refine") == "true",
        max_iters: p.integer("max_iters"),
        ..SearchConfig::default()
    }
}

/// The IKR-UCB β schedule of `p`.
fn beta_rule(p: &Params) -> BetaRule {
    match p.choice("beta") {
        "finite" => BetaRule::FiniteSet,
        _ => BetaRule::GeneralSet {
            delta: p.number("delta"),
        },
    }
}

/// The surrogate settings of `p`; `beta` is unused by KR-UCB, which has no β schedule.
fn kr_settings(p: &Params, beta: BetaRule) -> Result<KrSettings, AlgorithmError> {
    let kernel = SmoothingKernel::parse(p.choice("kernel"))
        .ok_or_else(|| AlgorithmError::Config(format!("unknown kernel {}", p.choice("kernel"))))?;
    let scale = match p.choice("bandwidth_scale") {
        "data" => BandwidthScale::Data,
        _ => BandwidthScale::Constant(p.number("bandwidth_constant")),
    };
    let bandwidth = match p.choice("bandwidth") {
        "silverman" => BandwidthSchedule::Silverman(scale),
        "fixed" => BandwidthSchedule::Fixed(p.number("fixed_bandwidth")),
        _ => BandwidthSchedule::Scott(scale),
    };
    Ok(KrSettings {
        kernel,
        bandwidth,
        beta,
        kappa: p.number("kappa"),
        search: search_config(p),
        recommendation: match p.choice("recommend") {
            "best-mean" => Recommendation::BestMean,
            _ => Recommendation::BestObserved,
        },
    })
}

pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "boke",
        requires: Requirement::Any,
        description: "BOKE (Zhu et al.): maximise NW mean + √β_t·W_t^(−1/2) (IKR-UCB), Scott bandwidth, no GP",
        parameters: beta_params![],
        build: |p| {
            let settings = kr_settings(&p, beta_rule(&p))?;
            Ok(Box::new(Boke::new(
                p,
                settings,
                StepRule::Mixed {
                    p: 1.0,
                    dedupe_exploit: false,
                },
            )))
        },
    },
    AlgorithmEntry {
        name: "boke-plus",
        requires: Requirement::Any,
        description: "BOKE+: IKR-UCB step with probability p, else pure exploitation argmax of the NW mean",
        parameters: beta_params![
            ParamSpec {
                name: "p",
                kind: ParamKind::Real {
                    default: 0.8,
                    min: 1e-9,
                    max: 1.0
                },
                description: "probability of an IKR-UCB step (1 = BOKE)",
            },
            ParamSpec {
                name: "dedupe_exploit",
                kind: ParamKind::Choice {
                    default: "false",
                    options: &["false", "true"]
                },
                description: "replace an exploitation step that re-selects an observed point by an IKR-UCB step",
            },
        ],
        build: |p| {
            let settings = kr_settings(&p, beta_rule(&p))?;
            let rule = StepRule::Mixed {
                p: p.number("p"),
                dedupe_exploit: p.choice("dedupe_exploit") == "true",
            };
            Ok(Box::new(Boke::new(p, settings, rule)))
        },
    },
    AlgorithmEntry {
        name: "density-exploration",
        requires: Requirement::Any,
        description: "pure density-based exploration: argmin of the unnormalised KDE W_t (Eq. 3.10)",
        parameters: beta_params![],
        build: |p| {
            let settings = kr_settings(&p, beta_rule(&p))?;
            Ok(Box::new(Boke::new(
                p,
                settings,
                StepRule::DensityExploration,
            )))
        },
    },
    AlgorithmEntry {
        name: "kr-ucb",
        requires: Requirement::Any,
        description: "KR-UCB (Yee et al. 2016): UCB over sampled points with NW mean and KDE counts, progressive widening",
        parameters: kr_params![
            ParamSpec {
                name: "alpha",
                kind: ParamKind::Real {
                    default: 0.8,
                    min: 1e-6,
                    max: 0.999_999
                },
                description: "widening exponent: add a point once t^α ≥ #distinct points",
            },
            ParamSpec {
                name: "tau",
                kind: ParamKind::Real {
                    default: 0.606_530_659_712_633_4,
                    min: 1e-12,
                    max: 0.999_999
                },
                description: "widening ball {k(u, x̃; h) > τ}, radius h·√(2 ln(1/τ)) (e^(−1/2): radius h)",
            },
            ParamSpec {
                name: "c_multiplier",
                kind: ParamKind::Real {
                    default: std::f64::consts::SQRT_2,
                    min: 0.0,
                    max: 1e6
                },
                description: "C = c_multiplier·ς_t, ς_t = κ·sd(y)",
            },
        ],
        build: |p| {
            let settings = kr_settings(&p, BetaRule::GeneralSet { delta: 0.1 })?;
            let widening = Widening {
                alpha: p.number("alpha"),
                tau: p.number("tau"),
                c_multiplier: p.number("c_multiplier"),
                ball_points_per_dim: 256,
                refine_steps: 30,
            };
            Ok(Box::new(KrUcb::new(p, settings, widening)))
        },
    },
    AlgorithmEntry {
        name: "gp-ucb-fixed",
        requires: Requirement::Any,
        description: "the BOKE paper's GP-UCB: RBF GP, fixed β, length scale by ML-II on the initial design then frozen",
        parameters: search_params![
            ParamSpec {
                name: "beta",
                kind: ParamKind::Real {
                    default: 4.0,
                    min: 0.0,
                    max: 1e6
                },
                description: "fixed β of μ + √β·σ",
            },
            ParamSpec {
                name: "noise_var",
                kind: ParamKind::Real {
                    default: 1e-6,
                    min: 1e-12,
                    max: 10.0
                },
                description: "noise variance in standardised units ((σ_noise/sd(y_init))² for noisy runs)",
            },
            ParamSpec {
                name: "lengthscale",
                kind: ParamKind::Real {
                    default: 0.0,
                    min: 0.0,
                    max: 1e3
                },
                description: "unit-cube length scale; 0 = ML-II over 50 log-spaced values in [0.01, 2√d] on the initial design",
            },
        ],
        build: |p| {
            let settings = GpUcbSettings {
                beta: p.number("beta"),
                noise_var: p.number("noise_var"),
                lengthscale: match p.number("lengthscale") {
                    l if l > 0.0 => Some(l),
                    _ => None,
                },
                search: search_config(&p),
            };
            Ok(Box::new(GpUcbFixed::new(p, settings)))
        },
    },
];
