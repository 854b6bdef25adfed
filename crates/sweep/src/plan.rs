//! A sweep's runs: one per algorithm setting × problem setting × replicate, each with a stable
//! key and a seed derived from the sweep seed and that key, so that results do not depend on the
//! thread count, the order of execution or the shard.

use std::hash::Hasher;

use serde::{Deserialize, Serialize};

use crate::schedule::Parallel;
use bosweep_core::params::ParamValue;

/// A parameter value as the sweep records it (JSON/TOML friendly).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SettingValue {
    /// A number (integers included).
    Number(f64),
    /// A string: a choice or a flag word.
    Text(String),
}

impl From<&SettingValue> for ParamValue {
    fn from(v: &SettingValue) -> Self {
        match v {
            SettingValue::Number(x) => ParamValue::Number(*x),
            SettingValue::Text(s) => ParamValue::Text(s.clone()),
        }
    }
}

impl std::fmt::Display for SettingValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Number(x) => write!(f, "{x}"),
            Self::Text(s) => f.write_str(s),
        }
    }
}

/// The keys of an algorithm table that say how its runs evaluate (in synchronous batches, on
/// asynchronous workers), not how the algorithm is built: a [`Setting`] holds them apart from
/// its parameters, as its [`Evaluation`], though they label, key and seed its runs as its
/// parameters do.
pub const RUN_KEYS: [&str; 2] = ["batch", "workers"];

/// How an algorithm setting's runs evaluate, where its config table says (`batch = 4`); `None`
/// where it leaves it to the config's top level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// Points asked together, evaluated in parallel.
    pub batch: Option<usize>,
    /// Asynchronous workers.
    pub workers: Option<usize>,
}

impl Evaluation {
    /// Whether the table gives either count.
    pub fn is_given(&self) -> bool {
        self.batch.is_some() || self.workers.is_some()
    }

    /// The counts as keys, for labels.
    fn keys(&self) -> impl Iterator<Item = (String, SettingValue)> {
        [("batch", self.batch), ("workers", self.workers)]
            .into_iter()
            .filter_map(|(key, count)| Some((key.to_owned(), SettingValue::Number(count? as f64))))
    }
}

/// One algorithm or problem with fixed parameters (after grid expansion), parameters sorted by
/// key so that the same setting always prints and hashes the same. Files record it as one list
/// of keys, its evaluation among its parameters, as its config table gave them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "SettingRecord", into = "SettingRecord")]
pub struct Setting {
    /// The registry name (`gp-ucb`, `branin`).
    pub name: String,
    /// Every parameter the config gives the registry entry, sorted by key; defaults not given
    /// are absent.
    pub params: Vec<(String, SettingValue)>,
    /// How the runs evaluate, where the table says.
    pub evaluation: Evaluation,
    /// The config's `label = "…"`: what reports show instead of [`Setting::label`]. Display
    /// only: run keys, seeds and trace file names use [`Setting::label`], so a label can be
    /// added without changing any run.
    pub display: Option<String>,
}

/// A [`Setting`] as manifests and archives record it: its parameters and its evaluation's keys
/// in one list sorted by key, as its config table gives them.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct SettingRecord {
    name: String,
    params: Vec<(String, SettingValue)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    display: Option<String>,
}

impl From<SettingRecord> for Setting {
    fn from(record: SettingRecord) -> Self {
        let mut setting = Setting::new(record.name, record.params);
        setting.display = record.display;
        setting
    }
}

impl From<Setting> for SettingRecord {
    fn from(setting: Setting) -> Self {
        Self {
            params: setting.keys(),
            name: setting.name,
            display: setting.display,
        }
    }
}

impl Setting {
    /// The setting `name` with the keys of its config table, sorted: its parameters, and the
    /// [`RUN_KEYS`] (counts) as its evaluation.
    pub fn new(name: impl Into<String>, keys: Vec<(String, SettingValue)>) -> Self {
        let mut evaluation = Evaluation::default();
        let mut params = Vec::with_capacity(keys.len());
        for (key, value) in keys {
            match (key.as_str(), &value) {
                ("batch", SettingValue::Number(n)) => evaluation.batch = Some(*n as usize),
                ("workers", SettingValue::Number(n)) => evaluation.workers = Some(*n as usize),
                _ => params.push((key, value)),
            }
        }
        params.sort_by(|a, b| a.0.cmp(&b.0));
        Self {
            name: name.into(),
            params,
            evaluation,
            display: None,
        }
    }

    /// This setting shown as `display` in reports.
    pub fn displayed_as(mut self, display: impl Into<String>) -> Self {
        self.display = Some(display.into());
        self
    }

