//! The long table: every step of every completed run, one row per step, for a researcher's
//! own analysis — `steps.csv` for a spreadsheet or any reader, `steps.parquet` (the same columns,
//! typed: points as lists of doubles, unknown values null) for pandas, polars, R's arrow or
//! DuckDB, which read it without parsing numbers or JSON.

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{Float64Builder, ListBuilder};
use arrow_array::{ArrayRef, Float64Array, RecordBatch, StringArray, UInt64Array};
use arrow_schema::{Field, Schema};
use bosweep_core::io::format_number;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

use super::error::ReportError;
use super::steps::{RunSteps, TraceStep};
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

/// Writes `runs` to `path` as CSV.
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

/// Writes `runs` to `path` as Parquet (one row group, Snappy-compressed), the columns of
/// [`STEPS_COLUMNS`] typed: text, unsigned integers, doubles and lists of doubles.
pub(crate) fn write_steps_parquet(path: &Path, runs: &[RunSteps]) -> Result<(), ReportError> {
    let steps = || {
        runs.iter()
            .flat_map(|run| run.steps.iter().map(move |s| (run, s)))
    };
    let text = |f: &dyn Fn(&RunSteps) -> String| -> ArrayRef {
        Arc::new(StringArray::from_iter_values(
            steps().map(|(run, _)| f(run)),
        ))
    };
    let count = |values: Vec<Option<u64>>| -> ArrayRef { Arc::new(UInt64Array::from(values)) };
    let real = |f: &dyn Fn(&TraceStep) -> Option<f64>| -> ArrayRef {
        Arc::new(Float64Array::from_iter(steps().map(|(_, s)| f(s))))
    };
    let points = |f: &dyn Fn(&TraceStep) -> Option<&[f64]>| -> ArrayRef {
        let mut list = ListBuilder::new(Float64Builder::new());
        for (_, s) in steps() {
            match f(s) {
                Some(point) => {
                    list.values().append_slice(point);
                    list.append(true);
                }
                None => list.append(false),
            }
        }
        Arc::new(list.finish())
    };
    let columns: [ArrayRef; STEPS_COLUMNS.len()] = [
        text(&|run| run.spec.key()),
        text(&|run| run.spec.algorithm.display_label()),
        text(&|run| run.spec.problem.display_label()),
        count(
            steps()
                .map(|(run, _)| Some(run.spec.replicate as u64))
                .collect(),
        ),
        count(steps().map(|(run, _)| Some(run.spec.seed)).collect()),
        count(steps().map(|(_, s)| Some(s.iter as u64)).collect()),
        Arc::new(StringArray::from_iter_values(
            steps().map(|(_, s)| s.phase.as_str()),
        )),
        points(&|s| Some(&s.x)),
        real(&|s| s.y),
        count(steps().map(|(_, s)| Some(s.repeats as u64)).collect()),
        count(steps().map(|(_, s)| Some(s.evals as u64)).collect()),
        points(&|s| s.context.as_deref()),
        count(steps().map(|(_, s)| s.t.map(|t| t as u64)).collect()),
        real(&|s| s.f),
        real(&|s| s.best_value),
        points(&|s| Some(&s.recommended_x)),
        real(&|s| s.instant_regret),
        real(&|s| s.cumulative_regret),
        real(&|s| s.simple_regret),
        real(&|s| Some(s.model_seconds)),
        real(&|s| Some(s.acq_seconds)),
    ];
    let fields: Vec<Field> = STEPS_COLUMNS
        .iter()
        .zip(&columns)
        .map(|(name, column)| {
            Field::new(*name, column.data_type().clone(), column.null_count() > 0)
        })
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let failed = |message: String| ReportError::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(message),
    };
    let batch = RecordBatch::try_new(schema.clone(), columns.to_vec())
        .map_err(|e| failed(e.to_string()))?;
    let file = std::fs::File::create(path).map_err(|source| ReportError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("bosweep {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut writer =
        ArrowWriter::try_new(file, schema, Some(properties)).map_err(|e| failed(e.to_string()))?;
    writer.write(&batch).map_err(|e| failed(e.to_string()))?;
    writer.close().map_err(|e| failed(e.to_string()))?;
    Ok(())
}
