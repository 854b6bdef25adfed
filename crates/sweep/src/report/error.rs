//! What can go wrong while reporting on a sweep directory. Every message names the file (and,
//! for traces, the line).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// `manifest.json` is missing, unreadable or not a manifest.
    #[error("cannot read the sweep manifest {}: {source}", path.display())]
    Manifest {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The sweep directory's `config.toml` asks for what a report cannot do (its `[report]`
    /// table).
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    /// A completed run's trace exists but cannot be read.
    #[error("cannot read trace {}: {source}", path.display())]
    TraceIo {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A trace that is not valid JSONL in the trace schema (`line` is 1-based; the header is
    /// line 1).
    #[error("{} line {line}: {message}", path.display())]
    Trace {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// No run of the manifest has a trace under `runs/`; nothing was written.
    #[error(
        "{}: none of the {total} runs in the manifest has completed (no trace under {}); nothing to report",
        dir.display(),
        runs_dir.display()
    )]
    NoCompletedRuns {
        dir: PathBuf,
        runs_dir: PathBuf,
        total: usize,
    },
    /// Writing a report file failed.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A plot `report.md` shows cannot be read to embed it in `report.html`.
    #[error("cannot embed {} in report.html: {source}", path.display())]
    Embed {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Drawing a plot failed.
    #[error("cannot draw plot {}: {message}", path.display())]
    Plot { path: PathBuf, message: String },
}

/// The sweep directory was accepted when the sweep ran; what fails while reporting on it is a
/// failure while running.
impl bosweep_core::data::Failure for ReportError {
    fn blame(&self) -> bosweep_core::data::Blame {
        bosweep_core::data::Blame::Running
    }
}
