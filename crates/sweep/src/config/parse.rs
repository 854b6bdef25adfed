//! Reading a config's TOML: every key checked against the schema and the registries' parameter
//! declarations, with the line of each value kept for error messages.

use std::collections::HashMap;
use std::ops::{Range, RangeBounds};
use std::path::Path;

use toml::Spanned;
use toml::de::{DeString, DeTable, DeValue};

use super::Metric;
use super::keys::{
    ARCHIVE_KEY, BATCH, ConfigTable, METRIC_KEY, REPORT_TABLE, RUNTIME_KEY, TIME_KEY, WORKERS,
};
use super::schema::{
    ConfigError, DEFAULT_INIT, Kind, MAX_RUNS, ProblemSetting, SweepConfig, parallel_of,
};
use crate::plan::{Setting, SettingValue};
use crate::runtime::RuntimeModel;
use crate::schedule::Parallel;
use bosweep_core::params::{ParamKind, ParamSpec, ParamValue, Params};

/// One value of a parameter and the line it is on.
#[derive(Clone, Debug)]
pub(super) struct Located {
    pub(super) value: SettingValue,
    pub(super) line: usize,
}

/// One parsed `[[algorithm]]` or `[[problem]]` table, before grid expansion.
pub(super) struct Entry {
    pub(super) kind: Kind,
    pub(super) name: &'static str,
    pub(super) header_line: usize,
    /// Parameter keys in sorted order, each with its values (one unless a list was given).
    pub(super) params: Vec<(String, Vec<Located>)>,
    /// Problem overrides: value and line.
    pub(super) budget: Option<(usize, usize)>,
    pub(super) init: Option<(usize, usize)>,
    /// A problem's runtime model and its line.
    pub(super) runtime: Option<(RuntimeModel, usize)>,
    /// The display label and its line.
    pub(super) label: Option<(String, usize)>,
}

/// The lines of the top-level `batch` and `workers`, where given: a parallel setting an
/// algorithm cannot honour is reported at the line that set it.
pub(super) struct ParallelLines {
    pub(super) batch: Option<usize>,
    pub(super) workers: Option<usize>,
}

impl ParallelLines {
    /// The line of `key` (`batch`, `workers`) for the settings of `entry`: its table's own key,
    /// else the top level's, else the table's header.
    pub(super) fn of(&self, entry: &Entry, key: &str) -> usize {
        let own = entry
            .params
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, values)| values.first())
            .map(|v| v.line);
        let top = match key {
            "batch" => self.batch,
            "workers" => self.workers,
            _ => None,
        };
        own.or(top).unwrap_or(entry.header_line)
    }
}

/// Top-level values with the lines they were given on.
#[derive(Default)]
struct TopLevel {
    seed: Option<(u64, usize)>,
    replicates: Option<(usize, usize)>,
    budget: Option<(usize, usize)>,
    init: Option<(usize, usize)>,
    batch: Option<(usize, usize)>,
    workers: Option<(usize, usize)>,
    runtime: Option<(RuntimeModel, usize)>,
    /// The line of `[report] time`, where given.
    report_time: Option<usize>,
    algorithms: Option<(Vec<Entry>, usize)>,
    problems: Option<(Vec<Entry>, usize)>,
}

pub(super) struct Parser<'a> {
    pub(super) file: &'a str,
    pub(super) text: &'a str,
    /// Byte offsets of the text's line breaks.
    pub(super) newlines: Vec<usize>,
}

