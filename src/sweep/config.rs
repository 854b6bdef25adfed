//! Sweep configs: a TOML file naming the algorithms, problems, budget, initial design,
//! replicates and sweep seed of a benchmark sweep, checked against the registries and expanded
//! into its runs.
//!
//! # Schema
//!
//! ```toml
//! seed = 1          # sweep seed, an integer ≥ 0 (default 0)
//! replicates = 5    # runs per (algorithm setting, problem setting), ≥ 1 (default 1)
//! budget = 40       # evaluations per run, ≥ 1 (required)
//! init = 10         # initial-design points per run, ≤ budget (default 10, as `bosweep run`)
//!
//! [[algorithm]]                      # one table per algorithm entry, at least one
//! name = "gp-ucb"                    # a name of `bosweep list`
//! ucb_multiplier = [1.0, 2.0, 4.0]   # a list expands into a grid
//! fit = "mle"
//!
//! [[algorithm]]
//! name = "random"
//!
//! [[problem]]                        # one table per problem entry, at least one
//! name = "ackley"
//! dim = [2, 5]
//! noise_std = 0.1
//! budget = 60                        # optional per-problem override of `budget` and `init`
//! ```
//!
//! - Top-level keys: `seed`, `replicates`, `budget`, `init`, `algorithm`, `problem`; any other
//!   key is an error.
//! - Reserved keys: `name` in `[[algorithm]]`; `name`, `budget` and `init` in `[[problem]]`.
//!   Every other key is a parameter of the named algorithm or problem (`bosweep list` shows
//!   them), checked against its declaration: unknown keys and values outside the accepted range
//!   are errors that list what is allowed, and every expanded setting is built once.
//! - Values: integers and floats become numbers, strings stay strings, booleans become the
//!   words `"true"`/`"false"`. A list of such values (not empty, not nested) expands into a
//!   grid: the cartesian product over all list-valued keys of an entry. Tables, date-times,
//!   empty lists and lists of lists are errors; so is a string where a number is expected.
//!
//! # Expansion
//!
//! The runs, in the order that defines [`RunSpec::index`] (and so `--shard I/N`): for each
//! problem entry in config order, each setting of its grid; for each algorithm entry in config
//! order, each setting of its grid; each replicate `0..replicates`. A grid enumerates its keys
//! in sorted order, the first key varying slowest, each key's values in list order: `a = [1, 2]`,
//! `b = ["x", "y"]` gives `(1, x), (1, y), (2, x), (2, y)`. Each run's seed is
//! [`run_seed`]`(seed, &spec.key())`, so it depends on the sweep seed and the run's identity
//! only, never on its position. The initial design has its own seed,
//! [`run_seed`]`(seed, &design_key(problem, replicate))`, so every algorithm of one problem
//! setting and replicate starts from the same points (paired comparisons). Two runs with the same key (the same algorithm and problem
//! labels, e.g. an entry given twice or a value listed twice) are an error naming both lines.
//!
//! # Use
//!
//! ```
//! use bosweep::sweep::SweepConfig;
//!
//! let text = r#"
//! seed = 1
//! replicates = 2
//! budget = 20
//! init = 5
//!
//! [[algorithm]]
//! name = "gp-ucb"
//! ucb_multiplier = [1, 2]
//!
//! [[problem]]
//! name = "ackley"
//! dim = [2, 5]
//! "#;
//! let config = SweepConfig::parse(text, "example.toml")?;
//! let runs = config.runs();
//! assert_eq!(runs.len(), 2 * 2 * 2);
//! assert_eq!(runs[0].key(), "gp-ucb[ucb_multiplier=1]|ackley[dim=2]|0");
//! assert_eq!(runs[3].key(), "gp-ucb[ucb_multiplier=2]|ackley[dim=2]|1");
//!
//! let bad = SweepConfig::parse(&text.replace("dim = [2, 5]", "dim = [2, 0]"), "example.toml");
//! assert_eq!(
//!     bad.unwrap_err().to_string(),
//!     "example.toml line 13: problem \"ackley\": parameter dim = 0 is invalid \
//!      (must be an integer in 1..=10000)"
//! );
//! # Ok::<(), bosweep::sweep::ConfigError>(())
//! ```
//!
//! # Errors
//!
//! Every [`ConfigError`] names the file and the 1-based line of the offending key (the line of
//! the list element for a bad element of a list, the table header for a missing `name` or for a
//! setting that fails as a whole), and the key and value:
//! `quick.toml line 9: algorithm "gp-ucb": parameter ucb_multiplier = -1 is invalid (must be a
//! number in [0, 1000000])`. TOML syntax errors also give the column; a missing `budget` or
//! a config without `[[algorithm]]` or `[[problem]]` tables is reported at line 1. A config
//! that expands into more than [`MAX_RUNS`] runs is refused.

