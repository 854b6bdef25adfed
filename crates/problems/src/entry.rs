//! The entry type every family of problems fills in, and what several families share (the
//! `noise_std` parameter, the noisy wrapper). It lives apart from `registry` (which
//! lists each family's `ENTRIES`), so that a family module imports this one and the registry
//! imports the families, never the other way round.

use super::functions::TestFunction;
use super::{Noisy, Problem, ProblemError};
use bosweep_core::params::{ParamSpec, ParamValue, Params, RealParam};
use bosweep_core::registry::Named;

/// One buildable problem.
///
/// Its dimension, bounds, sense and optimum at the defaults are those of `entry.build(&[])`, so
/// that a listing shows what the code computes rather than a second copy of the numbers.
#[derive(Debug)]
pub struct Entry {
    /// kebab-case name (`six-hump-camel`).
    pub name: &'static str,
    /// One line: the definition's source, domain and optimum.
    pub description: &'static str,
    /// The parameters it accepts, with their defaults.
    pub parameters: &'static [ParamSpec],
    pub(crate) build: fn(&Params) -> Result<Box<dyn Problem>, ProblemError>,
}

impl Entry {
    /// Builds the problem from `(key, value)` pairs; keys not given take their defaults.
    pub fn build(&self, given: &[(&str, ParamValue)]) -> Result<Box<dyn Problem>, ProblemError> {
        let params = Params::resolve("problem", self.name, self.parameters, given)?;
        (self.build)(&params)
    }
}

impl Named for Entry {
    fn name(&self) -> &'static str {
        self.name
    }
}

pub(crate) const NOISE_STD: RealParam = RealParam::new(
    "noise_std",
    0.0,
    0.0,
    f64::INFINITY,
    "standard deviation of the Gaussian observation noise added to every evaluation",
);

/// Names the problem `params` builds in an error of building it: `problem keane-bump: …`.
pub(crate) fn named(params: &Params) -> impl Fn(ProblemError) -> ProblemError + '_ {
    move |e| ProblemError::config(format!("problem {}: {e}", params.name()))
}

/// A test function observed with the `noise_std` of `params`.
pub(crate) fn noisy(function: impl TestFunction, params: &Params) -> Box<dyn Problem> {
    Box::new(Noisy::new(function, params))
}