    /// What reports show: the config's label where it gave one, else [`Setting::label`].
    pub fn display_label(&self) -> String {
        self.display.clone().unwrap_or_else(|| self.label())
    }

    /// Every key the setting gives, its parameters and its evaluation's, sorted: what labels
    /// it.
    pub fn keys(&self) -> Vec<(String, SettingValue)> {
        let mut keys = self.params.clone();
        keys.extend(self.evaluation.keys());
        keys.sort_by(|a, b| a.0.cmp(&b.0));
        keys
    }

    /// `name` alone, or `name[k1=v1,k2=v2]`: the label of reports and file names, the
    /// evaluation's keys among the parameters.
    pub fn label(&self) -> String {
        let keys = self.keys();
        if keys.is_empty() {
            self.name.clone()
        } else {
            let keys: Vec<String> = keys.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("{}[{}]", self.name, keys.join(","))
        }
    }

    /// The parameters as the registries take them.
    pub fn param_values(&self) -> Vec<(&str, ParamValue)> {
        self.params
            .iter()
            .map(|(k, v)| (k.as_str(), ParamValue::from(v)))
            .collect()
    }

    /// This algorithm setting as reports show a run of it with `parallel`: a batch or worker
    /// count the setting does not give itself (the config's top-level one) joins its label as
    /// if the table gave it (`ei[batch=4]`), so that every setting that changes a run is on its
    /// label and a sequential `ei` is never shown, or paired, as the same algorithm. A
    /// config's own `label` is kept as given. Keys and seeds stay those of [`Setting::label`].
    pub fn shown_with(mut self, parallel: &Parallel) -> Self {
        if self.display.is_some() || self.evaluation.is_given() || !parallel.is_parallel() {
            return self;
        }
        let mut shown = self.clone();
        if parallel.batch > 1 {
            shown.evaluation.batch = Some(parallel.batch);
        } else {
            shown.evaluation.workers = Some(parallel.workers);
        }
        self.display = Some(shown.label());
        self
    }
}

/// One run of a sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSpec {
    /// Position in the sweep's run list (the order of the config), used by `--shard I/N`.
    pub index: usize,
    /// The algorithm and its parameters.
    pub algorithm: Setting,
    /// The problem and its parameters.
    pub problem: Setting,
    /// 0-based replicate number.
    pub replicate: usize,
    /// Evaluations the run may spend, the initial design included.
    pub budget: usize,
    /// Points of the initial design.
    pub init: usize,
    /// Derived with [`run_seed`] from the sweep seed and [`RunSpec::key`].
    pub seed: u64,
    /// Derived with [`run_seed`] from the sweep seed and [`design_key`]: the same for every
    /// algorithm of a problem setting and replicate, so that they share an initial design.
    pub design_seed: u64,
    /// Batches or workers and the runtime model: the algorithm setting's `batch`/`workers`,
    /// else the config's, and the problem's `runtime`, else the config's.
    #[serde(default, skip_serializing_if = "Parallel::is_default")]
    pub parallel: Parallel,
}

impl RunSpec {
    /// Why `self` and `other`, runs of one problem and replicate, are not a pair: a pair shares
    /// its initial design (design seed and size) and its budget, so that the difference of its
    /// two values measures the algorithms alone. The rule of the report's paired tests, which
    /// pair different algorithms; [`RunSpec::differs_from`] adds what `compare` needs.
    pub fn design_differs(&self, other: &RunSpec) -> Option<String> {
        if self.design_seed != other.design_seed {
            Some(format!(
                "their initial designs differ (design seed {} against {}: the sweeps' seeds \
                 differ); run both with the same `seed`",
                self.design_seed, other.design_seed
            ))
        } else if self.init != other.init {
            Some(format!(
                "their initial designs differ in size ({} points against {}); run both with the \
                 same `init`",
                self.init, other.init
            ))
        } else if self.budget != other.budget {
            Some(format!(
                "their budgets differ ({} evaluations against {}); run both with the same \
                 `budget`",
                self.budget, other.budget
            ))
        } else {
            None
        }
    }

    /// Why `self` and `other`, runs of one algorithm, problem and replicate in two sweeps, are
    /// not a pair that measures a change of the algorithm: [`RunSpec::design_differs`], or
    /// their batches, workers or runtime models differ.
    pub fn differs_from(&self, other: &RunSpec) -> Option<String> {
        self.design_differs(other).or_else(|| {
            (self.parallel != other.parallel).then(|| {
                format!(
                    "they evaluate differently ({} against {}); run both with the same `batch`, \
                     `workers` and `runtime`",
                    self.parallel.describe_briefly(),
                    other.parallel.describe_briefly()
                )
            })
        })
    }

