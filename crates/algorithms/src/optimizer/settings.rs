//! What an [`Optimizer`](super::Optimizer) is built from: an algorithm's typed settings. Every
//! algorithm has a settings type named after it ([`GpUcb`](crate::GpUcb),
//! [`UheBo`](crate::UheBo), [`SboKde`](crate::SboKde), …) that states its parameters as
//! fields; [`Registered`] names an algorithm of the registry with its parameters by key, as a
//! sweep config does. Both are
//! checked by the registry's declaration when built, so a typed value out of range gets the
//! message a config's would.

use crate::{Algorithm, AlgorithmError, Requirement};
use bosweep_core::params::{ParamValue, Params, Settings};

/// An algorithm's settings: its registry name and its parameters. `Send`, so that an
/// optimizer can be built on another thread (Python builds it without the GIL).
pub trait AlgorithmSettings: Send {
    /// The algorithm's registry name (`bosweep list`).
    fn name(&self) -> &str;

    /// The parameters these settings give, by registry key; the rest take their defaults.
    fn given(&self) -> Vec<(&str, ParamValue)>;

    /// The algorithm, its parameters checked against its declaration.
    fn build(&self) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        crate::build(self.name(), &self.given())
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
        Ok(Box::new(crate::RandomSearch::new()))
    }
}

/// Any registered algorithm by name, its parameters by key, as a sweep config or a program
/// that reads them from a file names them (the typed equivalent of this example is
/// `Boke::default().kappa(2.0)`).
///
/// ```
/// use bosweep_algorithms::{AlgorithmSettings, Registered};
///
/// let boke = Registered::new("boke").with("kappa", 2.0);
/// assert_eq!(boke.name(), "boke");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Registered {
    name: String,
    given: Vec<(String, ParamValue)>,
}

impl Registered {
    /// Algorithm `name` with every parameter at its default.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            given: Vec::new(),
        }
    }

    /// The same with parameter `key` set to `value` (a number, or a word as text).
    pub fn with(mut self, key: impl Into<String>, value: impl Into<ParamValue>) -> Self {
        self.given.push((key.into(), value.into()));
        self
    }
}

impl AlgorithmSettings for Registered {
    fn name(&self) -> &str {
        &self.name
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        self.given
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect()
    }
}
