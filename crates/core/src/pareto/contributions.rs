//! Each point's exclusive hypervolume contribution: the volume only it dominates.

use super::candidates::Candidates;
use super::hypervolume::exclusive_volume;
use super::staircase::{Staircase, Step};
use super::{Front, ParetoError, check_point};

/// The hypervolume contribution of each point of `front` with respect to `reference`
/// (minimisation): `HV(front) − HV(front without the point)`, the volume the point alone
/// dominates.
///
/// As moocore's `hv_contributions` (with its default `ignore_dominated=True`): a dominated
/// point contributes 0 and is left out when the others' contributions are computed (a point
/// dominated by exactly one other would otherwise lower that one's contribution); a point the
/// front holds twice contributes 0 in both copies, since removing one leaves the other; a point
/// not strictly better than `reference` in every objective contributes 0.
///
/// Two objectives take one sweep, `O(n log n)`. Three take the sweep of HVC3D (Guerreiro &
/// Fonseca 2018): each point's exclusive area in the staircase, integrated along the third
/// objective, `O(n log n)` plus, each time a neighbour of a point moves, a pass over the points
/// it has pushed out of the staircase (linear in all on spread-out fronts, quadratic at worst).
/// More objectives take each point's exclusive volume from its limit set as WFG does (While,
/// Bradstreet & Barone 2012), one hypervolume of `n − 1` points per point.
///
/// # Errors
///
/// [`ParetoError::PointLength`] or [`ParetoError::NonFinitePoint`] for a reference point
/// without one finite value per objective.
pub fn hypervolume_contributions(
    front: Front<'_>,
    reference: &[f64],
) -> Result<Vec<f64>, ParetoError> {
    check_point(reference, front.m(), "reference point")?;
    let candidates = Candidates::of(front, reference);
    let own = match front.m() {
        1 => one(&candidates.rows, reference),
        2 => two(&candidates.rows, reference),
        3 => three(&candidates.rows, reference),
        _ => by_limit_sets(&candidates.rows, reference),
    };
    let mut contributions = vec![0.0; front.len()];
    for (owner, value) in candidates.owners.iter().zip(own) {
        if let Some(i) = owner {
            contributions[*i] = value;
        }
    }
    Ok(contributions)
}

/// One objective: the single distinct non-dominated point owns everything up to the reference.
fn one(rows: &[f64], reference: &[f64]) -> Vec<f64> {
    rows.iter().map(|x| reference[0] - x).collect()
}

/// Two objectives: in order of the first objective (the second then decreasing), each point's
/// exclusive rectangle reaches its right neighbour's first objective and its left neighbour's
/// second. The rows come in lexicographic order ([`Candidates`]).
fn two(rows: &[f64], reference: &[f64]) -> Vec<f64> {
    let (points, _) = rows.as_chunks::<2>();
    (0..points.len())
        .map(|i| {
            let right = points.get(i + 1).map_or(reference[0], |p| p[0]);
            let above = if i == 0 {
                reference[1]
            } else {
                points[i - 1][1]
            };
            (right - points[i][0]) * (above - points[i][1])
        })
        .collect()
}

/// Three objectives (the sweep of HVC3D, Guerreiro & Fonseca 2018): the points in ascending
/// order of the third objective enter the two-objective staircase. Between two heights of the
/// sweep, a step's exclusive area is constant; its contribution is that area integrated along
/// the third objective until the step is removed or the reference point is reached.
fn three(rows: &[f64], reference: &[f64]) -> Vec<f64> {
    let (points, _) = rows.as_chunks::<3>();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[a][2].total_cmp(&points[b][2]));
    let mut state: Vec<Exclusive> = points
        .iter()
        .map(|&[x, y, _]| Exclusive::new(x, y))
        .collect();
    let mut stairs = Staircase::new([reference[0], reference[1]]);
    let mut removed = Vec::new();
    for id in order {
        let [x, y, z] = points[id];
        if stairs.covers(x, y) {
            continue;
        }
        removed.clear();
        let inserted = stairs.insert(Step { x, y, id }, &mut removed);
        for s in &removed {
            state[s.id].settle(z);
            state[s.id].area = 0.0;
        }
        if let Some(left) = inserted.left {
            state[left.id].settle(z);
            state[left.id].right = x;
            state[left.id].update();
        }
        if let Some(right) = inserted.right {
            state[right.id].settle(z);
            state[right.id].above = y;
            state[right.id].update();
        }
        let p = &mut state[id];
        p.since = z;
        p.right = inserted.right.map_or(reference[0], |s| s.x);
        p.above = inserted.left.map_or(reference[1], |s| s.y);
        p.under.extend(removed.iter().map(|s| [s.x, s.y]));
        p.update();
    }
    for s in stairs.steps() {
        state[s.id].settle(reference[2]);
    }
    state.iter().map(|s| s.volume).collect()
}

