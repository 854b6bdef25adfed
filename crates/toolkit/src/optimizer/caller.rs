//! The problem an [`Optimizer`](super::Optimizer)'s algorithm is prepared for when its caller
//! evaluates the points: a box, or the structure of a registered problem.

use std::sync::Arc;

use bosweep_core::params::ParamValue;
use bosweep_engine::Points;
use bosweep_model::CandidatePriors;
use bosweep_problems::{
    Constraints, Domain, NoiseVariance, Objectives, Observation, Optimum, Problem, ProblemError,
    Sense, Step,
};
use rand_chacha::ChaCha8Rng;

/// What an [`Optimizer`]'s algorithm is prepared for: a box (and the box of the contexts the
/// caller observes, where given), or the structure of a registered problem (its box, sense,
/// allowed sets, candidate priors, context box) whose points the caller evaluates. Points are
/// evaluated by the caller, never by it.
#[derive(Debug)]
pub(super) enum CallerProblem {
    Box {
        domain: Domain,
        sense: Sense,
        context: Option<Domain>,
        /// The black-box constraints whose values the caller tells with each value.
        constraints: Option<Constraints>,
    },
    Like(Box<dyn Problem>),
}

impl Problem for CallerProblem {
    fn name(&self) -> &str {
        match self {
            Self::Box { .. } => "caller",
            Self::Like(problem) => problem.name(),
        }
    }

    fn domain(&self) -> &Domain {
        match self {
            Self::Box { domain, .. } => domain,
            Self::Like(problem) => problem.domain(),
        }
    }

    fn sense(&self) -> Sense {
        match self {
            Self::Box { sense, .. } => *sense,
            Self::Like(problem) => problem.sense(),
        }
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        Vec::new()
    }

    fn observe(
        &self,
        _x: &[f64],
        _step: &Step,
        _rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        Err(ProblemError::evaluation(
            "an optimizer's points are evaluated by its caller",
        ))
    }

    fn objective_of_interest(&self, _x: &[f64], _t: usize) -> Option<f64> {
        None
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        None
    }

    fn allowed_set(&self, t: usize) -> Option<&Points> {
        match self {
            Self::Box { .. } => None,
            Self::Like(problem) => problem.allowed_set(t),
        }
    }

    fn time_varying(&self) -> bool {
        matches!(self, Self::Like(problem) if problem.time_varying())
    }

    fn candidate_priors(&self) -> Option<Arc<CandidatePriors>> {
        match self {
            Self::Box { .. } => None,
            Self::Like(problem) => problem.candidate_priors(),
        }
    }

    fn context_domain(&self) -> Option<&Domain> {
        match self {
            Self::Box { context, .. } => context.as_ref(),
            Self::Like(problem) => problem.context_domain(),
        }
    }

    fn noise_variance(&self) -> Option<NoiseVariance> {
        match self {
            Self::Box { .. } => None,
            Self::Like(problem) => problem.noise_variance(),
        }
    }

    fn risk_aversion(&self) -> Option<f64> {
        match self {
            Self::Box { .. } => None,
            Self::Like(problem) => problem.risk_aversion(),
        }
    }

    fn objectives(&self) -> Option<&Objectives> {
        match self {
            Self::Box { .. } => None,
            Self::Like(problem) => problem.objectives(),
        }
    }

    fn constraints(&self) -> Option<&Constraints> {
        match self {
            Self::Box { constraints, .. } => constraints.as_ref(),
            Self::Like(problem) => problem.constraints(),
        }
    }
}
