//! File input for the command line: strict numeric CSV tables ([`csv`]); and what messages share:
//! numbers, one-line quotes, and the names nearest to a mistyped one ([`nearest`]).

pub mod csv;
mod number;
mod suggest;

pub use self::csv::{CsvError, NumericTable};
pub use number::format_number;
pub use suggest::{did_you_mean, nearest};

/// The operating system's reason for an I/O failure, without Rust's ` (os error N)` suffix, so
/// that messages read like `cannot read x.csv: No such file or directory`.
pub fn io_reason(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    }
}

/// `text` on one line: control characters (a newline inside a JSON key a parser echoes, say)
/// written as their escapes (`\n`), so that a message quoting a file's contents stays one line
/// that names its file and line.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().collect()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// `1 column` or `n columns`, for messages about table widths.
pub fn columns(n: usize) -> String {
    if n == 1 {
        "1 column".to_string()
    } else {
        format!("{n} columns")
    }
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(one_line("a\nb\tc\u{7}é"), "a\\nb\\tc\\u{7}é");
        assert_eq!(one_line("plain"), "plain");
    }
}