/// Reading a config is this module's job; the type and its accessors are `schema`'s.
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
            more: Vec::new(),
        })?;
        Self::parse(&text, &file)
    }
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
pub(super) fn strip_owner(message: String, kind: Kind, name: &str) -> String {
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

    pub(super) fn error(&self, line: usize, message: impl Into<String>) -> ConfigError {
        ConfigError {
            file: self.file.to_owned(),
            line: Some(line),
            column: None,
            message: message.into(),
            more: Vec::new(),
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
            more: Vec::new(),
        }
    }

    /// The config, or every mistake of its keys and tables (each in file order) before the
    /// checks of the whole config run.
    pub(super) fn parse(&self) -> Result<SweepConfig, ConfigError> {
        let document = DeTable::parse(self.text).map_err(|e| self.syntax_error(&e))?;
        let mut top = TopLevel::default();
        let mut mistakes = Vec::new();
        for (key, value) in in_file_order(document.get_ref()) {
            if let Err(e) = self.top_level_key(&mut top, key, value) {
                mistakes.push(e);
            }
        }
        match ConfigError::all(mistakes) {
            Some(e) => Err(e),
            None => self.assemble(top),
        }
    }

    /// Reads the top-level `key` into `top`.
    fn top_level_key(
        &self,
        top: &mut TopLevel,
        key: &toml::Spanned<std::borrow::Cow<'_, str>>,
        value: &Value<'_>,
    ) -> Result<(), ConfigError> {
        let line = self.line_of(key.span());
        let name: &str = key.get_ref();
        let unknown = || self.unknown_key(line, "", name, ConfigTable::TopLevel);
        match name {
            // Only documented keys are read, so that the reference shows every key there is.
            _ if !ConfigTable::TopLevel.has(name) => return Err(unknown()),
            "seed" => {
                let seed = self.integer(name, value, 0.., "an integer ≥ 0")?;
                top.seed = Some((seed as u64, line));
            }
            "replicates" => {
                let n = self.integer(name, value, 1.., "an integer ≥ 1")?;
                top.replicates = Some((n as usize, line));
            }
            "budget" => {
                let n = self.integer(name, value, 1.., "an integer ≥ 1")?;
                top.budget = Some((n as usize, line));
            }
            "init" => {
                let n = self.integer(name, value, 0.., "an integer ≥ 0, at most the budget")?;
                top.init = Some((n as usize, line));
            }
            "batch" | "workers" => {
                // The same range as an [[algorithm]] table's own value, which this one
                // stands in for.
                let param = if name == "batch" { BATCH } else { WORKERS };
                let range = param.range();
                let (min, max) = (*range.start() as i64, *range.end() as i64);
                let n = self.integer(name, value, min..=max, &param.spec().kind.accepted())?;
                let slot = Some((n as usize, line));
                if name == "batch" {
                    top.batch = slot;
                } else {
                    top.workers = slot;
                }
            }
            RUNTIME_KEY => top.runtime = Some((self.runtime(None, value)?, line)),
            "algorithm" => top.algorithms = Some((self.entries(Kind::Algorithm, value)?, line)),
            "problem" => top.problems = Some((self.entries(Kind::Problem, value)?, line)),
            REPORT_TABLE => top.report_time = self.report_table(value)?,
            _ => return Err(unknown()),
        }
        Ok(())
    }

    /// Checks the `[report]` table: `metric`, a [`Metric`] name, `time`, a positive finite
    /// simulated time, and `archive`, a list of archive sets. The report reads them again from
    /// the sweep directory's copy of the config (and opens the sets).
    fn report_table(&self, value: &Value<'_>) -> Result<Option<usize>, ConfigError> {
        let line = self.line_of(value.span());
        let DeValue::Table(table) = value.get_ref() else {
            return Err(self.error(
                line,
                format!(
                    "key \"{REPORT_TABLE}\": expected a [{REPORT_TABLE}] table, found {}",
                    describe(value.get_ref())
                ),
            ));
        };
        let mut time_line = None;
        for (key, value) in in_file_order(table) {
            let line = self.line_of(key.span());
            let name: &str = key.get_ref();
            let context = format!("[{REPORT_TABLE}]: ");
            let unknown = || self.unknown_key(line, &context, name, ConfigTable::Report);
            match name {
                _ if !ConfigTable::Report.has(name) => return Err(unknown()),
                METRIC_KEY => {
                    let DeValue::String(metric) = value.get_ref() else {
                        return Err(self.error(
                            line,
                            format!(
                                "[{REPORT_TABLE}] {METRIC_KEY}: expected a string, found {}",
                                describe(value.get_ref())
                            ),
                        ));
                    };
                    metric.parse::<Metric>().map_err(|e| {
                        self.error(line, format!("[{REPORT_TABLE}] {METRIC_KEY}: {e}"))
                    })?;
                }
                TIME_KEY => {
                    let time = match value.get_ref() {
                        DeValue::Integer(i) => i64::from_str_radix(i.as_str(), i.radix())
                            .ok()
                            .map(|n| n as f64),
                        DeValue::Float(x) => x.as_str().parse::<f64>().ok(),
                        _ => None,
                    };
                    if !time.is_some_and(|t| t > 0.0 && t.is_finite()) {
                        return Err(self.error(
                            line,
                            format!(
                                "[{REPORT_TABLE}] {TIME_KEY}: expected a positive finite simulated time, found {}",
                                describe(value.get_ref())
                            ),
                        ));
                    }
                    time_line = Some(line);
                }
                ARCHIVE_KEY => {
                    let found = match value.get_ref() {
                        DeValue::Array(items) => items
                            .iter()
                            .enumerate()
                            .find(|(_, i)| !matches!(i.get_ref(), DeValue::String(s) if !s.is_empty()))
                            .map(|(k, i)| format!("item {} is {}", k + 1, describe(i.get_ref()))),
                        other => Some(describe(other)),
                    };
                    if let Some(found) = found {
                        return Err(self.error(
                            line,
                            format!(
                                "[{REPORT_TABLE}] {ARCHIVE_KEY}: expected a list of archive sets (shipped names or directories), found {found}"
                            ),
                        ));
                    }
                }
                _ => return Err(unknown()),
            }
        }
        Ok(time_line)
    }

    /// `key` on `line` is not one of `table`'s: an error listing the keys [`ConfigTable::keys`]
    /// documents (also for a documented key the parser has no reading of, which the keys' test
    /// catches). `context` precedes the message.
    fn unknown_key(
        &self,
        line: usize,
        context: &str,
        key: &str,
        table: ConfigTable,
    ) -> ConfigError {
        let allowed: Vec<&str> = table.keys().collect();
        let question = bosweep_core::io::did_you_mean(key, &allowed)
            .map_or_else(String::new, |q| format!("{q} "));
        self.error(
            line,
            format!(
                "{context}unknown key \"{key}\" ({question}allowed: {})",
                allowed.join(", ")
            ),
        )
    }

    /// A `runtime = "…"` value: a [`RuntimeModel`]; `context` names the entry it is in.
    fn runtime(
        &self,
        context: Option<&str>,
        value: &Value<'_>,
    ) -> Result<RuntimeModel, ConfigError> {
        let line = self.line_of(value.span());
        let context = context.map_or_else(String::new, |c| format!("{c}: "));
        let DeValue::String(text) = value.get_ref() else {
            return Err(self.error(
                line,
                format!(
                    "{context}key \"{RUNTIME_KEY}\": expected a runtime model as a string, such as \"lognormal:sigma=0.5\", found {}",
                    describe(value.get_ref())
                ),
            ));
        };
        text.parse()
            .map_err(|e| self.error(line, format!("{context}key \"{RUNTIME_KEY}\": {e}")))
    }

    /// An integer in `range` (`accepted` says so in words for the message).
    fn integer(
        &self,
        key: &str,
        value: &Value<'_>,
        range: impl RangeBounds<i64>,
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
        if !range.contains(&n) {
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
        let (entries, mistakes): (Vec<_>, Vec<_>) = tables
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
            .partition(Result::is_ok);
        match ConfigError::all(mistakes.into_iter().filter_map(Result::err).collect()) {
            Some(e) => Err(e),
            None => Ok(entries.into_iter().filter_map(Result::ok).collect()),
        }
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
            runtime: None,
            label: None,
        };
        let mut mistakes = Vec::new();
        for (key, value) in in_file_order(table) {
            if let Err(e) = self.entry_key(&mut entry, &specs, &context, key, value) {
                mistakes.push(e);
            }
        }
        if let Some(e) = ConfigError::all(mistakes) {
            return Err(e);
        }
        entry.params.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(entry)
    }

    /// Reads `key` of the table of `entry`, whose declared parameters are `specs`.
    fn entry_key(
        &self,
        entry: &mut Entry,
        specs: &[ParamSpec],
        context: &str,
        key: &toml::Spanned<std::borrow::Cow<'_, str>>,
        value: &Value<'_>,
    ) -> Result<(), ConfigError> {
        let (kind, name) = (entry.kind, entry.name);
        let word = kind.word();
        let key_name: &str = key.get_ref();
        let key_line = self.line_of(key.span());
        if key_name == "name" {
            return Ok(());
        }
        if key_name == "label" {
            match value.get_ref() {
                DeValue::String(text) if !text.trim().is_empty() => {
                    entry.label = Some((text.to_string(), key_line));
                }
                other => {
                    return Err(self.error(
                        key_line,
                        format!(
                            "{context}: key \"label\": expected the name reports show, a \
                             non-empty string, found {}",
                            describe(other)
                        ),
                    ));
                }
            }
            return Ok(());
        }
        if key_name == RUNTIME_KEY && kind == Kind::Problem {
            entry.runtime = Some((self.runtime(Some(context), value)?, key_line));
            return Ok(());
        }
        if kind.reserved().contains(&key_name) {
            let (min, accepted) = if key_name == "budget" {
                (1, "an integer ≥ 1")
            } else {
                (0, "an integer ≥ 0, at most the budget")
            };
            let n = self
                .integer(key_name, value, min.., accepted)
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
            return Ok(());
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
                    "allowed: ",
                    &format!("allowed: {}, ", kind.reserved().join(", ")),
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
        let values = self.values(context, key_name, value)?;
        // Values that print the same give the same labels, hence the same runs.
        let mut seen: HashMap<String, usize> = HashMap::new();
        for v in &values {
            self.check_value(kind, name, specs, spec, v, context)?;
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
        Ok(())
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

        let algorithms: Vec<_> = self
            .expand_all(&algorithm_entries)?
            .into_iter()
            .map(|(entry, setting, _)| (entry, setting))
            .collect();
        let problem_settings = self.expand_all(&problem_entries)?;
        let mut problems = Vec::with_capacity(problem_settings.len());
        for (entry, setting, built) in problem_settings {
            let Some(problem) = built else {
                unreachable!("problem entries build problems")
            };
            let runtime = entry.runtime.or(top.runtime);
            if let Some((model, line)) = &runtime {
                model
                    .check(problem.dim())
                    .map_err(|e| self.error(*line, format!("problem \"{}\": {e}", entry.name)))?;
            }
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
            problems.push((
                ProblemSetting {
                    setting,
                    budget: budget_for,
                    init: init_for,
                    runtime: runtime.map(|r| r.0),
                },
                problem,
            ));
        }
        let parallel = Parallel {
            batch: top.batch.map_or(1, |b| b.0),
            workers: top.workers.map_or(1, |w| w.0),
            runtime: top.runtime.map(|r| r.0),
        };
        // A top-level batch or worker count joins the labels of the settings that give none
        // (`Setting::shown_with`): two settings must not end up shown alike.
        let mut shown: HashMap<String, usize> = HashMap::new();
        for (entry, setting) in &algorithms {
            let runs = parallel_of(setting, &problems[0].0, &parallel);
            let label = setting.clone().shown_with(&runs).display_label();
            if let Some(earlier) = shown.insert(label.clone(), entry.header_line) {
                return Err(self.error(
                    entry.header_line,
                    format!(
                        "algorithm \"{}\": its runs would be shown as \"{label}\", as those of the \
                         setting of line {earlier} are (the top-level batch or workers joins \
                         the label of a setting without its own); give one of them a `label`",
                        entry.name
                    ),
                ));
            }
        }
        let lines = ParallelLines {
            batch: top.batch.map(|b| b.1),
            workers: top.workers.map(|w| w.1),
        };
        let memory = self.check_pairs(&algorithms, &problems, &parallel, &lines)?;
        if let Some(line) = top.report_time {
            self.check_timed(line, &algorithms, &problems, &parallel)?;
        }
        let problems: Vec<ProblemSetting> = problems.into_iter().map(|(s, _)| s).collect();
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
            parallel,
            algorithms,
            problems,
            memory,
        })
    }
}
