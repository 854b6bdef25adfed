//! The inputs of [`Engine::log_hypervolume_improvement`](crate::Engine::log_hypervolume_improvement):
//! the cells of the objective space each Monte Carlo sample's front does not dominate, and the
//! temperatures of the smoothing.
//!
//! Expected hypervolume improvement over a noisy front (Daulton, Balandat and Bakshy, NeurIPS
//! 2021) draws the front itself: each sample `s` of the joint posterior gives the observed
//! points' values, hence a front and the disjoint boxes ("cells") tiling the region it does
//! not dominate. A new point `y` (maximisation) improves sample `s`'s hypervolume by
//!
//! `HVI_s(y) = Σ_{c ∈ cells(s)} Π_j max(0, min(y_j, u_cj) − l_cj)`,
//!
//! and its log-space form (Ament et al., NeurIPS 2023; BoTorch's `qLogExpectedHypervolume
//! Improvement` at one point) replaces each factor by
//! `fatmin(ln fatplus(y_j − l_cj; τ_relu), ln(u_cj − l_cj); τ_max)` and the sum by a log-sum-exp,
//! so that the logarithm is finite and smooth everywhere. The engine evaluates that for many
//! candidates × samples × cells, the heavy part of qLogNEHVI.

use crate::EngineError;

/// BoTorch caps a cell's unbounded side at this value (for f64) before taking its length.
pub const CELL_CAP: f64 = 1e10;

/// The length of a cell's side from `l` to `u` as BoTorch takes it, `min(u, CELL_CAP) − l`,
/// wherever that is positive. A side reaching beyond the cap from a lower bound at or above it
/// (objectives of 1e10 and more: BoTorch's logarithm of its negative length is NaN there) keeps
/// its true length where it has one, else the cap's.
fn side(l: f64, u: f64) -> f64 {
    match u.min(CELL_CAP) - l {
        capped if capped > 0.0 || u <= CELL_CAP => capped,
        _ if u.is_finite() => u - l,
        _ => CELL_CAP,
    }
}

/// The cells of every Monte Carlo sample's non-dominated region, in **maximisation** form: each
/// cell is `[l, u]` with `l` finite and `u` possibly `+∞` (capped at [`CELL_CAP`]). Stored as
/// each cell's lower corner and the logarithms of its side lengths, the samples' cells one after
/// another.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SampleCells {
    m: usize,
    /// Sample `s`'s cells are `offsets[s]..offsets[s + 1]`.
    offsets: Vec<usize>,
    lower: Vec<f64>,
    log_length: Vec<f64>,
}

impl SampleCells {
    /// No samples yet, for `m` objectives.
    pub fn new(m: usize) -> Self {
        Self {
            m,
            offsets: vec![0],
            lower: Vec::new(),
            log_length: Vec::new(),
        }
    }

    /// Adds the next sample's cells, each `(lower, upper)` in maximisation form. Empty cells
    /// (a side of zero length) add nothing and are dropped.
    ///
    /// # Errors
    ///
    /// [`EngineError::InvalidInput`] for a corner of the wrong length, a lower bound that is not
    /// finite, or an upper bound below it or NaN.
    pub fn push_sample<'c>(
        &mut self,
        cells: impl IntoIterator<Item = (&'c [f64], &'c [f64])>,
    ) -> Result<(), EngineError> {
        for (lower, upper) in cells {
            if lower.len() != self.m || upper.len() != self.m {
                return Err(EngineError::invalid(format!(
                    "hypervolume cells: a cell of {} and {} bounds for {} objectives",
                    lower.len(),
                    upper.len(),
                    self.m
                )));
            }
            let sides: Vec<f64> = lower.iter().zip(upper).map(|(l, u)| side(*l, *u)).collect();
            if lower.iter().any(|l| !l.is_finite()) || sides.iter().any(|s| s.is_nan() || *s < 0.0)
            {
                return Err(EngineError::invalid(format!(
                    "hypervolume cells: cell [{lower:?}, {upper:?}] needs finite lower bounds \
                     below its upper bounds"
                )));
            }
            if sides.iter().all(|s| *s > 0.0) {
                self.lower.extend_from_slice(lower);
                self.log_length.extend(sides.iter().map(|s| s.ln()));
            }
        }
        self.offsets.push(self.lower.len() / self.m.max(1));
        Ok(())
    }

    /// The number of objectives.
    pub fn m(&self) -> usize {
        self.m
    }

    /// The number of samples.
    pub fn samples(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The number of cells over all samples.
    pub fn cells(&self) -> usize {
        *self.offsets.last().unwrap_or(&0)
    }

    /// Where each sample's cells start, then the total: `samples() + 1` offsets.
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// Every cell's lower corner, `cells() × m` row-major.
    pub fn lower(&self) -> &[f64] {
        &self.lower
    }

    /// Every cell's log side lengths, `cells() × m` row-major.
    pub fn log_length(&self) -> &[f64] {
        &self.log_length
    }

    /// Sample `s`'s cells as `(lower corner, log side lengths)`.
    pub fn sample(&self, s: usize) -> impl Iterator<Item = (&[f64], &[f64])> {
        let (start, end) = (self.offsets[s] * self.m, self.offsets[s + 1] * self.m);
        self.lower[start..end]
            .chunks_exact(self.m)
            .zip(self.log_length[start..end].chunks_exact(self.m))
    }
}

