//! What a user sets for BAxUS (`baxus`).

use crate::turbo::{MAX_CANDIDATES, ThompsonSampler};
use bosweep_toolkit::GpSettings;
use bosweep_toolkit::acquisition::DEFAULT_PATH_FEATURES;

bosweep_core::settings! {
    /// Typed settings of BAxUS (`baxus`).
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, Baxus};
    ///
    /// let settings = Baxus::default().new_bins(2).budget(200);
    /// assert_eq!((settings.new_bins, settings.budget, settings.length_init), (2, 200, 0.8));
    /// assert_eq!(settings.name(), "baxus");
    /// assert!(settings.build().is_ok());
    /// ```
    pub struct Baxus {
        new_bins: usize = 3 => (
            "b: a split turns each target dimension into up to b + 1 (never more than its input dimensions)",
            1,
            1000
        ),
        budget: usize = 0 => (
            "evaluations the split schedule plans for, initial designs included (0: the run's budget; ask/tell use without a run must set it)",
            0,
            1_000_000_000
        ),
        design: usize = 0 => (
            "Latin-hypercube points in the target space that start the search and each restart (0: as many as the run's initial design, d_init + 1 if it has none)",
            0,
            1_000_000
        ),
        n_candidates: usize = 0 => (
            "Thompson-sampling candidates per step (0: min(100·d, 5000), d the target dimension); with sampler = exact the joint posterior over them is an n_candidates² matrix and at most 20 000 are taken, with pathwise up to 2^20",
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
        length_init: f64 = 0.8 => ("base side length L of a new trust region, in unit-cube units of the target space", 1e-9, 10.0),
        length_min: f64 = 0.0078125 => ("split (or, at the input dimension, restart) when L falls below this (default 0.5^7)", 1e-12, 10.0),
        length_max: f64 = 1.6 => ("L never doubles beyond this", 1e-9, 10.0),
        success_tolerance: usize = 3 => ("consecutive successful batches that double L", 1, 1_000_000),
        /// The GP model and its fit.
        gp: GpSettings = GpSettings::default() => {},
    }
}
