//! `bosweep list`: every algorithm and problem with its parameters and defaults.

use super::CliError;
use crate::algorithms;
use crate::params::ParamSpec;
use crate::problems;

fn print_params(params: &[ParamSpec]) {
    for p in params {
        println!(
            "      {} = {}  ({}; {})",
            p.name,
            p.kind.default_value(),
            p.kind.accepted(),
            p.description
        );
    }
}

pub fn run() -> Result<(), CliError> {
    println!("Algorithms (--algo NAME, parameters via --param key=value):");
    for entry in algorithms::registry() {
        println!("  {}: {}", entry.name, entry.description);
        print_params(entry.parameters);
    }
    println!();
    println!("Problems (--problem NAME, parameters via --problem-param key=value or --noise-std):");
    for entry in problems::registry() {
        // A problem whose data is not on this machine (intel-temp) is listed, not fatal.
        let problem = match entry.build(&[]) {
            Ok(problem) => problem,
            Err(e) => {
                println!("  {}: {} (unavailable: {e})", entry.name, entry.description);
                print_params(entry.parameters);
                continue;
            }
        };
        let domain = problem.domain();
        let optimum = problem
            .optimum(1)
            .map_or_else(|| "unknown".to_string(), |o| o.value.to_string());
        println!(
            "  {}: {} (d = {}, {}, optimum {})",
            entry.name,
            entry.description,
            problem.dim(),
            problem.sense().as_str(),
            optimum
        );
        println!(
            "      box: {}",
            domain
                .lower()
                .iter()
                .zip(domain.upper())
                .map(|(l, u)| format!("[{l}, {u}]"))
                .collect::<Vec<_>>()
                .join(" × ")
        );
        print_params(entry.parameters);
    }
    Ok(())
}