use std::collections::HashMap;
use std::hash::Hasher;
use std::ops::Range;
use std::path::Path;

use toml::Spanned;
use toml::de::{DeString, DeTable, DeValue};

use super::plan::{RunSpec, Setting, SettingValue, design_key, run_seed};
use crate::algorithms;
use crate::params::{ParamKind, ParamSpec, ParamValue, Params};
use crate::problems;

/// The initial design when the config gives no `init` (the default of `bosweep run`).
pub const DEFAULT_INIT: usize = 10;

/// The most runs one config may expand into (a guard against a mistyped grid).
pub const MAX_RUNS: usize = 1_000_000;

const TOP_LEVEL_KEYS: &[&str] = &[
    "seed",
    "replicates",
    "budget",
    "init",
    "algorithm",
    "problem",
];

/// Why a config was rejected: the file, the line (and for TOML syntax errors the column) and a
/// message naming the key and value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", location(file, *line, *column))]
pub struct ConfigError {
    /// The file name as given to [`SweepConfig::parse`] or [`SweepConfig::load`].
    pub file: String,
    /// 1-based line; `None` when the file could not be read.
    pub line: Option<usize>,
    /// 1-based column (in characters), for TOML syntax errors.
    pub column: Option<usize>,
    pub message: String,
}

/// `file line L, column C`, `file line L` or `file`.
fn location(file: &str, line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(line), Some(column)) => format!("{file} line {line}, column {column}"),
        (Some(line), None) => format!("{file} line {line}"),
        (None, _) => file.to_owned(),
    }
}

impl crate::data::Failure for ConfigError {
    fn blame(&self) -> crate::data::Blame {
        crate::data::Blame::Input
    }
}

/// One problem setting of a sweep with the budget and initial design of its runs.
#[derive(Clone, Debug, PartialEq)]
pub struct ProblemSetting {
    pub setting: Setting,
    pub budget: usize,
    pub init: usize,
}

/// A validated sweep config: every algorithm and problem setting builds.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepConfig {
    file_name: String,
    text: String,
    seed: u64,
    replicates: usize,
    budget: usize,
    init: usize,
    algorithms: Vec<Setting>,
    problems: Vec<ProblemSetting>,
}

impl SweepConfig {
    /// Parses and validates the config `text`; `file_name` is what error messages call it.
    pub fn parse(text: &str, file_name: &str) -> Result<Self, ConfigError> {
        Parser {
            file: file_name,
            text,
            newlines: text.match_indices('\n').map(|(i, _)| i).collect(),
        }
        .parse()
    }

