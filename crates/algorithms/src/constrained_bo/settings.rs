//! What a user sets for `logei-pof`.

use bosweep_toolkit::GpSettings;
use bosweep_toolkit::acquisition::MaximizerSettings;

use crate::gp_bo::botorch_maximizer;

bosweep_core::settings! {
    /// Typed settings of LogEI × probability of feasibility (`logei-pof`; Gardner et al., ICML
    /// 2014; Gelbart, Snoek and Adams, UAI 2014), the classic constrained BO baseline, as
    /// BoTorch's analytic `LogConstrainedExpectedImprovement` computes it: one GP for the
    /// objective and one per constraint, each BoTorch's default model as `logei` fits it
    /// ([`GpSettings::botorch`], its own standardisation), and the acquisition
    /// `ln EI(x; best_f) + Σ_j ln Φ((0 − μ_j(x))/σ_j(x))` maximised as `logei`'s is, on its
    /// analytic gradient. `best_f` is the best objective value among the feasible observations;
    /// while none is feasible the acquisition is the log probability of feasibility alone
    /// (Gelbart et al.'s rule). It recommends feasible first: the best feasible observed point,
    /// else the least violating one. On a problem without constraints it is `logei`, proposal
    /// for proposal. A batch's later points are chosen under the Kriging believer of every
    /// model (each conditioned on the pending points at its posterior mean, the incumbent
    /// counting the pending points believed feasible), never a pending point again.
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, LogEi, LogEiPof};
    ///
    /// let settings = LogEiPof::default();
    /// assert_eq!(settings.name(), "logei-pof");
    /// assert_eq!((&settings.gp, &settings.maximizer), (&LogEi::default().gp, &LogEi::default().maximizer));
    /// ```
    pub struct LogEiPof {
        /// The GP model and its fit, one for the objective and one per constraint.
        gp: GpSettings = GpSettings::botorch() => {},
        /// The Sobol grid and L-BFGS refinement that maximise the acquisition.
        maximizer: MaximizerSettings = botorch_maximizer() => {},
    }
}
