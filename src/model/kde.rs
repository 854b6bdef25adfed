//! Bandwidth rules of the Gaussian-product KDE (`specs/sbo-drbo-kde.md` §2.4).

use crate::compute::{EngineError, Points};

/// A per-dimension normal-reference bandwidth rule, `h_d = c(d) · σ̂_d · n^{−1/(d+4)}` with σ̂ the
/// population (ddof = 0) standard deviation of column d.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandwidthRule {
    /// `c(d) = 1`.
    Scott,
    /// `c(d) = (4 / (d + 2))^{1/(d+4)}`: 1.05922 for d = 1, 1 for d = 2, 0.95058 for d = 4.
    Silverman,
}

impl BandwidthRule {
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
