//! What can go wrong while reading, writing or using a reference archive set. Every message
//! names the file (and, for runs, the line) or the set.

use std::path::PathBuf;

use crate::report::ReportError;

/// Why an archive set could not be read, created or put beside a sweep.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// A file of the set cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// `archive.toml` is not a set's description.
    #[error("{}: {message}", path.display())]
    Meta {
        /// The description's path (or the shipped set's name).
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// A line of `runs.jsonl` is not an archived run (`line` is 1-based).
    #[error("{} line {line}: {message}", path.display())]
    Run {
        /// The runs file (or the shipped set's name).
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// Neither a directory holding `archive.toml` nor the name of a shipped set.
    #[error(
        "{given}: no such sweep or archive set directory (one with manifest.json or archive.toml), and no shipped archive set of that name (shipped: {})",
        shipped.join(", ")
    )]
    NotFound {
        /// What was given.
        given: String,
        /// The shipped sets' names.
        shipped: Vec<String>,
    },
    /// A sweep directory where an archive set was asked for (`archive show`, `--archive`).
    #[error(
        "{}: a sweep directory, not an archive set; make a set of it with `bosweep archive create {} SET --name NAME --description TEXT`, or compare against it with `bosweep compare`",
        dir.display(),
        dir.display()
    )]
    SweepNotSet {
        /// The directory given.
        dir: PathBuf,
    },
    /// Two different sets of one name put beside one sweep.
    #[error(
        "two different archive sets are named alike ({first}; {second}): their algorithms would share their labels; give one of them"
    )]
    SameName {
        /// The first set's reference.
        first: String,
        /// The second's.
        second: String,
    },
    /// The sweep an archive set is made from cannot be read.
    #[error(transparent)]
    Sweep(#[from] ReportError),
    /// The sweep an archive set is made from has runs without a trace.
    #[error(
        "{}: {missing} of its {total} runs have no trace (not run yet, running or failed); an archive set holds a finished sweep",
        dir.display()
    )]
    Incomplete {
        /// The sweep directory.
        dir: PathBuf,
        /// Runs without a trace.
        missing: usize,
        /// Runs of its manifest.
        total: usize,
    },
    /// The directory to write a set into is not empty.
    #[error("{}: exists and is not empty; an archive set is written into a new directory", path.display())]
    Exists {
        /// The directory.
        path: PathBuf,
    },
    /// A set put beside a sweep ran none of its problems.
    #[error(
        "archive set {set} ran none of this sweep's problems ({}); its problems: {}",
        sweep.join(", "),
        archived.join(", ")
    )]
    NoCommonProblem {
        /// The set's name.
        set: String,
        /// The sweep's problem labels.
        sweep: Vec<String>,
        /// The set's problem labels.
        archived: Vec<String>,
    },
    /// A set put beside a sweep ran the sweep's problems with other budgets only.
    #[error(
        "archive set {set} ran {problem} with a budget of {archived} evaluations, this sweep with {sweep}: runs of different budgets are not compared; give this sweep the set's budget, or leave the set out"
    )]
    OtherBudget {
        /// The set's name.
        set: String,
        /// A problem label both have.
        problem: String,
        /// The set's budget on it.
        archived: usize,
        /// The sweep's.
        sweep: usize,
    },
    /// An archived run keeps only some steps: it has no value at a simulated time.
    #[error(
        "archive set {set}: a report at a simulated time (--time, [report] time) cannot put an archive set beside the sweep (its runs keep only some steps); drop one of them"
    )]
    AtTime {
        /// The set, as given.
        set: String,
    },
}

/// An archive set is the user's input; so is the sweep it is made from, read as a report reads
/// it (a corrupted trace or manifest exits 2 here as in `compare`).
impl bosweep_core::data::Failure for ArchiveError {
    fn blame(&self) -> bosweep_core::data::Blame {
        match self {
            Self::Io { .. } => bosweep_core::data::Blame::Running,
            Self::Sweep(error) => error.blame(),
            _ => bosweep_core::data::Blame::Input,
        }
    }
}
