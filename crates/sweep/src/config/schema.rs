//! The validated config and what it expands into: [`SweepConfig`], its problem settings, the
//! errors that name file and line, and the two kinds of entry (`[[algorithm]]`, `[[problem]]`).

use std::collections::BTreeMap;
use std::hash::Hasher;

use super::keys::{self, BATCH, ConfigTable, WORKERS};
use crate::plan::{RunSpec, Setting, design_key, run_seed};
use crate::runtime::RuntimeModel;
use crate::schedule::Parallel;
use bosweep_algorithms as algorithms;
use bosweep_core::params::ParamSpec;
use bosweep_problems as problems;

/// The initial design when the config gives no `init` (the default of `bosweep run`).
pub const DEFAULT_INIT: usize = 10;

/// The most runs one config may expand into (a guard against a mistyped grid).
pub const MAX_RUNS: usize = 1_000_000;

/// Why a config was rejected: the file, the line (and for TOML syntax errors the column) and a
/// message naming the key and value; then every further mistake found, each on its own line, so
/// that a config with several is fixed in one go.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}{}", location(file, *line, *column), further(more))]
pub struct ConfigError {
    /// The file name as given to [`SweepConfig::parse`] or [`SweepConfig::load`].
    pub file: String,
    /// 1-based line; `None` when the file could not be read.
    pub line: Option<usize>,
    /// 1-based column (in characters), for TOML syntax errors.
    pub column: Option<usize>,
    /// What is wrong, in words.
    pub message: String,
    /// The mistakes found after this one, in file order. The checks that need a whole config
    /// (building each run, its memory) run only once there are none.
    pub more: Vec<ConfigError>,
}

impl ConfigError {
    /// The first of `errors` with the rest as its [`ConfigError::more`]; `None` when there are
    /// none.
    pub(super) fn all(mut errors: Vec<ConfigError>) -> Option<ConfigError> {
        if errors.is_empty() {
            return None;
        }
        // A mistake found inside another's part of the file carries its own followers.
        let mut flat = Vec::new();
        for mut e in errors.drain(..) {
            let more = std::mem::take(&mut e.more);
            flat.push(e);
            flat.extend(more);
        }
        let mut first = flat.remove(0);
        first.more = flat;
        Some(first)
    }
}

/// The further mistakes, one per line after the first's.
fn further(more: &[ConfigError]) -> String {
    more.iter().map(|e| format!("\n{e}")).collect()
}

/// `file line L, column C`, `file line L` or `file`.
fn location(file: &str, line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(line), Some(column)) => format!("{file} line {line}, column {column}"),
        (Some(line), None) => format!("{file} line {line}"),
        (None, _) => file.to_owned(),
    }
}

impl bosweep_core::data::Failure for ConfigError {
    fn blame(&self) -> bosweep_core::data::Blame {
        bosweep_core::data::Blame::Input
    }
}

/// One problem setting of a sweep with the budget, initial design and runtime model of its
/// runs.
#[derive(Clone, Debug, PartialEq)]
pub struct ProblemSetting {
    /// The problem and its fixed parameters, after grid expansion.
    pub setting: Setting,
    /// Evaluations per run: the entry's own `budget`, else the top-level one.
    pub budget: usize,
    /// Points of each run's initial design, counted in the budget.
    pub init: usize,
    /// The entry's own `runtime`, else the top-level one.
    pub runtime: Option<RuntimeModel>,
}

/// A validated sweep config: every algorithm and problem setting builds.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepConfig {
    pub(super) file_name: String,
    pub(super) text: String,
    pub(super) seed: u64,
    pub(super) replicates: usize,
    pub(super) budget: usize,
    pub(super) init: usize,
    /// The top-level `batch`, `workers` and `runtime`: what a setting does not set itself.
    pub(super) parallel: Parallel,
    pub(super) algorithms: Vec<Setting>,
    pub(super) problems: Vec<ProblemSetting>,
    /// Each (algorithm label, problem label) pair's peak-memory estimate of one run
    /// ([`algorithms::Algorithm::memory_bytes`]), asked of the instances built to validate it.
    pub(super) memory: BTreeMap<(String, String), u64>,
}

