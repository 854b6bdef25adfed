//! Row-major point sets: the inputs of every batch operation.

use super::EngineError;

/// An `rows × dim` matrix of finite coordinates stored row-major, so that one point is one
/// contiguous slice (the layout both backends upload and iterate over).
///
/// Construction rejects non-finite values and ragged shapes, so engine operations never have to.
#[derive(Clone, Debug, PartialEq)]
pub struct Points {
    data: Vec<f64>,
    dim: usize,
}

impl Points {
    /// Wraps row-major `data` holding points of dimension `dim`.
    pub fn new(data: Vec<f64>, dim: usize) -> Result<Self, EngineError> {
        if dim == 0 {
            return Err(EngineError::invalid(
                "points must have dimension at least 1",
            ));
        }
        if !data.len().is_multiple_of(dim) {
            return Err(EngineError::invalid(format!(
                "{} coordinates do not form rows of dimension {dim}",
                data.len()
            )));
        }
        if let Some(pos) = data.iter().position(|v| !v.is_finite()) {
            return Err(EngineError::invalid(format!(
                "coordinate {} of point {} is {} (must be finite)",
                pos % dim,
                pos / dim,
                data[pos]
            )));
        }
        Ok(Self { data, dim })
    }

    /// Builds a point set from rows of equal length.
    pub fn from_rows<R: AsRef<[f64]>>(rows: &[R]) -> Result<Self, EngineError> {
        let dim = rows.first().map_or(0, |r| r.as_ref().len());
        if let Some(i) = rows.iter().position(|r| r.as_ref().len() != dim) {
            return Err(EngineError::invalid(format!(
                "point {i} has {} coordinates, expected {dim}",
                rows[i].as_ref().len()
            )));
        }
        Self::new(
            rows.iter()
                .flat_map(|r| r.as_ref().iter().copied())
                .collect(),
            dim,
        )
    }

    /// An empty set of points of dimension `dim` (e.g. a GP with no data yet).
    pub fn empty(dim: usize) -> Result<Self, EngineError> {
        Self::new(Vec::new(), dim)
    }

    /// The number of points.
    pub fn rows(&self) -> usize {
        self.data.len() / self.dim
    }

    /// Coordinates per point.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Whether there is no point.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Point `i`'s coordinates (panics past the last point).
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.dim..(i + 1) * self.dim]
    }

    /// The points in order, each as its coordinates.
    pub fn iter(&self) -> std::slice::ChunksExact<'_, f64> {
        self.data.chunks_exact(self.dim)
    }

    /// Every coordinate, row-major.
    pub fn as_slice(&self) -> &[f64] {
        &self.data
    }

    /// The points `start..end`, copied.
    pub fn slice_rows(&self, start: usize, end: usize) -> Points {
        Points {
            data: self.data[start * self.dim..end * self.dim].to_vec(),
            dim: self.dim,
        }
    }
}
