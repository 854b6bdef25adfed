//! What an [`Optimizer`](super::Optimizer) is built from: an algorithm's typed settings. Every
//! algorithm has a settings type named after it ([`GpUcb`](crate::GpUcb),
//! [`UheBo`](crate::UheBo), [`SboKde`](crate::SboKde), …) that states its parameters as
//! fields; [`Registered`] names an algorithm of the registry with its parameters by key, as a
//! sweep config does. Both are
//! checked by the registry's declaration when built, so a typed value out of range gets the
//! message a config's would.

use crate::{Algorithm, AlgorithmError};
use bosweep_core::params::ParamValue;

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

/// Uniform random search (`random`): no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RandomSearchSettings;

impl AlgorithmSettings for RandomSearchSettings {
    fn name(&self) -> &str {
        "random"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        Vec::new()
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
