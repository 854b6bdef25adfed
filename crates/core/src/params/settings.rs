//! Settings declared once: a struct written with [`settings!`](crate::settings) states each
//! parameter's key (the field's name), type, default, range and description in one line, and
//! the macro derives from it everything that used to be written beside it: the parameter table
//! (for checking, listings and the reference pages), reading a checked [`Params`] into the
//! struct, writing the struct back as given values, `Default` and a setter per field.
//!
//! A field is either a parameter, whose type says its kind (`f64` and `usize` with a range,
//! `bool`, `String`, or a word enum declared with [`choices!`](crate::choices)), or a group: a
//! nested settings struct whose parameters join the table in its place, with the default the
//! owner gives it and, where the owner says so, other descriptions.
//!
//! ```
//! use bosweep_core::params::{Params, Settings};
//!
//! bosweep_core::choices! {
//!     /// How the bandwidth shrinks.
//!     pub enum Rule { Scott = "scott", Silverman = "silverman" }
//! }
//!
//! bosweep_core::settings! {
//!     /// The candidate search.
//!     pub struct Search {
//!         starts: usize = 10 => ("best candidates refined", 1, 1024),
//!         refine: bool = true => ("refine the best candidates"),
//!     }
//! }
//!
//! bosweep_core::settings! {
//!     /// A demo method.
//!     pub struct Demo {
//!         search: Search = Search::default().starts(4) => { starts: "restarts" },
//!         rule: Rule = Rule::Scott => ("bandwidth rule"),
//!         scale: f64 = 1.5 => ("scale", 0.0, 10.0),
//!     }
//! }
//!
//! let keys: Vec<_> = Demo::table().iter().map(|p| (p.name, p.description)).collect();
//! assert_eq!(keys[0], ("starts", "restarts"));
//! let p = Params::resolve("algorithm", "demo", Demo::table(), &[("rule", "silverman".into())])?;
//! let demo = Demo::read(&p);
//! assert_eq!((demo.search.starts, demo.rule, demo.scale), (4, Rule::Silverman, 1.5));
//! assert_eq!(Demo::default().scale(2.0).given()[3], ("scale", 2.0.into()));
//! # Ok::<(), bosweep_core::params::ParamError>(())
//! ```

use super::{ParamKind, ParamSpec, ParamValue, Params};

/// A struct of settings whose fields are parameters and groups of parameters (see the
/// [module](self)); implemented by [`settings!`](crate::settings).
pub trait Settings: Clone + Default + Send + Sync + 'static {
    /// Every parameter, in field order, a group's in its place, with the defaults `self` holds.
    fn declare(&self, table: &mut Vec<ParamSpec>);

    /// The settings `params` hold; `params` must have been resolved against a table that
    /// declares every key of these settings.
    fn read(params: &Params) -> Self;

    /// Every parameter's value, by key, in field order: what [`Params::resolve`] checks.
    fn write(&self, given: &mut Vec<(&'static str, ParamValue)>);

    /// The table of the defaults, built once.
    fn table() -> &'static [ParamSpec];

    /// Every parameter's value, by key, in field order.
    fn given(&self) -> Vec<(&'static str, ParamValue)> {
        let mut given = Vec::new();
        self.write(&mut given);
        given
    }
}

/// The type of one parameter field: how its value is read from and written to [`Params`].
pub trait Setting: Sized {
    /// The resolved value of `key` (declared with this type's kind).
    fn read(params: &Params, key: &str) -> Self;

    /// The value as a user would give it.
    fn value(&self) -> ParamValue;
}

/// A parameter type declared without a range: flags, words and text.
pub trait Unbounded: Setting {
    /// The declaration's kind, defaulting to `default`.
    fn kind(default: &Self) -> ParamKind;
}

/// A parameter type declared with a range: real numbers and counts.
pub trait Bounded: Setting {
    /// The declaration's kind, accepting `min..=max` and defaulting to `default`.
    ///
    /// # Panics
    /// If `default` is outside the range: a mistake in the declaration, caught by any test
    /// that builds the owner's table.
    fn kind(default: &Self, min: Self, max: Self) -> ParamKind;
}

/// A fixed set of words, each standing for a value: the type of a choice parameter. Declare
/// one with [`choices!`](crate::choices), or implement it for an existing enum.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every word, in listing order.
    const WORDS: &'static [&'static str];
    /// The value each word stands for.
    const VALUES: &'static [Self];

    /// The word standing for `self`.
    ///
    /// # Panics
    /// If `self` is none of [`Choice::VALUES`]: a mistake in the declaration.
    fn word(self) -> &'static str {
        let i = Self::VALUES
            .iter()
            .position(|v| *v == self)
            .expect("every value of a choice has a word");
        Self::WORDS[i]
    }
}

impl<T: Choice> Setting for T {
    fn read(params: &Params, key: &str) -> Self {
        let word = params.text(key);
        let i = T::WORDS
            .iter()
            .position(|w| *w == word)
            .expect("Params::resolve admits only declared words");
        T::VALUES[i]
    }

    fn value(&self) -> ParamValue {
        ParamValue::from(self.word())
    }
}

