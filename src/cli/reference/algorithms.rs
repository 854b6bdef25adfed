//! algorithms.md: every registered algorithm with what it runs on and its parameters.

use std::fmt::Write;

use super::markdown::{params, title};
use super::problems::local_data;
use crate::cli::registry_text::AcceptedProblems;
use bosweep::algorithms::{self, AlgorithmEntry, Requirement};

pub fn page() -> String {
    let mut text = title("Algorithms reference", "the algorithm registry");
    text.push_str(
        "\nEach algorithm with the problems it accepts, whether it runs in batches, whether it \
         optimises several objectives and takes black-box constraints (a problem with them \
         refuses a method that does not), and its parameters, which an `[[algorithm]]` table of a sweep config ([config \
         keys](config.md)) or `bosweep run --param key=value` sets. The accepted problems are \
         those built at their defaults from the code alone; one built from local data is left \
         out. `bosweep list` prints the same in a terminal.\n",
    );
    let mut accepted = AcceptedProblems::default();
    for entry in algorithms::registry() {
        let _ = write!(
            text,
            "\n## {}\n\n{}\n\n- Accepts: {}\n- Batches: {}\n{}\n",
            entry.name,
            entry.description,
            accepts(entry.requires, &mut accepted),
            batches(entry),
            outcomes(entry)
        );
        text.push_str(&params(entry.parameters()));
    }
    text
}

/// The kind of problem `requirement` asks for, and the problems of that kind, linked to their
/// sections of problems.md.
fn accepts(requirement: Requirement, accepted: &mut AcceptedProblems) -> String {
    if requirement == Requirement::Any {
        return "any problem.".to_owned();
    }
    let links: Vec<String> = accepted
        .of(requirement)
        .iter()
        .filter(|name| local_data(name).is_none())
        .map(|name| format!("[{name}](problems.md#{name})"))
        .collect();
    if links.is_empty() {
        format!("{}.", requirement.describe())
    } else {
        format!("{}: {}.", requirement.describe(), links.join(", "))
    }
}

/// Whether the algorithm proposes points while others are pending, asked of it at its
/// defaults (building one starts nothing).
fn batches(entry: &AlgorithmEntry) -> String {
    match entry.build(&[]) {
        Ok(algorithm) if algorithm.accepts_pending() => {
            "yes: it proposes points while others are pending, so its runs may take `batch` or \
             `workers` above 1."
                .to_owned()
        }
        Ok(_) => "no: it proposes one point at a time, so its runs take `batch = 1` and \
                  `workers = 1`."
            .to_owned(),
        Err(e) => format!("as its parameters say; it does not build at its defaults ({e})."),
    }
}

/// Whether the algorithm optimises several objectives and whether it takes black-box
/// constraints, asked of it at its defaults.
fn outcomes(entry: &AlgorithmEntry) -> String {
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    match entry.build(&[]) {
        Ok(algorithm) => format!(
            "- Several objectives: {}\n- Black-box constraints: {}\n",
            yes_no(algorithm.handles_several_objectives()),
            yes_no(algorithm.handles_constraints())
        ),
        Err(_) => String::new(),
    }
}
