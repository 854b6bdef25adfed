//! The declared parameters of the contextual family and the typed settings its methods share:
//! the joint (decision, context) GP, the UCB multiplier, the acquisition maximiser and the
//! context box ([`ContextualSettings`]), and the KDE of SBO-KDE and DRBO-KDE ([`KdeSettings`]).
//! Every parameter is read here, once.

use crate::acquisition::MAX_ITERS as ACQUISITION_MAX_ITERS;
use bosweep_core::params::{
    ChoiceParam, IntegerParam, ParamSpec, ParamTable, ParamValue, Params, RealParam,
};
use bosweep_model::{BandwidthRule, FitMode, KernelKind, Priors};

/// The covariance kernel of the joint GP (ARD lengthscales, with an outputscale).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointKernel {
    /// Matérn 5/2 (the default, BoTorch's).
    Matern52,
    /// Squared exponential.
    SquaredExponential,
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

/// How the joint GP's hyperparameters are refitted at every step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointFit {
    /// MAP with BoTorch's late-2023 Gamma priors (the default).
    Map,
    /// Maximum marginal likelihood (ML-II).
    Mle,
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

/// The acquisition maximiser's budget when `raw_samples` or `restarts` is not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptimizerProfile {
    /// As the papers' code: 32 raw samples and 5 restarts for DRBO-KDE and DRBO-MMD (the
    /// default), 1024 and 50 for the others.
    Paper,
    /// 1024 raw samples and 50 restarts for every method.
    Full,
}

const KERNEL: ChoiceParam<JointKernel> = ChoiceParam::new(
    "kernel",
    &["matern52", "se"],
    &[JointKernel::Matern52, JointKernel::SquaredExponential],
    "matern52",
    "joint-space GP kernel (ARD lengthscales, with outputscale)",
);
const FIT: ChoiceParam<JointFit> = ChoiceParam::new(
    "fit",
    &["map", "mle"],
    &[JointFit::Map, JointFit::Mle],
    "map",
    "hyperparameters refitted every step: MAP with BoTorch's late-2023 Gamma priors, or ML-II",
);
const LENGTHSCALE: RealParam = RealParam::new(
    "lengthscale",
    1.0 / 3.0,
    1e-3,
    1e3,
    "initial lengthscale (unit cube; the Gamma(3, 6) prior mode)",
);
const SIGNAL_VAR: RealParam = RealParam::new(
    "signal_var",
    1.0,
    1e-4,
    1e4,
    "initial outputscale (standardised outputs)",
);
const NOISE_VAR: RealParam = RealParam::new(
    "noise_var",
    2.0,
    1e-4,
    10.0,
    "initial noise variance (standardised outputs; the Gamma(1.1, 0.05) prior mode)",
);

/// The words of `beta_schedule`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KappaChoice {
    Constant,
    Theory,
}

