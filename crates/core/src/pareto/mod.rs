//! Multi-objective indicators, exact and fast: Pareto dominance, non-dominated sorting and the
//! crowding distance (what NSGA-II selects by), the hypervolume and each point's exclusive
//! contribution to it, box decompositions of the dominated and the non-dominated region (what
//! the expected hypervolume improvement integrates over), and the distance indicators IGD, IGD⁺
//! and the additive ε.
//!
//! # Convention: minimisation
//!
//! Every function **minimises** every objective, as pymoo, moocore and COCO do: a caller with a
//! maximised objective negates it first, in the points and in the reference point alike. A point
//! `a` dominates `b` when it is no worse in every objective and better in at least one
//! ([`dominates`]).
//!
//! The hypervolume of a set of points with respect to a reference point `r` is the volume of
//! the region they dominate below `r`: `{x : x ≤ r and p ≤ x for some point p}`. A point counts
//! only through the box `[p, r]`, so a point that is not strictly better than `r` in every
//! objective adds no volume and is ignored, as moocore ignores it (a point on the reference
//! point's boundary spans a box of volume zero).
//!
//! # Input
//!
//! Points come as a [`Front`]: a borrowed view of `n` rows of `m` objectives stored row-major in
//! one slice, checked once when it is made (at least one objective, whole rows, every value
//! finite). A reference point, a reference set's width and a new point are checked where they
//! are passed. Bad input is a [`ParetoError`] naming the row, objective and value, never a panic
//! or a NaN in the result.
//!
//! # Algorithms
//!
//! - [`non_dominated`], [`non_dominated_sort`] and [`pareto_ranks`]: the efficient
//!   non-dominated sort ENS-BS (Zhang, Tian, Cheng & Jin 2015), `O(n log n)` for two objectives;
//!   [`crowding_distance`] as NSGA-II defines it (Deb, Pratap, Agarwal & Meyarivan 2002).
//! - [`hypervolume()`]: one objective trivially; two by a sweep, `O(n log n)`; three by the
//!   dimension sweep of HV3D⁺ and four by HV4D⁺ (Guerreiro & Fonseca 2018, "Computing and
//!   updating hypervolume contributions in up to four dimensions"), `O(n log n)` and `O(n²)`;
//!   five and more by WFG (While, Bradstreet & Barone 2012, "A fast way of calculating exact
//!   hypervolumes"), whose slices end in HV4D⁺.
//! - [`hypervolume_contributions`]: two and three objectives by sweeps (for three, the one of
//!   HVC3D, Guerreiro & Fonseca 2018); four and more by WFG's exclusive volume of each point.
//! - [`partition()`]: the local upper bounds of Klamroth, Lacour & Vanderpooten (2015) and the
//!   boxes Lacour, Klamroth & Fonseca (2017) build on them, for the dominated and the
//!   non-dominated region; [`hypervolume_improvement`] sums a new point's share of the latter.
//! - [`attainment_surfaces`]: the empirical k-attainment surfaces of r runs in two objectives
//!   (Fonseca, Grunert da Fonseca & Hall 2001), as moocore's `eaf` computes them, by one sweep.
//! - [`igd`], [`igd_plus`] (Ishibuchi, Masuda, Tanigaki & Nojima 2015) and [`epsilon_additive`]
//!   (Zitzler, Thiele, Laumanns, Fonseca & Grunert da Fonseca 2003), as moocore defines them.

mod attainment;
mod candidates;
mod contributions;
mod dominance;
mod hypervolume;
mod indicators;
mod partition;
mod staircase;

#[cfg(test)]
mod tests;

pub use attainment::{Surface, attainment_surfaces, median_level};
pub use contributions::hypervolume_contributions;
pub use dominance::{
    crowding_distance, dominates, non_dominated, non_dominated_sort, pareto_ranks,
};
pub use hypervolume::hypervolume;
pub use indicators::{epsilon_additive, igd, igd_plus};
pub use partition::{Boxes, Partition, hypervolume_improvement, partition};

use crate::data::{Blame, Failure};
use thiserror::Error;

