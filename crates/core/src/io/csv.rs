//! A strict reader for numeric CSV tables: a header naming the columns, then rows of finite
//! numbers, all of the same width.
//!
//! Strict because a skipped row or a misread cell would silently change a model's answer; every
//! error names the file, the line (1-based, as an editor shows it; the header is line 1), the
//! column and the offending value, so the user can go straight to it.

use std::ops::Range;
use std::path::Path;

use thiserror::Error;

use super::{columns, io_reason};
use crate::data::{EngineError, Points};

/// Why a file is not a usable numeric table.
#[derive(Debug, Error)]
pub enum CsvError {
    /// The file could not be opened or read.
    #[error("cannot read {file}: {reason}")]
    Unreadable {
        /// The file's path, as given.
        file: String,
        /// The system's reason.
        reason: String,
    },
    /// Not CSV at all (e.g. invalid UTF-8); `reason` is the CSV parser's message.
    #[error("{file}: {reason}")]
    Malformed {
        /// The file's path, as given.
        file: String,
        /// The CSV parser's message.
        reason: String,
    },
    /// Nothing in the file, not even a header.
    #[error("{file}: empty file (the first line must be a header naming the columns)")]
    Empty {
        /// The file's path, as given.
        file: String,
    },
    /// The first line holds only numbers: almost surely a missing header, which would
    /// otherwise silently swallow the first data row.
    #[error(
        "{file} line 1: {header:?} looks like data, not a header (the first line must name the columns)"
    )]
    NoHeader {
        /// The file's path, as given.
        file: String,
        /// The first line.
        header: String,
    },
    /// A header and nothing after it.
    #[error("{file}: no data rows")]
    NoRows {
        /// The file's path, as given.
        file: String,
    },
    /// A row with another number of cells than the header.
    #[error("{file} line {line} has {}, expected {expected}", columns(*found))]
    Ragged {
        /// The file's path, as given.
        file: String,
        /// The row's line number (the header is line 1).
        line: u64,
        /// Cells in the row.
        found: usize,
        /// Cells in the header.
        expected: usize,
    },
    /// A cell that is not a usable number.
    #[error("{file} line {line}, column {column:?}: {value:?} {problem}")]
    BadCell {
        /// The file's path, as given.
        file: String,
        /// The row's line number (the header is line 1).
        line: u64,
        /// The column's header name.
        column: String,
        /// The cell as written.
        value: String,
        /// What is wrong with it (`is not a number`, `is NaN …`, `is infinite …`).
        problem: &'static str,
    },
}

/// A file that cannot serve as a table is bad input even when the cause is an I/O error: the
/// user named a file that cannot serve.
impl crate::data::Failure for CsvError {
    fn blame(&self) -> crate::data::Blame {
        crate::data::Blame::Input
    }
}

/// A table of finite numbers read from a CSV file, stored row-major.
#[derive(Clone, Debug)]
pub struct NumericTable {
    file: String,
    columns: Vec<String>,
    values: Vec<f64>,
    /// The line each row starts on, for messages about values that parse but are out of range.
    lines: Vec<u64>,
}

impl NumericTable {
    /// Reads `path`; messages name the file as the user wrote it.
    pub fn read(path: &Path) -> Result<Self, CsvError> {
        let file = path.display().to_string();
        match std::fs::read(path) {
            Ok(bytes) => Self::parse(file, &bytes),
            Err(e) => Err(CsvError::Unreadable {
                file,
                reason: io_reason(&e),
            }),
        }
    }

    /// Parses CSV text; `file` is the name used in messages.
    pub fn parse(file: String, bytes: &[u8]) -> Result<Self, CsvError> {
        let mut csv = ::csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .trim(::csv::Trim::All)
            .from_reader(bytes);
        let mut lines_of = LineCounter::new(bytes);
        let mut records = csv.records();
        let header = match records.next() {
            None => return Err(CsvError::Empty { file }),
            Some(record) => record.map_err(|e| malformed(&file, e))?,
        };
        if header.iter().all(|cell| cell.parse::<f64>().is_ok()) {
            let header = header.iter().collect::<Vec<_>>().join(",");
            return Err(CsvError::NoHeader { file, header });
        }
        let columns: Vec<String> = header.iter().map(str::to_string).collect();
        let mut values = Vec::new();
        let mut lines = Vec::new();
        for record in records {
            let record = record.map_err(|e| malformed(&file, e))?;
            let line = lines_of.line_at(record.position().map_or(0, |p| p.byte() as usize));
            if record.len() != columns.len() {
                return Err(CsvError::Ragged {
                    file,
                    line,
                    found: record.len(),
                    expected: columns.len(),
                });
            }
            for (cell, column) in record.iter().zip(&columns) {
                let problem = match cell.parse::<f64>() {
                    Ok(v) if v.is_finite() => {
                        values.push(v);
                        continue;
                    }
                    Ok(v) if v.is_nan() => "is NaN (values must be finite)",
                    Ok(_) => "is infinite (values must be finite)",
                    Err(_) => "is not a number",
                };
                return Err(CsvError::BadCell {
                    file,
                    line,
                    column: column.clone(),
                    value: cell.to_string(),
                    problem,
                });
            }
            lines.push(line);
        }
        if lines.is_empty() {
            return Err(CsvError::NoRows { file });
        }
        Ok(Self {
            file,
            columns,
            values,
            lines,
        })
    }

