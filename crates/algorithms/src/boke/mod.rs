//! BOKE and its baselines (`specs/boke.md`): Bayesian optimisation by kernel regression and
//! density-based exploration. A Nadaraya–Watson mean replaces the GP and the inverse square root
//! of an unnormalised KDE replaces its posterior sd, so no matrix is factorised and the work per
//! iteration grows linearly in t. All kernels and bandwidths live in the unit cube (§2.1).

mod data;
mod family;
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

use super::entry::AlgorithmEntry;
use super::requirement::Requirement;
use crate::acquisition;
use bosweep_core::params::{
    ChoiceParam, FlagParam, IntegerParam, ParamSpec, ParamTable, Params, RealParam,
};
use bosweep_model::{BandwidthScale, BandwidthSchedule, SmoothingKernel};

/// `1/√12`: the sd of a uniform design on [0, 1], the proposed Scott constant (§2.5, P1).
const UNIT_SD: f64 = 0.288_675_134_594_812_9;

/// Latin-hypercube points proposed first; read by each algorithm's constructor.
pub(super) const LHS_INIT: IntegerParam = IntegerParam::new(
    "lhs_init",
    0,
    0,
    100_000,
    "Latin-hypercube points the algorithm proposes first (the paper's design; use with init = 0)",
);
const CANDIDATES: IntegerParam = IntegerParam::new(
    "candidates",
    0,
    0,
    1 << 24,
    "global uniform candidates per step; 0 = 1000·d (plus 25 % local ones)",
);
const STARTS: IntegerParam =
    IntegerParam::new("starts", 10, 1, 1024, "best candidates refined by L-BFGS-B");
const REFINE: FlagParam = acquisition::REFINE
    .described("refine the best candidates (false: candidate-set maximiser only)");
const MAX_ITERS: IntegerParam = acquisition::MAX_ITERS.described("L-BFGS-B iterations per start");
/// Parameters of the candidate search (§2.6), shared by every algorithm here.
const SEARCH_PARAMS: &[ParamSpec] = &[
    LHS_INIT.spec(),
    CANDIDATES.spec(),
    STARTS.spec(),
    REFINE.spec(),
    MAX_ITERS.spec(),
];

const KERNEL: ChoiceParam<SmoothingKernel> = ChoiceParam::new(
    "kernel",
    &["gaussian", "epanechnikov", "uniform"],
    &[
        SmoothingKernel::Gaussian,
        SmoothingKernel::Epanechnikov,
        SmoothingKernel::Uniform,
    ],
    "gaussian",
    "smoothing kernel Ψ (compact kernels: candidate search only, no refinement)",
);

/// How the bandwidth `h_t` shrinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BandwidthRule {
    Scott,
    Silverman,
    Fixed,
}

const BANDWIDTH: ChoiceParam<BandwidthRule> = ChoiceParam::new(
    "bandwidth",
    &["scott", "silverman", "fixed"],
    &[
        BandwidthRule::Scott,
        BandwidthRule::Silverman,
        BandwidthRule::Fixed,
    ],
    "scott",
    "h_t = c·t^(−1/(d+4)) (scott), c·(t(d+2)/4)^(−1/(d+4)) (silverman), or fixed_bandwidth",
);
/// Whether the constant `c` of Scott/Silverman is given or the data's pooled sd.
const BANDWIDTH_SCALE: ChoiceParam<bool> = ChoiceParam::new(
    "bandwidth_scale",
    &["constant", "data"],
    &[false, true],
    "constant",
    "c = bandwidth_constant, or the pooled sd of the data (floor 1e-3)",
);
const BANDWIDTH_CONSTANT: RealParam = RealParam::new(
    "bandwidth_constant",
    UNIT_SD,
    1e-6,
    100.0,
    "c of Scott/Silverman on unit-cube inputs (1/√12; 1 = scikit-learn's literal rule)",
);
const FIXED_BANDWIDTH: RealParam = RealParam::new(
    "fixed_bandwidth",
    0.1,
    1e-9,
    100.0,
    "h when bandwidth = fixed",
);
const KAPPA: RealParam = RealParam::new(
    "kappa",
    0.3,
    1e-9,
    1e6,
    "ς multiplier: ς_t = κ·sd(y) (1 = theory scale)",
);
const RECOMMEND: ChoiceParam<Recommendation> = ChoiceParam::new(
    "recommend",
    &["best-observed", "best-mean"],
    &[Recommendation::BestObserved, Recommendation::BestMean],
    "best-observed",
    "reported point: argmax y (noise-free) or argmax of the NW mean over observed points (noisy)",
);
/// Parameters of the kernel-regression surrogate (§2.2–2.5, §2.12).
const KR_PARAMS: &[ParamSpec] = &[
    KERNEL.spec(),
    BANDWIDTH.spec(),
    BANDWIDTH_SCALE.spec(),
    BANDWIDTH_CONSTANT.spec(),
    FIXED_BANDWIDTH.spec(),
    KAPPA.spec(),
    RECOMMEND.spec(),
];