const BETA_SCHEDULE: ChoiceParam<KappaChoice> = ChoiceParam::new(
    "beta_schedule",
    &["constant", "theory"],
    &[KappaChoice::Constant, KappaChoice::Theory],
    "constant",
    "constant: κ = ucb_multiplier; theory: κ = √β_t, β_t = 2 ln(t²/√(2π)) + 2Dx ln(t² Dx a b r √π/2)",
);
const UCB_MULTIPLIER: RealParam = RealParam::new(
    "ucb_multiplier",
    1.5,
    0.0,
    1e6,
    "κ in μ + κσ (the paper's √β = 1.5 for every method)",
);
const THEORY_A: RealParam = RealParam::new(
    "theory_a",
    1.0,
    1e-12,
    1e12,
    "a of the theory schedule (derivative tail constant)",
);
const THEORY_B: RealParam = RealParam::new(
    "theory_b",
    1.0,
    1e-12,
    1e12,
    "b of the theory schedule (derivative tail constant)",
);
const THEORY_R: RealParam = RealParam::new(
    "theory_r",
    1.0,
    1e-12,
    1e12,
    "r of the theory schedule (side of the box [0, r]^D)",
);
const PROFILE: ChoiceParam<OptimizerProfile> = ChoiceParam::new(
    "optimizer_profile",
    &["paper", "full"],
    &[OptimizerProfile::Paper, OptimizerProfile::Full],
    "paper",
    "paper: 32 raw samples and 5 restarts for DRBO-KDE and DRBO-MMD, 1024 and 50 otherwise; full: 1024 and 50 for all",
);
const RAW_SAMPLES: IntegerParam = IntegerParam::new(
    "raw_samples",
    0,
    0,
    1 << 20,
    "Sobol candidates of the acquisition grid; 0 = the profile's",
);
const RESTARTS: IntegerParam = IntegerParam::new(
    "restarts",
    0,
    0,
    4096,
    "best grid points refined by L-BFGS-B; 0 = the profile's",
);
const MAX_ITERS: IntegerParam = ACQUISITION_MAX_ITERS.described("L-BFGS-B iterations per restart");
const TOLERANCE: RealParam = RealParam::new(
    "tolerance",
    2.2e-9,
    0.0,
    1.0,
    "L-BFGS-B stops at this relative decrease of the acquisition (scipy's default ftol, as BoTorch's optimize_acqf)",
);
const GRADIENT_TOLERANCE: RealParam = RealParam::new(
    "gradient_tolerance",
    1e-5,
    0.0,
    1.0,
    "L-BFGS-B stops when the projected gradient's ∞-norm is ≤ this (scipy's default pgtol, as BoTorch's optimize_acqf)",
);
const CONTEXT_LO: RealParam = RealParam::new(
    "context_lo",
    0.0,
    -1e12,
    1e12,
    "lower bound of every context coordinate (the box C)",
);
const CONTEXT_HI: RealParam = RealParam::new(
    "context_hi",
    1.0,
    -1e12,
    1e12,
    "upper bound of every context coordinate (the box C)",
);
/// Parameters shared by the methods: the joint GP, the UCB multiplier, the acquisition
/// maximiser and the context box.
const SHARED: &[ParamSpec] = &[
    KERNEL.spec(),
    FIT.spec(),
    LENGTHSCALE.spec(),
    SIGNAL_VAR.spec(),
    NOISE_VAR.spec(),
    BETA_SCHEDULE.spec(),
    UCB_MULTIPLIER.spec(),
    THEORY_A.spec(),
    THEORY_B.spec(),
    THEORY_R.spec(),
    PROFILE.spec(),
    RAW_SAMPLES.spec(),
    RESTARTS.spec(),
    MAX_ITERS.spec(),
    TOLERANCE.spec(),
    GRADIENT_TOLERANCE.spec(),
    CONTEXT_LO.spec(),
    CONTEXT_HI.spec(),
];

const KDE_SAMPLES: IntegerParam = IntegerParam::new(
    "samples",
    1024,
    1,
    1 << 20,
    "M, KDE samples drawn per step and held fixed while maximising",
);
const BANDWIDTH: ChoiceParam<BandwidthRule> = ChoiceParam::new(
    "bandwidth",
    &["silverman", "scott"],
    &[BandwidthRule::Silverman, BandwidthRule::Scott],
    "silverman",
    "KDE bandwidth rule c(Dc) σ̂_d n^{−1/(Dc+4)}: silverman c = (4/(Dc+2))^{1/(Dc+4)}, scott c = 1",
);
pub(super) const INFIMUM_POINTS: IntegerParam = IntegerParam::new(
    "infimum_points",
    1024,
    1,
    1 << 20,
    "scrambled-Sobol context points, drawn once per step, for the infimum over C (DRBO-KDE) or over the confidence box (StableOpt)",
);
pub(super) const RADIUS_SCALE: RealParam = RealParam::new(
    "l1_radius_scale",
    1.0,
    0.0,
    1e6,
    "DRBO-KDE's L1 radius (twice TV) is δ = l1_radius_scale · n^{−2/(4+Dc)}; 0 gives SBO-KDE",
);
pub(super) const MINIMAX_GRID: IntegerParam = IntegerParam::new(
    "grid_size",
    1024,
    1,
    1 << 16,
    "context grid: the Cartesian product of ⌈grid_size^{1/Dc}⌉ points per coordinate",
);
pub(super) const MMD_GRID: IntegerParam = IntegerParam::new(
    "grid_size",
    100,
    1,
    1 << 12,
    "context grid: the Cartesian product of ⌈grid_size^{1/Dc}⌉ points per coordinate",
);
pub(super) const MMD_RADIUS_SCALE: RealParam = RealParam::new(
    "mmd_radius_scale",
    1.0,
    0.0,
    1e6,
    "the MMD radius is ε = mmd_radius_scale · (2 + √(2 ln 10))/√n; 0 gives the expectation under the empirical grid distribution",
);