    /// Reads and parses the config at `path` (errors name the path as given).
    pub fn load(path: impl AsRef<Path>) -> Result<Self, ConfigError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: file.clone(),
            line: None,
            column: None,
            message: format!("cannot read the sweep config: {e}"),
        })?;
        Self::parse(&text, &file)
    }

    /// Every run, in sweep order (see the module documentation), with its index and seed.
    pub fn runs(&self) -> Vec<RunSpec> {
        let mut runs = Vec::with_capacity(self.run_count());
        for problem in &self.problems {
            for algorithm in &self.algorithms {
                for replicate in 0..self.replicates {
                    let mut spec = RunSpec {
                        index: runs.len(),
                        algorithm: algorithm.clone(),
                        problem: problem.setting.clone(),
                        replicate,
                        budget: problem.budget,
                        init: problem.init,
                        seed: 0,
                        design_seed: run_seed(self.seed, &design_key(&problem.setting, replicate)),
                    };
                    spec.seed = run_seed(self.seed, &spec.key());
                    runs.push(spec);
                }
            }
        }
        runs
    }

    /// The number of runs [`SweepConfig::runs`] returns.
    pub fn run_count(&self) -> usize {
        self.problems.len() * self.algorithms.len() * self.replicates
    }

    /// The sweep seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn replicates(&self) -> usize {
        self.replicates
    }

    /// The top-level budget (a problem entry may override it; see [`ProblemSetting::budget`]).
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// The top-level initial design (a problem entry may override it).
    pub fn init(&self) -> usize {
        self.init
    }

    /// The expanded algorithm settings, in sweep order.
    pub fn algorithms(&self) -> &[Setting] {
        &self.algorithms
    }

    /// The expanded problem settings with their budgets, in sweep order.
    pub fn problems(&self) -> &[ProblemSetting] {
        &self.problems
    }

    /// The file name the config was parsed under.
    pub fn file_name(&self) -> &str {
        &self.file_name
    }

    /// The config text as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// [`config_hash`] of the text.
    pub fn hash(&self) -> String {
        config_hash(&self.text)
    }
}

/// The hash that identifies a config: FNV-1a (64-bit) of its text, as 16 lower-case hex digits.
pub fn config_hash(text: &str) -> String {
    let mut h = fnv::FnvHasher::default();
    h.write(text.as_bytes());
    format!("{:016x}", h.finish())
}

/// Algorithm or problem: what differs between the two kinds of entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Algorithm,
    Problem,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Self::Algorithm => "algorithm",
            Self::Problem => "problem",
        }
    }

    fn reserved(self) -> &'static [&'static str] {
        match self {
            Self::Algorithm => &["name"],
            Self::Problem => &["name", "budget", "init"],
        }
    }

    /// The registry entry's name and parameters, or the registry's message listing the names.
    fn find(self, name: &str) -> Result<(&'static str, &'static [ParamSpec]), String> {
        match self {
            Self::Algorithm => algorithms::find(name)
                .map(|e| (e.name, e.parameters))
                .map_err(|e| e.to_string()),
            Self::Problem => problems::find(name)
                .map(|e| (e.name, e.parameters))
                .map_err(|e| e.to_string()),
        }
    }

    /// Every registered name, comma-separated.
    fn known(self) -> String {
        let names: Vec<&str> = match self {
            Self::Algorithm => algorithms::registry().map(|e| e.name).collect(),
            Self::Problem => problems::registry().map(|e| e.name).collect(),
        };
        names.join(", ")
    }

    /// Builds the setting once, as a run will, and returns the registry's message on failure.
    fn build(self, setting: &Setting) -> Result<(), String> {
        let given = setting.param_values();
        match self {
            Self::Algorithm => algorithms::build(&setting.name, &given)
                .map(drop)
                .map_err(|e| e.to_string()),
            Self::Problem => problems::build(&setting.name, &given)
                .map(drop)
                .map_err(|e| e.to_string()),
        }
    }
}

/// One value of a parameter and the line it is on.
#[derive(Clone, Debug)]
struct Located {
    value: SettingValue,
    line: usize,
}

