//! What an algorithm needs of a problem beyond a box, declared by its registry entry, so that
//! an incompatible pair is refused before anything runs instead of failing mid-run.

use crate::algorithm::{Algorithm, AlgorithmError};
use bosweep_problems::{self as problems, Problem};

/// The kind of problem an algorithm runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Requirement {
    /// Any problem.
    Any,
    /// A problem searched over its whole box: no finite allowed set (KR-UCB and the BOKE
    /// paper's GP-UCB, whose searches sample the box).
    Continuous,
    /// Evaluations that report an observed context (SBO/DRBO-KDE, DRBO-MMD, StableOpt).
    Context,
    /// Candidate GP priors over a finite domain, with a finite allowed set at every step
    /// (PE-GP-UCB's time-varying problems, [`Problem::candidate_priors`]).
    CandidatePriors,
    /// A problem that knows its true noise variance (oracle variants).
    KnownNoiseVariance,
}

impl Requirement {
    /// Whether `problem` offers what this requirement asks for.
    pub fn is_met_by(self, problem: &dyn Problem) -> bool {
        match self {
            Self::Any => true,
            Self::Continuous => problem.allowed_set(1).is_none(),
            Self::Context => problem.context_domain().is_some(),
            Self::CandidatePriors => {
                problem.candidate_priors().is_some() && problem.allowed_set(1).is_some()
            }
            Self::KnownNoiseVariance => problem.noise_variance().is_some(),
        }
    }

    /// The kind of problem, in words, for messages and listings.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Any => "any problem",
            Self::Continuous => "a problem searched over its whole box (no finite allowed set)",
            Self::Context => "a contextual problem (one whose evaluations report a context)",
            Self::CandidatePriors => {
                "a time-varying problem that defines candidate GP priors over its finite domain, \
                 with a finite allowed set at every step"
            }
            Self::KnownNoiseVariance => "a problem that knows its true noise variance",
        }
    }

    /// The registered problems, with their default parameters, that meet the requirement
    /// (problems that cannot be built here, such as one whose data is absent, are left out).
    pub fn accepted_problems(self) -> Vec<&'static str> {
        problems::registry()
            .filter(|entry| entry.build(&[]).is_ok_and(|p| self.is_met_by(p.as_ref())))
            .map(|entry| entry.name)
            .collect()
    }
}

/// Refuses a single-objective `algorithm` (registered as `name`) on a problem of several
/// objectives, and one that ignores constraints on a constrained problem, naming both
/// (docs/conventions.md, "Several objectives" and "Constraints").
pub fn check_objectives(
    name: &str,
    algorithm: &dyn Algorithm,
    problem: &dyn Problem,
) -> Result<(), AlgorithmError> {
    let m = problem.objective_count();
    if m > 1 && !algorithm.handles_several_objectives() {
        return Err(AlgorithmError::Config(format!(
            "algorithm \"{name}\" optimises one objective; problem \"{}\" has {m} \
             (run a method for several objectives on it, such as qlognehvi or nsga2; `bosweep \
             list --with several-objectives` lists them)",
            problem.name()
        )));
    }
    let k = problem.constraint_count();
    if k > 0 && !algorithm.handles_constraints() {
        return Err(AlgorithmError::Config(format!(
            "algorithm \"{name}\" ignores black-box constraints; problem \"{}\" has {k} \
             (run a method for constraints on it, such as qlognei, logei-pof or nsga2; `bosweep \
             list --with constraints` lists them)",
            problem.name()
        )));
    }
    Ok(())
}

/// Checks, before a run, that `algorithm` (registered as `name`, with `requirement`) can run on
/// `problem`: its number of objectives ([`check_objectives`]), the requirement, then its own [`Algorithm::prepare`], which checks what only the
/// algorithm knows (PE-GP-UCB: that the allowed sets lie in its candidate priors' domain). An
/// incompatible pair is a configuration error naming both.
pub fn check_fit(
    name: &str,
    requirement: Requirement,
    algorithm: &mut dyn Algorithm,
    problem: &dyn Problem,
) -> Result<(), AlgorithmError> {
    check_objectives(name, algorithm, problem)?;
    if !requirement.is_met_by(problem) {
        return Err(AlgorithmError::Config(format!(
            "algorithm \"{name}\" needs {}; problem \"{}\" is not one (accepted: {})",
            requirement.describe(),
            problem.name(),
            requirement.accepted_problems().join(", ")
        )));
    }
    algorithm.prepare(problem).map_err(|e| match e {
        AlgorithmError::Config(m) => AlgorithmError::Config(format!(
            "algorithm \"{name}\" cannot run on problem \"{}\": {m}",
            problem.name()
        )),
        other => other,
    })
}
