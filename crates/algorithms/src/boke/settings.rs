//! The declared parameters of the BOKE family and the typed settings its algorithms share: the
//! candidate search ([`SearchSettings`]), the kernel-regression surrogate ([`KrSettings`]) and
//! IKR-UCB's β schedule ([`BetaRule`]). Each algorithm's own settings type (in its module)
//! holds these and its own knobs; every parameter is read here, once.

use super::schedules::BetaRule;
use super::search::SearchConfig;
use crate::acquisition;
use bosweep_core::params::{
    ChoiceParam, FlagParam, IntegerParam, ParamSpec, ParamTable, ParamValue, Params, RealParam,
};
use bosweep_model::{BandwidthScale, BandwidthSchedule, SmoothingKernel};

/// `1/√12`: the sd of a uniform design on [0, 1], the Scott constant on unit-cube inputs (the
/// paper's rule `h = c·t^(−1/(d+4))` leaves `c` to the data's scale, which the unit cube fixes).
const UNIT_SD: f64 = 0.288_675_134_594_812_9;

const LHS_INIT: IntegerParam = IntegerParam::new(
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
/// Parameters of the candidate search, shared by every algorithm here.
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

/// The words of `bandwidth`: how the bandwidth `h_t` shrinks.
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
/// Parameters of the kernel-regression surrogate.
const KR_PARAMS: &[ParamSpec] = &[
    KERNEL.spec(),
    BANDWIDTH.spec(),
    BANDWIDTH_SCALE.spec(),
    BANDWIDTH_CONSTANT.spec(),
    FIXED_BANDWIDTH.spec(),
    KAPPA.spec(),
    RECOMMEND.spec(),
];

/// The words of `beta`: which theorem's β schedule IKR-UCB uses.
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

pub(super) const P: RealParam = RealParam::new(
    "p",
    0.8,
    1e-9,
    1.0,
    "probability of an IKR-UCB step (1 = BOKE)",
);
pub(super) const DEDUPE_EXPLOIT: FlagParam = FlagParam::new(
    "dedupe_exploit",
    false,
    "replace an exploitation step that re-selects an observed point by an IKR-UCB step",
);

pub(super) const ALPHA: RealParam = RealParam::new(
    "alpha",
    0.8,
    1e-6,
    0.999_999,
    "widening exponent: add a point once t^α ≥ #distinct points",
);
pub(super) const TAU: RealParam = RealParam::new(
    "tau",
    0.606_530_659_712_633_4,
    1e-12,
    0.999_999,
    "widening ball {k(u, x̃; h) > τ}, radius h·√(2 ln(1/τ)) (e^(−1/2): radius h)",
);
pub(super) const C_MULTIPLIER: RealParam = RealParam::new(
    "c_multiplier",
    std::f64::consts::SQRT_2,
    0.0,
    1e6,
    "C = c_multiplier·ς_t, ς_t = κ·sd(y)",
);

pub(super) const FIXED_BETA: RealParam =
    RealParam::new("beta", 4.0, 0.0, 1e6, "fixed β of μ + √β·σ");
pub(super) const NOISE_VAR: RealParam = RealParam::new(
    "noise_var",
    1e-6,
    1e-12,
    10.0,
    "noise variance in standardised units ((σ_noise/sd(y_init))² for noisy runs)",
);
pub(super) const LENGTHSCALE: RealParam = RealParam::new(
    "lengthscale",
    0.0,
    0.0,
    1e3,
    "unit-cube length scale; 0 = ML-II over 50 log-spaced values in [0.01, 2√d] on the initial design",
);

/// The parameters of BOKE and density exploration.
pub(super) const BOKE_TABLE: ParamTable = ParamTable(&[SEARCH_PARAMS, KR_PARAMS, BETA_PARAMS]);
/// The parameters of BOKE+.
pub(super) const BOKE_PLUS_TABLE: ParamTable = ParamTable(&[
    SEARCH_PARAMS,
    KR_PARAMS,
    BETA_PARAMS,
    &[P.spec(), DEDUPE_EXPLOIT.spec()],
]);
/// The parameters of KR-UCB.
pub(super) const KR_UCB_TABLE: ParamTable = ParamTable(&[
    SEARCH_PARAMS,
    KR_PARAMS,
    &[ALPHA.spec(), TAU.spec(), C_MULTIPLIER.spec()],
]);
/// The parameters of the paper's fixed GP-UCB.
pub(super) const GP_UCB_FIXED_TABLE: ParamTable = ParamTable(&[
    SEARCH_PARAMS,
    &[FIXED_BETA.spec(), NOISE_VAR.spec(), LENGTHSCALE.spec()],
]);

/// Every parameter of `table` at its default, for the algorithm `name`.
pub(super) fn defaults(name: &'static str, table: ParamTable) -> Params {
    Params::defaults("algorithm", name, &table.to_vec())
}

/// The initial design and the multi-start maximiser of the acquisition, shared by every
/// algorithm of the family: a batch of global uniform candidates plus 25 % local ones around the
/// best observations, then bounded L-BFGS-B from the best few.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSettings {
    /// Latin-hypercube points the algorithm proposes before its own steps: the paper's initial
    /// design (run with the runner's `init = 0`). Default 0.
    pub lhs_init: usize,
    /// Global uniform candidates per step; `None` (the default): `1000·d`.
    pub candidates: Option<usize>,
    /// Best candidates refined by L-BFGS-B. Default 10.
    pub starts: usize,
    /// Refine the best candidates (`false`: the best candidate is the step). Default `true`.
    pub refine: bool,
    /// L-BFGS-B iterations per start. Default 100.
    pub max_iters: usize,
}

