//! `bosweep run`: one optimisation of one problem by one algorithm, traced to JSONL.

use std::path::PathBuf;

use super::output::to_stdout;
use super::{CliError, GlobalArgs};
use bosweep::io::{format_number, io_reason};
use bosweep::params::ParamValue;
use bosweep::problems::{
    self, COMMAND_TIMEOUT, CommandObjective, Constraints, Problem, Sense, declared_objectives,
    parse_bounds,
};
use bosweep::sweep::{Parallel, PrepareError, PreparedRun, RunConfig, StopSignal, TraceWriter};

/// Options of `bosweep run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Algorithm name (see `bosweep list`).
    #[arg(long)]
    algo: String,
    /// Problem name (see `bosweep list`).
    #[arg(
        long,
        required_unless_present = "objective_cmd",
        conflicts_with = "objective_cmd"
    )]
    problem: Option<String>,
    /// An external objective instead of a named problem: a shell command that reads the point
    /// as a JSON array on stdin and prints one number on stdout.
    #[arg(long, value_name = "CMD", requires = "bounds")]
    objective_cmd: Option<String>,
    /// The external objective's box: `lo:hi` per dimension, comma-separated.
    #[arg(long, value_name = "LO:HI,…", allow_hyphen_values = true)]
    bounds: Option<String>,
    /// Seconds one call of the external objective may take.
    #[arg(long, default_value_t = 60.0)]
    objective_timeout: f64,
    /// Whether the external objective is minimised or maximised.
    #[arg(long, default_value = "min", value_parser = ["min", "max"])]
    sense: String,
    /// The number m of objectives the external objective prints the values of: with m ≥ 2, a
    /// JSON list, or `{"objectives": [...]}`.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64), requires = "objective_cmd")]
    objectives: u16,
    /// With `--objectives` ≥ 2: each objective's sense, `min` or `max`, comma-separated
    /// (default: every one `--sense`).
    #[arg(
        long,
        value_name = "SENSE,…",
        requires = "objective_cmd",
        value_parser = clap::builder::NonEmptyStringValueParser::new()
    )]
    senses: Option<String>,
    /// With `--objectives` ≥ 2: the hypervolume's reference point, one value per objective,
    /// comma-separated.
    #[arg(
        long,
        value_name = "R1,…",
        allow_hyphen_values = true,
        requires = "objective_cmd"
    )]
    reference_point: Option<String>,
    /// The number k of black-box constraints whose values the external objective prints beside
    /// its objectives, as `{"objectives": [...], "constraints": [...]}` (feasible where every
    /// one is ≤ 0).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=64), requires = "objective_cmd")]
    constraints: u16,
    /// Repeats of one point (RAHBO's k) that run the external objective at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    objective_parallel: u16,
    /// Evaluations to spend, initial design and repeats included.
    #[arg(long)]
    budget: usize,
    /// Initial-design points (scrambled Sobol) evaluated before the algorithm chooses.
    #[arg(long, default_value_t = 10)]
    init: usize,
    /// Points asked together and evaluated in parallel (synchronous batches of q); the budget
    /// still counts evaluations.
    #[arg(long, default_value_t = 1, value_name = "Q")]
    batch: usize,
    /// Asynchronous workers on a simulated clock: each asks for its next point as soon as its
    /// evaluation finishes.
    #[arg(long, default_value_t = 1, value_name = "W")]
    workers: usize,
    /// How long each evaluation takes on the simulated clock: `constant[:time=T]`,
    /// `linear:coordinate=I[,base=B][,slope=S]` or `lognormal[:median=M][,sigma=S]` (parallel
    /// runs default to `constant`); or `wall`: evaluate for real, that many at once, timed by
    /// the wall clock.
    #[arg(long, value_name = "MODEL")]
    runtime: Option<String>,
    /// Seed of the run: the same seed gives the same trace on the CPU backend.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Standard deviation of the Gaussian observation noise (the problem's `noise_std`).
    #[arg(long, allow_negative_numbers = true)]
    noise_std: Option<f64>,
    /// An algorithm parameter, `key=value` (repeatable; see `bosweep list`).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// A problem parameter, `key=value` (repeatable), e.g. `dim=5`.
    #[arg(long = "problem-param", value_name = "KEY=VALUE")]
    problem_params: Vec<String>,
    /// Trace file (JSONL); without it the trace goes to stdout and the summary to stderr.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Splits `key=value` settings of `flag` into parameter pairs (values stay text; the
/// registries parse and check them).
fn key_values<'a>(
    flag: &str,
    settings: &'a [String],
) -> Result<Vec<(&'a str, ParamValue)>, CliError> {
    settings
        .iter()
        .map(|s| match s.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim(), ParamValue::from(v.trim()))),
            _ => Err(CliError::usage(format!(
                "{flag}: \"{s}\" is not of the form key=value"
            ))),
        })
        .collect()
}