impl<T: Choice> Unbounded for T {
    fn kind(default: &Self) -> ParamKind {
        ParamKind::Choice {
            default: default.word(),
            options: T::WORDS,
        }
    }
}

impl Choice for bool {
    const WORDS: &'static [&'static str] = &["true", "false"];
    const VALUES: &'static [Self] = &[true, false];
}

impl Setting for f64 {
    fn read(params: &Params, key: &str) -> Self {
        params.number(key)
    }

    fn value(&self) -> ParamValue {
        ParamValue::Number(*self)
    }
}

impl Bounded for f64 {
    fn kind(default: &Self, min: Self, max: Self) -> ParamKind {
        assert!(
            min <= *default && *default <= max,
            "default {default} outside [{min}, {max}]"
        );
        ParamKind::Real {
            default: *default,
            min,
            max,
        }
    }
}

impl Setting for usize {
    fn read(params: &Params, key: &str) -> Self {
        params.integer(key)
    }

    fn value(&self) -> ParamValue {
        ParamValue::Number(*self as f64)
    }
}

impl Bounded for usize {
    fn kind(default: &Self, min: Self, max: Self) -> ParamKind {
        assert!(
            min <= *default && *default <= max,
            "default {default} outside {min}..={max}"
        );
        ParamKind::Integer {
            default: *default,
            min,
            max,
        }
    }
}

impl Setting for String {
    fn read(params: &Params, key: &str) -> Self {
        params.text(key).to_owned()
    }

    fn value(&self) -> ParamValue {
        ParamValue::Text(self.clone())
    }
}

impl Unbounded for String {
    /// The default is kept for the life of the program: a table is built once per settings
    /// type ([`Settings::table`]), so this happens once per text parameter.
    fn kind(default: &Self) -> ParamKind {
        ParamKind::Text {
            default: Box::leak(default.clone().into_boxed_str()),
        }
    }
}

/// Gives the parameter `key` of `group` (a group's part of a table) another description.
///
/// # Panics
/// If the group declares no `key`: a mistake in the owner's declaration.
pub fn describe(group: &mut [ParamSpec], key: &str, description: &'static str) {
    let spec = group
        .iter_mut()
        .find(|p| p.name == key)
        .unwrap_or_else(|| panic!("the group declares no parameter {key}"));
    spec.description = description;
}

/// Declares a settings struct (see [`params::settings`](crate::params::settings)): each field
/// is `name: Type = default => (description)`, `=> (description, min, max)` for numbers, or
/// `=> { key: description, … }` for a group (a nested settings struct) whose parameters may be
/// described otherwise here. Documentation comments on a field are added to its description.
#[macro_export]
macro_rules! settings {
    (
        $(#[$attr:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $default:expr => $what:tt
            ),* $(,)?
        }
    ) => {
        $(#[$attr])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $name {
            $(
                // A group's own line is empty: its documentation comments say what it is.
                #[allow(clippy::empty_docs)]
                #[doc = $crate::settings!(@doc $what)]
                $(#[doc = $doc])*
                pub $field: $ty,
            )*
        }

        impl ::core::default::Default for $name {
            fn default() -> Self {
                Self { $($field: $default,)* }
            }
        }

        impl $name {
            $($crate::settings!(@setter $field, $ty, $what);)*
        }

        impl $crate::params::Settings for $name {
            fn declare(&self, table: &mut ::std::vec::Vec<$crate::params::ParamSpec>) {
                $($crate::settings!(@declare self, table, $field, $ty, $what);)*
            }

            fn read(params: &$crate::params::Params) -> Self {
                Self { $($field: $crate::settings!(@read params, $field, $ty, $what),)* }
            }

            fn write(
                &self,
                given: &mut ::std::vec::Vec<(&'static str, $crate::params::ParamValue)>,
            ) {
                $($crate::settings!(@write self, given, $field, $what);)*
            }

            fn table() -> &'static [$crate::params::ParamSpec] {
                static TABLE: ::std::sync::OnceLock<::std::vec::Vec<$crate::params::ParamSpec>> =
                    ::std::sync::OnceLock::new();
                TABLE.get_or_init(|| {
                    let mut table = ::std::vec::Vec::new();
                    <Self as $crate::params::Settings>::declare(&Self::default(), &mut table);
                    table
                })
            }
        }
    };

    (@doc ($desc:literal $(, $lo:expr, $hi:expr)?)) => { $desc };
    (@doc { $($key:ident : $desc:literal),* $(,)? }) => { "" };

    (@setter $field:ident, $ty:ty, ($desc:literal $(, $lo:expr, $hi:expr)?)) => {
        #[doc = $desc]
        pub fn $field(mut self, value: $ty) -> Self {
            self.$field = value;
            self
        }
    };
    (@setter $field:ident, $ty:ty, { $($key:ident : $desc:literal),* $(,)? }) => {
        #[doc = concat!("These settings with `", stringify!($field), "` as `edit` makes it.")]
        pub fn $field(mut self, edit: impl FnOnce($ty) -> $ty) -> Self {
            self.$field = edit(self.$field);
            self
        }
    };

    (@declare $self:ident, $table:ident, $field:ident, $ty:ty, ($desc:literal)) => {
        $table.push($crate::params::ParamSpec {
            name: stringify!($field),
            kind: <$ty as $crate::params::Unbounded>::kind(&$self.$field),
            description: $desc,
        });
    };
    (@declare $self:ident, $table:ident, $field:ident, $ty:ty, ($desc:literal, $lo:expr, $hi:expr)) => {
        $table.push($crate::params::ParamSpec {
            name: stringify!($field),
            kind: <$ty as $crate::params::Bounded>::kind(&$self.$field, $lo, $hi),
            description: $desc,
        });
    };
    (@declare $self:ident, $table:ident, $field:ident, $ty:ty, { $($key:ident : $desc:literal),* $(,)? }) => {
        let start = $table.len();
        <$ty as $crate::params::Settings>::declare(&$self.$field, $table);
        $($crate::params::describe(&mut $table[start..], stringify!($key), $desc);)*
        let _ = start;
    };

    (@read $params:ident, $field:ident, $ty:ty, ($desc:literal $(, $lo:expr, $hi:expr)?)) => {
        <$ty as $crate::params::Setting>::read($params, stringify!($field))
    };
    (@read $params:ident, $field:ident, $ty:ty, { $($key:ident : $desc:literal),* $(,)? }) => {
        <$ty as $crate::params::Settings>::read($params)
    };

    (@write $self:ident, $given:ident, $field:ident, ($desc:literal $(, $lo:expr, $hi:expr)?)) => {
        $given.push((stringify!($field), $crate::params::Setting::value(&$self.$field)));
    };
    (@write $self:ident, $given:ident, $field:ident, { $($key:ident : $desc:literal),* $(,)? }) => {
        $crate::params::Settings::write(&$self.$field, $given);
    };
}