/// The parameters of SBO-KDE.
pub(super) const SBO_KDE_TABLE: ParamTable =
    ParamTable(&[SHARED, &[KDE_SAMPLES.spec(), BANDWIDTH.spec()]]);
/// The parameters of DRBO-KDE.
pub(super) const DRBO_KDE_TABLE: ParamTable = ParamTable(&[
    SHARED,
    &[
        KDE_SAMPLES.spec(),
        BANDWIDTH.spec(),
        INFIMUM_POINTS.spec(),
        RADIUS_SCALE.spec(),
    ],
]);
/// The parameters of DRBO-MMD-MinimaxApprox.
pub(super) const MINIMAX_TABLE: ParamTable = ParamTable(&[SHARED, &[MINIMAX_GRID.spec()]]);
/// The parameters of DRBO-MMD.
pub(super) const DRBO_MMD_TABLE: ParamTable =
    ParamTable(&[SHARED, &[MMD_GRID.spec(), MMD_RADIUS_SCALE.spec()]]);
/// The parameters of StableOpt.
pub(super) const STABLEOPT_TABLE: ParamTable = ParamTable(&[SHARED, &[INFIMUM_POINTS.spec()]]);

/// Every parameter of `table` at its default, for the algorithm `name`.
pub(super) fn defaults(name: &'static str, table: ParamTable) -> Params {
    Params::defaults("algorithm", name, &table.to_vec())
}

/// What every contextual method shares: the GP over the joint (decision, context) space,
/// refitted at every step, the UCB multiplier, the acquisition's maximiser (a Sobol grid, then
/// L-BFGS-B from its best points, as BoTorch's `optimize_acqf`) and the context box.
#[derive(Clone, Debug, PartialEq)]
pub struct ContextualSettings {
    /// The joint-space kernel.
    pub kernel: JointKernel,
    /// How the hyperparameters are refitted.
    pub fit: JointFit,
    /// Initial lengthscale of every input, in unit-cube units (default 1/3, the mode of the
    /// Gamma(3, 6) prior).
    pub lengthscale: f64,
    /// Initial outputscale, in standardised output units (default 1).
    pub signal_var: f64,
    /// Initial noise variance, in standardised output units (default 2, the mode of the
    /// Gamma(1.1, 0.05) prior).
    pub noise_var: f64,
    /// The UCB multiplier κ.
    pub ucb: UcbMultiplier,
    /// The maximiser's budget where `raw_samples` or `restarts` is `None`.
    pub profile: OptimizerProfile,
    /// Sobol candidates of the acquisition grid; `None` (the default): the profile's.
    pub raw_samples: Option<usize>,
    /// Best grid points refined by L-BFGS-B; `None` (the default): the profile's.
    pub restarts: Option<usize>,
    /// L-BFGS-B iterations per restart.
    pub max_iters: usize,
    /// L-BFGS-B stops at this relative decrease of the acquisition (default 2.2e-9, scipy's
    /// `ftol` as BoTorch uses it).
    pub tolerance: f64,
    /// L-BFGS-B stops when the projected gradient's ∞-norm is at most this (default 1e-5,
    /// scipy's `pgtol`).
    pub gradient_tolerance: f64,
    /// Lower bound of every context coordinate (the box C; default 0).
    pub context_lo: f64,
    /// Upper bound of every context coordinate (default 1; above `context_lo`).
    pub context_hi: f64,
}

