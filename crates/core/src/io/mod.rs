//! File input for the command line: strict numeric CSV tables ([`csv`]).

pub mod csv;
mod number;

pub use self::csv::{CsvError, NumericTable};
pub use number::format_number;

/// The operating system's reason for an I/O failure, without Rust's ` (os error N)` suffix, so
/// that messages read like `cannot read x.csv: No such file or directory`.
pub fn io_reason(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    }
}

/// `1 column` or `n columns`, for messages about table widths.
pub fn columns(n: usize) -> String {
    if n == 1 {
        "1 column".to_string()
    } else {
        format!("{n} columns")
    }
}