impl SearchSettings {
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            lhs_init: LHS_INIT.of(p),
            candidates: CANDIDATES.nonzero_of(p),
            starts: STARTS.of(p),
            refine: REFINE.of(p),
            max_iters: MAX_ITERS.of(p),
        }
    }

    /// The inverse of `from_params`.
    pub(super) fn given(&self) -> [(&'static str, ParamValue); 5] {
        [
            LHS_INIT.given(self.lhs_init),
            CANDIDATES.given(self.candidates.unwrap_or(0)),
            STARTS.given(self.starts),
            REFINE.given(self.refine),
            MAX_ITERS.given(self.max_iters),
        ]
    }

    /// The maximiser's configuration: these settings, the rest at their defaults.
    pub(super) fn config(&self) -> SearchConfig {
        SearchConfig {
            global: self.candidates,
            starts: self.starts,
            refine: self.refine,
            max_iters: self.max_iters,
            ..SearchConfig::default()
        }
    }
}

/// Which observed point the algorithm reports at the end of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recommendation {
    /// `argmax_i y_i` (noise-free runs; the default).
    BestObserved,
    /// `argmax_i m_T(u_i)` with the final bandwidth (noisy runs: averages nearby evaluations).
    BestMean,
}

/// The kernel-regression surrogate of BOKE, BOKE+, density exploration and KR-UCB: the
/// Nadaraya–Watson mean `m_t` and the unnormalised KDE `W_t` of the sampled points, with one
/// smoothing kernel and one bandwidth schedule, on unit-cube inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct KrSettings {
    /// The smoothing kernel Ψ (default Gaussian, the paper's; the compact Epanechnikov and
    /// uniform kernels are maximised over the candidates only, without refinement).
    pub kernel: SmoothingKernel,
    /// How the bandwidth `h_t` shrinks with t (default Scott's rule with `c = 1/√12`, the sd of
    /// a uniform design on the unit cube).
    pub bandwidth: BandwidthSchedule,
    /// κ of the noise scale `ς_t = κ · sd(y)` (default 0.3; 1 is the theory's scale).
    pub kappa: f64,
    /// The reported point.
    pub recommendation: Recommendation,
}

impl KrSettings {
    pub(super) fn from_params(p: &Params) -> Self {
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
        Self {
            kernel: KERNEL.of(p),
            bandwidth,
            kappa: KAPPA.of(p),
            recommendation: RECOMMEND.of(p),
        }
    }

    /// The inverse of `from_params`: the bandwidth's scale and constant only where its rule
    /// reads them.
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        let scale = |scale: BandwidthScale| match scale {
            BandwidthScale::Data => vec![BANDWIDTH_SCALE.given(true)],
            BandwidthScale::Constant(c) => {
                vec![BANDWIDTH_SCALE.given(false), BANDWIDTH_CONSTANT.given(c)]
            }
        };
        let mut given = match self.bandwidth {
            BandwidthSchedule::Scott(s) => [vec![BANDWIDTH.given(BandwidthRule::Scott)], scale(s)],
            BandwidthSchedule::Silverman(s) => {
                [vec![BANDWIDTH.given(BandwidthRule::Silverman)], scale(s)]
            }
            BandwidthSchedule::Fixed(h) => [
                vec![BANDWIDTH.given(BandwidthRule::Fixed)],
                vec![FIXED_BANDWIDTH.given(h)],
            ],
        }
        .concat();
        given.extend([
            KERNEL.given(self.kernel),
            KAPPA.given(self.kappa),
            RECOMMEND.given(self.recommendation),
        ]);
        given
    }
}

fn beta_rule(p: &Params) -> BetaRule {
    match BETA.of(p) {
        BetaChoice::Finite => BetaRule::FiniteSet,
        BetaChoice::General => BetaRule::GeneralSet { delta: DELTA.of(p) },
    }
}

fn beta_given(beta: BetaRule) -> Vec<(&'static str, ParamValue)> {
    match beta {
        BetaRule::FiniteSet => vec![BETA.given(BetaChoice::Finite)],
        BetaRule::GeneralSet { delta } => {
            vec![BETA.given(BetaChoice::General), DELTA.given(delta)]
        }
    }
}

/// What BOKE, BOKE+ and density exploration share: the search, the surrogate and IKR-UCB's β
/// schedule (density exploration reports β_t in its step log although its steps ignore it).
#[derive(Clone, Debug, PartialEq)]
pub struct IkrSettings {
    /// The initial design and the acquisition's maximiser.
    pub search: SearchSettings,
    /// The kernel-regression surrogate.
    pub surrogate: KrSettings,
    /// IKR-UCB's exploration weight β_t (default the general-set schedule of Theorem 4.13 with
    /// δ = 0.1, the paper's experiments).
    pub beta: BetaRule,
}

impl IkrSettings {
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            search: SearchSettings::from_params(p),
            surrogate: KrSettings::from_params(p),
            beta: beta_rule(p),
        }
    }

    /// The inverse of `from_params`.
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        let mut given = self.search.given().to_vec();
        given.extend(self.surrogate.given());
        given.extend(beta_given(self.beta));
        given
    }
}
