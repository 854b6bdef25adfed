//! The declared parameters of the BOKE family and the typed settings its algorithms share: the
//! candidate search ([`SearchSettings`]), the kernel-regression surrogate ([`KrSettings`]) and
//! IKR-UCB's β schedule ([`BetaRule`]). Each algorithm's own settings type (in its module)
//! holds these and its own knobs; each parameter is declared once, as a field.

use super::schedules::BetaRule;
use super::search::SearchConfig;
use bosweep_model::{BandwidthScale, BandwidthSchedule, SmoothingKernel};

/// `1/√12`: the sd of a uniform design on [0, 1], the Scott constant on unit-cube inputs (the
/// paper's rule `h = c·t^(−1/(d+4))` leaves `c` to the data's scale, which the unit cube fixes).
const UNIT_SD: f64 = 0.288_675_134_594_812_9;

bosweep_core::settings! {
    /// The initial design and the multi-start maximiser of the acquisition, shared by every
    /// algorithm of the family: a batch of global uniform candidates plus 25 % local ones around
    /// the best observations, then bounded L-BFGS-B from the best few.
    pub struct SearchSettings {
        /// The paper's initial design is run with the runner's `init = 0`.
        lhs_init: usize = 0 => (
            "Latin-hypercube points the algorithm proposes first (the paper's design; use with init = 0)",
            0,
            100_000
        ),
        candidates: usize = 0 => (
            "global uniform candidates per step; 0 = 1000·d (plus 25 % local ones)",
            0,
            1 << 24
        ),
        starts: usize = 10 => ("best candidates refined by L-BFGS-B", 1, 1024),
        refine: bool = true => ("refine the best candidates (false: candidate-set maximiser only)"),
        max_iters: usize = 100 => ("L-BFGS-B iterations per start", 1, 100_000),
    }
}

impl SearchSettings {
    /// The maximiser's configuration: these settings, the rest at their defaults.
    pub(super) fn config(&self) -> SearchConfig {
        SearchConfig {
            global: (self.candidates > 0).then_some(self.candidates),
            starts: self.starts,
            refine: self.refine,
            max_iters: self.max_iters,
            ..SearchConfig::default()
        }
    }
}

bosweep_core::choices! {
    /// How the bandwidth `h_t` shrinks with t.
    pub enum BandwidthRule {
        /// Scott's rule `h_t = c·t^(−1/(d+4))`.
        Scott = "scott",
        /// Silverman's rule `h_t = c·(t(d+2)/4)^(−1/(d+4))`.
        Silverman = "silverman",
        /// A fixed `h` (`fixed_bandwidth`).
        Fixed = "fixed",
    }
}

bosweep_core::choices! {
    /// Where the constant `c` of Scott's and Silverman's rules comes from.
    pub enum BandwidthConstant {
        /// `bandwidth_constant`.
        Constant = "constant",
        /// The pooled sd of the data (floor 1e-3).
        Data = "data",
    }
}

bosweep_core::choices! {
    /// Which observed point the algorithm reports at the end of a run.
    pub enum Recommendation {
        /// `argmax_i y_i` (noise-free runs; the default).
        BestObserved = "best-observed",
        /// `argmax_i m_T(u_i)` with the final bandwidth (noisy runs: averages nearby
        /// evaluations).
        BestMean = "best-mean",
    }
}