/// Declares a word enum for a choice parameter: `Variant = "word"`, in listing order.
#[macro_export]
macro_rules! choices {
    (
        $(#[$attr:meta])*
        $vis:vis enum $name:ident {
            $($(#[$vattr:meta])* $variant:ident = $word:literal),+ $(,)?
        }
    ) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $name {
            $($(#[$vattr])* $variant,)+
        }

        impl $crate::params::Choice for $name {
            const WORDS: &'static [&'static str] = &[$($word),+];
            const VALUES: &'static [Self] = &[$(Self::$variant),+];
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::choices! {
        /// A rule.
        enum Rule {
            /// First.
            Scott = "scott",
            /// Second.
            Silverman = "silverman",
        }
    }

    crate::settings! {
        /// A group.
        struct Group {
            starts: usize = 10 => ("best candidates refined", 1, 1024),
            refine: bool = true => ("refine them"),
        }
    }

    crate::settings! {
        /// An owner.
        struct Owner {
            /// More words on the scale.
            scale: f64 = 0.5 => ("the scale", 0.0, f64::INFINITY),
            group: Group = Group::default().starts(3) => { refine: "polish them" },
            rule: Rule = Rule::Silverman => ("the rule"),
            command: String = "echo".into() => ("a command"),
        }
    }

    #[test]
    fn the_table_follows_the_fields_with_the_owners_defaults_and_descriptions() {
        let table = Owner::table();
        let rows: Vec<_> = table.iter().map(|p| (p.name, p.description)).collect();
        assert_eq!(
            rows,
            [
                ("scale", "the scale"),
                ("starts", "best candidates refined"),
                ("refine", "polish them"),
                ("rule", "the rule"),
                ("command", "a command"),
            ]
        );
        assert_eq!(
            table[1].kind,
            ParamKind::Integer {
                default: 3,
                min: 1,
                max: 1024
            }
        );
        assert_eq!(
            table[3].kind,
            ParamKind::Choice {
                default: "silverman",
                options: &["scott", "silverman"]
            }
        );
        assert_eq!(table[4].kind, ParamKind::Text { default: "echo" });
        assert!(std::ptr::eq(table, Owner::table()), "built once");
    }

    #[test]
    fn written_settings_resolve_and_read_back_to_themselves() {
        let owner = Owner::default()
            .scale(2.5)
            .group(|g| g.refine(false))
            .rule(Rule::Scott)
            .command("true".into());
        let given = owner.given();
        assert_eq!(given[0], ("scale", ParamValue::Number(2.5)));
        assert_eq!(given[2], ("refine", ParamValue::from("false")));
        let params = Params::resolve("algorithm", "owner", Owner::table(), &given).unwrap();
        assert_eq!(Owner::read(&params), owner);
        let defaults = Params::defaults("algorithm", "owner", Owner::table());
        assert_eq!(Owner::read(&defaults), Owner::default());
    }

    #[test]
    fn a_value_out_of_range_gets_the_checks_message() {
        let given = Owner::default().group(|g| g.starts(0)).given();
        let err = Params::resolve("algorithm", "owner", Owner::table(), &given).unwrap_err();
        assert_eq!(
            err.0,
            "algorithm owner: parameter starts = 0 is invalid (must be an integer in 1..=1024)"
        );
    }
}