/// The named problem, or the external objective of `--objective-cmd`.
fn problem(args: &RunArgs) -> Result<(Box<dyn Problem>, String), CliError> {
    if let Some(cmd) = &args.objective_cmd {
        let timeout = COMMAND_TIMEOUT
            .check(args.objective_timeout)
            .map_err(|e| CliError::usage(format!("--objective-{e}")))?;
        let domain = parse_bounds(args.bounds.as_deref().unwrap_or_default())
            .map_err(|e| CliError::usage(format!("--bounds: {e}")))?;
        let sense = if args.sense == "max" {
            Sense::Maximize
        } else {
            Sense::Minimize
        };
        let timeout = std::time::Duration::from_secs_f64(timeout);
        let objective =
            CommandObjective::new(cmd, domain, sense, timeout, args.objective_parallel.into())?;
        let m = usize::from(args.objectives);
        let (senses, reference) = (
            args.senses.as_deref().unwrap_or_default(),
            args.reference_point.as_deref().unwrap_or_default(),
        );
        let objectives =
            declared_objectives(m, sense, senses, reference).map_err(|(param, value, why)| {
                CliError::usage(format!("--{}: \"{value}\": {why}", param.replace('_', "-")))
            })?;
        let objective = match objectives {
            Some(objectives) => objective.with_objectives(objectives),
            None => objective,
        };
        let objective = match args.constraints {
            0 => objective,
            k => objective.with_constraints(Constraints::new(k.into())?),
        };
        return Ok((Box::new(objective), "command".into()));
    }
    let name = args.problem.clone().unwrap_or_default();
    let mut given = key_values("--problem-param", &args.problem_params)?;
    if let Some(noise) = args.noise_std {
        given.push(("noise_std", ParamValue::Number(noise)));
    }
    Ok((problems::build(&name, &given)?, name))
}

/// A run's parallel-settings message, written for configs (`batch = 4`), with the settings
/// named as this command's flags (`--batch 4`).
fn as_flags(message: &str) -> String {
    let mut text = message.to_owned();
    for key in ["batch", "workers", "runtime"] {
        text = text.replace(&format!("{key} = "), &format!("--{key} "));
        if text.starts_with(&format!("{key}:")) || text.starts_with(&format!("{key} ")) {
            text.insert_str(0, "--");
        }
    }
    text
}

pub fn run_command(args: &RunArgs, global: &GlobalArgs) -> Result<(), CliError> {
    let (problem, problem_name) = problem(args)?;
    let algorithm_params = key_values("--param", &args.params)?;
    let config = RunConfig {
        budget: args.budget,
        init: args.init,
        seed: args.seed,
        // The design depends on the seed alone, so runs of different algorithms with one
        // `--seed` start from the same points.
        design_seed: args.seed,
        parallel: Parallel {
            batch: args.batch,
            workers: args.workers,
            runtime: args
                .runtime
                .as_deref()
                .map(str::parse)
                .transpose()
                .map_err(|e| CliError::usage(format!("--runtime: {e}")))?,
        },
    };
    let flagged = |e: PrepareError| match e {
        PrepareError::Algorithm(e) => CliError::from(e),
        PrepareError::Parallel(e) => CliError::usage(as_flags(&e.message)),
        PrepareError::Memory(e) => CliError::usage(format!("--budget: {e}")),
    };
    let prepared =
        PreparedRun::new(problem, &args.algo, &algorithm_params, config).map_err(flagged)?;
    prepared.check_memory().map_err(flagged)?;
    prepared.check_libraries().map_err(flagged)?;
    let engine = global.engine()?;
    let mut trace = match &args.out {
        Some(path) => TraceWriter::create(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::WouldBlock {
                CliError::usage(format!(
                    "--out: {} is being written by another process (a run with the same --out); \
                     choose another file or wait for it to finish",
                    path.display()
                ))
            } else {
                CliError::runtime(format!(
                    "cannot write {}: {}",
                    path.display(),
                    io_reason(&e)
                ))
            }
        })?,
        None => TraceWriter::to_writer(Box::new(std::io::stdout())),
    };
    let summary = prepared.run(engine.as_ref(), &mut trace, &StopSignal::default())?;
    for warning in engine.warnings() {
        say!("warning: {warning}");
    }
    let fmt_opt = |v: Option<f64>| v.map_or_else(|| "unknown".to_string(), format_number);
    let heading = format!(
        "{} on {} ({} steps, {} evaluations, {})",
        args.algo,
        problem_name,
        summary.steps,
        summary.evals,
        engine.describe()
    );
    let text = match &summary.front {
        Some(front) => format!(
            "{heading}\nnon-dominated points = {} (steps {})\nhypervolume = {}\nlog10 hypervolume difference = {}\nIGD+ = {}",
            front.front.len(),
            front
                .front
                .iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            fmt_opt(front.hypervolume),
            fmt_opt(front.log_hv_difference),
            fmt_opt(front.igd_plus),
        ),
        None => {
            let x: Vec<String> = summary
                .recommended_x
                .iter()
                .copied()
                .map(format_number)
                .collect();
            // On a constrained problem, say whether the recommendation is feasible and that a
            // missing best value means no feasible point, not an unknown one.
            let (feasibility, best) = match (summary.recommended_feasible, summary.best_value) {
                (None, best) => (String::new(), fmt_opt(best)),
                (Some(feasible), None) => (
                    format!(" ({})", if feasible { "feasible" } else { "infeasible" }),
                    "none (no feasible point evaluated)".to_owned(),
                ),
                (Some(feasible), Some(best)) => (
                    format!(" ({})", if feasible { "feasible" } else { "infeasible" }),
                    format!("{} (feasible points only)", format_number(best)),
                ),
            };
            format!(
                "{heading}\nrecommended x = [{}]{feasibility}\nf(recommended) = {}\nbest value = {best}\nsimple regret = {}\ncumulative regret = {}",
                x.join(", "),
                fmt_opt(summary.recommended_f),
                fmt_opt(summary.simple_regret),
                fmt_opt(summary.cumulative_regret),
            )
        }
    };
    if args.out.is_some() {
        to_stdout(|w| writeln!(w, "{text}"))
    } else {
        say!("{text}");
        Ok(())
    }
}
