//! What can go wrong while reporting on a sweep directory. Every message names the file (and,
//! for traces, the line).

use std::path::PathBuf;

/// Why a report could not be read from a sweep directory or written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// `manifest.json` is missing, unreadable or not a manifest.
    #[error(
        "cannot read the sweep manifest {}: {}",
        path.display(),
        bosweep_core::io::io_reason(source)
    )]
    Manifest {
        /// The manifest's path.
        path: PathBuf,
        /// Why it could not be read or parsed.
        #[source]
        source: std::io::Error,
    },
    /// The sweep directory's `config.toml` asks for what a report cannot do (its `[report]`
    /// table).
    #[error("{}: {message}", path.display())]
    Config {
        /// The config's path.
        path: PathBuf,
        /// What the report cannot do.
        message: String,
    },
    /// A run's trace under its final name is not its complete run (unreadable, malformed,
    /// another run's, or cut short: [`crate::read_complete`]); nothing was written.
    #[error(
        "{0}; the run is not counted: `bosweep sweep` on this directory moves the trace aside and runs it again"
    )]
    Trace(#[from] crate::TraceError),
    /// A completed run of several objectives whose trace does not give its final front: the
    /// header's `senses` or `reference_point`, or a `front` naming a step it does not hold.
    #[error("{}: {message}", path.display())]
    Front {
        /// The run's trace.
        path: PathBuf,
        /// The field and value that are wrong.
        message: String,
    },
    /// A simulated time was chosen (`[report] time`, `--time`) but a completed run's trace has
    /// no simulated clock (its steps have no `finish`); nothing was written.
    #[error(
        "{} has no simulated time; run with --runtime/--workers/--batch or drop [report] time (and --time)",
        path.display()
    )]
    Untimed {
        /// The run's trace.
        path: PathBuf,
    },
    /// No run of the manifest has a trace under `runs/`; nothing was written.
    #[error(
        "{}: none of the {total} runs in the manifest has completed (no trace under {}); nothing to report",
        dir.display(),
        runs_dir.display()
    )]
    NoCompletedRuns {
        /// The sweep directory.
        dir: PathBuf,
        /// Its `runs/` folder, where no trace was found.
        runs_dir: PathBuf,
        /// Runs the manifest lists.
        total: usize,
    },
    /// Writing a report file failed.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file being written.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A plot `report.md` shows cannot be read to embed it in `report.html`.
    #[error("cannot embed {} in report.html: {source}", path.display())]
    Embed {
        /// The plot's path.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// An archive set to report beside the sweep cannot be read or used (an
    /// [`ArchiveError`](super::archive::ArchiveError)).
    #[error(transparent)]
    Archive(Box<dyn std::error::Error + Send + Sync>),
    /// Drawing a plot failed.
    #[error("cannot draw plot {}: {message}", path.display())]
    Plot {
        /// The plot's path.
        path: PathBuf,
        /// The plotting library's error.
        message: String,
    },
}

/// A sweep directory that cannot be read as one (no manifest, a malformed or incomplete trace,
/// no completed run, a time its runs do not have) and the archive sets put beside it are the
/// user's input, as a malformed file is everywhere (docs/conventions.md, "Exit codes");
/// failing to write or draw the report is a failure while running.
impl bosweep_core::data::Failure for ReportError {
    fn blame(&self) -> bosweep_core::data::Blame {
        use bosweep_core::data::Blame;
        match self {
            Self::Manifest { .. }
            | Self::Config { .. }
            | Self::Trace(_)
            | Self::Front { .. }
            | Self::Untimed { .. }
            | Self::NoCompletedRuns { .. }
            | Self::Archive(_) => Blame::Input,
            Self::Write { .. } | Self::Embed { .. } | Self::Plot { .. } => Blame::Running,
        }
    }
}