/// One parsed `[[algorithm]]` or `[[problem]]` table, before grid expansion.
struct Entry {
    kind: Kind,
    name: &'static str,
    header_line: usize,
    /// Parameter keys in sorted order, each with its values (one unless a list was given).
    params: Vec<(String, Vec<Located>)>,
    /// Problem overrides: value and line.
    budget: Option<(usize, usize)>,
    init: Option<(usize, usize)>,
}

impl Entry {
    fn grid_size(&self) -> Option<usize> {
        self.params
            .iter()
            .try_fold(1usize, |n, (_, values)| n.checked_mul(values.len()))
    }

    /// The settings of the grid: keys in sorted order, the first key varying slowest.
    fn expand(&self) -> Vec<Setting> {
        let mut combos: Vec<Vec<(String, SettingValue)>> = vec![Vec::new()];
        for (key, values) in &self.params {
            combos = combos
                .into_iter()
                .flat_map(|combo| {
                    values.iter().map(move |v| {
                        let mut next = combo.clone();
                        next.push((key.clone(), v.value.clone()));
                        next
                    })
                })
                .collect();
        }
        combos
            .into_iter()
            .map(|params| Setting::new(self.name, params))
            .collect()
    }
}

/// Top-level values with the lines they were given on.
#[derive(Default)]
struct TopLevel {
    seed: Option<(u64, usize)>,
    replicates: Option<(usize, usize)>,
    budget: Option<(usize, usize)>,
    init: Option<(usize, usize)>,
    algorithms: Option<(Vec<Entry>, usize)>,
    problems: Option<(Vec<Entry>, usize)>,
}

struct Parser<'a> {
    file: &'a str,
    text: &'a str,
    /// Byte offsets of the text's line breaks.
    newlines: Vec<usize>,
}

type Key<'i> = Spanned<DeString<'i>>;
type Value<'i> = Spanned<DeValue<'i>>;

/// A table's entries in the order they appear in the file.
fn in_file_order<'t, 'i>(table: &'t DeTable<'i>) -> Vec<(&'t Key<'i>, &'t Value<'i>)> {
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    entries
}

/// `"string \"abc\""`, `"a table"`: what was found where something else was expected.
fn describe(value: &DeValue<'_>) -> String {
    match value {
        DeValue::String(s) => format!("string \"{s}\""),
        DeValue::Integer(i) => format!("integer {i}"),
        DeValue::Float(x) => format!("float {x}"),
        DeValue::Boolean(b) => format!("boolean {b}"),
        DeValue::Datetime(d) => format!("date-time {d}"),
        DeValue::Array(_) => "a list".to_owned(),
        DeValue::Table(_) => "a table".to_owned(),
    }
}

/// The registry's message without its `algorithm gp-ucb: ` prefix, which the config error
/// states itself.
fn strip_owner(message: String, kind: Kind, name: &str) -> String {
    let prefix = format!("{} {name}: ", kind.word());
    match message.strip_prefix(&prefix) {
        Some(rest) => rest.to_owned(),
        None => message,
    }
}

