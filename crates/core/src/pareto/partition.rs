//! Box decompositions of the space below a reference point: the region a front dominates and
//! the region it does not, each as disjoint axis-parallel boxes. Expected hypervolume
//! improvement integrates over the second: a new point improves the hypervolume by exactly the
//! part of it that the point dominates ([`hypervolume_improvement`]).
//!
//! Both come from the front's local upper bounds (Klamroth, Lacour & Vanderpooten 2015, "On the
//! representation of the search region in multi-objective optimization"): the maximal points
//! `u` below the reference point such that no point of the front is strictly better than `u`
//! in every objective. The non-dominated region is the union of the orthants below them, and
//! each local upper bound `u` has, for every objective `j`, a defining point `zʲ(u)` of the
//! front (or a dummy on the reference point's boundary) with `zʲ(u)ⱼ = uⱼ` and
//! `zʲ(u)ₖ < uₖ` elsewhere. Lacour, Klamroth & Fonseca (2017, "A box decomposition algorithm
//! to compute the hypervolume indicator") show that the boxes
//!
//! `[(u₀, max_{k<1} zᵏ(u)₁, …, max_{k<m−1} zᵏ(u)ₘ₋₁), (r₀, u₁, …, uₘ₋₁)]`
//!
//! tile the dominated region, one per local upper bound; the boxes
//!
//! `[(max_{k>0} zᵏ(u)₀, …, max_{k>m−2} zᵏ(u)ₘ₋₂, −∞), u]`,
//!
//! the same construction with the objectives taken in the opposite order, tile the
//! non-dominated region. BoTorch's `FastNondominatedPartitioning` gets the latter instead by
//! running the algorithm a second time, on the local upper bounds as a front.
//!
//! The local upper bounds are built by the incremental algorithm of Klamroth et al. (Lacour et
//! al.'s Algorithm 1), which assumes that no two points share a value in any objective. Ties
//! are common (points on a grid, repeated evaluations), so every comparison breaks them by the
//! points' indices, as if each point were moved by a distinct infinitesimal amount; the boxes
//! then take the true values, and the boxes the perturbation made empty are dropped. The
//! decomposition stays exact, since its volumes are continuous in the perturbation.

use super::candidates::Candidates;
use super::{Front, ParetoError, check_point};

/// Disjoint boxes `[lower, upper]` in `m` objectives, stored row-major. A lower bound may be
/// `−∞` (a non-dominated cell unbounded below); an upper bound never exceeds the reference
/// point.
#[derive(Clone, Debug, PartialEq)]
pub struct Boxes {
    m: usize,
    lower: Vec<f64>,
    upper: Vec<f64>,
}

impl Boxes {
    fn new(m: usize) -> Self {
        Self {
            m,
            lower: Vec::new(),
            upper: Vec::new(),
        }
    }

    /// The number of objectives.
    pub fn m(&self) -> usize {
        self.m
    }

    /// The number of boxes.
    pub fn len(&self) -> usize {
        self.lower.len() / self.m
    }

    /// Whether there are no boxes.
    pub fn is_empty(&self) -> bool {
        self.lower.is_empty()
    }

    /// Box `i`'s lower corner.
    ///
    /// # Panics
    ///
    /// If `i ≥ len()`, as slice indexing does.
    pub fn lower(&self, i: usize) -> &[f64] {
        &self.lower[i * self.m..(i + 1) * self.m]
    }

    /// Box `i`'s upper corner.
    ///
    /// # Panics
    ///
    /// If `i ≥ len()`, as slice indexing does.
    pub fn upper(&self, i: usize) -> &[f64] {
        &self.upper[i * self.m..(i + 1) * self.m]
    }

    /// The boxes as `(lower, upper)` corners.
    pub fn iter(&self) -> impl Iterator<Item = (&[f64], &[f64])> {
        self.lower
            .chunks_exact(self.m)
            .zip(self.upper.chunks_exact(self.m))
    }

    /// The boxes' total volume: infinite where a box is unbounded below.
    pub fn volume(&self) -> f64 {
        self.iter()
            .map(|(l, u)| l.iter().zip(u).map(|(a, b)| b - a).product::<f64>())
            .sum()
    }

    /// Adds the box `[lower, upper]` unless it is empty.
    fn push(&mut self, lower: &[f64], upper: &[f64]) {
        if lower.iter().zip(upper).all(|(l, u)| l < u) {
            self.lower.extend_from_slice(lower);
            self.upper.extend_from_slice(upper);
        }
    }
}

