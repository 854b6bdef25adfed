//! Checks of numeric flags that report the flag's name and the offending value, which the
//! library's own checks cannot know.

use crate::cli::CliError;

fn check(flag: &str, values: &[f64], ok: impl Fn(f64) -> bool, rule: &str) -> Result<(), CliError> {
    match values.iter().position(|v| !ok(*v)) {
        None => Ok(()),
        Some(i) if values.len() == 1 => Err(CliError::usage(format!(
            "{flag}: value is {} (must be {rule})",
            values[i]
        ))),
        Some(i) => Err(CliError::usage(format!(
            "{flag}: value {} is {} (must be {rule})",
            i + 1,
            values[i]
        ))),
    }
}

/// Every value positive and finite (lengthscales, variances, bandwidths).
pub fn positive(flag: &str, values: &[f64]) -> Result<(), CliError> {
    check(
        flag,
        values,
        |v| v.is_finite() && v > 0.0,
        "positive and finite",
    )
}

/// Every value finite and at least zero (noise variances).
pub fn non_negative(flag: &str, values: &[f64]) -> Result<(), CliError> {
    check(
        flag,
        values,
        |v| v.is_finite() && v >= 0.0,
        "non-negative and finite",
    )
}

/// Every value finite (prior means).
pub fn finite(flag: &str, values: &[f64]) -> Result<(), CliError> {
    check(flag, values, f64::is_finite, "finite")
}

/// One value per column of `file`: a single value is broadcast to all `dim` columns, otherwise
/// the count must match.
pub fn per_column(
    flag: &str,
    values: &[f64],
    dim: usize,
    file: &str,
) -> Result<Vec<f64>, CliError> {
    match values {
        [one] => Ok(vec![*one; dim]),
        _ if values.len() == dim => Ok(values.to_vec()),
        _ => Err(CliError::usage(format!(
            "{flag}: {} values for the {dim} input columns of {file} (give one value for all \
             columns or one per column)",
            values.len()
        ))),
    }
}

/// Parses a comma-separated list of numbers, e.g. `0.2,0.3`.
pub fn parse_list(flag: &str, text: &str) -> Result<Vec<f64>, CliError> {
    text.split(',')
        .map(|item| {
            item.trim()
                .parse::<f64>()
                .map_err(|_| CliError::usage(format!("{flag}: '{}' is not a number", item.trim())))
        })
        .collect()
}
