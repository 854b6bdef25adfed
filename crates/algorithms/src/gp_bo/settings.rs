//! What a user sets for each GP baseline: one settings struct per method, the GP model and the
//! maximiser as shared groups.

use bosweep_toolkit::GpSettings;
use bosweep_toolkit::acquisition::{MaximizerSettings, RefineGradient};
use bosweep_toolkit::pending::PendingStrategy;

/// The maximiser of the BoTorch baselines (`logei`, `qlognei`) as Ax configures BoTorch's
/// `optimize_acqf`: 1024 raw candidates (a scrambled-Sobol grid here), the 20 best refined by
/// L-BFGS-B on the acquisition's analytic gradient (BoTorch's autograd). EI takes it too, so
/// that EI and LogEI differ in their models only, as in Ament et al.'s comparison; GP-UCB keeps
/// the larger grid, min(2^12·d, 2^20), and central differences, on which its studies ran.
pub(crate) fn botorch_maximizer() -> MaximizerSettings {
    MaximizerSettings::default()
        .grid_size(1024)
        .top_k(20)
        .gradient(RefineGradient::Analytic)
}

bosweep_core::choices! {
    /// How GP-UCB's multiplier κ of σ is chosen.
    pub enum UcbSchedule {
        /// A constant κ (`ucb_multiplier`; κ = √β in the square-root convention).
        Constant = "constant",
        /// κ = √β_t with Srinivas et al.'s finite-domain β_t = 2 ln(|D| t² π² / (6δ)), `|D|`
        /// the candidate-grid size and δ `delta`.
        Srinivas = "srinivas",
    }
}

