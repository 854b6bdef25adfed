//! Named parameters of problems and algorithms: what each declares, how given values are
//! checked against that declaration, and the resolved set that goes into trace headers.

pub mod settings;
mod typed;

use crate::io::format_number;
use std::fmt;

pub use settings::{Bounded, Choice, Setting, Settings, Unbounded, describe};
pub use typed::{ChoiceParam, FlagParam, IntegerParam, RealParam, TextParam};

/// A given parameter set that does not fit its declaration; the message names the owner (e.g.
/// `problem ackley`), the key and the value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParamError(pub String);

impl crate::data::Failure for ParamError {
    fn blame(&self) -> crate::data::Blame {
        crate::data::Blame::Input
    }
}

/// A parameter value as a user gives it: a number, or a word (`form = "deap"`). Numbers given
/// as text (`"0.1"`, as a command line delivers them) are accepted for numeric parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A number (integers too).
    Number(f64),
    /// A word, or a number given as text.
    Text(String),
}

impl From<f64> for ParamValue {
    fn from(v: f64) -> Self {
        Self::Number(v)
    }
}

impl From<&str> for ParamValue {
    fn from(v: &str) -> Self {
        Self::Text(v.to_owned())
    }
}

impl From<String> for ParamValue {
    fn from(v: String) -> Self {
        Self::Text(v)
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(v) => write!(f, "{v}"),
            Self::Text(s) => write!(f, "\"{s}\""),
        }
    }
}

/// The values a parameter accepts and its default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// A finite real number in `[min, max]`.
    Real {
        /// The value when none is given.
        default: f64,
        /// The smallest value accepted.
        min: f64,
        /// The largest value accepted (may be `f64::INFINITY`).
        max: f64,
    },
    /// An integer in `min..=max` (given as a number or as text).
    Integer {
        /// The value when none is given.
        default: usize,
        /// The smallest value accepted.
        min: usize,
        /// The largest value accepted.
        max: usize,
    },
    /// One of a fixed set of words.
    Choice {
        /// The word when none is given.
        default: &'static str,
        /// Every word accepted.
        options: &'static [&'static str],
    },
    /// Free text (a shell command, a list of bounds), checked by its owner when it builds.
    Text {
        /// The text when none is given.
        default: &'static str,
    },
}

impl ParamKind {
    /// The default as a value (a number for numeric kinds).
    pub fn default_value(&self) -> ParamValue {
        match *self {
            Self::Real { default, .. } => ParamValue::Number(default),
            Self::Integer { default, .. } => ParamValue::Number(default as f64),
            Self::Choice { default, .. } | Self::Text { default } => ParamValue::from(default),
        }
    }

    /// What the parameter accepts, in words, for error messages and listings.
    pub fn accepted(&self) -> String {
        match *self {
            Self::Real { min, max, .. } if max == f64::INFINITY => {
                format!("a finite number ≥ {}", format_number(min))
            }
            Self::Real { min, max, .. } => {
                format!(
                    "a number in [{}, {}]",
                    format_number(min),
                    format_number(max)
                )
            }
            Self::Integer { min, max, .. } => format!("an integer in {min}..={max}"),
            Self::Choice { options, .. } => format!("one of {}", options.join(", ")),
            Self::Text { .. } => "text".into(),
        }
    }

    /// The given value in canonical form (a number for numeric kinds), or `None` when it is
    /// not acceptable.
    fn check(&self, value: &ParamValue) -> Option<ParamValue> {
        let number = match value {
            ParamValue::Number(v) => Some(*v),
            ParamValue::Text(s) => s.trim().parse::<f64>().ok(),
        };
        match *self {
            Self::Real { min, max, .. } => number
                .filter(|v| v.is_finite() && (min..=max).contains(v))
                .map(ParamValue::Number),
            Self::Integer { min, max, .. } => number
                .filter(|v| v.fract() == 0.0 && (min as f64..=max as f64).contains(v))
                .map(ParamValue::Number),
            Self::Choice { options, .. } => match value {
                ParamValue::Text(s) if options.contains(&s.as_str()) => Some(value.clone()),
                _ => None,
            },
            Self::Text { .. } => match value {
                ParamValue::Text(_) => Some(value.clone()),
                ParamValue::Number(_) => None,
            },
        }
    }
}

