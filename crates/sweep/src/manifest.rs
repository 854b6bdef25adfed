//! The manifest of a sweep directory: which config it belongs to and every run it holds.
//!
//! Layout of a sweep directory:
//! - `config.toml`: the config, copied as given;
//! - `manifest.json`: this file, the full run list (all shards);
//! - `runs/<RunSpec::trace_file>`: one JSONL trace per *completed* run (written as
//!   `<name>.partial` and renamed when complete; resume checks each one again and moves one
//!   that is not whole aside as `<name>.invalid`, then redoes the run);
//! - `.bosweep.lock`: the lock of the sweep writing into the directory ([`super::SweepLock`]);
//! - the reports of `bosweep report`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::plan::RunSpec;

/// The manifest's file name in a sweep directory.
pub(crate) const MANIFEST_FILE: &str = "manifest.json";
/// The file name of the config's copy in a sweep directory.
pub(crate) const CONFIG_FILE: &str = "config.toml";
/// The folder of the completed traces in a sweep directory.
pub(crate) const RUNS_DIR: &str = "runs";

/// `manifest.json`: what identifies a sweep directory's config and lists every run it holds,
/// so that resume, shards, merge and reports agree on the runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// FNV-1a hash of the config text; `merge` refuses directories whose hashes differ.
    pub config_hash: String,
    /// The version of bosweep that created the directory.
    pub bosweep_version: String,
    /// The device the sweep's runs use ([`bosweep_engine::Engine::identity`]); resuming on
    /// another is refused unless asked for. Absent in manifests written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// Every run of the sweep, all shards, in config order.
    pub runs: Vec<RunSpec>,
}

impl Manifest {
    /// Reads `dir`'s manifest; a manifest that does not parse ([`Manifest::parse`]) is
    /// [`std::io::ErrorKind::InvalidData`].
    pub(crate) fn read(dir: &Path) -> std::io::Result<Self> {
        let text = std::fs::read_to_string(dir.join(MANIFEST_FILE))?;
        Self::parse(&text).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }

    /// The manifest in `text`, checked as every reader relies on it: run `i` is at index `i`,
    /// spends at least one evaluation and has no more design points than its budget.
    pub fn parse(text: &str) -> Result<Self, String> {
        let manifest: Self =
            serde_json::from_str(text).map_err(|e| bosweep_core::io::one_line(&e.to_string()))?;
        for (position, run) in manifest.runs.iter().enumerate() {
            let problem = if run.index != position {
                format!("index {} (expected {position})", run.index)
            } else if run.budget == 0 {
                "budget 0 (a run spends at least one evaluation)".to_owned()
            } else if run.init > run.budget {
                format!("init {} above its budget {}", run.init, run.budget)
            } else {
                continue;
            };
            return Err(format!("run {position} ({}): {problem}", run.key()));
        }
        Ok(manifest)
    }

    /// Writes atomically (temporary file, then rename).
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        let tmp = dir.join(format!("{MANIFEST_FILE}.partial"));
        std::fs::write(
            &tmp,
            serde_json::to_string_pretty(self).expect("manifest serialises"),
        )?;
        std::fs::rename(tmp, dir.join(MANIFEST_FILE))
    }

    /// Where run `spec`'s completed trace lives in `dir`.
    pub fn trace_path(dir: &Path, spec: &RunSpec) -> PathBuf {
        dir.join(RUNS_DIR).join(spec.trace_file())
    }
}
