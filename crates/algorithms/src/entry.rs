//! The entry type every family of algorithms fills in. It lives apart from `registry`
//! (which lists each family's `ENTRIES`), so that a family module imports this one and the
//! registry imports the families, never the other way round.

use super::{Algorithm, AlgorithmError, Requirement};
use bosweep_core::params::{ParamTable, ParamValue, Params};
use bosweep_core::registry::Named;

/// One buildable algorithm.
#[derive(Debug)]
pub struct AlgorithmEntry {
    /// The kebab-case name configs and the CLI use.
    pub name: &'static str,
    /// One line for `bosweep list`.
    pub description: &'static str,
    /// The declared parameters, with defaults, ranges and descriptions.
    pub parameters: ParamTable,
    /// The kind of problem it runs on, checked before any run ([`super::check_pair`]).
    pub requires: Requirement,
    pub(crate) build: fn(Params) -> Result<Box<dyn Algorithm>, AlgorithmError>,
}

impl AlgorithmEntry {
    /// The algorithm with the `given` parameters, checked against the declaration, the rest at
    /// their defaults; an error names an unknown key or a value out of range.
    pub fn build(
        &self,
        given: &[(&str, ParamValue)],
    ) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        (self.build)(self.resolve(given)?)
    }

    /// The `given` parameters checked against the declaration, the rest at their defaults.
    pub fn resolve(&self, given: &[(&str, ParamValue)]) -> Result<Params, AlgorithmError> {
        Params::resolve("algorithm", self.name, &self.parameters.to_vec(), given)
            .map_err(|e| AlgorithmError::Config(e.0))
    }

    /// Every declared parameter at its default.
    pub fn defaults(&self) -> Params {
        Params::defaults("algorithm", self.name, &self.parameters.to_vec())
    }
}

impl Named for AlgorithmEntry {
    fn name(&self) -> &'static str {
        self.name
    }
}
