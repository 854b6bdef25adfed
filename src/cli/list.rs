//! `bosweep list`: every algorithm and problem with its parameters and defaults.

use std::io::{self, Write};

use super::CliError;
use super::output::to_stdout;
use super::registry_text::{AcceptedProblems, ProblemFacts, default_text};
use bosweep::algorithms::{self, Requirement};
use bosweep::params::ParamSpec;
use bosweep::problems;

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

fn write_listing(w: &mut dyn Write) -> io::Result<()> {
    writeln!(
        w,
        "Algorithms (--algo NAME, parameters via --param key=value):"
    )?;
    let mut accepted = AcceptedProblems::default();
    for entry in algorithms::registry() {
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
        write_params(w, &entry.parameters.to_vec())?;
    }
    writeln!(w)?;
    writeln!(
        w,
        "Problems (--problem NAME, parameters via --problem-param key=value or --noise-std):"
    )?;
    for entry in problems::registry() {
        // A problem whose data is not on this machine (intel-temp) is listed, not fatal.
        let problem = match entry.build(&[]) {
            Ok(problem) => problem,
            Err(e) => {
                writeln!(
                    w,
                    "  {}: {} (not available at its defaults: {e})",
                    entry.name, entry.description
                )?;
                write_params(w, entry.parameters)?;
                continue;
            }
        };
        let facts = ProblemFacts::of(problem.as_ref());
        writeln!(
            w,
            "  {}: {} (d = {}, {}, optimum {})",
            entry.name, entry.description, facts.dim, facts.sense, facts.optimum
        )?;
        writeln!(w, "      box: {}", facts.domain)?;
        write_params(w, entry.parameters)?;
    }
    Ok(())
}

/// Prints the listing; a reader that closes the pipe early (`bosweep list | head`) ends it
/// quietly.
pub fn run() -> Result<(), CliError> {
    to_stdout(write_listing)
}
