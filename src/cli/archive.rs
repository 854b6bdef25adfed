//! `bosweep archive`: list the archive sets bosweep ships, show one, and make a set from a
//! finished sweep directory.

use std::path::PathBuf;
use std::process::Command;

use super::CliError;
use bosweep::report::archive::{
    ArchiveMeta, ArchivedSet, NewSet, create_archive, open_set, shipped_sets,
};

/// `bosweep archive …`.
#[derive(clap::Subcommand, Debug)]
pub enum ArchiveCommand {
    /// List the archive sets shipped with bosweep.
    List,
    /// Describe an archive set: a set's directory or a shipped set's name.
    Show {
        /// The set.
        set: String,
    },
    /// Make an archive set from a finished sweep directory.
    Create(CreateArgs),
}

/// Options of `bosweep archive create`.
#[derive(clap::Args, Debug)]
pub struct CreateArgs {
    /// The finished sweep directory (every run with a trace).
    sweep: PathBuf,
    /// The new set's directory (created; refused where it exists and is not empty).
    out: PathBuf,
    /// The set's name: lower-case letters, digits and -. Reports append it to its algorithms
    #[arg(long)]
    name: String,
    /// What the set holds, in a sentence or two
    #[arg(long)]
    description: String,
    /// The set's version, from 1; raise it whenever the set is made again
    #[arg(long, default_value_t = 1)]
    version: u32,
    /// The commit of bosweep that ran the sweep. Default: `git rev-parse --short HEAD` here
    #[arg(long)]
    commit: Option<String>,
    /// The command that ran the sweep. Default: `bosweep sweep config.toml`, the set's config
    #[arg(long, default_value = "bosweep sweep config.toml")]
    command: String,
}

pub fn archive_command(command: &ArchiveCommand) -> Result<(), CliError> {
    match command {
        ArchiveCommand::List => {
            for name in shipped_sets() {
                let set = open_set(name)?;
                println!(
                    "{:<22} v{}  {:>5} runs  {}",
                    name,
                    set.meta.version,
                    set.runs(),
                    set.meta.description.trim()
                );
            }
            Ok(())
        }
        ArchiveCommand::Show { set } => {
            print!("{}", describe(&open_set(set)?));
            Ok(())
        }
        ArchiveCommand::Create(args) => create(args),
    }
}

fn create(args: &CreateArgs) -> Result<(), CliError> {
    let commit = match &args.commit {
        Some(commit) => commit.clone(),
        None => head_commit().ok_or_else(|| {
            CliError::usage(
                "--commit: not in a git checkout here; give the commit that ran the sweep",
            )
        })?,
    };
    let new = NewSet {
        name: args.name.clone(),
        version: args.version,
        description: args.description.clone(),
        commit,
        command: args.command.clone(),
    };
    let meta = create_archive(&args.sweep, &args.out, &new)?;
    println!(
        "archive set {} written to {} ({} runs)",
        meta.reference(),
        args.out.display(),
        meta.runs
    );
    Ok(())
}

/// The short hash of the checkout's HEAD, where the current directory is in one.
fn head_commit() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()?;
    let hash = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (out.status.success() && !hash.is_empty()).then_some(hash)
}

/// A set's description, problems and algorithms, as `show` prints them.
fn describe(set: &ArchivedSet) -> String {
    let ArchiveMeta {
        name,
        version,
        description,
        created,
        bosweep_version,
        commit,
        device,
        command,
        runs,
    } = &set.meta;
    format!(
        "{name} v{version} ({})\n{}\n\
         runs: {runs}\ncreated: {created}\nbosweep: {bosweep_version}, commit {commit}\n\
         device: {device}\ncommand: {command}\nproblems ({}): {}\nalgorithms ({}): {}\n",
        set.origin,
        description.trim(),
        set.problems().len(),
        set.problems().join(", "),
        set.algorithms().len(),
        set.algorithms().join(", "),
    )
}