    /// The file name used in messages.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The header's column names.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// Data rows (the header not counted).
    pub fn rows(&self) -> usize {
        self.lines.len()
    }

    /// Columns, as the header names them.
    pub fn cols(&self) -> usize {
        self.columns.len()
    }

    /// The line of the file that row `row` (0-based) is on.
    pub fn line(&self, row: usize) -> u64 {
        self.lines[row]
    }

    /// Column `col` (0-based), top to bottom.
    pub fn column(&self, col: usize) -> Vec<f64> {
        self.values
            .iter()
            .skip(col)
            .step_by(self.cols())
            .copied()
            .collect()
    }

    /// The columns `cols` of every row as a point set. Fails only on an empty range.
    pub fn points(&self, cols: Range<usize>) -> Result<Points, EngineError> {
        let width = self.cols();
        let data = self
            .values
            .chunks_exact(width)
            .flat_map(|row| &row[cols.clone()])
            .copied();
        Points::new(data.collect(), cols.len())
    }
}

fn malformed(file: &str, error: ::csv::Error) -> CsvError {
    CsvError::Malformed {
        file: file.to_string(),
        reason: error.to_string(),
    }
}

/// Line numbers of records from their byte offsets. The csv crate's own line numbers go wrong
/// after blank lines and with CRLF endings, and its offsets point just past the previous
/// record's `\n`, before any blank lines, so the record starts at the first byte after that
/// is not a line break.
struct LineCounter<'a> {
    bytes: &'a [u8],
    /// Bytes before `pos` hold `line − 1` newlines.
    pos: usize,
    line: u64,
}

impl<'a> LineCounter<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            pos: 0,
            line: 1,
        }
    }

    /// The 1-based line of the record at byte `offset`. Records come in order, so the count
    /// resumes where the previous call stopped.
    fn line_at(&mut self, offset: usize) -> u64 {
        let offset = offset.clamp(self.pos, self.bytes.len());
        let skip = self.bytes[offset..]
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        let start = offset + skip;
        let newlines = self.bytes[self.pos..start]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        self.line += newlines as u64;
        self.pos = start;
        self.line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<NumericTable, CsvError> {
        NumericTable::parse("t.csv".to_string(), text.as_bytes())
    }

    fn message(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn reads_rows_columns_and_line_numbers() {
        let t = parse("\u{feff}a, b\n1, 2\n\n3e-1 ,-4\n").unwrap();
        assert_eq!(t.columns(), ["a", "b"]);
        assert_eq!((t.rows(), t.cols()), (2, 2));
        assert_eq!(t.column(0), [1.0, 0.3]);
        assert_eq!(t.column(1), [2.0, -4.0]);
        assert_eq!((t.line(0), t.line(1)), (2, 4));
        let p = t.points(1..2).unwrap();
        assert_eq!(p.as_slice(), [2.0, -4.0]);
    }

    #[test]
    fn names_line_column_and_value() {
        assert_eq!(
            message("a,b\n1,2\n1,abc\n"),
            r#"t.csv line 3, column "b": "abc" is not a number"#
        );
        assert_eq!(
            message("a,b\n1,2\n\nNaN,2\n"),
            r#"t.csv line 4, column "a": "NaN" is NaN (values must be finite)"#
        );
        assert_eq!(
            message("a\n-inf\n"),
            r#"t.csv line 2, column "a": "-inf" is infinite (values must be finite)"#
        );
        assert_eq!(message("a,b\n1\n"), "t.csv line 2 has 1 column, expected 2");
        assert_eq!(
            message("a,b\n1,2,3\n"),
            "t.csv line 2 has 3 columns, expected 2"
        );
        assert_eq!(
            message("a,b\r\n1,2\r\n\r\n\r\n3,x\r\n"),
            r#"t.csv line 5, column "b": "x" is not a number"#
        );
        assert_eq!(
            message("\n\na,\"b\nc\"\n1,2\n3,\n"),
            r#"t.csv line 6, column "b\nc": "" is not a number"#
        );
    }

    #[test]
    fn rejects_empty_headerless_and_header_only_files() {
        assert!(matches!(parse(""), Err(CsvError::Empty { .. })));
        assert!(matches!(parse("\n\n"), Err(CsvError::Empty { .. })));
        assert!(matches!(
            parse("1,2\n3,4\n"),
            Err(CsvError::NoHeader { .. })
        ));
        assert_eq!(message("a,b\n"), "t.csv: no data rows");
    }
}
