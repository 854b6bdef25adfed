//! What a user sets for TuRBO-1 (`turbo`).

use super::sampling::{MAX_CANDIDATES, ThompsonSampler};
use bosweep_toolkit::GpSettings;
use bosweep_toolkit::acquisition::DEFAULT_PATH_FEATURES;

bosweep_core::settings! {
    /// Typed settings of TuRBO-1 (`turbo`).
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, Turbo};
    ///
    /// let settings = Turbo::default().n_candidates(500).length_init(0.4);
    /// assert_eq!((settings.n_candidates, settings.length_init, settings.length_max), (500, 0.4, 1.6));
    /// assert_eq!(settings.name(), "turbo");
    /// assert!(settings.build().is_ok());
    /// ```
    pub struct Turbo {
        n_candidates: usize = 0 => (
            "Thompson-sampling candidates per step (0: min(100·d, 5000)); with sampler = exact the joint posterior over them is an n_candidates² matrix and at most 20 000 are taken, with pathwise up to 2^20",
            0,
            MAX_CANDIDATES
        ),
        sampler: ThompsonSampler = ThompsonSampler::Exact => (
            "how sample paths over the candidates are drawn: exact (their joint posterior, O(n_candidates³) on the CPU) or pathwise (random Fourier features updated by Matheron's rule, maximised by the engine in O(n_candidates·(n_features + n)·d))"
        ),
        n_features: usize = DEFAULT_PATH_FEATURES => (
            "random Fourier features per pathwise sample path (BoTorch's default); read only with sampler = pathwise",
            1,
            65_536
        ),
        length_init: f64 = 0.8 => ("base side length L of a new trust region, in unit-cube units", 1e-9, 10.0),
        length_min: f64 = 0.0078125 => ("restart when L falls below this (default 0.5^7)", 1e-12, 10.0),
        length_max: f64 = 1.6 => ("L never doubles beyond this", 1e-9, 10.0),
        success_tolerance: usize = 3 => ("consecutive successful batches that double L", 1, 1_000_000),
        failure_tolerance: usize = 0 => (
            "consecutive failed batches that halve L (0: ⌈max(4/q, d/q)⌉, q the batch size)",
            0,
            1_000_000
        ),
        restart_design: usize = 0 => (
            "Latin-hypercube points that start each restart (0: as many as the run's initial design, 2·d if it has none)",
            0,
            1_000_000
        ),
        /// The GP model and its fit.
        gp: GpSettings = GpSettings::default() => {},
    }
}

bosweep_core::settings! {
    /// Typed settings of SCBO (`scbo`; Eriksson and Poloczek, "Scalable Constrained Bayesian
    /// Optimization", AISTATS 2021), TuRBO-1 with black-box constraints as BoTorch's SCBO
    /// tutorial runs it: a GP for the objective and one per constraint, refitted to the
    /// restart's data at every step; the region centred at the best feasible point (else the
    /// least violating one); constrained Thompson sampling (one path of each model per point,
    /// the best objective among the candidates whose constraint paths are all ≤ 0, else the
    /// smallest total violation); SCBO's success rule, feasibility first. Its defaults are the
    /// tutorial's: `success_tolerance = 10` and `min(5000, max(2000, 200·d))` candidates, drawn
    /// from their joint posterior. On a problem without constraints it is `turbo` with these
    /// defaults (and `turbo` on a constrained problem is SCBO with TuRBO's).
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, Scbo};
    ///
    /// let settings = Scbo::default();
    /// assert_eq!((settings.success_tolerance, settings.n_candidates), (10, 0));
    /// assert_eq!(settings.name(), "scbo");
    /// assert!(settings.build().is_ok());
    /// ```
    pub struct Scbo {
        n_candidates: usize = 0 => (
            "Thompson-sampling candidates per step (0: min(5000, max(2000, 200·d)), the SCBO tutorial's); the joint posterior of each model over them is an n_candidates² matrix, so at most 20 000",
            0,
            super::sampling::MAX_EXACT_CANDIDATES
        ),
        length_init: f64 = 0.8 => ("base side length L of a new trust region, in unit-cube units", 1e-9, 10.0),
        length_min: f64 = 0.0078125 => ("restart when L falls below this (default 0.5^7)", 1e-12, 10.0),
        length_max: f64 = 1.6 => ("L never doubles beyond this", 1e-9, 10.0),
        success_tolerance: usize = 10 => ("consecutive successful batches that double L (the SCBO tutorial's 10)", 1, 1_000_000),
        failure_tolerance: usize = 0 => (
            "consecutive failed batches that halve L (0: ⌈max(4/q, d/q)⌉, q the batch size)",
            0,
            1_000_000
        ),
        restart_design: usize = 0 => (
            "Latin-hypercube points that start each restart (0: as many as the run's initial design, 2·d if it has none)",
            0,
            1_000_000
        ),
        /// The GP model and its fit, the objective's and each constraint's.
        gp: GpSettings = GpSettings::default() => {},
    }
}

impl Scbo {
    /// The TuRBO settings SCBO runs with: the same schedule and model, Thompson draws from the
    /// joint posterior.
    pub(super) fn turbo(&self) -> Turbo {
        Turbo {
            n_candidates: self.n_candidates,
            sampler: ThompsonSampler::Exact,
            n_features: DEFAULT_PATH_FEATURES,
            length_init: self.length_init,
            length_min: self.length_min,
            length_max: self.length_max,
            success_tolerance: self.success_tolerance,
            failure_tolerance: self.failure_tolerance,
            restart_design: self.restart_design,
            gp: self.gp.clone(),
        }
    }
}
