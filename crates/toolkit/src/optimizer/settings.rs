//! What an [`Optimizer`](super::Optimizer) is built from: an algorithm's settings. Every
//! algorithm has a settings type named after it (`GpUcb`, `UheBo`, `SboKde`, … of
//! `bosweep-algorithms`) that states its parameters as fields and is a [`Method`]; the
//! registry's `Registered` names an algorithm with its parameters by key, as a sweep config
//! does. Both are checked by the algorithm's declaration when built, so a typed value out of
//! range gets the message a config's would.

use crate::algorithm::{Algorithm, AlgorithmError};
use crate::requirement::Requirement;
use bosweep_core::params::{ParamValue, Params, Settings};

/// An algorithm's settings: its registry name and its parameters. `Send`, so that an
/// optimizer can be built on another thread (Python builds it without the GIL).
pub trait AlgorithmSettings: Send {
    /// The algorithm's registry name (`bosweep list`).
    fn name(&self) -> &str;

    /// The parameters these settings give, by registry key; the rest take their defaults.
    fn given(&self) -> Vec<(&str, ParamValue)>;

    /// The algorithm, its parameters checked against its declaration.
    fn build(&self) -> Result<Box<dyn Algorithm>, AlgorithmError>;

    /// The kind of problem the algorithm runs on.
    fn requires(&self) -> Result<Requirement, AlgorithmError>;

    /// What the algorithm needs outside bosweep is there (a peer library's interpreter and
    /// package); nothing by default.
    fn check_libraries(&self) -> Result<(), AlgorithmError> {
        Ok(())
    }
}

/// An algorithm declared by its settings struct (written with [`bosweep_core::settings!`]):
/// the struct's fields are the algorithm's parameters, and these constants the rest of its
/// registry entry ([`AlgorithmEntry::of`](crate::AlgorithmEntry::of)). The struct is all there
/// is to say about a parameter: a sweep config's value is read into its field, and the
/// algorithm reads the field.
pub trait Method: Settings {
    /// The registry name (`bosweep list`).
    const NAME: &'static str;
    /// One line for `bosweep list`.
    const DESCRIPTION: &'static str;
    /// The kind of problem it runs on.
    const REQUIRES: Requirement;

    /// Checks across parameters that their ranges cannot state (none by default); made before
    /// any algorithm is built, and by a sweep config's validation, which builds none.
    fn check(&self) -> Result<(), AlgorithmError> {
        Ok(())
    }

    /// The algorithm these settings describe, once [`Method::check`] has accepted them;
    /// `params` are the same settings, checked, for the trace header.
    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError>;
}

impl<M: Method> AlgorithmSettings for M {
    fn name(&self) -> &str {
        M::NAME
    }

    fn requires(&self) -> Result<Requirement, AlgorithmError> {
        Ok(M::REQUIRES)
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        Settings::given(self)
    }

    /// The algorithm built from these settings directly, once the declaration's checks accept
    /// them (a value out of range gets the message a config's would).
    fn build(&self) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let params = Params::resolve("algorithm", M::NAME, M::table(), &Settings::given(self))
            .map_err(|e| AlgorithmError::Config(e.0))?;
        self.check()?;
        self.clone().into_algorithm(params)
    }
}

bosweep_core::settings! {
    /// Uniform random search (`random`): no parameters.
    pub struct RandomSearchSettings {}
}

impl Method for RandomSearchSettings {
    const NAME: &'static str = "random";
    const DESCRIPTION: &'static str =
        "uniform random search (uniform over the allowed set where there is one)";
    const REQUIRES: Requirement = Requirement::Any;

    fn into_algorithm(self, _: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(crate::random::RandomSearch::new()))
    }
}