/// The space below a reference point cut into the region a front dominates and the region it
/// does not, each as disjoint boxes with one box (at most) per local upper bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Partition {
    /// Boxes tiling `{x ≤ r : some point p ≤ x}`: their volumes sum to the hypervolume. Every
    /// bound is finite.
    pub dominated: Boxes,
    /// Boxes tiling `{x ≤ r : no point p ≤ x}`, the cells over which expected hypervolume
    /// improvement integrates. A cell's lower bound in objective `j` is `−∞` where no point
    /// bounds it: always in the last objective, and in others for the cells along the
    /// reference point's faces. Clipped to any finite lower corner `l ≤` every point, the two
    /// sets tile the box `[l, r]`.
    pub non_dominated: Boxes,
}

/// The box decomposition of the space below `reference` by `front` (minimisation): see the
/// module documentation. Points not strictly better than the reference point in every
/// objective, dominated points and repeated points change nothing and are ignored; an empty
/// front leaves one non-dominated cell, the orthant below the reference point.
///
/// Each set has at most one box per local upper bound (those of zero volume are dropped), and
/// `n` mutually non-dominated points have `n + 1` local upper bounds in two objectives, `2n + 1`
/// in three when no two share a value, `O(n^⌊m/2⌋)` in general. Each point inserted costs a
/// pass over the local upper bounds so far, `O(m)` each.
///
/// # Errors
///
/// [`ParetoError::PointLength`] or [`ParetoError::NonFinitePoint`] for a reference point
/// without one finite value per objective.
pub fn partition(front: Front<'_>, reference: &[f64]) -> Result<Partition, ParetoError> {
    check_point(reference, front.m(), "reference point")?;
    let points = Candidates::of(front, reference).rows;
    let bounds = LocalUpperBounds::of(&points, reference);
    Ok(bounds.boxes())
}

/// The hypervolume improvement of a new point `y` over the front whose non-dominated cells are
/// `cells` ([`Partition::non_dominated`]): the volume of the part of the non-dominated region
/// that `y` dominates,
///
/// `HVI(y) = Σ_cells Πₖ max(0, uₖ − max(lₖ, yₖ))`,
///
/// which equals `HV(front ∪ {y}) − HV(front)`. This is what qEHVI evaluates for each sample.
///
/// # Errors
///
/// [`ParetoError::PointLength`] or [`ParetoError::NonFinitePoint`] for a point without one
/// finite value per objective of the cells.
pub fn hypervolume_improvement(cells: &Boxes, y: &[f64]) -> Result<f64, ParetoError> {
    check_point(y, cells.m, "new point")?;
    Ok(cells
        .iter()
        .map(|(lower, upper)| {
            (lower.iter().zip(upper).zip(y))
                .map(|((l, u), y)| (u - l.max(*y)).max(0.0))
                .product::<f64>()
        })
        .sum())
}

/// The local upper bounds of a set of distinct, mutually non-dominated points, each stored by
/// its defining points: `defining[b * m + j]` is the index of `zʲ(u_b)`, a point index below
/// `n` or `n + j` for the dummy on the reference point's face `j` (the reference value in
/// objective `j`, `−∞` in the others). The bound itself needs no storage: `u_b,j = zʲ(u_b)ⱼ`.
struct LocalUpperBounds<'a> {
    points: &'a [f64],
    reference: &'a [f64],
    defining: Vec<usize>,
}

impl<'a> LocalUpperBounds<'a> {
    /// Inserts the points one by one (Klamroth et al. 2015; Lacour et al. 2017, Algorithm 1).
    /// A point `z` splits every bound `u` it is strictly below: each objective `j` gives the
    /// candidate `(zⱼ, u₋ⱼ)`, a local upper bound if every other defining point of `u` is below
    /// `z` in objective `j`; its defining points are `u`'s with `z` in objective `j`.
    fn of(points: &'a [f64], reference: &'a [f64]) -> Self {
        let m = reference.len();
        let n = points.len() / m;
        let mut bounds = Self {
            points,
            reference,
            defining: (n..n + m).collect(),
        };
        let mut next = Vec::new();
        for z in 0..n {
            next.clear();
            for u in bounds.defining.chunks_exact(m) {
                if !(0..m).all(|j| bounds.before(z, u[j], j)) {
                    next.extend_from_slice(u);
                    continue;
                }
                for j in 0..m {
                    if (0..m).all(|k| k == j || bounds.before(u[k], z, j)) {
                        let start = next.len();
                        next.extend_from_slice(u);
                        next[start + j] = z;
                    }
                }
            }
            std::mem::swap(&mut bounds.defining, &mut next);
        }
        bounds
    }

    /// Objective `j` of point `id` (a point or a dummy).
    fn value(&self, id: usize, j: usize) -> f64 {
        let m = self.reference.len();
        let n = self.points.len() / m;
        match id.checked_sub(n) {
            None => self.points[id * m + j],
            Some(face) if face == j => self.reference[j],
            Some(_) => f64::NEG_INFINITY,
        }
    }

