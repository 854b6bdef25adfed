//! What a user sets for SAASBO (`saasbo`).

use bosweep_model::NutsSchedule;
use bosweep_toolkit::acquisition::MaximizerSettings;

use crate::gp_bo::botorch_maximizer;

bosweep_core::settings! {
    /// Typed settings of SAASBO with the fully Bayesian SAAS model (`saasbo`; Eriksson and
    /// Jankowiak, UAI 2021), as BoTorch's `SaasFullyBayesianSingleTaskGP`, fitted by
    /// `fit_fully_bayesian_model_nuts`, and qLogNEI run it: NUTS's schedule, the quasi-Monte
    /// Carlo samples of each model's joint posterior, and the maximiser of `qlognei`.
    ///
    /// ```
    /// use bosweep_algorithms::Saasbo;
    ///
    /// let settings = Saasbo::default();
    /// assert_eq!((settings.warmup, settings.samples, settings.thinning), (512, 256, 16));
    /// assert_eq!(settings.schedule().kept(), 16);
    /// ```
    pub struct Saasbo {
        /// The Sobol grid and L-BFGS refinement that maximise the acquisition.
        maximizer: MaximizerSettings = botorch_maximizer() => {},
        warmup: usize = 512 => ("NUTS warmup (adaptation) steps per fit, discarded", 1, 1_000_000),
        samples: usize = 256 => ("NUTS draws per fit after the warmup", 1, 1_000_000),
        thinning: usize = 16 => ("keep every thinning-th draw: samples / thinning models", 1, 1_000_000),
        max_tree_depth: usize = 6 => ("at most 2^max_tree_depth − 1 leapfrog steps per NUTS draw", 1, 12),
        mc_samples: usize = bosweep_toolkit::acquisition::MC_SAMPLES => (
            "quasi-Monte Carlo samples of each model's joint posterior (fixed within a step)",
            1,
            65_536
        ),
        prune_baseline: bool = true => (
            "sample only the observed points that are the best in some of 2048 posterior draws averaged over the models (BoTorch's prune_inferior_points)"
        ),
    }
}

impl Saasbo {
    /// The NUTS schedule of every fit.
    pub fn schedule(&self) -> NutsSchedule {
        NutsSchedule {
            warmup: self.warmup,
            samples: self.samples,
            thinning: self.thinning,
            max_tree_depth: self.max_tree_depth as u64,
        }
    }
}
