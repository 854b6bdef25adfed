//! Numbers as people read them in tables, listings and messages.

/// The shortest text that parses back to the same `f64`, positional for magnitudes in
/// `[1e-4, 1e16)` (and zero) and scientific outside, as Python's `repr` does: `0.25`, `1e300`,
/// `1.5e-7`. Rust's `{}` alone writes 1e300 as a 301-digit integer.
pub fn format_number(v: f64) -> String {
    if v == 0.0 || !v.is_finite() || (1e-4..1e16).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::format_number;

    #[test]
    fn positional_inside_the_range_scientific_outside() {
        let cases = [
            (0.0, "0"),
            (-0.25, "-0.25"),
            (1e-4, "0.0001"),
            (9.99e-5, "9.99e-5"),
            (1234.5, "1234.5"),
            (9999999999999998.0, "9999999999999998"),
            (1e16, "1e16"),
            (1e300, "1e300"),
            (-1.5e-7, "-1.5e-7"),
            (f64::INFINITY, "inf"),
        ];
        for (v, want) in cases {
            assert_eq!(format_number(v), want, "{v:e}");
            if v.is_finite() {
                assert_eq!(format_number(v).parse::<f64>().unwrap(), v);
            }
        }
    }
}
