//! Registry entries as text, shared by `bosweep list` and `bosweep reference` so that the
//! terminal listing and the user's guide's reference pages say the same thing the same way.

use clap::ValueEnum;

use bosweep::algorithms::{Algorithm, AlgorithmEntry, Requirement, find_peer};
use bosweep::io::format_number;
use bosweep::params::{ParamKind, ParamSpec, ParamValue};
use bosweep::problems::{Entry, Objectives, Problem};

/// A parameter's default as a config writes it: numbers as the shortest text that parses back
/// to the same value, text quoted.
pub fn default_text(param: &ParamSpec) -> String {
    match param.kind.default_value() {
        ParamValue::Number(v) => format_number(v),
        text => text.to_string(),
    }
}

/// What a problem built at its defaults is, as text: its dimension, sense, optimum (`unknown`
/// where it has none) and box.
pub struct ProblemFacts {
    pub dim: usize,
    /// The sense, or on several objectives their number and senses.
    pub sense: String,
    /// The optimum, or on several objectives the maximum hypervolume and its reference point.
    pub optimum: String,
    pub domain: String,
}

impl ProblemFacts {
    pub fn of(problem: &dyn Problem) -> Self {
        let domain = problem.domain();
        Self {
            dim: problem.dim(),
            sense: match problem.objectives() {
                Some(o) => format!(
                    "{} objectives: {}",
                    o.count(),
                    o.senses()
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None => problem.sense().as_str().to_owned(),
            },
            optimum: match problem.objectives() {
                Some(o) => several_optimum(o),
                None => problem
                    .optimum(1)
                    .map_or_else(|| "unknown".to_owned(), |o| format_number(o.value)),
            },
            domain: box_text(domain.lower(), domain.upper()),
        }
    }
}

/// What a problem of several objectives knows of its optimum: the maximum hypervolume from its
/// reference point, and whether its true front is known.
fn several_optimum(objectives: &Objectives) -> String {
    let point = |p: &[f64]| {
        let entries: Vec<String> = p.iter().map(|v| format_number(*v)).collect();
        format!("({})", entries.join(", "))
    };
    let hv = objectives
        .max_hypervolume()
        .map_or_else(|| "unknown".to_owned(), format_number);
    let reference = objectives
        .reference_point()
        .map_or_else(|| "none".to_owned(), point);
    let front = if objectives.front().is_some() {
        "known"
    } else {
        "unknown"
    };
    format!("maximum hypervolume {hv} from reference point {reference}; true front {front}")
}

/// A box as `[lo, hi] × [lo, hi] × …`.
fn box_text(lower: &[f64], upper: &[f64]) -> String {
    lower
        .iter()
        .zip(upper)
        .map(|(l, u)| format!("[{}, {}]", format_number(*l), format_number(*u)))
        .collect::<Vec<_>>()
        .join(" × ")
}

/// The problems each [`Requirement`] accepts, asked of the registry once per requirement:
/// each asking builds every problem, and many algorithms share a requirement.
#[derive(Default)]
pub struct AcceptedProblems(Vec<(Requirement, Vec<&'static str>)>);

impl AcceptedProblems {
    /// The registered problems that meet `requirement` ([`Requirement::accepted_problems`]).
    pub fn of(&mut self, requirement: Requirement) -> &[&'static str] {
        let index = match self.0.iter().position(|(r, _)| *r == requirement) {
            Some(i) => i,
            None => {
                self.0.push((requirement, requirement.accepted_problems()));
                self.0.len() - 1
            }
        };
        &self.0[index].1
    }
}

/// What `bosweep list --with` filters on: something an algorithm needs or can do, or something
/// a problem has. Each applies to algorithms, problems or both; a listing filtered on one that
/// does not apply to a kind leaves that kind out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Feature {
    /// Algorithms that propose points while others are pending: runs with batch or workers
    /// above 1.
    Batch,
    /// Algorithms that need, and problems that report, an observed context.
    Contexts,
    /// Algorithms that need, and problems that define, candidate GP priors over a time-varying
    /// finite domain.
    TimeVarying,
    /// Algorithms that need, and problems that know, the true noise variance.
    KnownNoise,
    /// Algorithms that run a peer library (Optuna, Nevergrad, BoTorch) through Python.
    Python,
    /// Algorithms that handle, and problems that have, several objectives.
    SeveralObjectives,
    /// Algorithms that handle, and problems that have, black-box constraints.
    Constraints,
}

impl Feature {
    /// The word a listing tags an entry with.
    fn tag(self) -> &'static str {
        match self {
            Self::Batch => "batch",
            Self::Contexts => "contexts",
            Self::TimeVarying => "time-varying",
            Self::KnownNoise => "known noise",
            Self::Python => "Python",
            Self::SeveralObjectives => "several objectives",
            Self::Constraints => "constraints",
        }
    }

    /// The name `--with` takes, as clap derives it from the variant.
    pub fn name(self) -> String {
        self.to_possible_value()
            .expect("no feature is skipped")
            .get_name()
            .to_owned()
    }

    /// Whether problems have or lack it (every feature is about algorithms).
    pub fn is_about_problems(self) -> bool {
        !matches!(self, Self::Batch | Self::Python)
    }

    /// Whether the algorithm of `entry` (built at its defaults: `algorithm`, `None` where it
    /// does not build) needs or can do this.
    pub fn of_algorithm(self, entry: &AlgorithmEntry, algorithm: Option<&dyn Algorithm>) -> bool {
        match self {
            Self::Batch => algorithm.is_some_and(|a| a.accepts_pending()),
            Self::Contexts => entry.requires == Requirement::Context,
            Self::TimeVarying => entry.requires == Requirement::CandidatePriors,
            Self::KnownNoise => entry.requires == Requirement::KnownNoiseVariance,
            Self::Python => find_peer(entry.name).is_some(),
            Self::SeveralObjectives => algorithm.is_some_and(|a| a.handles_several_objectives()),
            Self::Constraints => algorithm.is_some_and(|a| a.handles_constraints()),
        }
    }

    /// Whether `problem` has this; `None` where the feature is not about problems.
    pub fn of_problem(self, problem: &dyn Problem) -> Option<bool> {
        let requirement = match self {
            Self::Batch | Self::Python => return None,
            Self::SeveralObjectives => return Some(problem.objective_count() > 1),
            Self::Constraints => return Some(problem.constraint_count() > 0),
            Self::Contexts => Requirement::Context,
            Self::TimeVarying => Requirement::CandidatePriors,
            Self::KnownNoise => Requirement::KnownNoiseVariance,
        };
        Some(requirement.is_met_by(problem))
    }
}

/// Every feature, in the order listings tag them.
pub fn features() -> impl Iterator<Item = Feature> {
    Feature::value_variants().iter().copied()
}

/// The features an algorithm needs or can do, as a listing's tags (`batch, Python`).
pub fn algorithm_tags(
    entry: &AlgorithmEntry,
    algorithm: Option<&dyn Algorithm>,
) -> Vec<&'static str> {
    features()
        .filter(|f| f.of_algorithm(entry, algorithm))
        .map(Feature::tag)
        .collect()
}

/// The features a problem has, as a listing's tags.
pub fn problem_tags(problem: &dyn Problem) -> Vec<&'static str> {
    features()
        .filter(|f| f.of_problem(problem) == Some(true))
        .map(Feature::tag)
        .collect()
}

/// The members of a numbered family (`bbob`'s 24 functions): the integer parameter that picks
/// one, and each value with its [`Problem::title`]. `None` for a problem that is not one of a
/// family: no integer parameter of at most 100 values whose values change the title.
pub fn family_members(entry: &Entry) -> Option<(&'static str, Vec<(usize, String)>)> {
    let title = |key: &'static str, value: usize| {
        entry
            .build(&[(key, ParamValue::Number(value as f64))])
            .ok()
            .and_then(|p| p.title())
    };
    entry.parameters.iter().find_map(|p| {
        let ParamKind::Integer { min, max, .. } = p.kind else {
            return None;
        };
        if max - min >= 100 || max == min {
            return None;
        }
        let first = title(p.name, min)?;
        if title(p.name, min + 1).as_ref() == Some(&first) {
            return None;
        }
        let members = (min..=max)
            .map(|v| title(p.name, v).map(|t| (v, t)))
            .collect::<Option<Vec<_>>>()?;
        Some((p.name, members))
    })
}
