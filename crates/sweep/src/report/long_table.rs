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
use super::steps::RunSteps;
use super::tables::write_table;
use crate::trace::TableColumn;
use crate::{RunSpec, StepRecord};

/// The run's columns, before those of its steps ([`StepRecord::COLUMNS`]): its key, the display
/// labels of its settings, its replicate and seed.
const RUN_COLUMNS: [(&str, TableColumn<RunSpec>); 5] = [
    ("run", TableColumn::Text(|r| r.key())),
    (
        "algorithm",
        TableColumn::Text(|r| r.algorithm.display_label()),
    ),
    ("problem", TableColumn::Text(|r| r.problem.display_label())),
    (
        "replicate",
        TableColumn::Count(|r| Some(r.replicate as u64)),
    ),
    ("seed", TableColumn::Count(|r| Some(r.seed))),
];

/// The number of columns: the run's and the step's.
const WIDTH: usize = RUN_COLUMNS.len() + StepRecord::COLUMNS.len();

/// The columns of `steps.csv` and `steps.parquet`: the run's, then the trace fields of each step
/// ([`StepRecord::COLUMNS`]).
pub const STEPS_COLUMNS: [&str; WIDTH] = column_names();

/// The names of [`RUN_COLUMNS`] then [`StepRecord::COLUMNS`], joined at compile time so that
/// [`STEPS_COLUMNS`] stays the constant array the tests and library users compare headers with.
const fn column_names() -> [&'static str; WIDTH] {
    let mut names = [""; WIDTH];
    let mut i = 0;
    while i < RUN_COLUMNS.len() {
        names[i] = RUN_COLUMNS[i].0;
        i += 1;
    }
    while i < WIDTH {
        names[i] = StepRecord::COLUMNS[i - RUN_COLUMNS.len()].0;
        i += 1;
    }
    names
}

/// Every step of `runs` with its run, in order: the table's rows.
fn rows(runs: &[RunSteps]) -> impl Iterator<Item = (&RunSpec, &StepRecord)> {
    runs.iter()
        .flat_map(|run| run.steps.iter().map(move |step| (&run.spec, step)))
}

/// A CSV cell: points as JSON arrays, unknown values empty.
fn csv_cell<R>(column: &TableColumn<R>, record: &R) -> String {
    match column {
        TableColumn::Count(value) => value(record).map(|n| n.to_string()).unwrap_or_default(),
        TableColumn::Real(value) => value(record).map(format_number).unwrap_or_default(),
        TableColumn::Text(value) => value(record),
        TableColumn::Points(value) => value(record)
            .map(|x| serde_json::to_string(x).expect("finite coordinates serialise"))
            .unwrap_or_default(),
    }
}

/// Writes `runs` to `path` as CSV.
pub(crate) fn write_steps(path: &Path, runs: &[RunSteps]) -> Result<(), ReportError> {
    let records = rows(runs).map(|(spec, step)| {
        std::array::from_fn(|i| match RUN_COLUMNS.get(i) {
            Some((_, column)) => csv_cell(column, spec),
            None => csv_cell(&StepRecord::COLUMNS[i - RUN_COLUMNS.len()].1, step),
        })
    });
    write_table(path, STEPS_COLUMNS, records)
}

/// A Parquet column of `column` over `records`: text, unsigned integers, doubles or lists of
/// doubles, null where unknown.
fn parquet_column<'a, R: 'a>(
    column: &TableColumn<R>,
    records: impl Iterator<Item = &'a R>,
) -> ArrayRef {
    match column {
        TableColumn::Count(value) => Arc::new(records.map(value).collect::<UInt64Array>()),
        TableColumn::Real(value) => Arc::new(records.map(value).collect::<Float64Array>()),
        TableColumn::Text(value) => Arc::new(StringArray::from_iter_values(records.map(value))),
        TableColumn::Points(value) => {
            let mut list = ListBuilder::new(Float64Builder::new());
            for record in records {
                match value(record) {
                    Some(point) => {
                        list.values().append_slice(point);
                        list.append(true);
                    }
                    None => list.append(false),
                }
            }
            Arc::new(list.finish())
        }
    }
}

/// Writes `runs` to `path` as Parquet (one row group, Snappy-compressed), the columns of
/// [`STEPS_COLUMNS`] typed: text, unsigned integers, doubles and lists of doubles.
pub(crate) fn write_steps_parquet(path: &Path, runs: &[RunSteps]) -> Result<(), ReportError> {
    let columns: Vec<ArrayRef> = RUN_COLUMNS
        .iter()
        .map(|(_, column)| parquet_column(column, rows(runs).map(|(spec, _)| spec)))
        .chain(
            StepRecord::COLUMNS
                .iter()
                .map(|(_, column)| parquet_column(column, rows(runs).map(|(_, step)| step))),
        )
        .collect();
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
    let batch = RecordBatch::try_new(schema.clone(), columns).map_err(|e| failed(e.to_string()))?;
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