bosweep_core::settings! {
    /// The kernel-regression surrogate of BOKE, BOKE+, density exploration and KR-UCB: the
    /// Nadaraya–Watson mean `m_t` and the unnormalised KDE `W_t` of the sampled points, with one
    /// smoothing kernel and one bandwidth schedule, on unit-cube inputs.
    pub struct KrSettings {
        /// The Gaussian kernel is the paper's.
        kernel: SmoothingKernel = SmoothingKernel::Gaussian => (
            "smoothing kernel Ψ (compact kernels: candidate search only, no refinement)"
        ),
        bandwidth: BandwidthRule = BandwidthRule::Scott => (
            "h_t = c·t^(−1/(d+4)) (scott), c·(t(d+2)/4)^(−1/(d+4)) (silverman), or fixed_bandwidth"
        ),
        bandwidth_scale: BandwidthConstant = BandwidthConstant::Constant => (
            "c = bandwidth_constant, or the pooled sd of the data (floor 1e-3)"
        ),
        /// The default `1/√12` is the sd of a uniform design on the unit cube.
        bandwidth_constant: f64 = UNIT_SD => (
            "c of Scott/Silverman on unit-cube inputs (1/√12; 1 = scikit-learn's literal rule)",
            1e-6,
            100.0
        ),
        fixed_bandwidth: f64 = 0.1 => ("h when bandwidth = fixed", 1e-9, 100.0),
        kappa: f64 = 0.3 => ("ς multiplier: ς_t = κ·sd(y) (1 = theory scale)", 1e-9, 1e6),
        recommend: Recommendation = Recommendation::BestObserved => (
            "reported point: argmax y (noise-free) or argmax of the NW mean over observed points (noisy)"
        ),
    }
}

impl KrSettings {
    /// The bandwidth schedule the four bandwidth parameters describe.
    pub fn schedule(&self) -> BandwidthSchedule {
        let scale = match self.bandwidth_scale {
            BandwidthConstant::Data => BandwidthScale::Data,
            BandwidthConstant::Constant => BandwidthScale::Constant(self.bandwidth_constant),
        };
        match self.bandwidth {
            BandwidthRule::Scott => BandwidthSchedule::Scott(scale),
            BandwidthRule::Silverman => BandwidthSchedule::Silverman(scale),
            BandwidthRule::Fixed => BandwidthSchedule::Fixed(self.fixed_bandwidth),
        }
    }
}

bosweep_core::choices! {
    /// Which theorem's β schedule IKR-UCB uses.
    pub enum BetaChoice {
        /// `β_t = 2ς² ln(2π²t²/(3δ))` (Theorem 4.13, any set).
        General = "general",
        /// `β_t = 4ς² ln t` (Theorem 4.10, finite sets).
        Finite = "finite",
    }
}

bosweep_core::settings! {
    /// What BOKE, BOKE+ and density exploration share: the search, the surrogate and IKR-UCB's
    /// β schedule (density exploration reports β_t in its step log although its steps ignore
    /// it). The default schedule is the general-set one of Theorem 4.13 with δ = 0.1, the
    /// paper's experiments.
    pub struct IkrSettings {
        /// The initial design and the acquisition's maximiser.
        search: SearchSettings = SearchSettings::default() => {},
        /// The kernel-regression surrogate.
        surrogate: KrSettings = KrSettings::default() => {},
        beta: BetaChoice = BetaChoice::General => (
            "β_t = 2ς² ln(2π²t²/(3δ)) (Thm 4.13, general) or 4ς² ln t (Thm 4.10, finite)"
        ),
        delta: f64 = 0.1 => ("confidence δ of the general β_t", 1e-12, 0.999_999),
    }
}

impl IkrSettings {
    /// IKR-UCB's exploration weight β_t.
    pub fn beta_rule(&self) -> BetaRule {
        match self.beta {
            BetaChoice::Finite => BetaRule::FiniteSet,
            BetaChoice::General => BetaRule::GeneralSet { delta: self.delta },
        }
    }
}

bosweep_core::settings! {
    /// Typed settings of the BOKE paper's GP-UCB (`gp-ucb-fixed`): an RBF GP with a fixed β and
    /// a length scale chosen once, by marginal likelihood on the initial design, then frozen;
    /// maximised by the same search as BOKE.
    pub struct GpUcbFixed {
        /// The initial design and the acquisition's maximiser, as BOKE's.
        search: SearchSettings = SearchSettings::default() => {},
        beta: f64 = 4.0 => ("fixed β of μ + √β·σ", 0.0, 1e6),
        noise_var: f64 = 1e-6 => (
            "noise variance in standardised units ((σ_noise/sd(y_init))² for noisy runs)",
            1e-12,
            10.0
        ),
        lengthscale: f64 = 0.0 => (
            "unit-cube length scale; 0 = ML-II over 50 log-spaced values in [0.01, 2√d] on the initial design",
            0.0,
            1e3
        ),
    }
}