/// The temperatures of the smoothed hypervolume improvement: `τ_relu` of the fat-tailed
/// softplus standing in for each side's `max(0, ·)`, `τ_max` of the fat minimum with the cell's
/// side length. BoTorch's qLogNEHVI uses `1e-6` and `1e-3`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImprovementSmoothing {
    /// Temperature of the smoothed ReLU.
    pub tau_relu: f64,
    /// Temperature of the smoothed minimum.
    pub tau_max: f64,
}

impl ImprovementSmoothing {
    /// BoTorch's qLogNEHVI temperatures.
    pub const BOTORCH: Self = Self {
        tau_relu: 1e-6,
        tau_max: 1e-3,
    };
}

/// The smoothed log hypervolume improvement of `y` over one sample's cells: the reference every
/// backend is tested against, in f64.
pub fn log_improvement_over<'c>(
    cells: impl Iterator<Item = (&'c [f64], &'c [f64])>,
    y: &[f64],
    smoothing: ImprovementSmoothing,
) -> f64 {
    use bosweep_core::stats::{fatmin_pair, log_fatplus};
    let (mut top, mut sum) = (f64::NEG_INFINITY, 0.0);
    for (lower, log_length) in cells {
        let log_area: f64 = (y.iter().zip(lower).zip(log_length))
            .map(|((y, l), len)| {
                fatmin_pair(
                    log_fatplus(y - l, smoothing.tau_relu),
                    *len,
                    smoothing.tau_max,
                )
            })
            .sum();
        if log_area > top {
            sum = sum * (top - log_area).exp() + 1.0;
            top = log_area;
        } else {
            sum += (log_area - top).exp();
        }
    }
    top + sum.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BoTorch's capped length wherever it is positive; beyond the cap, the true length of a
    /// finite side, else the cap's; a side whose upper bound lies below its lower one stays
    /// negative, for `push_sample` to refuse.
    #[test]
    fn sides_are_botorchs_where_defined_and_positive_beyond_the_cap() {
        assert_eq!(side(-28.5, f64::INFINITY), CELL_CAP + 28.5);
        assert_eq!(side(2.0, 5.0), 3.0);
        assert_eq!(side(2.6e11, f64::INFINITY), CELL_CAP);
        assert_eq!(side(2.6e11, 3.0e11), 3.0e11 - 2.6e11);
        assert_eq!(side(3.0, 3.0), 0.0);
        assert!(side(5.0, 2.0) < 0.0);
    }

    /// The cells qLogNEHVI met on bbob-biobj f50, whose objectives pass 1e10, are kept with
    /// positive lengths; an inverted cell is refused, naming it.
    #[test]
    fn cells_beyond_the_cap_are_kept_and_inverted_ones_refused() {
        let mut cells = SampleCells::new(2);
        let (l1, u1) = (
            [-28.575633842539, 263759647748.5116],
            [10059758.154904008, f64::INFINITY],
        );
        let (l2, u2) = ([305110488053.22217, -48.07542576362561], [f64::INFINITY; 2]);
        cells
            .push_sample([(&l1[..], &u1[..]), (&l2[..], &u2[..])])
            .unwrap();
        assert_eq!((cells.samples(), cells.cells()), (1, 2));
        let err = cells
            .push_sample([(&[1.0, 1.0][..], &[0.5, 2.0][..])])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("needs finite lower bounds below its upper bounds"),
            "{err}"
        );
    }
}
