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
