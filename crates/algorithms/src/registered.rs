//! An algorithm of the registry named as a sweep config names it: by its registry name, its
//! parameters by key.

use crate::{peers, registry};
use bosweep_core::params::ParamValue;
use bosweep_toolkit::{Algorithm, AlgorithmError, AlgorithmSettings, Requirement};

/// Any registered algorithm by name, its parameters by key, as a sweep config or a program
/// that reads them from a file names them (the typed equivalent of this example is
/// `Boke::default().ikr(|ikr| ikr.surrogate(|kr| kr.kappa(2.0)))`).
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

    /// The registry's entry, its parameters checked against its declaration.
    fn build(&self) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        registry::build(&self.name, &self.given())
    }

    /// The registry entry's requirement.
    fn requires(&self) -> Result<Requirement, AlgorithmError> {
        Ok(registry::find(&self.name)?.requires)
    }

    /// A peer library's check ([`peers::preflight`]).
    fn check_libraries(&self) -> Result<(), AlgorithmError> {
        match peers::preflight(&self.name, &self.given())? {
            Some(check) => check.run(),
            None => Ok(()),
        }
    }
}
