//! What a user sets for the multi-objective GP methods.

use bosweep_toolkit::GpSettings;
use bosweep_toolkit::acquisition::MaximizerSettings;

use crate::gp_bo::botorch_maximizer;

/// The settings of a multi-objective GP method (`qlognehvi`, `qlognparego`): one GP per
/// objective (and per black-box constraint), BoTorch's maximiser, sampling and feasibility
/// indicator, declared once for both.
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
                /// On a constrained problem, each constraint `c` (in its own units) adds
                /// `ln fatmoid(−c/η)` to a sample's log improvement.
                constraint_eta: f64 = bosweep_toolkit::acquisition::CONSTRAINT_ETA => (
                    "temperature η of the smoothed feasibility indicator on a constrained problem, in the constraints' units (BoTorch's eta)",
                    1e-9,
                    1e6
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
    /// `infer_reference_point` of the observed front (its nadir less a tenth of its range; of
    /// the feasible points where some are).
    ///
    /// On a problem with black-box constraints it is BoTorch's constrained qLogNEHVI: one GP per
    /// constraint beside the objectives', each sample's front made of the observed and pending
    /// points feasible in that sample, and the candidate's log improvement plus its smoothed log
    /// feasibility `Σ_j ln fatmoid(−c_j/η)`. It recommends (for a caller that asks for one point)
    /// the first objective's best feasible point.
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
    /// On a problem with black-box constraints it is BoTorch's `qLogNParEGO` with
    /// `constraints`, which is constrained qLogNEI of the scalarisation: a GP per constraint,
    /// each sample's best scalarised value over the observed and pending points feasible in it,
    /// and the candidate's smoothed log feasibility added.
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
