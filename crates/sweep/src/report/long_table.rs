//! The long table: every step of every completed run, one row per step, for a researcher's
//! own analysis — `steps.csv` for a spreadsheet or any reader, `steps.parquet` (the same columns,
//! typed: points as lists of doubles, unknown values null) for pandas, polars, R's arrow or
//! DuckDB, which read it without parsing numbers or JSON.

use std::path::Path;
use std::sync::Arc;

use bosweep_core::io::format_number;
use parquet::basic::{Compression, IntType, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::{SerializedColumnWriter, SerializedFileWriter};
use parquet::schema::types::Type;

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

/// The Parquet type of `column`: unsigned 64-bit integers, doubles, UTF-8 text, or a list of
/// doubles (the standard three-level list), optional but for text.
fn parquet_type<R>(name: &str, column: &TableColumn<R>) -> Result<Type, ParquetError> {
    let primitive = |physical, repetition, logical| {
        Type::primitive_type_builder(name, physical)
            .with_repetition(repetition)
            .with_logical_type(logical)
            .build()
    };
    match column {
        TableColumn::Count(_) => primitive(
            Physical::INT64,
            Repetition::OPTIONAL,
            Some(LogicalType::Integer(IntType {
                bit_width: 64,
                is_signed: false,
            })),
        ),
        TableColumn::Real(_) => primitive(Physical::DOUBLE, Repetition::OPTIONAL, None),
        TableColumn::Text(_) => primitive(
            Physical::BYTE_ARRAY,
            Repetition::REQUIRED,
            Some(LogicalType::String),
        ),
        TableColumn::Points(_) => {
            let element = Type::primitive_type_builder("element", Physical::DOUBLE)
                .with_repetition(Repetition::REQUIRED)
                .build()?;
            let list = Type::group_type_builder("list")
                .with_repetition(Repetition::REPEATED)
                .with_fields(vec![Arc::new(element)])
                .build()?;
            Type::group_type_builder(name)
                .with_repetition(Repetition::OPTIONAL)
                .with_logical_type(Some(LogicalType::List))
                .with_fields(vec![Arc::new(list)])
                .build()
        }
    }
}

/// Writes `column` over `records` into `writer`: the present values, with definition levels
/// (0 null; for points 1 an empty list, 2 a coordinate) and, for points, repetition levels
/// (0 a row's first coordinate, 1 the next ones).
fn write_column<'a, R: 'a>(
    writer: &mut SerializedColumnWriter<'_>,
    column: &TableColumn<R>,
    records: impl Iterator<Item = &'a R>,
) -> Result<(), ParquetError> {
    match column {
        TableColumn::Count(value) => {
            let (values, defined) = present(records.map(value));
            // UINT_64 is stored in INT64's bits.
            let values: Vec<i64> = values.into_iter().map(|n| n as i64).collect();
            writer
                .typed::<Int64Type>()
                .write_batch(&values, Some(&defined), None)?;
        }
        TableColumn::Real(value) => {
            let (values, defined) = present(records.map(value));
            writer
                .typed::<DoubleType>()
                .write_batch(&values, Some(&defined), None)?;
        }
        TableColumn::Text(value) => {
            let values: Vec<ByteArray> = records.map(|r| value(r).into_bytes().into()).collect();
            writer
                .typed::<ByteArrayType>()
                .write_batch(&values, None, None)?;
        }
        TableColumn::Points(value) => {
            let (mut values, mut defined, mut repeated) = (Vec::new(), Vec::new(), Vec::new());
            for record in records {
                match value(record) {
                    None => {
                        defined.push(0);
                        repeated.push(0);
                    }
                    Some([]) => {
                        defined.push(1);
                        repeated.push(0);
                    }
                    Some(point) => {
                        for (i, &v) in point.iter().enumerate() {
                            values.push(v);
                            defined.push(2);
                            repeated.push(i16::from(i > 0));
                        }
                    }
                }
            }
            writer
                .typed::<DoubleType>()
                .write_batch(&values, Some(&defined), Some(&repeated))?;
        }
    }
    Ok(())
}

/// The present values of an optional column, and each row's definition level (1 present, 0
/// null).
fn present<T>(cells: impl Iterator<Item = Option<T>>) -> (Vec<T>, Vec<i16>) {
    let mut values = Vec::new();
    let defined = cells
        .map(|cell| match cell {
            Some(v) => {
                values.push(v);
                1
            }
            None => 0,
        })
        .collect();
    (values, defined)
}

/// Writes `runs` to `path` as Parquet (one row group, Snappy-compressed), the columns of
/// [`STEPS_COLUMNS`] typed: text, unsigned integers, doubles and lists of doubles, null where
/// unknown. Written with the `parquet` crate's own column writer: the Arrow crates would add
/// minutes to every build for one table.
pub(crate) fn write_steps_parquet(path: &Path, runs: &[RunSteps]) -> Result<(), ReportError> {
    let failed = |e: ParquetError| ReportError::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    };
    let file = std::fs::File::create(path).map_err(|source| ReportError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    write_parquet(file, runs).map_err(failed)
}

fn write_parquet(file: std::fs::File, runs: &[RunSteps]) -> Result<(), ParquetError> {
    let fields = RUN_COLUMNS
        .iter()
        .map(|(name, column)| parquet_type(name, column))
        .chain(
            StepRecord::COLUMNS
                .iter()
                .map(|(name, column)| parquet_type(name, column)),
        )
        .map(|field| field.map(Arc::new))
        .collect::<Result<Vec<_>, _>>()?;
    let schema = Type::group_type_builder("steps")
        .with_fields(fields)
        .build()?;
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_created_by(format!("bosweep {}", env!("CARGO_PKG_VERSION")))
        .build();
    let mut writer = SerializedFileWriter::new(file, Arc::new(schema), Arc::new(properties))?;
    let mut group = writer.next_row_group()?;
    let mut index = 0;
    while let Some(mut column) = group.next_column()? {
        match RUN_COLUMNS.get(index) {
            Some((_, run_column)) => {
                write_column(&mut column, run_column, rows(runs).map(|(spec, _)| spec))?
            }
            None => write_column(
                &mut column,
                &StepRecord::COLUMNS[index - RUN_COLUMNS.len()].1,
                rows(runs).map(|(_, step)| step),
            )?,
        }
        column.close()?;
        index += 1;
    }
    group.close()?;
    writer.close()?;
    Ok(())
}