bosweep_core::settings! {
    /// Typed settings of BOKE (`boke`): every step maximises the IKR-UCB score
    /// `m_t(x) + √β_t · W_t(x)^(−1/2)`, the Nadaraya–Watson mean plus the inverse square root of
    /// the unnormalised KDE of the sampled points (Zhu et al. 2025, Algorithm 2).
    ///
    /// ```
    /// use bosweep_algorithms::boke::Recommendation;
    /// use bosweep_algorithms::{AlgorithmSettings, Boke};
    ///
    /// let boke = Boke::default().ikr(|ikr| {
    ///     ikr.surrogate(|kr| kr.kappa(1.0).recommend(Recommendation::BestMean))
    ///         .search(|search| search.lhs_init(5))
    /// });
    /// assert_eq!(boke.name(), "boke");
    /// assert!(boke.build().is_ok());
    /// ```
    pub struct Boke {
        /// The search, surrogate and β schedule.
        ikr: IkrSettings = IkrSettings::default() => {},
    }
}

bosweep_core::settings! {
    /// Typed settings of BOKE+ (`boke-plus`): an IKR-UCB step with probability `p`, otherwise a
    /// pure exploitation step `argmax m_t` (Zhu et al. 2025, Algorithm 3).
    pub struct BokePlus {
        /// The search, surrogate and β schedule, as BOKE's.
        ikr: IkrSettings = IkrSettings::default() => {},
        /// 1 is BOKE.
        p: f64 = 0.8 => ("probability of an IKR-UCB step (1 = BOKE)", 1e-9, 1.0),
        /// For noise-free runs, where re-sampling teaches nothing (an exploitation step within
        /// 1e-9 of an observation); the paper's rule is `false`.
        dedupe_exploit: bool = false => (
            "replace an exploitation step that re-selects an observed point by an IKR-UCB step"
        ),
    }
}

bosweep_core::settings! {
    /// Typed settings of pure density-based exploration (`density-exploration`): every step is
    /// `argmin W_t`, the least sampled region, with no objective information at all (Zhu et al.
    /// 2025, Eq. 3.10).
    pub struct DensityExploration {
        /// The search and surrogate (only its kernel and bandwidth act on the steps); β_t is
        /// reported in the step log.
        ikr: IkrSettings = IkrSettings::default() => {},
    }
}

bosweep_core::settings! {
    /// The progressive widening of KR-UCB: when and where a new point joins the sampled ones.
    pub struct Widening {
        alpha: f64 = 0.8 => (
            "widening exponent: add a point once t^α ≥ #distinct points",
            1e-6,
            0.999_999
        ),
        /// The default `e^(−1/2)` gives radius h for the Gaussian kernel.
        tau: f64 = 0.606_530_659_712_633_4 => (
            "widening ball {k(u, x̃; h) > τ}, radius h·√(2 ln(1/τ)) (e^(−1/2): radius h)",
            1e-12,
            0.999_999
        ),
        c_multiplier: f64 = std::f64::consts::SQRT_2 => (
            "C = c_multiplier·ς_t, ς_t = κ·sd(y)",
            0.0,
            1e6
        ),
    }
}

bosweep_core::settings! {
    /// Typed settings of KR-UCB (`kr-ucb`, Yee et al. 2016): UCB over the sampled points with
    /// the Nadaraya–Watson mean and KDE counts, and progressive widening that adds a point where
    /// the data are thinnest near the UCB choice.
    pub struct KrUcb {
        /// The initial design; KR-UCB's steps search a ball, not candidates, so of these only
        /// `lhs_init` acts.
        search: SearchSettings = SearchSettings::default() => {},
        /// The kernel-regression surrogate, as BOKE's.
        surrogate: KrSettings = KrSettings::default() => {},
        /// When and where the sampled set widens.
        widening: Widening = Widening::default() => {},
    }
}