    /// Whether point `a` comes strictly before point `b` in objective `j`, ties broken by
    /// index: the symbolic perturbation that puts the points in general position. A dummy
    /// sits at `−∞` below every point, or at the reference value above every point.
    fn before(&self, a: usize, b: usize, j: usize) -> bool {
        let rank = |id: usize| {
            let n = self.points.len() / self.reference.len();
            match id.checked_sub(n) {
                None => id + 1,
                Some(face) if face == j => usize::MAX,
                Some(_) => 0,
            }
        };
        let (x, y) = (self.value(a, j), self.value(b, j));
        x < y || (x == y && rank(a) < rank(b))
    }

    /// The dominated and non-dominated boxes of each bound (the module documentation's
    /// formulas).
    fn boxes(&self) -> Partition {
        let m = self.reference.len();
        let mut partition = Partition {
            dominated: Boxes::new(m),
            non_dominated: Boxes::new(m),
        };
        let (mut lower, mut upper) = (vec![0.0; m], vec![0.0; m]);
        for u in self.defining.chunks_exact(m) {
            let bound = |k: std::ops::Range<usize>, j: usize| {
                k.map(|k| self.value(u[k], j))
                    .fold(f64::NEG_INFINITY, f64::max)
            };
            for j in 0..m {
                upper[j] = self.value(u[j], j);
                lower[j] = bound(j + 1..m, j);
            }
            partition.non_dominated.push(&lower, &upper);
            lower[0] = upper[0];
            for (j, l) in lower.iter_mut().enumerate().skip(1) {
                *l = bound(0..j, j);
            }
            upper[0] = self.reference[0];
            partition.dominated.push(&lower, &upper);
        }
        partition
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(b: &Boxes) -> Vec<(Vec<f64>, Vec<f64>)> {
        let mut all: Vec<_> = b.iter().map(|(l, u)| (l.to_vec(), u.to_vec())).collect();
        all.sort_by(|a, b| a.partial_cmp(b).unwrap());
        all
    }

    #[test]
    fn two_objectives_by_hand() {
        let values = [1.0, 3.0, 2.0, 2.0, 3.0, 1.0];
        let p = partition(Front::new(&values, 2).unwrap(), &[4.0, 4.0]).unwrap();
        let inf = f64::NEG_INFINITY;
        assert_eq!(
            boxes(&p.non_dominated),
            [
                (vec![inf, inf], vec![1.0, 4.0]),
                (vec![1.0, inf], vec![2.0, 3.0]),
                (vec![2.0, inf], vec![3.0, 2.0]),
                (vec![3.0, inf], vec![4.0, 1.0]),
            ]
        );
        assert_eq!(
            boxes(&p.dominated),
            [
                (vec![1.0, 3.0], vec![4.0, 4.0]),
                (vec![2.0, 2.0], vec![4.0, 3.0]),
                (vec![3.0, 1.0], vec![4.0, 2.0]),
            ]
        );
        assert_eq!(p.dominated.volume(), 6.0);
        // (1.5, 1.5) adds [1.5, 2] × [1.5, 3] and [2, 3] × [1.5, 2].
        let hvi = hypervolume_improvement(&p.non_dominated, &[1.5, 1.5]).unwrap();
        assert_eq!(hvi, 0.5 * 1.5 + 0.5);
        assert_eq!(
            hypervolume_improvement(&p.non_dominated, &[3.0, 3.0]),
            Ok(0.0)
        );
    }

    #[test]
    fn an_empty_front_leaves_the_orthant_below_the_reference_point() {
        let p = partition(Front::new(&[5.0, 0.0], 2).unwrap(), &[4.0, 4.0]).unwrap();
        assert!(p.dominated.is_empty());
        assert_eq!(
            boxes(&p.non_dominated),
            [(vec![f64::NEG_INFINITY; 2], vec![4.0, 4.0])]
        );
        assert_eq!(
            hypervolume_improvement(&p.non_dominated, &[3.0, 2.0]),
            Ok(2.0)
        );
    }

    #[test]
    fn a_bad_new_point_is_an_error() {
        let p = partition(Front::new(&[1.0, 1.0], 2).unwrap(), &[2.0, 2.0]).unwrap();
        assert!(hypervolume_improvement(&p.non_dominated, &[1.0]).is_err());
        let error = hypervolume_improvement(&p.non_dominated, &[1.0, f64::INFINITY]);
        assert_eq!(
            error.unwrap_err().to_string(),
            "the new point's objective 1: inf is not finite"
        );
    }
}
