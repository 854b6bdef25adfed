//! Bandwidth rules of the Gaussian-product KDE (Huang et al., AAAI 2024, Section 2.3, Eq. 2, with
//! the standard normal kernel and one bandwidth per dimension).

use bosweep_core::data::{EngineError, Points};

/// A per-dimension normal-reference bandwidth rule, `h_d = c(d) · σ̂_d · n^{−1/(d+4)}` with σ̂ the
/// population (ddof = 0) standard deviation of column d.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandwidthRule {
    /// `c(d) = 1`.
    Scott,
    /// `c(d) = (4 / (d + 2))^{1/(d+4)}`: 1.05922 for d = 1, 1 for d = 2, 0.95058 for d = 4.
    Silverman,
}

impl bosweep_core::params::Choice for BandwidthRule {
    const WORDS: &'static [&'static str] = &["silverman", "scott"];
    const VALUES: &'static [Self] = &[Self::Silverman, Self::Scott];
}

impl BandwidthRule {
    /// `scott` or `silverman`; `None` for any other word.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "scott" => Some(Self::Scott),
            "silverman" => Some(Self::Silverman),
            _ => None,
        }
    }

    /// The rule's constant `c(d)` for dimension `d`.
    pub fn constant(self, dim: usize) -> f64 {
        let d = dim as f64;
        match self {
            Self::Scott => 1.0,
            Self::Silverman => (4.0 / (d + 2.0)).powf(1.0 / (d + 4.0)),
        }
    }

    /// Bandwidths for `data`. Fails on fewer than two points or a constant column, where the
    /// rule gives a zero bandwidth.
    pub fn bandwidths(self, data: &Points) -> Result<Vec<f64>, EngineError> {
        let n = data.rows();
        if n < 2 {
            return Err(EngineError::invalid(format!(
                "a bandwidth rule needs at least 2 data points, got {n}"
            )));
        }
        let dim = data.dim();
        let factor = self.constant(dim) * (n as f64).powf(-1.0 / (dim as f64 + 4.0));
        (0..dim)
            .map(|d| {
                let mean = data.iter().map(|r| r[d]).sum::<f64>() / n as f64;
                let var = data.iter().map(|r| (r[d] - mean).powi(2)).sum::<f64>() / n as f64;
                if var > 0.0 {
                    Ok(factor * var.sqrt())
                } else {
                    Err(EngineError::invalid(format!(
                        "data column {d} is constant, so the bandwidth rule gives 0; \
                         give the bandwidths explicitly"
                    )))
                }
            })
            .collect()
    }
}

/// Draws `count` samples from the Gaussian-product KDE of `data` with bandwidths `h`, each
/// clipped to the box `[lo, hi]` (the context draws of SBO-KDE's sample-average acquisition,
/// Huang et al., AAAI 2024, Section 3.1): pick a data point uniformly,
/// add `h ⊙ ξ` with `ξ ~ N(0, I)`, clamp. The clamp puts point masses on the box boundary, as the
/// environments that clip their contexts do.
pub fn sample_clipped<R: rand::Rng + ?Sized>(
    data: &Points,
    bandwidths: &[f64],
    lo: &[f64],
    hi: &[f64],
    count: usize,
    rng: &mut R,
) -> Result<Points, EngineError> {
    use rand::RngExt;
    use rand_distr::StandardNormal;

    let dim = data.dim();
    if data.is_empty() {
        return Err(EngineError::invalid(
            "cannot sample a KDE of no data points",
        ));
    }
    if bandwidths.len() != dim || lo.len() != dim || hi.len() != dim {
        return Err(EngineError::invalid(format!(
            "{dim}-dimensional KDE sampled with {} bandwidths and a {}-/{}-dimensional box",
            bandwidths.len(),
            lo.len(),
            hi.len()
        )));
    }
    if let Some(d) = (0..dim).find(|&d| lo[d].is_nan() || hi[d].is_nan() || lo[d] > hi[d]) {
        return Err(EngineError::invalid(format!(
            "box dimension {d} has lower bound {} above upper bound {}",
            lo[d], hi[d]
        )));
    }
    let mut samples = Vec::with_capacity(count * dim);
    for _ in 0..count {
        let centre = data.row(rng.random_range(0..data.rows()));
        for d in 0..dim {
            let xi: f64 = rng.sample(StandardNormal);
            samples.push((centre[d] + bandwidths[d] * xi).clamp(lo[d], hi[d]));
        }
    }
    Points::new(samples, dim)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::{BandwidthRule, sample_clipped};
    use bosweep_core::data::Points;

    #[test]
    fn silverman_constants_match_hand_computed_values() {
        for (d, want) in [(1, 1.05922), (2, 1.0), (4, 0.95058)] {
            assert!((BandwidthRule::Silverman.constant(d) - want).abs() < 5e-6);
        }
        assert_eq!(BandwidthRule::Scott.constant(3), 1.0);
    }

    #[test]
    fn samples_have_the_kde_moments_and_respect_the_box() {
        // Data {0, 1}: mean 1/2, population variance 1/4; with h = 0.5 the KDE has variance
        // 1/4 + 1/4 = 1/2 before clipping.
        let data = Points::new(vec![0.0, 1.0], 1).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let wide = sample_clipped(&data, &[0.5], &[-100.0], &[100.0], 40_000, &mut rng).unwrap();
        let xs = wide.as_slice();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64;
        assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
        assert!((var - 0.5).abs() < 0.015, "variance {var}");
        let clipped = sample_clipped(&data, &[0.5], &[0.0], &[1.0], 10_000, &mut rng).unwrap();
        assert!(clipped.as_slice().iter().all(|x| (0.0..=1.0).contains(x)));
        // Half of the mass around each data point falls outside [0, 1] and lands on a bound.
        let on_bounds = clipped
            .as_slice()
            .iter()
            .filter(|x| **x == 0.0 || **x == 1.0)
            .count();
        assert!(
            (on_bounds as f64 / 10_000.0 - 0.5).abs() < 0.03,
            "{on_bounds}"
        );
    }

    #[test]
    fn same_seed_same_samples() {
        let data = Points::new(vec![0.2, 0.4, 0.9, 0.1], 2).unwrap();
        let draw = |seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            sample_clipped(&data, &[0.1, 0.2], &[0.0, 0.0], &[1.0, 1.0], 50, &mut rng).unwrap()
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }
}
