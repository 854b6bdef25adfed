//! What a user sets for the multi-objective GP methods.

use bosweep_toolkit::GpSettings;
use bosweep_toolkit::acquisition::MaximizerSettings;

use crate::gp_bo::botorch_maximizer;

/// The settings of a multi-objective GP method (`qlognehvi`, `qlognparego`): one GP per
/// objective, BoTorch's maximiser and sampling, declared once for both.
macro_rules! multi_objective_settings {
    ($(#[$doc:meta])* $settings:ident) => {
        bosweep_core::settings! {
            $(#[$doc])*
            pub struct $settings {
                /// The GP model and its fit, one per objective.
                gp: GpSettings = GpSettings::botorch() => {},
                /// The Sobol grid and refinement that maximise the acquisition.
                maximizer: MaximizerSettings = botorch_maximizer() => {},
                mc_samples: usize = bosweep_toolkit::acquisition::MO_MC_SAMPLES => (
                    "quasi-Monte Carlo samples of the joint posterior (fixed within a step; BoTorch's 128)",
                    1,
                    65_536
                ),
                prune_baseline: bool = false => (
                    "sample only the observed points that are on the front in some of 2048 posterior draws (BoTorch's prune_inferior_points_multi_objective; done anyway beyond 255 points)"
                ),
            }
        }
    };
}

multi_objective_settings! {
    /// Typed settings of qLogNEHVI (`qlognehvi`; Daulton, Balandat and Bakshy, NeurIPS 2021,
    /// with the log-space smoothing of Ament et al., NeurIPS 2023): BoTorch's default
    /// multi-objective acquisition, `qLogNoisyExpectedHypervolumeImprovement` with its defaults
    /// (exact box decompositions, pending points cached into the baseline, τ_relu = 1e-6,
    /// τ_max = 1e-3), on one GP per objective with BoTorch's default model (as `qlognei`),
    /// maximised as `qlognei` is. A batch is built point by point, each new point's
    /// improvement taken over the front of the observed and pending points' joint draws.
    ///
    /// The hypervolume's reference point is the problem's where it declares one, else BoTorch's
    /// `infer_reference_point` of the observed front (its nadir less a tenth of its range).
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, QLogNehvi};
    ///
    /// let settings = QLogNehvi::default();
    /// assert_eq!((settings.mc_samples, settings.prune_baseline), (128, false));
    /// assert_eq!(settings.name(), "qlognehvi");
    /// ```
    QLogNehvi
}

multi_objective_settings! {
    /// Typed settings of qLogNParEGO (`qlognparego`; Daulton, Balandat and Bakshy, NeurIPS
    /// 2020's qNParEGO with the log-space smoothing of Ament et al., NeurIPS 2023): BoTorch's
    /// `qLogNParEGO` with its defaults. At each ask, weights drawn uniformly from the simplex
    /// scalarise the objectives' joint posterior samples by the augmented Chebyshev function of
    /// ParEGO (Knowles 2006; the objectives normalised by the range of the GPs' means at the
    /// observed points, α = 0.05), and qLogNEI of that scalar is maximised, the pending points
    /// joining the observed ones (BoTorch's `incremental`). The GPs are `qlognehvi`'s.
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, QLogNParEgoSettings};
    ///
    /// let settings = QLogNParEgoSettings::default();
    /// assert_eq!((settings.mc_samples, settings.prune_baseline), (128, false));
    /// assert_eq!(settings.name(), "qlognparego");
    /// ```
    QLogNParEgoSettings
}