/// One declared parameter of a problem or an algorithm.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// snake_case key (`noise_std`).
    pub name: &'static str,
    /// What it accepts and its default.
    pub kind: ParamKind,
    /// One line, for `bosweep list`.
    pub description: &'static str,
}

/// A full parameter set after checking: every declared parameter, given or default, in
/// declaration order.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// What the parameters belong to: `problem`, `algorithm`.
    kind: &'static str,
    /// The owner's registry name (`ackley`, `gp-ucb`).
    name: &'static str,
    values: Vec<(&'static str, ParamValue)>,
}

impl Params {
    /// Checks `given` against `specs` for the `kind` (`problem`, `algorithm`) called `name`:
    /// unknown or repeated keys and unacceptable values are errors that name the owner, the key
    /// and the value; missing keys take their defaults.
    pub fn resolve(
        kind: &'static str,
        name: &'static str,
        specs: &[ParamSpec],
        given: &[(&str, ParamValue)],
    ) -> Result<Self, ParamError> {
        let owner = format!("{kind} {name}");
        for (i, (key, value)) in given.iter().enumerate() {
            let Some(spec) = specs.iter().find(|s| s.name == *key) else {
                let names: Vec<_> = specs.iter().map(|s| s.name).collect();
                let allowed = match crate::io::did_you_mean(key, &names) {
                    _ if specs.is_empty() => "it takes no parameters".to_owned(),
                    Some(question) => format!("{question} allowed: {}", names.join(", ")),
                    None => format!("allowed: {}", names.join(", ")),
                };
                return Err(ParamError(format!(
                    "{owner}: unknown parameter \"{key}\" ({allowed})"
                )));
            };
            if given[..i].iter().any(|(k, _)| k == key) {
                return Err(ParamError(format!(
                    "{owner}: parameter {key} is given more than once"
                )));
            }
            if spec.kind.check(value).is_none() {
                return Err(ParamError(format!(
                    "{owner}: parameter {key} = {value} is invalid (must be {})",
                    spec.kind.accepted()
                )));
            }
        }
        let values = specs
            .iter()
            .map(|spec| {
                let value = match given.iter().find(|(k, _)| *k == spec.name) {
                    Some((_, v)) => spec.kind.check(v).expect("checked above"),
                    None => spec.kind.default_value(),
                };
                (spec.name, value)
            })
            .collect();
        Ok(Self { kind, name, values })
    }

    /// Every parameter of `specs` at its default: what typed settings start from.
    ///
    /// # Panics
    /// If a declared default is not acceptable to its own declaration (the typed declarations
    /// check this when they are built).
    pub fn defaults(kind: &'static str, name: &'static str, specs: &[ParamSpec]) -> Self {
        Self::resolve(kind, name, specs, &[]).expect("declared defaults are acceptable")
    }

    /// The registry name of the problem or algorithm these parameters belong to.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The value of a numeric parameter. Owners read values through their typed declarations
    /// ([`RealParam::of`] and its siblings), never by name.
    ///
    /// # Panics
    /// If `name` is not a declared numeric parameter: a mistake in the owner's own code.
    fn number(&self, name: &str) -> f64 {
        match self.get(name) {
            ParamValue::Number(v) => *v,
            ParamValue::Text(_) => panic!(
                "parameter {name} of {} {} is not numeric",
                self.kind, self.name
            ),
        }
    }

    /// The value of an integer parameter (declared with [`ParamKind::Integer`]).
    fn integer(&self, name: &str) -> usize {
        self.number(name) as usize
    }

    /// The value of a [`ParamKind::Choice`] or [`ParamKind::Text`] parameter.
    fn text(&self, name: &str) -> &str {
        match self.get(name) {
            ParamValue::Text(s) => s,
            ParamValue::Number(_) => panic!(
                "parameter {name} of {} {} is not a word",
                self.kind, self.name
            ),
        }
    }

    /// `(name, value)` pairs in declaration order, as trace headers record them.
    pub fn to_list(&self) -> Vec<(String, ParamValue)> {
        self.values
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect()
    }

    fn get(&self, name: &str) -> &ParamValue {
        self.values
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("{} {} declares no parameter {name}", self.kind, self.name))
    }
}
