//! The reference archive: finished sweeps kept as compact result sets, so that a new sweep can
//! be reported and compared beside them without running them again.
//!
//! A set is a directory of three files:
//!
//! - `archive.toml` ([`ArchiveMeta`]): its name and version, what it holds, when, with which
//!   bosweep version and commit, on which device, by which command, and its number of runs;
//! - `config.toml`: the sweep config that produced it, as run;
//! - `runs.jsonl`: one line per run, the run as the manifest lists it with its trace's sense and
//!   device, its steps' number and seconds, and the steps it keeps as columns (`keep`: its
//!   ends, its quarters of the budget and its first step to each precision target, so that its
//!   final values, its values at each quarter of the budget, ERT and runtime distributions are
//!   exact; its curves between those steps are not kept).
//!
//! [`create_archive`] writes a set from a finished sweep directory; [`open_set`] reads one from a
//! directory or by the name of a set bosweep ships ([`shipped_sets`], compiled in from the
//! repository's `archive/` directory). A report puts sets beside its sweep (`beside`) and a
//! comparison reads one as either side.

mod beside;
mod error;
mod keep;
mod record;
mod shipped;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use bosweep_core::io::one_line;

use super::first_appearances;
use super::load::{self, CompletedRun, Sweep};
use crate::{CONFIG_FILE, Manifest};
pub(crate) use beside::{ArchiveUse, beside};
pub use error::ArchiveError;
pub use keep::KEPT_FRACTIONS;
pub(crate) use keep::{evals_at, is_kept_fraction};
use record::RunRecord;

/// A set's description, in its directory.
pub const ARCHIVE_FILE: &str = "archive.toml";
/// A set's runs, one JSON object per line, in its directory.
pub const ARCHIVE_RUNS_FILE: &str = "runs.jsonl";

/// What `archive.toml` says of a set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveMeta {
    /// Its name: lower-case letters, digits and `-`; reports append it to the set's algorithms.
    pub name: String,
    /// Its version, from 1: raised whenever the set is made again.
    pub version: u32,
    /// What it holds, in a sentence or two.
    pub description: String,
    /// When it was made (UTC).
    pub created: String,
    /// The bosweep version that made it.
    pub bosweep_version: String,
    /// The commit of bosweep that ran the sweep.
    pub commit: String,
    /// The device of its runs (the manifest's).
    pub device: String,
    /// The command that ran the sweep.
    pub command: String,
    /// The runs it holds (the lines of `runs.jsonl`).
    pub runs: usize,
}

impl ArchiveMeta {
    /// `bbob-baselines v1 (commit 7488529, cpu (f64))`: how reports name the set.
    pub fn reference(&self) -> String {
        format!(
            "{} v{} (commit {}, {})",
            self.name, self.version, self.commit, self.device
        )
    }
}

/// A set read from a directory or from those bosweep ships.
pub struct ArchivedSet {
    /// Its description.
    pub meta: ArchiveMeta,
    /// The config of the sweep that produced it.
    pub config: String,
    /// Where it was read from: its directory, or `shipped with bosweep`.
    pub origin: String,
    pub(crate) runs: Vec<CompletedRun>,
}

