//! `bosweep compare A B`: two sweep directories compared with paired statistics — did the
//! change (B) help against the baseline (A)?

use std::path::PathBuf;

use super::CliError;
use super::output::output_dir;
use bosweep::report::Metric;
use bosweep::sweep::compare::{
    CompareOptions, DEFAULT_BUDGETS, compare_sweeps, default_out_dir, summary_text,
    write_comparison,
};

/// Options of `bosweep compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The baseline: a sweep directory, an archive set's directory, or the name of a shipped
    /// archive set (`bosweep archive list`)
    a: PathBuf,
    /// The change, compared against A (differences are B − A): a sweep directory or an archive
    /// set
    b: PathBuf,
    /// The metric compared: simple-regret, cumulative-regret or best-value (where a problem's
    /// optimum is unknown, its best value). Default: B's config `[report] metric`, else
    /// simple-regret
    #[arg(long, value_name = "METRIC")]
    metric: Option<Metric>,
    /// Where to write compare.md, compare.html and compare.csv. Default:
    /// B/compare-vs-<A's name> (required where B is an archive set)
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Exit with status 1 when B is significantly worse than A at the final budget: for any
    /// algorithm on any problem (per-problem, the default), for any algorithm over all its
    /// problems pooled (pooled: the gate for many problems with few seeds), or either
    #[arg(
        long,
        value_name = "RULE",
        num_args = 0..=1,
        default_missing_value = "per-problem",
        require_equals = true
    )]
    fail_if_worse: Option<Gate>,
    /// Fractions of the budget at which to compare, each in (0, 1]; 1 is always compared
    #[arg(long, value_name = "F,F,…", value_delimiter = ',', default_values_t = DEFAULT_BUDGETS)]
    budgets: Vec<f64>,
}

pub fn compare_command(args: &CompareArgs) -> Result<(), CliError> {
    let options = CompareOptions {
        metric: args.metric,
        budgets: args.budgets.clone(),
    };
    let comparison = compare_sweeps(&args.a, &args.b, &options)?;
    let out = match &args.out {
        Some(out) => out.clone(),
        None => default_out_dir(&args.a, &args.b).ok_or_else(|| {
            CliError::usage(format!(
                "{} is an archive set: give --out for the comparison's files",
                args.b.display()
            ))
        })?,
    };
    let given = if args.out.is_some() {
        "--out"
    } else {
        "the default output directory"
    };
    let files = write_comparison(&comparison, output_dir(given, &out)?)?;
    print!("{}", summary_text(&comparison));
    println!("written:");
    for file in &files {
        println!("  {}", file.display());
    }
    let Some(gate) = args.fail_if_worse else {
        return Ok(());
    };
    let p = |p: Option<f64>| p.map_or_else(String::new, |p| format!("{p:.3}"));
    let mut named: Vec<String> = Vec::new();
    if gate != Gate::Pooled {
        named.extend(
            comparison
                .worse_at_final_budget()
                .iter()
                .map(|r| format!("{} on {} (p Holm {})", r.algorithm, r.problem, p(r.p_holm))),
        );
    }
    if gate != Gate::PerProblem {
        named.extend(comparison.pooled_worse_at_final_budget().iter().map(|r| {
            format!(
                "{} over {} problems (p Holm {})",
                r.algorithm,
                r.problems,
                p(r.p_holm)
            )
        }));
    }
    if named.is_empty() {
        return Ok(());
    }
    Err(CliError::runtime(format!(
        "--fail-if-worse: B is significantly worse than A at the final budget: {}",
        named.join("; ")
    )))
}

/// What `--fail-if-worse` gates on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Gate {
    /// Any algorithm's verdict on any problem.
    PerProblem,
    /// Any algorithm's verdict over its problems pooled.
    Pooled,
    /// Either.
    Either,
}
