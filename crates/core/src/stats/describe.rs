//! Mean, standard error and median of a sample.

/// Mean, standard error and median of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Describe {
    /// Sample size.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1 denominator) over √n; `None` for a single value.
    pub se: Option<f64>,
    /// The middle value (the mean of the two middle values for an even count).
    pub median: f64,
}

/// `None` for an empty sample.
pub fn describe(values: &[f64]) -> Option<Describe> {
    let n = values.len();
    let mean = mean(values)?;
    let se = (n >= 2).then(|| {
        let ss: f64 = values.iter().map(|v| (v - mean).powi(2)).sum();
        (ss / (n - 1) as f64).sqrt() / (n as f64).sqrt()
    });
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
    };
    Some(Describe {
        n,
        mean,
        se,
        median,
    })
}

/// The arithmetic mean; `None` for no values.
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_mean_se_median() {
        let d = describe(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!((d.n, d.mean, d.median), (4, 2.5, 2.5));
        // Sample variance 5/3, se = √(5/3)/2.
        assert!((d.se.unwrap() - (5.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-15);
        let one = describe(&[7.0]).unwrap();
        assert_eq!((one.mean, one.se, one.median), (7.0, None, 7.0));
        assert!(describe(&[]).is_none());
    }
}