impl Parser<'_> {
    /// The 1-based line of byte `offset`.
    fn line(&self, offset: usize) -> usize {
        self.newlines.partition_point(|&nl| nl < offset) + 1
    }

    fn line_of(&self, span: Range<usize>) -> usize {
        self.line(span.start)
    }

    fn error(&self, line: usize, message: impl Into<String>) -> ConfigError {
        ConfigError {
            file: self.file.to_owned(),
            line: Some(line),
            column: None,
            message: message.into(),
        }
    }

    fn syntax_error(&self, e: &toml::de::Error) -> ConfigError {
        let offset = e.span().map_or(0, |s| s.start).min(self.text.len());
        let mut offset = offset;
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let column = self.text[line_start..offset].chars().count() + 1;
        ConfigError {
            file: self.file.to_owned(),
            line: Some(self.line(offset)),
            column: Some(column),
            message: format!("invalid TOML: {}", e.message().trim()),
        }
    }

    fn parse(&self) -> Result<SweepConfig, ConfigError> {
        let document = DeTable::parse(self.text).map_err(|e| self.syntax_error(&e))?;
        let mut top = TopLevel::default();
        for (key, value) in in_file_order(document.get_ref()) {
            let line = self.line_of(key.span());
            let name: &str = key.get_ref();
            match name {
                "seed" => {
                    let seed = self.integer(name, value, 0, "an integer ≥ 0")?;
                    top.seed = Some((seed as u64, line));
                }
                "replicates" => {
                    let n = self.integer(name, value, 1, "an integer ≥ 1")?;
                    top.replicates = Some((n as usize, line));
                }
                "budget" => {
                    let n = self.integer(name, value, 1, "an integer ≥ 1")?;
                    top.budget = Some((n as usize, line));
                }
                "init" => {
                    let n = self.integer(name, value, 0, "an integer ≥ 0, at most the budget")?;
                    top.init = Some((n as usize, line));
                }
                "algorithm" => top.algorithms = Some((self.entries(Kind::Algorithm, value)?, line)),
                "problem" => top.problems = Some((self.entries(Kind::Problem, value)?, line)),
                other => {
                    return Err(self.error(
                        line,
                        format!(
                            "unknown key \"{other}\" (allowed: {})",
                            TOP_LEVEL_KEYS.join(", ")
                        ),
                    ));
                }
            }
        }
        self.assemble(top)
    }

    /// An integer `≥ min` (`accepted` says so in words for the message).
    fn integer(
        &self,
        key: &str,
        value: &Value<'_>,
        min: i64,
        accepted: &str,
    ) -> Result<i64, ConfigError> {
        let line = self.line_of(value.span());
        let DeValue::Integer(i) = value.get_ref() else {
            return Err(self.error(
                line,
                format!(
                    "key \"{key}\": expected {accepted}, found {}",
                    describe(value.get_ref())
                ),
            ));
        };
        let n = i64::from_str_radix(i.as_str(), i.radix()).map_err(|_| {
            self.error(
                line,
                format!("key \"{key}\": value {i} is too large (must be {accepted})"),
            )
        })?;
        if n < min {
            return Err(self.error(
                line,
                format!("key \"{key}\": value {n} is invalid (must be {accepted})"),
            ));
        }
        Ok(n)
    }

    /// The `[[algorithm]]` or `[[problem]]` tables.
    fn entries(&self, kind: Kind, value: &Value<'_>) -> Result<Vec<Entry>, ConfigError> {
        let word = kind.word();
        let line = self.line_of(value.span());
        let DeValue::Array(tables) = value.get_ref() else {
            return Err(self.error(
                line,
                format!(
                    "key \"{word}\": expected [[{word}]] tables (an array of tables), found {}",
                    describe(value.get_ref())
                ),
            ));
        };
        tables
            .iter()
            .map(|table| match table.get_ref() {
                DeValue::Table(t) => self.entry(kind, t, self.line_of(table.span())),
                other => Err(self.error(
                    self.line_of(table.span()),
                    format!(
                        "key \"{word}\": expected a table for each {word}, found {}",
                        describe(other)
                    ),
                )),
            })
            .collect()
    }

    fn entry(
        &self,
        kind: Kind,
        table: &DeTable<'_>,
        header_line: usize,
    ) -> Result<Entry, ConfigError> {
        let word = kind.word();
        let Some((name_key, name_value)) = table.get_key_value("name") else {
            return Err(self.error(
                header_line,
                format!(
                    "[[{word}]] table without a \"name\" key (known {word}s: {})",
                    kind.known()
                ),
            ));
        };
        let name_line = self.line_of(name_key.span());
        let DeValue::String(given_name) = name_value.get_ref() else {
            return Err(self.error(
                name_line,
                format!(
                    "{word} key \"name\": expected the {word}'s name as a string, found {}",
                    describe(name_value.get_ref())
                ),
            ));
        };
        let (name, specs) = kind
            .find(given_name)
            .map_err(|m| self.error(name_line, format!("{word} key \"name\": {m}")))?;
        let context = format!("{word} \"{name}\"");
        let mut entry = Entry {
            kind,
            name,
            header_line,
            params: Vec::new(),
            budget: None,
            init: None,
        };
        for (key, value) in in_file_order(table) {
            let key_name: &str = key.get_ref();
            let key_line = self.line_of(key.span());
            if key_name == "name" {
                continue;
            }
            if kind.reserved().contains(&key_name) {
                let (min, accepted) = if key_name == "budget" {
                    (1, "an integer ≥ 1")
                } else {
                    (0, "an integer ≥ 0, at most the budget")
                };
                let n = self
                    .integer(key_name, value, min, accepted)
                    .map_err(|e| ConfigError {
                        message: format!("{context}: {}", e.message),
                        ..e
                    })?;
                let slot = (n as usize, key_line);
                if key_name == "budget" {
                    entry.budget = Some(slot);
                } else {
                    entry.init = Some(slot);
                }
                continue;
            }
            if let DeValue::Table(_) = value.get_ref() {
                return Err(self.error(
                    key_line,
                    format!(
                        "{context}: key \"{key_name}\": a table is not allowed here (values are numbers, strings, booleans, or a list of them)"
                    ),
                ));
            }
            let Some(spec) = specs.iter().find(|s| s.name == key_name) else {
                let message =
                    Params::resolve(word, name, specs, &[(key_name, ParamValue::Number(0.0))])
                        .err()
                        .map_or_else(|| format!("unknown parameter \"{key_name}\""), |e| e.0);
                let mut message = strip_owner(message, kind, name);
                if !kind.reserved().is_empty() {
                    message = message.replacen(
                        "(allowed: ",
                        &format!("(allowed: {}, ", kind.reserved().join(", ")),
                        1,
                    );
                    message = message.replacen(
                        "(it takes no parameters)",
                        &format!("(allowed: {})", kind.reserved().join(", ")),
                        1,
                    );
                }
                return Err(self.error(key_line, format!("{context}: {message}")));
            };
            let values = self.values(&context, key_name, value)?;
            // Values that print the same give the same labels, hence the same runs.
            let mut seen: HashMap<String, usize> = HashMap::new();
            for v in &values {
                self.check_value(kind, name, specs, spec, v, &context)?;
                if let Some(earlier) = seen.insert(v.value.to_string(), v.line) {
                    return Err(self.error(
                        v.line,
                        format!(
                            "{context}: parameter {key_name}: value {} is listed twice (lines {earlier} and {}), which would repeat runs",
                            v.value, v.line
                        ),
                    ));
                }
            }
            entry.params.push((key_name.to_owned(), values));
        }
        entry.params.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(entry)
    }

    /// The value or list of values of a parameter key.
    fn values(
        &self,
        context: &str,
        key: &str,
        value: &Value<'_>,
    ) -> Result<Vec<Located>, ConfigError> {
        match value.get_ref() {
            DeValue::Array(items) => {
                if items.is_empty() {
                    return Err(self.error(
                        self.line_of(value.span()),
                        format!("{context}: parameter {key}: empty list (give at least one value)"),
                    ));
                }
                items
                    .iter()
                    .map(|item| self.scalar(context, key, item, true))
                    .collect()
            }
            _ => Ok(vec![self.scalar(context, key, value, false)?]),
        }
    }

    fn scalar(
        &self,
        context: &str,
        key: &str,
        value: &Value<'_>,
        in_list: bool,
    ) -> Result<Located, ConfigError> {
        let line = self.line_of(value.span());
        let wrong = |what: &str| {
            self.error(
                line,
                format!(
                    "{context}: parameter {key}: {what} is not allowed (values are numbers, strings, booleans, or a list of them)"
                ),
            )
        };
        let value = match value.get_ref() {
            DeValue::String(s) => SettingValue::Text(s.to_string()),
            DeValue::Boolean(b) => SettingValue::Text(b.to_string()),
            DeValue::Integer(i) => {
                let n = i64::from_str_radix(i.as_str(), i.radix()).map_err(|_| {
                    self.error(
                        line,
                        format!("{context}: parameter {key}: value {i} is too large"),
                    )
                })?;
                SettingValue::Number(n as f64)
            }
            DeValue::Float(x) => match x.as_str().parse::<f64>() {
                Ok(v) if v.is_finite() => SettingValue::Number(v),
                _ => {
                    return Err(self.error(
                        line,
                        format!("{context}: parameter {key}: value {x} is not a finite number"),
                    ));
                }
            },
            DeValue::Array(_) if in_list => return Err(wrong("a list inside a list")),
            DeValue::Table(_) => return Err(wrong("a table")),
            other => return Err(wrong(&describe(other))),
        };
        Ok(Located { value, line })
    }

    /// One value against its declaration, with the registry's message on failure.
    fn check_value(
        &self,
        kind: Kind,
        name: &'static str,
        specs: &[ParamSpec],
        spec: &ParamSpec,
        v: &Located,
        context: &str,
    ) -> Result<(), ConfigError> {
        let numeric = matches!(
            spec.kind,
            ParamKind::Real { .. } | ParamKind::Integer { .. }
        );
        if let (true, SettingValue::Text(s)) = (numeric, &v.value) {
            return Err(self.error(
                v.line,
                format!(
                    "{context}: parameter {} = \"{s}\" is invalid: expected a number (must be {})",
                    spec.name,
                    spec.kind.accepted()
                ),
            ));
        }
        Params::resolve(
            kind.word(),
            name,
            specs,
            &[(spec.name, ParamValue::from(&v.value))],
        )
        .map(drop)
        .map_err(|e| {
            self.error(
                v.line,
                format!("{context}: {}", strip_owner(e.0, kind, name)),
            )
        })
    }

    /// Defaults, cross-key checks, grid expansion, builds and duplicate detection.
    fn assemble(&self, top: TopLevel) -> Result<SweepConfig, ConfigError> {
        let Some((budget, budget_line)) = top.budget else {
            return Err(self.error(
                1,
                "missing key \"budget\" (evaluations per run, an integer ≥ 1)",
            ));
        };
        let (init, init_line) = top.init.unwrap_or((DEFAULT_INIT, budget_line));
        let default_note = if top.init.is_some() {
            ""
        } else {
            " (the default)"
        };
        let (algorithm_entries, _) = match top.algorithms {
            Some((entries, line)) if entries.is_empty() => {
                return Err(self.error(line, "no algorithms: add at least one [[algorithm]] table"));
            }
            Some(found) => found,
            None => {
                return Err(self.error(1, "no algorithms: add at least one [[algorithm]] table"));
            }
        };
        let (problem_entries, _) = match top.problems {
            Some((entries, line)) if entries.is_empty() => {
                return Err(self.error(line, "no problems: add at least one [[problem]] table"));
            }
            Some(found) => found,
            None => return Err(self.error(1, "no problems: add at least one [[problem]] table")),
        };

        let algorithms = self.expand_all(&algorithm_entries)?;
        let problem_settings = self.expand_all(&problem_entries)?;
        let mut problems = Vec::with_capacity(problem_settings.len());
        for (entry, setting) in problem_settings {
            let budget_for = entry.budget.map_or(budget, |b| b.0);
            let init_for = entry.init.map_or(init, |i| i.0);
            if init_for > budget_for {
                let message = match entry.init.or(entry.budget) {
                    Some((_, line)) => self.error(
                        line,
                        format!(
                            "problem \"{}\": init {init_for}{} exceeds the budget of {budget_for} evaluations (init must be ≤ budget)",
                            entry.name,
                            if entry.init.is_some() { "" } else { default_note },
                        ),
                    ),
                    None => self.error(
                        init_line,
                        format!(
                            "key \"init\": value {init}{default_note} exceeds the budget of {budget} evaluations (init must be ≤ budget)"
                        ),
                    ),
                };
                return Err(message);
            }
            problems.push(ProblemSetting {
                setting,
                budget: budget_for,
                init: init_for,
            });
        }
        self.check_pairs(&algorithms, &problems)?;
        let algorithms: Vec<Setting> = algorithms.into_iter().map(|(_, s)| s).collect();

        let replicates = top.replicates.map_or(1, |r| r.0);
        let runs = problems
            .len()
            .checked_mul(algorithms.len())
            .and_then(|n| n.checked_mul(replicates));
        if runs.is_none_or(|n| n > MAX_RUNS) {
            return Err(self.error(
                top.replicates.map_or(1, |r| r.1),
                format!(
                    "{} problem settings × {} algorithm settings × {replicates} replicates is more than {MAX_RUNS} runs",
                    problems.len(),
                    algorithms.len()
                ),
            ));
        }
        Ok(SweepConfig {
            file_name: self.file.to_owned(),
            text: self.text.to_owned(),
            seed: top.seed.map_or(0, |s| s.0),
            replicates,
            budget,
            init,
            algorithms,
            problems,
        })
    }

    /// Refuses an algorithm setting paired with a problem setting it cannot run on
    /// ([`algorithms::check_pair`]), at the algorithm's line, before any run starts.
    fn check_pairs(
        &self,
        algorithms: &[(&Entry, Setting)],
        problems: &[ProblemSetting],
    ) -> Result<(), ConfigError> {
        for problem_setting in problems {
            let setting = &problem_setting.setting;
            // Every setting built once already in `expand_all`; a failure here cannot happen.
            let Ok(problem) = problems::build(&setting.name, &setting.param_values()) else {
                continue;
            };
            for (entry, algorithm_setting) in algorithms {
                let Ok(mut algorithm) =
                    algorithms::build(&algorithm_setting.name, &algorithm_setting.param_values())
                else {
                    continue;
                };
                algorithms::check_pair(entry.name, algorithm.as_mut(), problem.as_ref()).map_err(
                    |e| {
                        self.error(
                            entry.header_line,
                            format!("{e} (problem setting {})", setting.label()),
                        )
                    },
                )?;
            }
        }
        Ok(())
    }

    /// Every entry's grid, each setting built once; a setting given twice (same label) is an
    /// error naming both lines, since its runs would have the same keys.
    fn expand_all<'e>(
        &self,
        entries: &'e [Entry],
    ) -> Result<Vec<(&'e Entry, Setting)>, ConfigError> {
        let mut out = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for entry in entries {
            let word = entry.kind.word();
            if entry.grid_size().is_none_or(|n| n > MAX_RUNS) {
                return Err(self.error(
                    entry.header_line,
                    format!(
                        "{word} \"{}\": the grid has more than {MAX_RUNS} settings",
                        entry.name
                    ),
                ));
            }
            for setting in entry.expand() {
                let label = setting.label();
                if let Some(&earlier) = seen.get(&label) {
                    return Err(self.error(
                        entry.header_line,
                        format!(
                            "{word} \"{}\": duplicate runs: setting {label} at line {} repeats the one at line {earlier} (runs are identified by their labels)",
                            entry.name, entry.header_line
                        ),
                    ));
                }
                entry.kind.build(&setting).map_err(|m| {
                    self.error(
                        entry.header_line,
                        format!(
                            "{word} \"{}\": setting {label}: {}",
                            entry.name,
                            strip_owner(m, entry.kind, entry.name)
                        ),
                    )
                })?;
                seen.insert(label, entry.header_line);
                out.push((entry, setting));
            }
        }
        Ok(out)
    }
}
