//! Typed parameter declarations: each constant states a parameter's name, kind, default and
//! description once, and reads the resolved value back as its Rust type, so that an owner's
//! settings struct is filled without repeating a name as a string (a misspelt name cannot
//! compile into a run-time panic) or comparing words where it means a boolean or an enum.
//!
//! ```
//! use bosweep_core::params::{ChoiceParam, FlagParam, IntegerParam, ParamSpec, Params};
//!
//! #[derive(Clone, Copy, Debug, PartialEq)]
//! enum Rule { Scott, Silverman }
//!
//! const STARTS: IntegerParam = IntegerParam::new("starts", 10, 1, 1024, "best candidates refined");
//! const REFINE: FlagParam = FlagParam::new("refine", true, "refine the best candidates");
//! const RULE: ChoiceParam<Rule> = ChoiceParam::new(
//!     "rule",
//!     &["scott", "silverman"],
//!     &[Rule::Scott, Rule::Silverman],
//!     "scott",
//!     "bandwidth rule",
//! );
//! const TABLE: &[ParamSpec] = &[STARTS.spec(), REFINE.spec(), RULE.spec()];
//!
//! let p = Params::resolve("algorithm", "demo", TABLE, &[("rule", "silverman".into())]).unwrap();
//! assert_eq!((STARTS.of(&p), REFINE.of(&p), RULE.of(&p)), (10, true, Rule::Silverman));
//! ```

use super::{ParamKind, ParamSpec, Params};

/// A finite real parameter in `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RealParam(ParamSpec);

impl RealParam {
    /// The declaration: `name`, its default and what it accepts, one line of description.
    pub const fn new(
        name: &'static str,
        default: f64,
        min: f64,
        max: f64,
        description: &'static str,
    ) -> Self {
        assert!(
            min <= default && default <= max,
            "default outside [min, max]"
        );
        Self(ParamSpec {
            name,
            kind: ParamKind::Real { default, min, max },
            description,
        })
    }

    /// The declaration as a table entry.
    pub const fn spec(self) -> ParamSpec {
        self.0
    }

    /// `value` where it is in `[min, max]` (finite), else why not, naming the parameter:
    /// `timeout: value 2e19 (must be a number in [0.001, 1000000])`.
    pub fn check(self, value: f64) -> Result<f64, String> {
        match self.0.kind {
            ParamKind::Real { min, max, .. } if (min..=max).contains(&value) => Ok(value),
            kind => Err(format!(
                "{}: value {} (must be {})",
                self.0.name,
                crate::io::format_number(value),
                kind.accepted()
            )),
        }
    }

    /// The resolved value in `params` (which must declare it).
    pub fn of(self, params: &Params) -> f64 {
        params.number(self.0.name)
    }
}

/// An integer parameter in `min..=max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntegerParam(ParamSpec);

impl IntegerParam {
    /// The declaration: `name`, its default and what it accepts, one line of description.
    pub const fn new(
        name: &'static str,
        default: usize,
        min: usize,
        max: usize,
        description: &'static str,
    ) -> Self {
        assert!(
            min <= default && default <= max,
            "default outside min..=max"
        );
        Self(ParamSpec {
            name,
            kind: ParamKind::Integer { default, min, max },
            description,
        })
    }

    /// The declaration as a table entry.
    pub const fn spec(self) -> ParamSpec {
        self.0
    }

    /// The values it accepts, `min..=max`.
    pub const fn range(self) -> std::ops::RangeInclusive<usize> {
        match self.0.kind {
            ParamKind::Integer { min, max, .. } => min..=max,
            _ => unreachable!(),
        }
    }

    /// `value` where it is in [`IntegerParam::range`], else why not, naming the parameter:
    /// `batch: value 0 (must be at least 1)`.
    pub fn check(self, value: usize) -> Result<usize, String> {
        let range = self.range();
        let name = self.0.name;
        if value < *range.start() {
            Err(format!(
                "{name}: value {value} (must be at least {})",
                range.start()
            ))
        } else if value > *range.end() {
            Err(format!(
                "{name}: value {value} (must be at most {})",
                range.end()
            ))
        } else {
            Ok(value)
        }
    }

    /// The resolved value in `params` (which must declare it).
    pub fn of(self, params: &Params) -> usize {
        params.integer(self.0.name)
    }
}

/// A yes/no parameter, given as `"true"` or `"false"`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlagParam(ParamSpec);

const TRUE_FALSE: &[&str] = &["true", "false"];

impl FlagParam {
    /// The declaration: `name`, its default and what it accepts, one line of description.
    pub const fn new(name: &'static str, default: bool, description: &'static str) -> Self {
        Self(ParamSpec {
            name,
            kind: ParamKind::Choice {
                default: if default { "true" } else { "false" },
                options: TRUE_FALSE,
            },
            description,
        })
    }

    /// The declaration as a table entry.
    pub const fn spec(self) -> ParamSpec {
        self.0
    }

