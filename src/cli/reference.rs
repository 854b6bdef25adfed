//! `bosweep reference`: the reference pages of the user's guide (the command line, the
//! algorithms, the problems, the sweep config keys), written by the binary from its own
//! definitions, as ripgrep's `--generate` writes its man page, so that they cannot say anything
//! the code does not. `--check` compares instead of writing, so a test fails on stale pages.

mod algorithms;
mod commands;
mod config;
mod markdown;
mod problems;

use std::path::{Path, PathBuf};

use super::CliError;
use super::output::{create_dir, output_dir};
use bosweep::io::io_reason;

/// Options of `bosweep reference`.
#[derive(clap::Args, Debug)]
pub struct ReferenceArgs {
    /// Directory of the pages: cli.md, algorithms.md, problems.md and config.md (created where
    /// missing)
    #[arg(long, value_name = "DIR", default_value = "docs/reference")]
    out: PathBuf,
    /// Compare the pages in --out with the code's instead of writing them; exit code 1, naming
    /// each page that differs or is missing, when they do not match
    #[arg(long)]
    check: bool,
}

/// One page: its file name in `--out` and its text.
struct Page {
    file: &'static str,
    text: String,
}

fn pages() -> Vec<Page> {
    vec![
        Page {
            file: "cli.md",
            text: commands::page(),
        },
        Page {
            file: "algorithms.md",
            text: algorithms::page(),
        },
        Page {
            file: "problems.md",
            text: problems::page(),
        },
        Page {
            file: "config.md",
            text: config::page(),
        },
    ]
}

/// Writes the pages into `--out`, or with `--check` compares them with what is there.
pub fn run(args: &ReferenceArgs) -> Result<(), CliError> {
    let dir = output_dir("--out", &args.out)?;
    if args.check {
        check(dir, &pages())
    } else {
        write(dir, &pages())
    }
}

fn write(dir: &Path, pages: &[Page]) -> Result<(), CliError> {
    create_dir(dir)?;
    for page in pages {
        let path = dir.join(page.file);
        std::fs::write(&path, &page.text).map_err(|e| {
            CliError::runtime(format!(
                "cannot write {}: {}",
                path.display(),
                io_reason(&e)
            ))
        })?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Fails (exit code 1) naming every page in `dir` that differs from `pages` or is missing, with
/// the command that writes them again.
fn check(dir: &Path, pages: &[Page]) -> Result<(), CliError> {
    let mut stale = Vec::new();
    for page in pages {
        let path = dir.join(page.file);
        match std::fs::read(&path) {
            Ok(text) if text == page.text.as_bytes() => {}
            Ok(_) => stale.push(format!("{} is out of date", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                stale.push(format!("{} is missing", path.display()));
            }
            Err(e) => {
                return Err(CliError::runtime(format!(
                    "cannot read {}: {}",
                    path.display(),
                    io_reason(&e)
                )));
            }
        }
    }
    if stale.is_empty() {
        return Ok(());
    }
    Err(CliError::runtime(format!(
        "{}; regenerate with: bosweep reference --out {}",
        stale.join(", "),
        dir.display()
    )))
}