/// Which theorem's β schedule IKR-UCB uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BetaChoice {
    General,
    Finite,
}

const BETA: ChoiceParam<BetaChoice> = ChoiceParam::new(
    "beta",
    &["general", "finite"],
    &[BetaChoice::General, BetaChoice::Finite],
    "general",
    "β_t = 2ς² ln(2π²t²/(3δ)) (Thm 4.13, general) or 4ς² ln t (Thm 4.10, finite)",
);
const DELTA: RealParam = RealParam::new(
    "delta",
    0.1,
    1e-12,
    0.999_999,
    "confidence δ of the general β_t",
);
/// The β schedule parameters of IKR-UCB.
const BETA_PARAMS: &[ParamSpec] = &[BETA.spec(), DELTA.spec()];

const P: RealParam = RealParam::new(
    "p",
    0.8,
    1e-9,
    1.0,
    "probability of an IKR-UCB step (1 = BOKE)",
);
const DEDUPE_EXPLOIT: FlagParam = FlagParam::new(
    "dedupe_exploit",
    false,
    "replace an exploitation step that re-selects an observed point by an IKR-UCB step",
);

const ALPHA: RealParam = RealParam::new(
    "alpha",
    0.8,
    1e-6,
    0.999_999,
    "widening exponent: add a point once t^α ≥ #distinct points",
);
const TAU: RealParam = RealParam::new(
    "tau",
    0.606_530_659_712_633_4,
    1e-12,
    0.999_999,
    "widening ball {k(u, x̃; h) > τ}, radius h·√(2 ln(1/τ)) (e^(−1/2): radius h)",
);
const C_MULTIPLIER: RealParam = RealParam::new(
    "c_multiplier",
    std::f64::consts::SQRT_2,
    0.0,
    1e6,
    "C = c_multiplier·ς_t, ς_t = κ·sd(y)",
);

const FIXED_BETA: RealParam = RealParam::new("beta", 4.0, 0.0, 1e6, "fixed β of μ + √β·σ");
const NOISE_VAR: RealParam = RealParam::new(
    "noise_var",
    1e-6,
    1e-12,
    10.0,
    "noise variance in standardised units ((σ_noise/sd(y_init))² for noisy runs)",
);
const LENGTHSCALE: RealParam = RealParam::new(
    "lengthscale",
    0.0,
    0.0,
    1e3,
    "unit-cube length scale; 0 = ML-II over 50 log-spaced values in [0.01, 2√d] on the initial design",
);

fn search_config(p: &Params) -> SearchConfig {
    SearchConfig {
        global: CANDIDATES.nonzero_of(p),
        starts: STARTS.of(p),
        refine: REFINE.of(p),
        max_iters: MAX_ITERS.of(p),
        ..SearchConfig::default()
    }
}

/// The IKR-UCB β schedule of `p`.
fn beta_rule(p: &Params) -> BetaRule {
    match BETA.of(p) {
        BetaChoice::Finite => BetaRule::FiniteSet,
        BetaChoice::General => BetaRule::GeneralSet { delta: DELTA.of(p) },
    }
}

