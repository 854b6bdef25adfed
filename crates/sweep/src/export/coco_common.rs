//! What the exports of `bbob`, `bbob-constrained` and `bbob-biobj` runs share: their error, C's number notation,
//! writing a file, an algorithm setting's folder name and reading a built problem's integer
//! parameters.

use std::path::{Path, PathBuf};

use crate::Setting;
use crate::report::{ReportError, file_safe};
use bosweep_problems::{ParamValue, Problem};

/// Why [`super::export_coco`] could not write COCO's files.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The manifest or a trace cannot be read (the error names the file and line).
    #[error(transparent)]
    Read(#[from] ReportError),
    /// A step whose `f` or `y` (a `bbob-biobj` step's `hypervolume`) the trace wrote as `null`
    /// (not finite): COCO's files have no place for it.
    #[error("{} step {iter}: \"{field}\" is not finite (null in the trace)", path.display())]
    NotFinite {
        /// The trace.
        path: PathBuf,
        /// The step's 1-based `iter`.
        iter: usize,
        /// `"f"`, `"y"` or `"hypervolume"`.
        field: &'static str,
    },
    /// A run's problem cannot be rebuilt from its recorded parameters, so its `f_opt` (ideal and
    /// nadir points) is unknown.
    #[error("run {run}: cannot build its problem: {message}")]
    Problem {
        /// The run's key.
        run: String,
        /// The problem's error.
        message: String,
    },
    /// Writing an export file, or creating its folder, failed.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The sweep has no completed `bbob`, `bbob-constrained` or `bbob-biobj` run.
    #[error(
        "{}: no completed run on the problem bbob, bbob-constrained or bbob-biobj; nothing to export",
        dir.display()
    )]
    NothingToExport {
        /// The sweep directory.
        dir: PathBuf,
    },
}

/// A sweep that cannot be read (a trace cut short, a malformed manifest) or holds nothing to
/// export is the user's input, as for every reader of a sweep; writing is the run's.
impl bosweep_core::data::Failure for ExportError {
    fn blame(&self) -> bosweep_core::data::Blame {
        match self {
            Self::Read(error) => error.blame(),
            Self::NothingToExport { .. } => bosweep_core::data::Blame::Input,
            _ => bosweep_core::data::Blame::Running,
        }
    }
}

/// The algorithm setting's label as a file name ([`file_safe`]): a folder name cocopp also
/// shows as the algorithm's name.
pub(super) fn folder_name(setting: &Setting) -> String {
    file_safe(&setting.label())
}

/// An integer parameter of a built `bbob`, `bbob-constrained` or `bbob-biobj` problem (its full parameter list has defaults too).
pub(super) fn integer_parameter(problem: &dyn Problem, name: &str) -> usize {
    problem
        .parameters()
        .into_iter()
        .find_map(|(key, value)| match value {
            ParamValue::Number(v) if key == name => Some(v as usize),
            _ => None,
        })
        .expect("bbob, bbob-constrained and bbob-biobj declare function, instance and dim")
}

/// `x` as C's `%+.{digits}e` prints it (`+1.234e+05`), the notation of COCO's files.
pub(super) fn c_exp(x: f64, digits: usize) -> String {
    let rust = format!("{x:+.digits$e}");
    let (mantissa, exponent) = rust.split_once('e').expect("exponent notation");
    let exponent: i32 = exponent.parse().expect("an integer exponent");
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

pub(super) fn write_file(path: &Path, contents: &str) -> Result<(), ExportError> {
    let write = || {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, contents)
    };
    write().map_err(|source| ExportError::Write {
        path: path.to_path_buf(),
        source,
    })
}
