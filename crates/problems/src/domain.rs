//! Box domains and the map to and from the unit cube that optimisers work in.

use rand::{Rng, RngExt};

use super::ProblemError;
use bosweep_core::io::format_number;

/// A box `[lower_0, upper_0] × … × [lower_{d−1}, upper_{d−1}]` with finite bounds and
/// `lower_i < upper_i`, so that the unit-cube map is always defined and invertible.
#[derive(Clone, Debug, PartialEq)]
pub struct Domain {
    lower: Vec<f64>,
    upper: Vec<f64>,
}

impl Domain {
    /// The box with the given bounds. Errors name the coordinate and the offending values.
    pub fn new(lower: Vec<f64>, upper: Vec<f64>) -> Result<Self, ProblemError> {
        if lower.is_empty() {
            return Err(ProblemError::config(
                "a domain needs at least one dimension (no bounds given)",
            ));
        }
        if lower.len() != upper.len() {
            return Err(ProblemError::config(format!(
                "domain has {} lower bounds but {} upper bounds",
                lower.len(),
                upper.len()
            )));
        }
        for (i, (&lo, &hi)) in lower.iter().zip(&upper).enumerate() {
            let (lo_text, hi_text) = (format_number(lo), format_number(hi));
            if !lo.is_finite() || !hi.is_finite() {
                return Err(ProblemError::config(format!(
                    "domain coordinate {i}: bounds [{lo_text}, {hi_text}] must be finite"
                )));
            }
            if lo >= hi {
                return Err(ProblemError::config(format!(
                    "domain coordinate {i}: lower bound {lo_text} must be below upper bound {hi_text}"
                )));
            }
            // The width enters every unit-cube map; it overflows for bounds near ±f64::MAX.
            if !(hi - lo).is_finite() {
                return Err(ProblemError::config(format!(
                    "domain coordinate {i}: the width of [{lo_text}, {hi_text}] is not finite"
                )));
            }
        }
        Ok(Self { lower, upper })
    }

    /// The cube `[lo, hi]^dim`.
    pub fn cube(lo: f64, hi: f64, dim: usize) -> Result<Self, ProblemError> {
        Self::new(vec![lo; dim], vec![hi; dim])
    }

    /// The number of coordinates.
    pub fn dim(&self) -> usize {
        self.lower.len()
    }

    /// Lower bounds, one per coordinate.
    pub fn lower(&self) -> &[f64] {
        &self.lower
    }

    /// Upper bounds, one per coordinate, each above its lower bound.
    pub fn upper(&self) -> &[f64] {
        &self.upper
    }

    /// Whether `x` has this dimension, is finite and lies in the box (bounds included).
    pub fn contains(&self, x: &[f64]) -> bool {
        self.check_point(x).is_ok()
    }

    /// `Ok` when [`Self::contains`] holds, else an error naming the first bad coordinate.
    pub fn check_point(&self, x: &[f64]) -> Result<(), ProblemError> {
        if x.len() != self.dim() {
            return Err(ProblemError::invalid_point(format!(
                "point has {} coordinates, the domain has dimension {}",
                x.len(),
                self.dim()
            )));
        }
        for (i, ((&v, &lo), &hi)) in x.iter().zip(&self.lower).zip(&self.upper).enumerate() {
            if !(lo..=hi).contains(&v) {
                return Err(ProblemError::invalid_point(format!(
                    "coordinate {i} of the point is {v}, outside the domain's [{lo}, {hi}]"
                )));
            }
        }
        Ok(())
    }

    /// `u_i = (x_i − lower_i) / (upper_i − lower_i)`: the point in the unit cube.
    ///
    /// # Panics
    /// If `x` does not have the domain's dimension (a caller's bug; [`Self::check_point`]
    /// reports it as an error instead).
    pub fn to_unit(&self, x: &[f64]) -> Vec<f64> {
        assert_eq!(x.len(), self.dim(), "point dimension must match the domain");
        x.iter()
            .zip(self.lower.iter().zip(&self.upper))
            .map(|(&v, (&lo, &hi))| (v - lo) / (hi - lo))
            .collect()
    }

    /// `x_i = lower_i + u_i (upper_i − lower_i)`, clamped to the box so that rounding never
    /// yields a point a strict [`Self::check_point`] rejects (e.g. `u = 1` landing an ulp above
    /// `upper`).
    ///
    /// # Panics
    /// If `u` does not have the domain's dimension.
    pub fn from_unit(&self, u: &[f64]) -> Vec<f64> {
        assert_eq!(u.len(), self.dim(), "point dimension must match the domain");
        u.iter()
            .zip(self.lower.iter().zip(&self.upper))
            .map(|(&v, (&lo, &hi))| (lo + v * (hi - lo)).clamp(lo, hi))
            .collect()
    }

    /// A point drawn uniformly from the box.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<f64> {
        let u: Vec<f64> = (0..self.dim()).map(|_| rng.random::<f64>()).collect();
        self.from_unit(&u)
    }
}