/// Why a multi-objective indicator could not be computed: every case is bad input.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ParetoError {
    /// Points need at least one objective.
    #[error("points need at least one objective (m = 0)")]
    NoObjectives,
    /// The values do not split into whole rows of `m` objectives.
    #[error("{len} values do not split into rows of {m} objectives")]
    Ragged {
        /// How many values there are.
        len: usize,
        /// The number of objectives.
        m: usize,
    },
    /// A point's objective value is NaN or infinite (rows and objectives counted from 0).
    #[error("row {row}, objective {objective}: {value} is not finite")]
    NonFinite {
        /// The row of the value.
        row: usize,
        /// The objective (column) of the value.
        objective: usize,
        /// The value itself.
        value: f64,
    },
    /// A single point (the reference point, a new point) has the wrong number of objectives.
    #[error("the {what} has {found} objectives where the points have {expected}")]
    PointLength {
        /// Which point: `reference point` or `new point`.
        what: &'static str,
        /// The points' number of objectives.
        expected: usize,
        /// The point's length.
        found: usize,
    },
    /// A single point (the reference point, a new point) has a NaN or infinite value.
    #[error("the {what}'s objective {objective}: {value} is not finite")]
    NonFinitePoint {
        /// Which point: `reference point` or `new point`.
        what: &'static str,
        /// The objective of the value (counted from 0).
        objective: usize,
        /// The value itself.
        value: f64,
    },
    /// The reference set's points have another number of objectives than the approximation's.
    #[error("the reference set has {found} objectives where the approximation has {expected}")]
    SetWidth {
        /// The approximation's number of objectives.
        expected: usize,
        /// The reference set's.
        found: usize,
    },
    /// A distance indicator was asked of an empty set, where it has no value.
    #[error("the {what} is empty: the indicator needs at least one point in it")]
    EmptySet {
        /// Which set: `approximation set` or `reference set`.
        what: &'static str,
    },
    /// Attainment surfaces are computed in two objectives only, and a set has another number.
    #[error("attainment surfaces need two objectives; a set has {m}")]
    NotTwoObjectives {
        /// The set's number of objectives.
        m: usize,
    },
}

impl Failure for ParetoError {
    fn blame(&self) -> Blame {
        Blame::Input
    }
}

/// `n` points of `m` objectives, borrowed as one row-major slice and checked once: `m ≥ 1`, whole
/// rows, every value finite. Every function of the module takes its points this way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Front<'a> {
    values: &'a [f64],
    m: usize,
}

impl<'a> Front<'a> {
    /// The points stored row-major in `values` (row `i` is `values[i * m..(i + 1) * m]`); an
    /// empty slice is a front of no points.
    pub fn new(values: &'a [f64], m: usize) -> Result<Self, ParetoError> {
        if m == 0 {
            return Err(ParetoError::NoObjectives);
        }
        if !values.len().is_multiple_of(m) {
            return Err(ParetoError::Ragged {
                len: values.len(),
                m,
            });
        }
        if let Some(at) = values.iter().position(|v| !v.is_finite()) {
            return Err(ParetoError::NonFinite {
                row: at / m,
                objective: at % m,
                value: values[at],
            });
        }
        Ok(Self { values, m })
    }

    /// The number of objectives.
    pub fn m(&self) -> usize {
        self.m
    }

    /// The number of points.
    pub fn len(&self) -> usize {
        self.values.len() / self.m
    }

    /// Whether there are no points.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Point `i`'s objectives.
    ///
    /// # Panics
    ///
    /// If `i ≥ len()`, as slice indexing does.
    pub fn point(&self, i: usize) -> &'a [f64] {
        &self.values[i * self.m..(i + 1) * self.m]
    }

    /// The points in order, each as its slice of objectives.
    pub fn points(&self) -> std::slice::ChunksExact<'a, f64> {
        self.values.chunks_exact(self.m)
    }

    /// All values, row-major.
    pub fn values(&self) -> &'a [f64] {
        self.values
    }
}

/// Checks a single point passed beside a front: `m` finite values. `what` names it in the error.
fn check_point(point: &[f64], m: usize, what: &'static str) -> Result<(), ParetoError> {
    if point.len() != m {
        return Err(ParetoError::PointLength {
            what,
            expected: m,
            found: point.len(),
        });
    }
    match point.iter().position(|v| !v.is_finite()) {
        Some(objective) => Err(ParetoError::NonFinitePoint {
            what,
            objective,
            value: point[objective],
        }),
        None => Ok(()),
    }
}

/// The order of two finite values, with −0 equal to +0 as `<` sees them (`total_cmp` alone puts
/// −0 first, which would let a sort separate points that dominance calls equal).
fn ascending(a: f64, b: f64) -> std::cmp::Ordering {
    (a + 0.0).total_cmp(&(b + 0.0))
}

/// The lexicographic order of two points by [`ascending`]: a point can only be dominated by
/// points before it.
fn lexicographic(p: &[f64], q: &[f64]) -> std::cmp::Ordering {
    (p.iter().zip(q))
        .map(|(x, y)| ascending(*x, *y))
        .find(|o| o.is_ne())
        .unwrap_or(std::cmp::Ordering::Equal)
}

/// The volume of the box `[p, r]` (`p ≤ r`).
fn box_volume(p: &[f64], r: &[f64]) -> f64 {
    p.iter().zip(r).map(|(x, r)| r - x).product()
}