impl ArchivedSet {
    /// Reads the set in `dir`.
    pub fn read(dir: &Path) -> Result<Self, ArchiveError> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read_to_string(&path).map_err(|source| ArchiveError::Io { path, source })
        };
        Self::parse(
            Files {
                meta: &read(ARCHIVE_FILE)?,
                config: &read(CONFIG_FILE)?,
                runs: &read(ARCHIVE_RUNS_FILE)?,
            },
            dir,
            dir.display().to_string(),
        )
    }

    /// The set whose three files hold `meta`, `config` and `runs`, named in messages as the
    /// files of `dir` (what the fuzz target reads; [`ArchivedSet::read`] reads a directory).
    pub fn from_texts(
        meta: &str,
        config: &str,
        runs: &str,
        dir: &Path,
    ) -> Result<Self, ArchiveError> {
        Self::parse(Files { meta, config, runs }, dir, dir.display().to_string())
    }

    /// The set of `files`, which `dir` names in messages.
    fn parse(files: Files, dir: &Path, origin: String) -> Result<Self, ArchiveError> {
        let meta_path = dir.join(ARCHIVE_FILE);
        let meta_error = |message: String| ArchiveError::Meta {
            path: meta_path.clone(),
            message: one_line(&message),
        };
        let meta: ArchiveMeta =
            toml::from_str(files.meta).map_err(|e| meta_error(e.message().to_owned()))?;
        check_name(&meta.name).map_err(&meta_error)?;
        if meta.version == 0 {
            return Err(meta_error("version: versions count from 1".into()));
        }
        let runs_path = dir.join(ARCHIVE_RUNS_FILE);
        let runs = files
            .runs
            .lines()
            .enumerate()
            .map(|(i, line)| {
                let error = |message: String| ArchiveError::Run {
                    path: runs_path.clone(),
                    line: i + 1,
                    message: one_line(&message),
                };
                serde_json::from_str::<RunRecord>(line)
                    .map_err(|e| error(e.to_string()))?
                    .into_run()
                    .map_err(error)
            })
            .collect::<Result<Vec<_>, _>>()?;
        if runs.len() != meta.runs {
            return Err(meta_error(format!(
                "runs: {} but {} holds {} runs",
                meta.runs,
                ARCHIVE_RUNS_FILE,
                runs.len()
            )));
        }
        Ok(Self {
            meta,
            config: files.config.to_owned(),
            origin,
            runs,
        })
    }

    /// The runs it holds.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Its problems' labels, in run order.
    pub fn problems(&self) -> Vec<String> {
        first_appearances(self.runs.iter().map(|r| r.spec.problem.label()))
    }

    /// Its algorithms' display labels, in run order.
    pub fn algorithms(&self) -> Vec<String> {
        first_appearances(self.runs.iter().map(|r| r.spec.algorithm.display_label()))
    }

    /// The set as a finished sweep with its own algorithm labels (a comparison's side).
    pub(crate) fn into_sweep(self) -> Sweep {
        Sweep {
            config: Some(self.config),
            runs: self.runs.iter().map(|r| r.spec.clone()).collect(),
            completed: self.runs,
            missing: Vec::new(),
            steps: Vec::new(),
        }
    }
}

/// The texts of a set's three files.
struct Files<'a> {
    meta: &'a str,
    config: &'a str,
    runs: &'a str,
}

/// The names of the sets bosweep ships.
pub fn shipped_sets() -> Vec<&'static str> {
    shipped::SHIPPED.iter().map(|s| s.name).collect()
}

/// The set in the directory `given` (one holding `archive.toml`), else the shipped set named
/// `given`. A sweep directory is refused as one.
pub fn open_set(given: &str) -> Result<ArchivedSet, ArchiveError> {
    let dir = Path::new(given);
    if dir.join(ARCHIVE_FILE).is_file() {
        return ArchivedSet::read(dir);
    }
    if dir.join(crate::MANIFEST_FILE).is_file() {
        return Err(ArchiveError::SweepNotSet {
            dir: dir.to_path_buf(),
        });
    }
    match shipped::SHIPPED.iter().find(|s| s.name == given) {
        Some(set) => ArchivedSet::parse(
            Files {
                meta: set.meta,
                config: set.config,
                runs: set.runs,
            },
            &Path::new("archive").join(set.name),
            "shipped with bosweep".into(),
        ),
        None => Err(ArchiveError::NotFound {
            given: given.to_owned(),
            shipped: shipped_sets().iter().map(|s| s.to_string()).collect(),
        }),
    }
}

