//! What a user sets for NSGA-II (`nsga2`).

bosweep_core::settings! {
    /// Typed settings of NSGA-II (`nsga2`).
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, Nsga2};
    ///
    /// let settings = Nsga2::default().population(20);
    /// assert_eq!((settings.population, settings.crossover_eta), (20, 15.0));
    /// assert_eq!(settings.name(), "nsga2");
    /// assert!(settings.build().is_ok());
    /// ```
    pub struct Nsga2 {
        population: usize = 50 => (
            "population size N: offspring per generation and parents kept (Optuna's default; pymoo's is 100)",
            2,
            1_000_000
        ),
        crossover_prob: f64 = 0.9 => (
            "probability that a pair of parents is crossed (else copied), as pymoo's SBX",
            0.0,
            1.0
        ),
        crossover_eta: f64 = 15.0 => (
            "distribution index η_c of simulated binary crossover (larger: children nearer their parents)",
            1e-3,
            1e6
        ),
        mutation_eta: f64 = 20.0 => (
            "distribution index η_m of polynomial mutation",
            1e-3,
            1e6
        ),
        mutation_prob: f64 = 0.0 => (
            "probability that a coordinate of an offspring is mutated (0: min(0.5, 1/d), pymoo's default)",
            0.0,
            1.0
        ),
    }
}