/// A step's exclusive region in the three-objective sweep: the rectangle from its projection
/// to its right neighbour's first objective and its left neighbour's second, less the
/// projections of the points it removed from the staircase (those are gone from it, yet they
/// still dominate part of the rectangle). They form a staircase of their own, `under`, in
/// increasing first objective; the neighbours only ever move closer, so the steps of `under`
/// they cut off are dropped for good.
struct Exclusive {
    x: f64,
    y: f64,
    right: f64,
    above: f64,
    under: Vec<[f64; 2]>,
    first: usize,
    area: f64,
    since: f64,
    volume: f64,
}

impl Exclusive {
    fn new(x: f64, y: f64) -> Self {
        Self {
            x,
            y,
            right: x,
            above: y,
            under: Vec::new(),
            first: 0,
            area: 0.0,
            since: 0.0,
            volume: 0.0,
        }
    }

    /// Adds the area swept from where it last changed up to height `z`.
    fn settle(&mut self, z: f64) {
        self.volume += self.area * (z - self.since);
        self.since = z;
    }

    /// Recomputes the area after a neighbour moved, strip by strip between the steps of
    /// `under` (all terms positive: no cancellation).
    fn update(&mut self) {
        while self.under.last().is_some_and(|d| d[0] >= self.right) {
            self.under.pop();
        }
        while self
            .under
            .get(self.first)
            .is_some_and(|d| d[1] >= self.above)
        {
            self.first += 1;
        }
        let (mut from, mut top) = (self.x, self.above);
        let mut area = 0.0;
        for &[x, y] in self.under.get(self.first..).unwrap_or_default() {
            area += (x - from) * (top - self.y);
            (from, top) = (x, y);
        }
        self.area = area + (self.right - from) * (top - self.y);
    }
}

/// Four objectives and more: each point's box less the hypervolume of its limit set.
fn by_limit_sets(rows: &[f64], reference: &[f64]) -> Vec<f64> {
    let m = reference.len();
    let mut others = Vec::with_capacity(rows.len());
    rows.chunks_exact(m)
        .enumerate()
        .map(|(i, p)| {
            others.clear();
            others.extend_from_slice(&rows[..i * m]);
            others.extend_from_slice(&rows[(i + 1) * m..]);
            exclusive_volume(p, &others, reference)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contributions(values: &[f64], m: usize, reference: &[f64]) -> Vec<f64> {
        hypervolume_contributions(Front::new(values, m).unwrap(), reference).unwrap()
    }

    #[test]
    fn three_unit_squares() {
        let values = [1.0, 3.0, 2.0, 2.0, 3.0, 1.0];
        assert_eq!(contributions(&values, 2, &[4.0, 4.0]), [1.0; 3]);
        // Lifted into three objectives with a constant third at 0 under height 2: twice that.
        let lifted: Vec<f64> = values.chunks(2).flat_map(|p| [p[0], p[1], 0.0]).collect();
        assert_eq!(contributions(&lifted, 3, &[4.0, 4.0, 2.0]), [2.0; 3]);
        let lifted4: Vec<f64> = lifted
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 0.0])
            .collect();
        assert_eq!(contributions(&lifted4, 4, &[4.0, 4.0, 2.0, 3.0]), [6.0; 3]);
    }

    #[test]
    fn copies_dominated_and_outside_points_contribute_nothing() {
        // (2, 2) twice: 0 each, yet it still bounds (1, 3) and (3, 1); (3, 3) is dominated,
        // (4, 0.5) lies on the reference point's boundary.
        let values = [1.0, 3.0, 2.0, 2.0, 2.0, 2.0, 3.0, 1.0, 3.0, 3.0, 4.0, 0.5];
        assert_eq!(
            contributions(&values, 2, &[4.0, 4.0]),
            [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
        );
        assert_eq!(
            contributions(&[3.0, 1.0, 1.0, 5.0], 1, &[4.0]),
            [0.0, 0.0, 0.0, 0.0]
        );
        assert_eq!(contributions(&[3.0, 1.0, 2.0], 1, &[4.0]), [0.0, 3.0, 0.0]);
    }

    #[test]
    fn a_corner_between_three_points_in_three_objectives() {
        // (0, 0, 1), (1, 1, 0) under (2, 2, 2): HV 5 (two boxes sharing [1, 2]³); each
        // contributes its box less the shared unit cube.
        let values = [0.0, 0.0, 1.0, 1.0, 1.0, 0.0];
        assert_eq!(contributions(&values, 3, &[2.0, 2.0, 2.0]), [3.0, 1.0]);
    }
}