impl SweepConfig {
    /// The peak-memory estimate of one run of `run`'s (algorithm, problem) pair, in bytes (0
    /// for a run that is not one of this config's).
    pub fn memory_bytes(&self, run: &RunSpec) -> u64 {
        self.memory
            .get(&(run.algorithm.label(), run.problem.label()))
            .copied()
            .unwrap_or(0)
    }

    /// Every run, in sweep order (see the module documentation), with its index and seed.
    pub fn runs(&self) -> Vec<RunSpec> {
        let mut runs = Vec::with_capacity(self.run_count());
        for problem in &self.problems {
            for algorithm in &self.algorithms {
                for replicate in 0..self.replicates {
                    let parallel = parallel_of(algorithm, problem, &self.parallel);
                    let mut spec = RunSpec {
                        index: runs.len(),
                        algorithm: algorithm.clone().shown_with(&parallel),
                        problem: problem.setting.clone(),
                        replicate,
                        budget: problem.budget,
                        init: problem.init,
                        seed: 0,
                        design_seed: run_seed(self.seed, &design_key(&problem.setting, replicate)),
                        parallel,
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

    /// Runs per (algorithm setting, problem setting) pair, at least 1.
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

/// How the runs of `algorithm` on `problem` evaluate: the setting's `batch` and `workers` where
/// it gives either (a table's mode replaces the config's), else the config's (`defaults`), and
/// the problem's runtime model (its own, else the config's).
pub(super) fn parallel_of(
    algorithm: &Setting,
    problem: &ProblemSetting,
    defaults: &Parallel,
) -> Parallel {
    let own = algorithm.evaluation;
    let (batch, workers) = if own.is_given() {
        (own.batch.unwrap_or(1), own.workers.unwrap_or(1))
    } else {
        (defaults.batch, defaults.workers)
    };
    Parallel {
        batch,
        workers,
        runtime: problem.runtime,
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
pub(super) enum Kind {
    Algorithm,
    Problem,
}

impl Kind {
    pub(super) fn word(self) -> &'static str {
        match self {
            Self::Algorithm => "algorithm",
            Self::Problem => "problem",
        }
    }

    /// The keys of the entry's table that the parser reads itself, not as parameters.
    pub(super) fn reserved(self) -> Vec<&'static str> {
        keys::reserved(match self {
            Self::Algorithm => ConfigTable::Algorithm,
            Self::Problem => ConfigTable::Problem,
        })
    }

    /// The registry entry's name and parameters, or the registry's message listing the names.
    pub(super) fn find(self, name: &str) -> Result<(&'static str, Vec<ParamSpec>), String> {
        match self {
            // The run keys are declared with the algorithm's own, so that they are checked,
            // listed and swept like parameters.
            Self::Algorithm => algorithms::find(name)
                .map(|e| {
                    let mut specs = e.parameters().to_vec();
                    specs.extend([BATCH.spec(), WORKERS.spec()]);
                    (e.name, specs)
                })
                .map_err(|e| e.to_string()),
            Self::Problem => problems::find(name)
                .map(|e| (e.name, e.parameters.to_vec()))
                .map_err(|e| e.to_string()),
        }
    }

    /// Every registered name, comma-separated.
    pub(super) fn known(self) -> String {
        let names: Vec<&str> = match self {
            Self::Algorithm => algorithms::registry().map(|e| e.name).collect(),
            Self::Problem => problems::registry().map(|e| e.name).collect(),
        };
        names.join(", ")
    }

    /// Checks the setting as a run will, returning the registry's message on failure: a
    /// problem is built (its dimension and structure are read from it); an algorithm's
    /// parameters are checked by its declaration and its own checks, without building it.
    pub(super) fn check(
        self,
        setting: &Setting,
    ) -> Result<Option<Box<dyn problems::Problem>>, String> {
        let given = setting.param_values();
        match self {
            Self::Algorithm => algorithms::find(&setting.name)
                .and_then(|entry| entry.check(&given))
                .map(|_| None)
                .map_err(|e| e.to_string()),
            Self::Problem => problems::build(&setting.name, &given)
                .map(Some)
                .map_err(|e| e.to_string()),
        }
    }
}