/// The surrogate settings of `p`; `beta` is unused by KR-UCB, which has no β schedule.
fn kr_settings(p: &Params, beta: BetaRule) -> KrSettings {
    let scale = if BANDWIDTH_SCALE.of(p) {
        BandwidthScale::Data
    } else {
        BandwidthScale::Constant(BANDWIDTH_CONSTANT.of(p))
    };
    let bandwidth = match BANDWIDTH.of(p) {
        BandwidthRule::Scott => BandwidthSchedule::Scott(scale),
        BandwidthRule::Silverman => BandwidthSchedule::Silverman(scale),
        BandwidthRule::Fixed => BandwidthSchedule::Fixed(FIXED_BANDWIDTH.of(p)),
    };
    KrSettings {
        kernel: KERNEL.of(p),
        bandwidth,
        beta,
        kappa: KAPPA.of(p),
        search: search_config(p),
        recommendation: RECOMMEND.of(p),
    }
}

pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "boke",
        requires: Requirement::Any,
        description: "BOKE (Zhu et al.): maximise NW mean + √β_t·W_t^(−1/2) (IKR-UCB), Scott bandwidth, no GP",
        parameters: ParamTable(&[SEARCH_PARAMS, KR_PARAMS, BETA_PARAMS]),
        build: |p| {
            let settings = kr_settings(&p, beta_rule(&p));
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
        parameters: ParamTable(&[
            SEARCH_PARAMS,
            KR_PARAMS,
            BETA_PARAMS,
            &[P.spec(), DEDUPE_EXPLOIT.spec()],
        ]),
        build: |p| {
            let settings = kr_settings(&p, beta_rule(&p));
            let rule = StepRule::Mixed {
                p: P.of(&p),
                dedupe_exploit: DEDUPE_EXPLOIT.of(&p),
            };
            Ok(Box::new(Boke::new(p, settings, rule)))
        },
    },
    AlgorithmEntry {
        name: "density-exploration",
        requires: Requirement::Any,
        description: "pure density-based exploration: argmin of the unnormalised KDE W_t (Eq. 3.10)",
        parameters: ParamTable(&[SEARCH_PARAMS, KR_PARAMS, BETA_PARAMS]),
        build: |p| {
            let settings = kr_settings(&p, beta_rule(&p));
            Ok(Box::new(Boke::new(
                p,
                settings,
                StepRule::DensityExploration,
            )))
        },
    },
    AlgorithmEntry {
        name: "kr-ucb",
        requires: Requirement::Continuous,
        description: "KR-UCB (Yee et al. 2016): UCB over sampled points with NW mean and KDE counts, progressive widening",
        parameters: ParamTable(&[
            SEARCH_PARAMS,
            KR_PARAMS,
            &[ALPHA.spec(), TAU.spec(), C_MULTIPLIER.spec()],
        ]),
        build: |p| {
            let settings = kr_settings(&p, BetaRule::GeneralSet { delta: 0.1 });
            let widening = Widening {
                alpha: ALPHA.of(&p),
                tau: TAU.of(&p),
                c_multiplier: C_MULTIPLIER.of(&p),
                ball_points_per_dim: 256,
                refine_steps: 30,
            };
            Ok(Box::new(KrUcb::new(p, settings, widening)))
        },
    },
    AlgorithmEntry {
        name: "gp-ucb-fixed",
        requires: Requirement::Continuous,
        description: "the BOKE paper's GP-UCB: RBF GP, fixed β, length scale by ML-II on the initial design then frozen",
        parameters: ParamTable(&[
            SEARCH_PARAMS,
            &[FIXED_BETA.spec(), NOISE_VAR.spec(), LENGTHSCALE.spec()],
        ]),
        build: |p| {
            let settings = GpUcbSettings {
                beta: FIXED_BETA.of(&p),
                noise_var: NOISE_VAR.of(&p),
                lengthscale: Some(LENGTHSCALE.of(&p)).filter(|l| *l > 0.0),
                search: search_config(&p),
            };
            Ok(Box::new(GpUcbFixed::new(p, settings)))
        },
    },
];