/// The settings of a GP method that takes points while others are pending (`gp-ucb`, `ei`,
/// `logei`): the GP model and the maximiser (with `$gp` and `$maximizer` their defaults), the
/// method's own `$extra` fields, then how a batch's later points account for the pending ones,
/// declared once for all.
macro_rules! batch_gp_settings {
    ($(#[$doc:meta])* $settings:ident, $gp:expr, $maximizer:expr, { $($extra:tt)* }) => {
        bosweep_core::settings! {
            $(#[$doc])*
            pub struct $settings {
                /// The GP model and its fit.
                gp: GpSettings = $gp => {},
                /// The Sobol grid and L-BFGS refinement that maximise the acquisition.
                maximizer: MaximizerSettings = $maximizer => {},
                $($extra)*
                pending: PendingStrategy = PendingStrategy::KrigingBeliever => (
                    "how a batch's later points account for the pending ones: believer: the Kriging believer (pending points conditioned on at their posterior mean; Ginsbourger et al. 2010); penalize: the acquisition times local penalisers around them (González et al. 2016)"
                ),
            }
        }
    };
}

batch_gp_settings! {
    /// Typed settings of GP-UCB (`gp-ucb`): `μ + κσ` maximised over a Sobol grid with L-BFGS
    /// refinement, the GP refitted at every step.
    ///
    /// ```
    /// use bosweep_algorithms::GpUcb;
    /// use bosweep_model::KernelFamily;
    ///
    /// let settings = GpUcb::default()
    ///     .ucb_multiplier(1.0)
    ///     .gp(|gp| gp.kernel(KernelFamily::Matern32));
    /// assert_eq!(settings.gp.kernel, KernelFamily::Matern32);
    /// ```
    GpUcb, GpSettings::default(), MaximizerSettings::default(), {
        beta_schedule: UcbSchedule = UcbSchedule::Constant => (
            "constant: κ = ucb_multiplier; srinivas: κ = √β_t, β_t = 2 ln(|D| t² π² / (6δ)), |D| the grid size"
        ),
        ucb_multiplier: f64 = 2.0 => (
            "κ multiplying σ (the square root of β in the β-under-root convention)",
            0.0,
            1e6
        ),
        delta: f64 = 0.1 => ("confidence δ of the Srinivas schedule", 1e-12, 0.999_999),
        /// (Desautels, Krause and Burdick 2014): C bounds the information the pending points
        /// carry. It does not apply with nothing pending (the information of an empty set is
        /// 0), nor under local penalisation (the schedule is for the hallucinated model).
        bucb_c: f64 = 0.1 => (
            "C of the GP-BUCB batch schedule: with points pending, β is multiplied by exp(2C)",
            0.0,
            10.0
        ),
    }
}

batch_gp_settings! {
    /// Typed settings of EI (`ei`): expected improvement over the best observation, maximised
    /// as log EI like [`LogEi`] (BoTorch's `optimize_acqf` as Ax configures it), the GP
    /// refitted at every step.
    Ei, GpSettings::default(), botorch_maximizer(), {}
}

batch_gp_settings! {
    /// Typed settings of LogEI (`logei`; Ament et al., NeurIPS 2023): log expected improvement
    /// over the best observation on BoTorch's default GP model, the configuration a BoTorch user
    /// runs with `LogExpectedImprovement`: `SingleTaskGP`'s RBF kernel with no outputscale, MAP
    /// hyperparameters under the dimension-scaled priors (Hvarfner et al. 2024) and a
    /// noise-variance floor of 1e-4 ([`GpSettings::botorch`]), maximised like [`Ei`].
    ///
    /// LogEI's value is [`LogExpectedImprovement`]'s, whose `ln h(z)` has Ament et al.'s
    /// branches (direct above the incumbent's neighbourhood; below, the Mills ratio without
    /// cancellation, tending to their asymptote `−z²/2 − ln √(2π) − 2 ln|z|`). EI (`ei`)
    /// maximises the same value; the two methods differ in the model's defaults only.
    ///
    /// ```
    /// use bosweep_algorithms::{Ei, LogEi};
    /// use bosweep_model::FitChoice;
    ///
    /// assert_eq!(LogEi::default().gp.fit, FitChoice::MapDimensionScaled);
    /// assert_eq!(LogEi::default().gp.min_noise_var, 1e-4);
    /// assert_eq!(Ei::default().gp.fit, FitChoice::Map);
    /// ```
    ///
    /// [`LogExpectedImprovement`]: bosweep_toolkit::acquisition::LogExpectedImprovement
    LogEi, GpSettings::botorch(), botorch_maximizer(), {}
}

/// The settings of a qLogNEI method (`qlognei`, `saasbo-map`): the GP model (with `$gp` its
/// defaults) and BoTorch's maximiser and sampling, declared once for both.
macro_rules! qlognei_settings {
    ($(#[$doc:meta])* $settings:ident, $gp:expr) => {
        bosweep_core::settings! {
            $(#[$doc])*
            pub struct $settings {
                /// The GP model and its fit.
                gp: GpSettings = $gp => {},
                /// The Sobol grid and L-BFGS refinement that maximise the acquisition.
                maximizer: MaximizerSettings = botorch_maximizer() => {},
                mc_samples: usize = bosweep_toolkit::acquisition::MC_SAMPLES => (
                    "quasi-Monte Carlo samples of the joint posterior (fixed within a step)",
                    1,
                    65_536
                ),
                prune_baseline: bool = true => (
                    "sample only the observed points that are the best in some of 2048 posterior draws (BoTorch's prune_inferior_points)"
                ),
                /// On a constrained problem, each constraint `c` (in its own units) adds
                /// `ln fatmoid(−c/η)` to a sample's log improvement, BoTorch's smoothed
                /// feasibility indicator; a smaller η is closer to the hard indicator.
                constraint_eta: f64 = bosweep_toolkit::acquisition::CONSTRAINT_ETA => (
                    "temperature η of the smoothed feasibility indicator on a constrained problem, in the constraints' units (BoTorch's eta)",
                    1e-9,
                    1e6
                ),
            }
        }
    };
}

qlognei_settings! {
    /// Typed settings of qLogNEI (`qlognei`; Ament et al., NeurIPS 2023): BoTorch's default
    /// acquisition, `qLogNoisyExpectedImprovement`, on BoTorch's default GP model (as
    /// [`LogEi`]). The joint posterior of the observed points (pruned to those that could be
    /// the best), the pending points and a candidate is sampled with scrambled-Sobol normal base
    /// samples drawn once per step; the smoothed log improvement over each sample's best
    /// observed value is maximised smoothly over the candidate and the pending points and
    /// averaged over the samples in log space. A batch is built point by point, each new point
    /// maximising the joint value with the earlier ones pending (BoTorch's sequential greedy
    /// optimisation), so pending points need no believer or penaliser.
    ///
    /// On a problem with black-box constraints it is BoTorch's constrained qLogNEI (with its
    /// default `incremental=True`): one GP per constraint beside the objective's, each sample's
    /// best value taken over the observed and pending points feasible in that sample, and the
    /// candidate's log improvement plus its smoothed log feasibility
    /// ([`ConstrainedQLogNoisyExpectedImprovement`]). It recommends feasible first.
    ///
    /// [`ConstrainedQLogNoisyExpectedImprovement`]: bosweep_toolkit::acquisition::ConstrainedQLogNoisyExpectedImprovement
    QLogNei, GpSettings::botorch()
}

qlognei_settings! {
    /// Typed settings of SAASBO with a MAP model (`saasbo-map`; Eriksson and Jankowiak, UAI
    /// 2021): BoTorch's SAASBO loop, qLogNEI as [`QLogNei`] computes and maximises it, on
    /// BoTorch's MAP SAAS model in place of the fully Bayesian one fitted by NUTS: a Matérn-5/2
    /// kernel with an outputscale, the SAAS prior on the lengthscales with its global shrinkage
    /// fitted jointly, as `get_fitted_map_saas_model` builds and fits it
    /// ([`GpSettings::saas_map`]).
    ///
    /// ```
    /// use bosweep_algorithms::{QLogNei, SaasboMap};
    /// use bosweep_model::FitChoice;
    ///
    /// let settings = SaasboMap::default();
    /// assert_eq!(settings.gp.fit, FitChoice::MapSaas);
    /// assert_eq!(settings.maximizer, QLogNei::default().maximizer);
    /// ```
    SaasboMap, GpSettings::saas_map()
}