impl ContextualSettings {
    pub(super) fn from_params(p: &Params) -> Self {
        let ucb = match BETA_SCHEDULE.of(p) {
            KappaChoice::Constant => UcbMultiplier::Constant(UCB_MULTIPLIER.of(p)),
            KappaChoice::Theory => UcbMultiplier::Theory {
                a: THEORY_A.of(p),
                b: THEORY_B.of(p),
                r: THEORY_R.of(p),
            },
        };
        Self {
            kernel: KERNEL.of(p),
            fit: FIT.of(p),
            lengthscale: LENGTHSCALE.of(p),
            signal_var: SIGNAL_VAR.of(p),
            noise_var: NOISE_VAR.of(p),
            ucb,
            profile: PROFILE.of(p),
            raw_samples: RAW_SAMPLES.nonzero_of(p),
            restarts: RESTARTS.nonzero_of(p),
            max_iters: MAX_ITERS.of(p),
            tolerance: TOLERANCE.of(p),
            gradient_tolerance: GRADIENT_TOLERANCE.of(p),
            context_lo: CONTEXT_LO.of(p),
            context_hi: CONTEXT_HI.of(p),
        }
    }

    /// The inverse of `from_params`: the theory constants only with the theory schedule.
    pub(super) fn given(&self) -> Vec<(&'static str, ParamValue)> {
        let mut given = match self.ucb {
            UcbMultiplier::Constant(kappa) => vec![
                BETA_SCHEDULE.given(KappaChoice::Constant),
                UCB_MULTIPLIER.given(kappa),
            ],
            UcbMultiplier::Theory { a, b, r } => vec![
                BETA_SCHEDULE.given(KappaChoice::Theory),
                THEORY_A.given(a),
                THEORY_B.given(b),
                THEORY_R.given(r),
            ],
        };
        given.extend([
            KERNEL.given(self.kernel),
            FIT.given(self.fit),
            LENGTHSCALE.given(self.lengthscale),
            SIGNAL_VAR.given(self.signal_var),
            NOISE_VAR.given(self.noise_var),
            PROFILE.given(self.profile),
            RAW_SAMPLES.given(self.raw_samples.unwrap_or(0)),
            RESTARTS.given(self.restarts.unwrap_or(0)),
            MAX_ITERS.given(self.max_iters),
            TOLERANCE.given(self.tolerance),
            GRADIENT_TOLERANCE.given(self.gradient_tolerance),
            CONTEXT_LO.given(self.context_lo),
            CONTEXT_HI.given(self.context_hi),
        ]);
        given
    }

    /// Raw samples and restarts of the maximiser: the given ones, else `small` (32, 5) under
    /// the paper's profile where the paper gave the method that budget, else (1024, 50).
    pub(super) fn budget(&self, small: bool) -> (usize, usize) {
        let (raw, starts) = if small && self.profile == OptimizerProfile::Paper {
            (32, 5)
        } else {
            (1024, 50)
        };
        (
            self.raw_samples.unwrap_or(raw),
            self.restarts.unwrap_or(starts),
        )
    }
}

/// The kernel density estimate of the context distribution that SBO-KDE and DRBO-KDE sample.
#[derive(Clone, Debug, PartialEq)]
pub struct KdeSettings {
    /// M, KDE samples drawn per step and held fixed while maximising (default 1024).
    pub samples: usize,
    /// The bandwidth rule `c(Dc) σ̂_d n^(−1/(Dc+4))` (default Silverman's).
    pub bandwidth: BandwidthRule,
}

impl KdeSettings {
    pub(super) fn from_params(p: &Params) -> Self {
        Self {
            samples: KDE_SAMPLES.of(p),
            bandwidth: BANDWIDTH.of(p),
        }
    }

    /// The inverse of `from_params`.
    pub(super) fn given(&self) -> [(&'static str, ParamValue); 2] {
        [
            KDE_SAMPLES.given(self.samples),
            BANDWIDTH.given(self.bandwidth),
        ]
    }
}
