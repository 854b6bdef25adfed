//! What a user sets for CMA-ES (`cmaes`).

bosweep_core::settings! {
    /// Typed settings of CMA-ES with IPOP restarts (`cmaes`).
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, Cmaes};
    ///
    /// let settings = Cmaes::default().sigma0(0.2).popsize(12);
    /// assert_eq!((settings.sigma0, settings.popsize, settings.ipop), (0.2, 12, true));
    /// assert_eq!(settings.name(), "cmaes");
    /// assert!(settings.build().is_ok());
    /// ```
    pub struct Cmaes {
        sigma0: f64 = 0.3 => (
            "initial step size σ0, in unit-cube units (the box mapped to [0, 1]^d)",
            1e-12,
            10.0
        ),
        popsize: usize = 0 => (
            "population size λ of the first run (0: the default 4 + ⌊3 ln n⌋; at least 2)",
            0,
            1_000_000
        ),
        ipop: bool = true => (
            "restart with the population size doubled (IPOP); false: restarts keep the population size"
        ),
        max_restarts: usize = 9 => ("restarts at most; past them a stopped run carries on", 0, 1000),
        tol_x: f64 = 1e-11 => (
            "stop (and restart) when σ·p_c and σ·√C_ii are below this in every coordinate",
            0.0,
            1.0
        ),
        tol_fun: f64 = 1e-11 => (
            "stop (and restart) when the recent generations' best values and the last generation's values lie within this range",
            0.0,
            1e300
        ),
    }
}
