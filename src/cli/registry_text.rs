//! Registry entries as text, shared by `bosweep list` and `bosweep reference` so that the
//! terminal listing and the user's guide's reference pages say the same thing the same way.

use bosweep::algorithms::Requirement;
use bosweep::io::format_number;
use bosweep::params::{ParamSpec, ParamValue};
use bosweep::problems::Problem;

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
    pub sense: &'static str,
    pub optimum: String,
    pub domain: String,
}

impl ProblemFacts {
    pub fn of(problem: &dyn Problem) -> Self {
        let domain = problem.domain();
        Self {
            dim: problem.dim(),
            sense: problem.sense().as_str(),
            optimum: problem
                .optimum(1)
                .map_or_else(|| "unknown".to_owned(), |o| format_number(o.value)),
            domain: box_text(domain.lower(), domain.upper()),
        }
    }
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
