//! What can go wrong while comparing two sweep directories. Every message names the directory
//! and, where one is to blame, the algorithm, problem and replicate.

use std::path::PathBuf;

use crate::report::ReportError;

/// Why two sweeps could not be compared, or the comparison not written.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A sweep directory cannot be read (no manifest, a malformed trace, no completed run); the
    /// report's error names the directory or file already.
    #[error("{source}")]
    Read {
        /// The directory given.
        dir: PathBuf,
        /// Why the report's loading refused it.
        #[source]
        source: ReportError,
    },
    /// Two runs of one algorithm, problem and replicate that cannot be paired: their initial
    /// designs or budgets differ, so their difference would not measure the algorithm's change.
    #[error(
        "cannot pair {} on {}, replicate {}, of {} and {}: {}",
        .0.algorithm,
        .0.problem,
        .0.replicate,
        .0.a.display(),
        .0.b.display(),
        .0.reason
    )]
    Unpairable(Box<UnpairableRuns>),
    /// Not one run of A has a completed partner in B.
    #[error("nothing to compare between {} and {}: {reason}", a.display(), b.display())]
    NothingToPair {
        /// The first sweep directory (A).
        a: PathBuf,
        /// The second sweep directory (B).
        b: PathBuf,
        /// Why: no common algorithm, or no run completed on both sides.
        reason: String,
    },
    /// A budget fraction outside (0, 1].
    #[error("budget fraction {0}: expected a number in (0, 1]")]
    Budget(f64),
    /// An archive set side cannot be read.
    #[error(transparent)]
    Archive(#[from] crate::report::archive::ArchiveError),
    /// A budget fraction at which an archive set's runs keep no value.
    #[error(
        "budget fraction {fraction}: archive set {set} keeps its runs' values at 0.25, 0.5, 0.75 and 1 of the budget only"
    )]
    ArchiveBudget {
        /// The set's name.
        set: String,
        /// The fraction asked for.
        fraction: f64,
    },
    /// Writing the comparison's files failed.
    #[error(transparent)]
    Write(ReportError),
}

/// Directories that cannot be read or paired are the user's input; writing is the run's.
impl bosweep_core::data::Failure for CompareError {
    fn blame(&self) -> bosweep_core::data::Blame {
        match self {
            Self::Write(_) => bosweep_core::data::Blame::Running,
            _ => bosweep_core::data::Blame::Input,
        }
    }
}

/// The runs of [`CompareError::Unpairable`] (boxed: the error stays small on the happy path).
#[derive(Debug)]
pub struct UnpairableRuns {
    /// The first sweep directory (A).
    pub a: PathBuf,
    /// The second sweep directory (B).
    pub b: PathBuf,
    /// The algorithm's display label.
    pub algorithm: String,
    /// The problem's label.
    pub problem: String,
    /// The 0-based replicate.
    pub replicate: usize,
    /// What differs.
    pub reason: String,
}
