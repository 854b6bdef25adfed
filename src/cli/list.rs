//! `bosweep list`: the catalogue of algorithms and problems. By default one line each; a name
//! gives that entry's details (parameters, what it accepts, a family's members); `--with`
//! filters by what a method needs or can do and what a problem has; `--long` prints every
//! entry's details.

use std::io::{self, Write};

use clap::Args;

use super::CliError;
use super::output::to_stdout;
use super::registry_text::{
    AcceptedProblems, Feature, ProblemFacts, algorithm_tags, default_text, family_members,
    features, problem_tags,
};
use bosweep::algorithms::{self, Algorithm, AlgorithmEntry, Requirement};
use bosweep::io::did_you_mean;
use bosweep::params::ParamSpec;
use bosweep::problems::{self, Entry, Problem};

#[derive(Debug, Args)]
pub struct ListArgs {
    /// `algorithms`, `problems`, or one algorithm's or problem's name for its details
    /// (parameters, what it accepts, a family's members such as bbob's 24 functions); both
    /// kinds, one line each, when left out.
    pub what: Option<String>,
    /// Only the entries that need, can do or have FEATURE (repeat for several, all of which
    /// must hold); a feature about algorithms only (batch, python) leaves the problems out.
    #[arg(long = "with", value_name = "FEATURE", value_enum)]
    pub with: Vec<Feature>,
    /// Every entry's details: parameters with defaults, ranges and meanings.
    #[arg(long)]
    pub long: bool,
}

/// Which kinds of entry a listing shows.
#[derive(Clone, Copy, PartialEq)]
enum Kinds {
    Both,
    Algorithms,
    Problems,
}

/// One algorithm with its build at its defaults (`None` where it has none).
struct AlgorithmRow {
    entry: &'static AlgorithmEntry,
    built: Option<Box<dyn Algorithm>>,
}

impl AlgorithmRow {
    fn all() -> Vec<Self> {
        algorithms::registry()
            .map(|entry| Self {
                entry,
                built: entry.build(&[]).ok(),
            })
            .collect()
    }

    fn has(&self, feature: Feature) -> bool {
        feature.of_algorithm(self.entry, self.built.as_deref())
    }
}

/// One problem with its build at its defaults, or why it has none (intel-temp without its data).
struct ProblemRow {
    entry: &'static Entry,
    built: Result<Box<dyn Problem>, String>,
}

impl ProblemRow {
    fn all() -> Vec<Self> {
        problems::registry()
            .map(|entry| Self {
                entry,
                built: entry.build(&[]).map_err(|e| e.to_string()),
            })
            .collect()
    }

    /// `false` for a problem that does not build, as nothing can be said of it.
    fn has(&self, feature: Feature) -> bool {
        match &self.built {
            Ok(problem) => feature.of_problem(problem.as_ref()) == Some(true),
            Err(_) => false,
        }
    }
}

fn write_params(w: &mut dyn Write, params: &[ParamSpec]) -> io::Result<()> {
    for p in params {
        writeln!(
            w,
            "      {} = {}  ({}; {})",
            p.name,
            default_text(p),
            p.kind.accepted(),
            p.description
        )?;
    }
    Ok(())
}

/// `  name  description  [tags]` with names padded to `width`.
fn write_line(
    w: &mut dyn Write,
    width: usize,
    name: &str,
    text: &str,
    tags: &[&str],
) -> io::Result<()> {
    let tags = if tags.is_empty() {
        String::new()
    } else {
        format!("  [{}]", tags.join(", "))
    };
    writeln!(w, "  {name:width$}  {text}{tags}")
}

fn write_algorithm_details(
    w: &mut dyn Write,
    row: &AlgorithmRow,
    accepted: &mut AcceptedProblems,
) -> io::Result<()> {
    let entry = row.entry;
    writeln!(w, "  {}: {}", entry.name, entry.description)?;
    let requirement = entry.requires;
    if requirement == Requirement::Any {
        writeln!(w, "      accepts: any problem")?;
    } else {
        writeln!(
            w,
            "      accepts: {}: {}",
            requirement.describe(),
            accepted.of(requirement).join(", ")
        )?;
    }
    let batches = match &row.built {
        Some(a) if a.accepts_pending() => "yes (batch or workers above 1)",
        Some(_) => "no (one point at a time)",
        None => "as its parameters say",
    };
    writeln!(w, "      batches: {batches}")?;
    write_params(w, entry.parameters())
}

fn write_problem_details(w: &mut dyn Write, row: &ProblemRow) -> io::Result<()> {
    let entry = row.entry;
    match &row.built {
        Ok(problem) => {
            let facts = ProblemFacts::of(problem.as_ref());
            writeln!(
                w,
                "  {}: {} (d = {}, {}, optimum {})",
                entry.name, entry.description, facts.dim, facts.sense, facts.optimum
            )?;
            writeln!(w, "      box: {}", facts.domain)?;
        }
        // A problem whose data is not on this machine (intel-temp) is listed, not fatal.
        Err(e) => writeln!(
            w,
            "  {}: {} (not available at its defaults: {e})",
            entry.name, entry.description
        )?,
    }
    write_params(w, entry.parameters)?;
    if let Some((key, members)) = family_members(entry) {
        writeln!(w, "      {key}:")?;
        for (value, title) in members {
            writeln!(w, "        {value:>3}  {title}")?;
        }
    }
    Ok(())
}