    /// The resolved value in `params` (which must declare it).
    pub fn of(self, params: &Params) -> bool {
        params.text(self.0.name) == "true"
    }
}

/// One of a fixed set of words, each standing for a value of `T`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChoiceParam<T: 'static> {
    spec: ParamSpec,
    values: &'static [T],
}

impl<T: Copy + 'static> ChoiceParam<T> {
    /// `words[i]` stands for `values[i]`; `default` must be one of the words. Both are checked
    /// at compile time when the parameter is declared as a constant.
    pub const fn new(
        name: &'static str,
        words: &'static [&'static str],
        values: &'static [T],
        default: &'static str,
        description: &'static str,
    ) -> Self {
        assert!(words.len() == values.len(), "one value per word");
        let mut i = 0;
        while i < words.len() && !same(words[i], default) {
            i += 1;
        }
        assert!(i < words.len(), "the default is not one of the words");
        Self {
            spec: ParamSpec {
                name,
                kind: ParamKind::Choice {
                    default,
                    options: words,
                },
                description,
            },
            values,
        }
    }

    /// The declaration as a table entry.
    pub const fn spec(self) -> ParamSpec {
        self.spec
    }

    /// The resolved value in `params` (which must declare it).
    pub fn of(self, params: &Params) -> T {
        let word = params.text(self.spec.name);
        let ParamKind::Choice { options, .. } = self.spec.kind else {
            unreachable!("built by ChoiceParam::new")
        };
        let i = options
            .iter()
            .position(|w| *w == word)
            .expect("Params::resolve admits only declared words");
        self.values[i]
    }
}

/// Byte equality of two strings, usable in constants.
const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamValue;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Rule {
        Scott,
        Silverman,
    }

    const RULE: ChoiceParam<Rule> = ChoiceParam::new(
        "rule",
        &["scott", "silverman"],
        &[Rule::Scott, Rule::Silverman],
        "silverman",
        "bandwidth rule",
    );
    const REFINE: FlagParam = FlagParam::new("refine", false, "refine");
    const STARTS: IntegerParam = IntegerParam::new("starts", 0, 0, 64, "starts; 0 = automatic");
    const SCALE: RealParam = RealParam::new("scale", 1.5, 0.0, 10.0, "scale");
    const TABLE: &[ParamSpec] = &[RULE.spec(), REFINE.spec(), STARTS.spec(), SCALE.spec()];

    fn resolve(given: &[(&str, ParamValue)]) -> Params {
        Params::resolve("algorithm", "demo", TABLE, given).unwrap()
    }

    #[test]
    fn defaults_and_given_values_read_back_as_their_types() {
        let p = resolve(&[]);
        assert_eq!(RULE.of(&p), Rule::Silverman);
        assert!(!REFINE.of(&p));
        assert_eq!(STARTS.of(&p), 0);
        assert_eq!(SCALE.of(&p), 1.5);
        let p = resolve(&[
            ("rule", "scott".into()),
            ("refine", "true".into()),
            ("starts", "12".into()),
            ("scale", ParamValue::Number(0.25)),
        ]);
        assert_eq!(RULE.of(&p), Rule::Scott);
        assert!(REFINE.of(&p));
        assert_eq!(STARTS.of(&p), 12);
        assert_eq!(SCALE.of(&p), 0.25);
    }

    #[test]
    fn declarations_state_kind_default_and_accepted_words() {
        assert_eq!(
            RULE.spec().kind,
            ParamKind::Choice {
                default: "silverman",
                options: &["scott", "silverman"]
            }
        );
        assert_eq!(
            REFINE.spec().kind,
            ParamKind::Choice {
                default: "false",
                options: &["true", "false"]
            }
        );
    }

    #[test]
    fn values_out_of_range_or_not_declared_are_refused() {
        let scale = [("scale", ParamValue::Number(11.0))];
        let err = Params::resolve("algorithm", "demo", TABLE, &scale).unwrap_err();
        assert!(err.0.contains("scale = 11 is invalid"), "{err}");
        let bogus = Params::resolve("algorithm", "demo", TABLE, &[("rule", "bogus".into())]);
        assert!(bogus.unwrap_err().0.contains("one of scott, silverman"));
    }
}

/// Free text, read back as given; its owner parses it (and names it when it does not parse).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextParam(ParamSpec);

impl TextParam {
    /// The declaration: `name`, its default and what it accepts, one line of description.
    pub const fn new(name: &'static str, default: &'static str, description: &'static str) -> Self {
        Self(ParamSpec {
            name,
            kind: ParamKind::Text { default },
            description,
        })
    }

    /// The declaration as a table entry.
    pub const fn spec(self) -> ParamSpec {
        self.0
    }

    /// The resolved value in `params` (which must declare it).
    pub fn of(self, params: &Params) -> &str {
        params.text(self.0.name)
    }
}