    /// The run's identity: algorithm and problem labels and the replicate.
    pub fn key(&self) -> String {
        run_key(&self.algorithm, &self.problem, self.replicate)
    }

    /// The trace's file name inside the sweep's `runs/` directory: index, algorithm, problem and
    /// replicate, with characters outside `[A-Za-z0-9._=-]` replaced by `_`. Names longer than
    /// `MAX_NAME` characters are cut and end in a hash of the run key instead, so that long
    /// parameter grids stay within file-system limits and names stay unique.
    pub fn trace_file(&self) -> String {
        let raw = format!(
            "{:05}-{}-{}-r{}",
            self.index,
            self.algorithm.label(),
            self.problem.label(),
            self.replicate
        );
        let safe: String = raw
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._=-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if safe.len() <= MAX_NAME {
            format!("{safe}.jsonl")
        } else {
            format!(
                "{}-{:016x}.jsonl",
                &safe[..MAX_NAME - 17],
                run_seed(0, &self.key())
            )
        }
    }
}

/// Longest trace file name before the extension (file systems allow 255 bytes).
pub const MAX_NAME: usize = 160;

/// The key of a run, as hashed into its seed.
/// The key of the initial design shared by every algorithm on `problem` in `replicate`.
pub fn design_key(problem: &Setting, replicate: usize) -> String {
    format!("design|{}|{replicate}", problem.label())
}

/// The key of a run, `algorithm|problem|replicate` by labels, as hashed into its seed and
/// named in messages.
pub fn run_key(algorithm: &Setting, problem: &Setting, replicate: usize) -> String {
    format!("{}|{}|{replicate}", algorithm.label(), problem.label())
}

/// A run's seed: FNV-1a (64-bit, a fixed and documented function, unlike std's hasher) of the
/// sweep seed and the run key.
pub fn run_seed(sweep_seed: u64, key: &str) -> u64 {
    let mut h = fnv::FnvHasher::default();
    h.write_u64(sweep_seed);
    h.write(key.as_bytes());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::{Evaluation, MAX_NAME, RunSpec, Setting, SettingValue};
    use crate::schedule::Parallel;

    fn spec(value: &str) -> RunSpec {
        let algorithm = Setting::new(
            "gp-ucb",
            vec![("kernel".into(), SettingValue::Text(value.into()))],
        );
        RunSpec {
            index: 3,
            algorithm,
            problem: Setting::new("branin", vec![]),
            replicate: 1,
            budget: 5,
            init: 2,
            seed: 0,
            design_seed: 0,
            parallel: Default::default(),
        }
    }

    /// `batch` and `workers` of a table are the setting's evaluation, not parameters the
    /// registry is given, yet they label the setting and are recorded as its table gave them.
    #[test]
    fn run_keys_are_the_evaluation_and_label_as_the_table_gave_them() {
        let number = |n: f64| SettingValue::Number(n);
        let setting = Setting::new(
            "ei",
            vec![
                ("workers".into(), number(3.0)),
                ("fit".into(), SettingValue::Text("mle".into())),
            ],
        );
        assert_eq!(
            setting.evaluation,
            Evaluation {
                batch: None,
                workers: Some(3)
            }
        );
        assert_eq!(setting.param_values().len(), 1);
        assert_eq!(setting.label(), "ei[fit=mle,workers=3]");
        let json = serde_json::to_string(&setting).unwrap();
        assert_eq!(
            json,
            r#"{"name":"ei","params":[["fit","mle"],["workers",3.0]]}"#
        );
        assert_eq!(serde_json::from_str::<Setting>(&json).unwrap(), setting);
        // A top-level count joins the label of a setting without its own, for display only.
        let sequential = Setting::new("ei", vec![]);
        let shown = sequential.clone().shown_with(&Parallel {
            batch: 4,
            ..Parallel::default()
        });
        assert_eq!(
            (shown.display_label(), shown.label()),
            ("ei[batch=4]".to_owned(), "ei".to_owned())
        );
        assert_eq!(setting.clone().shown_with(&Parallel::default()), setting);
    }

    #[test]
    fn trace_names_are_sanitised_and_bounded() {
        assert_eq!(
            spec("se").trace_file(),
            "00003-gp-ucb_kernel=se_-branin-r1.jsonl"
        );
        let (a, b) = (
            spec(&"x".repeat(300)),
            spec(&format!("{}y", "x".repeat(299))),
        );
        let (na, nb) = (a.trace_file(), b.trace_file());
        assert!(na.len() <= MAX_NAME + ".jsonl".len(), "{}", na.len());
        assert_ne!(na, nb, "cut names stay unique through the key hash");
    }
}
