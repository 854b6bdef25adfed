//! problems.md: every registered problem with its facts at its defaults and its parameters.

use std::fmt::Write;

use super::markdown::{params, title};
use crate::cli::registry_text::{ProblemFacts, family_members};
use bosweep::problems::time_varying::intel;
use bosweep::problems::{self, Entry};

/// Problems built from a file on the user's machine, with the environment variable that names
/// it: whether they build, and their dimension and box, depend on the machine, so the pages
/// never build them and leave them out of the problems an algorithm accepts.
const LOCAL_DATA: &[(&str, &str)] = &[("intel-temp", intel::DATA_ENV)];

/// The environment variable naming the local data problem `name` is built from, if it is one.
pub fn local_data(name: &str) -> Option<&'static str> {
    LOCAL_DATA
        .iter()
        .find_map(|&(problem, variable)| (problem == name).then_some(variable))
}

pub fn page() -> String {
    let mut text = title("Problems reference", "the problem registry");
    text.push_str(
        "\nEach problem as it is at its defaults, then its parameters, which a `[[problem]]` \
         table of a sweep config ([config keys](config.md)) or `bosweep run --problem-param \
         key=value` sets. `bosweep list` prints the same in a terminal.\n",
    );
    for entry in problems::registry() {
        let _ = write!(text, "\n## {}\n\n{}\n\n", entry.name, entry.description);
        text.push_str(&facts(entry));
        text.push('\n');
        text.push_str(&params(entry.parameters));
        text.push_str(&members(entry));
    }
    text
}

/// A numbered family's members (`bbob`'s 24 functions) as a table, or nothing.
fn members(entry: &Entry) -> String {
    let Some((key, members)) = family_members(entry) else {
        return String::new();
    };
    let mut text = format!("\nThe members, by `{key}`:\n\n| `{key}` | name |\n|---|---|\n");
    for (value, title) in members {
        let _ = writeln!(text, "| {value} | {title} |");
    }
    text
}

/// Dimension, sense, optimum and box at the defaults, or why the problem has none.
fn facts(entry: &Entry) -> String {
    if let Some(variable) = local_data(entry.name) {
        return format!(
            "Not available at its defaults: it is built from a local copy of its data, named by \
             `${variable}`, which sets its dimension and box.\n"
        );
    }
    match entry.build(&[]) {
        Ok(problem) => {
            let facts = ProblemFacts::of(problem.as_ref());
            format!(
                "- Dimension: {}\n- Sense: {}\n- Optimum: {}\n- Box: {}\n",
                facts.dim, facts.sense, facts.optimum, facts.domain
            )
        }
        Err(e) => format!("Not available at its defaults: {e}\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_local_data_problem_is_registered() {
        for (name, _) in LOCAL_DATA {
            assert!(problems::find(name).is_ok(), "{name}");
        }
    }
}
