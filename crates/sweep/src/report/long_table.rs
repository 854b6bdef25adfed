//! `steps.csv`: every step of every completed run in long format, one row per step, for a
//! researcher's own analysis (pandas, R, a spreadsheet).

use std::path::Path;

use bosweep_core::io::format_number;

use super::error::ReportError;
use super::steps::RunSteps;
use super::tables::write_table;

/// The columns of `steps.csv`: the run (key, display labels, replicate, seed), then the trace fields
/// of `../shared/conventions.md`; points are JSON arrays, unknown values empty cells.
pub const STEPS_COLUMNS: [&str; 21] = [
    "run",
    "algorithm",
    "problem",
    "replicate",
    "seed",
    "iter",
    "phase",
    "x",
    "y",
    "repeats",
    "evals",
    "context",
    "t",
    "f",
    "best_value",
    "recommended_x",
    "instant_regret",
    "cumulative_regret",
    "simple_regret",
    "model_seconds",
    "acq_seconds",
];

fn number(v: Option<f64>) -> String {
    v.map(format_number).unwrap_or_default()
}

fn point(x: &[f64]) -> String {
    serde_json::to_string(x).expect("finite coordinates serialise")
}

/// Writes `runs` to `path`.
pub(crate) fn write_steps(path: &Path, runs: &[RunSteps]) -> Result<(), ReportError> {
    let rows = runs.iter().flat_map(|run| {
        let (key, algorithm, problem) = (
            run.spec.key(),
            run.spec.algorithm.display_label(),
            run.spec.problem.display_label(),
        );
        run.steps.iter().map(move |s| {
            [
                key.clone(),
                algorithm.clone(),
                problem.clone(),
                run.spec.replicate.to_string(),
                run.spec.seed.to_string(),
                s.iter.to_string(),
                s.phase.clone(),
                point(&s.x),
                number(s.y),
                s.repeats.to_string(),
                s.evals.to_string(),
                s.context.as_deref().map(point).unwrap_or_default(),
                s.t.map(|t| t.to_string()).unwrap_or_default(),
                number(s.f),
                number(s.best_value),
                point(&s.recommended_x),
                number(s.instant_regret),
                number(s.cumulative_regret),
                number(s.simple_regret),
                number(Some(s.model_seconds)),
                number(Some(s.acq_seconds)),
            ]
        })
    });
    write_table(path, STEPS_COLUMNS, rows)
}