/// The sets `given` ([`open_set`]), each once: a set given twice (by one name or by two
/// paths) is put beside a sweep once; two different sets of one name are refused, since their
/// algorithms would share their labels.
pub fn open_sets(given: &[String]) -> Result<Vec<ArchivedSet>, ArchiveError> {
    let mut sets: Vec<ArchivedSet> = Vec::new();
    for name in given {
        let set = open_set(name)?;
        match sets.iter().find(|s| s.meta.name == set.meta.name) {
            None => sets.push(set),
            Some(same) if same.meta == set.meta => {}
            Some(other) => {
                return Err(ArchiveError::SameName {
                    first: other.meta.reference(),
                    second: set.meta.reference(),
                });
            }
        }
    }
    Ok(sets)
}

/// Whether `path` is a set's directory.
pub fn is_set_dir(path: &Path) -> bool {
    path.join(ARCHIVE_FILE).is_file()
}

/// What [`create_archive`] records of a new set beyond what the sweep says.
#[derive(Clone, Debug, PartialEq)]
pub struct NewSet {
    /// Its name ([`ArchiveMeta::name`]).
    pub name: String,
    /// Its version, from 1.
    pub version: u32,
    /// What it holds.
    pub description: String,
    /// The commit of bosweep that ran the sweep.
    pub commit: String,
    /// The command that ran the sweep.
    pub command: String,
}

/// Writes the finished sweep in `sweep_dir` as an archive set into `out` (created; refused
/// where it exists and is not empty), and returns its description. Refuses a sweep with runs
/// that have no trace.
pub fn create_archive(
    sweep_dir: &Path,
    out: &Path,
    new: &NewSet,
) -> Result<ArchiveMeta, ArchiveError> {
    let bad = |message: String| ArchiveError::Meta {
        path: PathBuf::from(format!("archive set {:?}", new.name)),
        message,
    };
    check_name(&new.name).map_err(bad)?;
    if new.version == 0 {
        return Err(bad("version: versions count from 1".into()));
    }
    let sweep = load::load_sweep(sweep_dir)?;
    if !sweep.missing.is_empty() {
        return Err(ArchiveError::Incomplete {
            dir: sweep_dir.to_path_buf(),
            missing: sweep.missing.len(),
            total: sweep.runs.len(),
        });
    }
    let manifest = Manifest::read(sweep_dir).map_err(|source| ArchiveError::Io {
        path: sweep_dir.join(crate::MANIFEST_FILE),
        source,
    })?;
    let mut lines = String::new();
    for run in &sweep.completed {
        let kept = keep::kept_steps(&run.trace, run.spec.budget);
        let line =
            serde_json::to_string(&RunRecord::of(run, &kept)).expect("an archived run serialises");
        lines.push_str(&line);
        lines.push('\n');
    }
    let meta = ArchiveMeta {
        name: new.name.clone(),
        version: new.version,
        description: new.description.clone(),
        created: crate::lock::utc_now(),
        bosweep_version: manifest.bosweep_version,
        commit: new.commit.clone(),
        device: manifest.device.unwrap_or_else(|| "unrecorded".into()),
        command: new.command.clone(),
        runs: sweep.completed.len(),
    };
    let io = |path: PathBuf| move |source| ArchiveError::Io { path, source };
    if std::fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(ArchiveError::Exists {
            path: out.to_path_buf(),
        });
    }
    std::fs::create_dir_all(out).map_err(io(out.to_path_buf()))?;
    let write = |name: &str, text: &str| {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(io(path))
    };
    write(
        ARCHIVE_FILE,
        &toml::to_string(&meta).expect("a set's description serialises"),
    )?;
    write(CONFIG_FILE, sweep.config.as_deref().unwrap_or(""))?;
    write(ARCHIVE_RUNS_FILE, &lines)?;
    Ok(meta)
}

/// A set's name: lower-case letters, digits and `-`, not empty.
fn check_name(name: &str) -> Result<(), String> {
    let fine = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    fine.then_some(()).ok_or_else(|| {
        format!("name: {name:?} is not a set's name (lower-case letters, digits and -)")
    })
}