/// The listing of `kinds`, filtered by `with`, one line each or (`long`) in detail.
fn write_listing(w: &mut dyn Write, kinds: Kinds, with: &[Feature], long: bool) -> io::Result<()> {
    let mut accepted = AcceptedProblems::default();
    let mut written = false;
    if kinds != Kinds::Problems {
        let rows: Vec<AlgorithmRow> = AlgorithmRow::all()
            .into_iter()
            .filter(|row| with.iter().all(|f| row.has(*f)))
            .collect();
        writeln!(
            w,
            "Algorithms ({}; --algo NAME, parameters via --param key=value):",
            rows.len()
        )?;
        let width = rows.iter().map(|r| r.entry.name.len()).max().unwrap_or(0);
        for row in &rows {
            if long {
                write_algorithm_details(w, row, &mut accepted)?;
            } else {
                let tags = algorithm_tags(row.entry, row.built.as_deref());
                write_line(w, width, row.entry.name, row.entry.description, &tags)?;
            }
        }
        written = true;
    }
    if kinds != Kinds::Algorithms && with.iter().all(|f| f.is_about_problems()) {
        if written {
            writeln!(w)?;
        }
        let rows: Vec<ProblemRow> = ProblemRow::all()
            .into_iter()
            .filter(|row| with.iter().all(|f| row.has(*f)))
            .collect();
        writeln!(
            w,
            "Problems ({}; --problem NAME, parameters via --problem-param key=value or --noise-std):",
            rows.len()
        )?;
        let width = rows.iter().map(|r| r.entry.name.len()).max().unwrap_or(0);
        for row in &rows {
            if long {
                write_problem_details(w, row)?;
                continue;
            }
            let (text, tags) = match &row.built {
                Ok(problem) => {
                    let facts = ProblemFacts::of(problem.as_ref());
                    (
                        format!(
                            "d = {}, {}: {}",
                            facts.dim, facts.sense, row.entry.description
                        ),
                        problem_tags(problem.as_ref()),
                    )
                }
                // Its dimension and sense come from parameters it has no defaults for.
                Err(_) => (row.entry.description.to_owned(), Vec::new()),
            };
            write_line(w, width, row.entry.name, &text, &tags)?;
        }
        written = true;
    }
    if !written {
        let about_algorithms: Vec<String> = with
            .iter()
            .filter(|f| !f.is_about_problems())
            .map(|f| f.name())
            .collect();
        writeln!(
            w,
            "No problems: --with {} is about algorithms only.",
            about_algorithms.join(", --with ")
        )?;
    } else if !long {
        let names: Vec<String> = features().map(Feature::name).collect();
        writeln!(
            w,
            "\n`bosweep list NAME` gives one entry's parameters; `--long` every entry's; `--with \
             {}` filters.",
            names.join("|")
        )?;
    }
    Ok(())
}

/// The details of the algorithm or problem `name` (a name may be both, as no registry
/// forbids it: both are shown).
fn write_entry(w: &mut dyn Write, name: &str) -> io::Result<bool> {
    let mut found = false;
    if let Some(row) = AlgorithmRow::all()
        .into_iter()
        .find(|r| r.entry.name == name)
    {
        writeln!(w, "Algorithm (--algo {name}):")?;
        write_algorithm_details(w, &row, &mut AcceptedProblems::default())?;
        found = true;
    }
    if let Some(row) = ProblemRow::all().into_iter().find(|r| r.entry.name == name) {
        writeln!(w, "Problem (--problem {name}):")?;
        write_problem_details(w, &row)?;
        found = true;
    }
    Ok(found)
}

/// Prints the listing; a reader that closes the pipe early (`bosweep list | head`) ends it
/// quietly. An unknown name is bad input (exit 2) with the nearest known names.
pub fn run(args: &ListArgs) -> Result<(), CliError> {
    let kinds = match args.what.as_deref() {
        None => Kinds::Both,
        Some("algorithms") => Kinds::Algorithms,
        Some("problems") => Kinds::Problems,
        Some(name) => {
            if !args.with.is_empty() || args.long {
                return Err(CliError::usage(format!(
                    "bosweep list {name}: --with and --long list many entries; give them without \
                     a name"
                )));
            }
            let mut found = false;
            to_stdout(|w| {
                found = write_entry(w, name)?;
                Ok(())
            })?;
            if found {
                return Ok(());
            }
            let mut known: Vec<&str> = vec!["algorithms", "problems"];
            known.extend(algorithms::registry().map(|e| e.name));
            known.extend(problems::registry().map(|e| e.name));
            let hint = did_you_mean(name, &known)
                .unwrap_or_else(|| "`bosweep list` names them all".to_owned());
            return Err(CliError::usage(format!(
                "bosweep list: no algorithm or problem is named \"{name}\" ({hint})"
            )));
        }
    };
    to_stdout(|w| write_listing(w, kinds, &args.with, args.long))
}
