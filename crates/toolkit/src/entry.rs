//! The entry type every family of algorithms fills in. It lives apart from `registry`
//! (which lists each family's `ENTRIES`), so that a family module imports this one and the
//! registry imports the families, never the other way round.

use crate::algorithm::{Algorithm, AlgorithmError};
use crate::optimizer::Method;
use crate::requirement::Requirement;
use bosweep_core::params::{ParamSpec, ParamValue, Params, Settings};
use bosweep_core::registry::Named;

/// One buildable algorithm.
#[derive(Debug)]
pub struct AlgorithmEntry {
    /// The kebab-case name configs and the CLI use.
    pub name: &'static str,
    /// One line for `bosweep list`.
    pub description: &'static str,
    /// The kind of problem it runs on, checked before any run ([`check_fit`](crate::check_fit)).
    pub requires: Requirement,
    table: fn() -> &'static [ParamSpec],
    build: fn(Params) -> Result<Box<dyn Algorithm>, AlgorithmError>,
    check: fn(&Params) -> Result<(), AlgorithmError>,
}

impl AlgorithmEntry {
    /// The entry of the algorithm whose settings are `M`: its name, line, requirement and
    /// parameters are `M`'s, and it is built from `M` read from the checked parameters.
    pub const fn of<M: Method>() -> Self {
        Self {
            name: M::NAME,
            description: M::DESCRIPTION,
            requires: M::REQUIRES,
            table: M::table,
            build: build_method::<M>,
            check: check_method::<M>,
        }
    }

    /// An entry whose parameters are the fields of `S`, built by `build` from their checked
    /// values: for algorithms that share one settings type under several names (the peers).
    pub const fn declared_by<S: Settings>(
        name: &'static str,
        description: &'static str,
        requires: Requirement,
        build: fn(Params) -> Result<Box<dyn Algorithm>, AlgorithmError>,
    ) -> Self {
        Self {
            name,
            description,
            requires,
            table: S::table,
            build,
            check: |_| Ok(()),
        }
    }

    /// The declared parameters, with defaults, ranges and descriptions, in declaration order.
    pub fn parameters(&self) -> &'static [ParamSpec] {
        (self.table)()
    }

    /// The algorithm with the `given` parameters, checked against the declaration, the rest at
    /// their defaults; an error names an unknown key or a value out of range.
    pub fn build(
        &self,
        given: &[(&str, ParamValue)],
    ) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        (self.build)(self.resolve(given)?)
    }

    /// The `given` parameters checked against the declaration and by the settings' own
    /// checks ([`Method::check`]), without building the algorithm: a sweep config's
    /// validation.
    pub fn check(&self, given: &[(&str, ParamValue)]) -> Result<Params, AlgorithmError> {
        let params = self.resolve(given)?;
        (self.check)(&params)?;
        Ok(params)
    }

    /// The `given` parameters checked against the declaration, the rest at their defaults.
    pub fn resolve(&self, given: &[(&str, ParamValue)]) -> Result<Params, AlgorithmError> {
        Params::resolve("algorithm", self.name, self.parameters(), given)
            .map_err(|e| AlgorithmError::Config(e.0))
    }
}

/// `M` read from its checked parameters, checked, made the algorithm.
fn build_method<M: Method>(params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    let settings = M::read(&params);
    settings.check()?;
    settings.into_algorithm(params)
}

/// `M` read from its checked parameters, checked.
fn check_method<M: Method>(params: &Params) -> Result<(), AlgorithmError> {
    M::read(params).check()
}

impl Named for AlgorithmEntry {
    fn name(&self) -> &'static str {
        self.name
    }
}
