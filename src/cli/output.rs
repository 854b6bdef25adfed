//! Writing results: CSV to `--out` or stdout, text to stdout, and the directories that sweeps,
//! reports and exports write into.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use crate::cli::CliError;
use bosweep::io::{format_number, io_reason};

/// Writes equal-length columns under a header as CSV to `out`, or to stdout when `None`. Values
/// are the shortest text that parses back to the same f64 ([`format_number`]), so nothing is
/// lost.
pub fn write_columns(
    out: Option<&Path>,
    names: &[&str],
    columns: &[&[f64]],
) -> Result<(), CliError> {
    match out {
        None => to_stdout(|w| write_csv(w, names, columns)),
        Some(path) => {
            let failed = |e: io::Error| {
                CliError::runtime(format!(
                    "cannot write {}: {}",
                    path.display(),
                    io_reason(&e)
                ))
            };
            let file = File::create(path).map_err(failed)?;
            write_csv(&mut BufWriter::new(file), names, columns).map_err(failed)
        }
    }
}

/// Runs `write` against buffered stdout. A closed pipe (`bosweep … | head`) ends output quietly,
/// as the reader has all it wants; any other failure is a runtime error.
pub fn to_stdout(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), CliError> {
    let mut stdout = BufWriter::new(io::stdout().lock());
    match write(&mut stdout).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(CliError::runtime(format!(
            "cannot write to stdout: {}",
            io_reason(&e)
        ))),
        _ => Ok(()),
    }
}

fn write_csv(w: &mut dyn Write, names: &[&str], columns: &[&[f64]]) -> io::Result<()> {
    writeln!(w, "{}", names.join(","))?;
    let rows = columns.first().map_or(0, |c| c.len());
    for i in 0..rows {
        for (j, column) in columns.iter().enumerate() {
            let sep = if j == 0 { "" } else { "," };
            write!(w, "{sep}{}", format_number(column[i]))?;
        }
        writeln!(w)?;
    }
    w.flush()
}

/// `dir`, given as `what` (`--out`, or the argument's name), as a directory to write into: an
/// existing file there is bad input (exit 2) named as such, rather than the operating system's
/// "File exists" or "Not a directory" once writing starts.
pub fn output_dir<'a>(what: &str, dir: &'a Path) -> Result<&'a Path, CliError> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::usage(format!(
            "{what} {}: the path is a file, not a directory",
            dir.display()
        )));
    }
    Ok(dir)
}

/// Creates `dir` and the directories above it; a failure is a runtime error naming the path.
pub fn create_dir(dir: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        CliError::runtime(format!(
            "cannot create {}: {}",
            dir.display(),
            io_reason(&e)
        ))
    })
}
