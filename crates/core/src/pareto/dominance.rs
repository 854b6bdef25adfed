//! Pareto dominance: the relation, the non-dominated points, the non-dominated sort into fronts
//! and the crowding distance that NSGA-II (Deb, Pratap, Agarwal & Meyarivan 2002, "A fast and
//! elitist multiobjective genetic algorithm: NSGA-II") selects by.

use super::staircase::{Staircase, Step};
use super::{Front, ascending, lexicographic};

/// Whether `a` dominates `b` (minimisation): no worse in every objective and better in at
/// least one. Equal points do not dominate each other.
///
/// # Panics
///
/// If the points have different lengths.
pub fn dominates(a: &[f64], b: &[f64]) -> bool {
    assert_eq!(a.len(), b.len(), "points of different lengths");
    let mut better = false;
    for (x, y) in a.iter().zip(b) {
        if x > y {
            return false;
        }
        better |= x < y;
    }
    better
}

/// The indices of the points no other point dominates, in increasing order. Equal points do not
/// dominate each other, so every copy of a non-dominated point is kept (moocore's
/// `is_nondominated(keep_weakly=True)`). `O(n log n)` for two and three objectives.
pub fn non_dominated(front: Front<'_>) -> Vec<usize> {
    let mut first = Layer::new(front);
    for i in lexicographic_order(front) {
        if !first.dominates(i) {
            first.push(i);
        }
    }
    first.members.sort_unstable();
    first.members
}

/// The points sorted into fronts (Deb et al. 2002): front 0 holds the non-dominated points,
/// front `k + 1` those that only points of fronts `0..=k` dominate. Each front lists its
/// indices in increasing order; equal points share a front.
///
/// The sort is ENS-BS (Zhang, Tian, Cheng & Jin 2015, "An efficient approach to non-dominated
/// sorting for evolutionary multiobjective optimization"): in lexicographic order only earlier
/// points can dominate a point, and if a point of front `k + 1` dominates it so does one of
/// front `k`, so a binary search over the fronts finds its own. For two objectives the last
/// point of a front decides and for three its staircase, `O(n log n)` (times the logarithm of
/// the number of fronts); `O(m n²)` at worst otherwise.
pub fn non_dominated_sort(front: Front<'_>) -> Vec<Vec<usize>> {
    let mut fronts: Vec<Layer<'_>> = Vec::new();
    for i in lexicographic_order(front) {
        let k = fronts.partition_point(|layer| layer.dominates(i));
        if k == fronts.len() {
            fronts.push(Layer::new(front));
        }
        fronts[k].push(i);
    }
    fronts
        .into_iter()
        .map(|mut layer| {
            layer.members.sort_unstable();
            layer.members
        })
        .collect()
}

/// Each point's front in [`non_dominated_sort`]: 0 for the non-dominated points (moocore's
/// `pareto_rank`).
pub fn pareto_ranks(front: Front<'_>) -> Vec<usize> {
    let mut ranks = vec![0; front.len()];
    for (rank, members) in non_dominated_sort(front).iter().enumerate() {
        for &i in members {
            ranks[i] = rank;
        }
    }
    ranks
}

/// The crowding distance of each point of `front` (Deb et al. 2002): for every objective, the
/// points in its order, each interior point adding the gap between its two neighbours divided
/// by the objective's range, the two extreme points infinite. NSGA-II prefers, within a front,
/// the points in sparser regions.
///
/// Ties in an objective keep the points' order (a stable sort); an objective whose values are
/// all equal adds nothing and makes no point infinite. With at most two points every distance
/// is infinite.
pub fn crowding_distance(front: Front<'_>) -> Vec<f64> {
    let n = front.len();
    if n <= 2 {
        return vec![f64::INFINITY; n];
    }
    let mut distance = vec![0.0; n];
    let mut order: Vec<usize> = Vec::with_capacity(n);
    for k in 0..front.m() {
        order.clear();
        order.extend(0..n);
        order.sort_by(|&a, &b| ascending(front.point(a)[k], front.point(b)[k]));
        let value = |i: usize| front.point(order[i])[k];
        let range = value(n - 1) - value(0);
        if range == 0.0 {
            continue;
        }
        distance[order[0]] = f64::INFINITY;
        distance[order[n - 1]] = f64::INFINITY;
        for i in 1..n - 1 {
            distance[order[i]] += (value(i + 1) - value(i - 1)) / range;
        }
    }
    distance
}

/// The indices of the points in lexicographic order of their objectives: a point can only be
/// dominated by points before it.
fn lexicographic_order(front: Front<'_>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..front.len()).collect();
    order.sort_by(|&a, &b| lexicographic(front.point(a), front.point(b)));
    order
}

/// One front in the making: mutually non-dominated points, added in lexicographic order, so
/// that a point only needs checking against the points before it.
struct Layer<'a> {
    front: Front<'a>,
    members: Vec<usize>,
    /// For three objectives, the staircase of the members' last two objectives: every member's
    /// first objective is at most the point's, so a member dominates it if its projection does.
    stairs: Option<Staircase>,
    removed: Vec<Step>,
}

impl<'a> Layer<'a> {
    fn new(front: Front<'a>) -> Self {
        let stairs = (front.m() == 3).then(|| {
            let worst = |k: usize| front.points().map(|p| p[k]).fold(f64::MIN, f64::max);
            Staircase::new([worst(1), worst(2)])
        });
        Self {
            front,
            members: Vec::new(),
            stairs,
            removed: Vec::new(),
        }
    }

    /// Whether a member dominates point `i`, which comes after every member.
    fn dominates(&self, i: usize) -> bool {
        let p = self.front.point(i);
        match (&self.stairs, self.front.m()) {
            // A step covering p's projection dominates p unless it is p itself (the staircase
            // keeps the first of equal projections, the one with the smallest first objective).
            (Some(stairs), _) => stairs
                .covering(p[1], p[2])
                .is_some_and(|s| s.x < p[1] || s.y < p[2] || self.front.point(s.id)[0] < p[0]),
            // Later members have larger first and smaller second objectives (equal points
            // aside): the last one is the only candidate.
            (None, ..=2) => {
                (self.members.last()).is_some_and(|&j| dominates(self.front.point(j), p))
            }
            (None, _) => (self.members.iter().rev()).any(|&j| dominates(self.front.point(j), p)),
        }
    }

    fn push(&mut self, i: usize) {
        self.members.push(i);
        if let Some(stairs) = &mut self.stairs {
            let p = self.front.point(i);
            if !stairs.covers(p[1], p[2]) {
                self.removed.clear();
                let step = Step {
                    x: p[1],
                    y: p[2],
                    id: i,
                };
                stairs.insert(step, &mut self.removed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn front(values: &[f64], m: usize) -> Front<'_> {
        Front::new(values, m).unwrap()
    }

    #[test]
    fn dominance_is_weak_pareto_dominance() {
        assert!(dominates(&[1.0, 2.0], &[1.0, 3.0]));
        assert!(dominates(&[0.0, 2.0], &[1.0, 3.0]));
        assert!(!dominates(&[1.0, 2.0], &[1.0, 2.0]));
        assert!(!dominates(&[1.0, 4.0], &[2.0, 3.0]));
        assert!(!dominates(&[-0.0], &[0.0]));
    }

    #[test]
    fn non_dominated_keeps_every_copy() {
        // (2, 2) twice, (3, 3) dominated, (1, 3) and (3, 1) non-dominated.
        let values = [3.0, 3.0, 2.0, 2.0, 1.0, 3.0, 2.0, 2.0, 3.0, 1.0];
        assert_eq!(non_dominated(front(&values, 2)), [1, 2, 3, 4]);
        // The same in three objectives with a constant third.
        let values3: Vec<f64> = values.chunks(2).flat_map(|p| [p[0], p[1], 7.0]).collect();
        assert_eq!(non_dominated(front(&values3, 3)), [1, 2, 3, 4]);
        assert_eq!(non_dominated(front(&[2.0, 1.0, 1.0, 3.0], 1)), [1, 2]);
    }

    #[test]
    fn sort_into_fronts_by_hand() {
        // Front 0: (1, 4), (2, 2), (4, 1); front 1: (3, 3), (2, 5); front 2: (4, 4), (4, 4).
        let values = [
            3.0, 3.0, 1.0, 4.0, 4.0, 4.0, 2.0, 2.0, 4.0, 1.0, 2.0, 5.0, 4.0, 4.0,
        ];
        let f = front(&values, 2);
        assert_eq!(
            non_dominated_sort(f),
            [vec![1, 3, 4], vec![0, 5], vec![2, 6]]
        );
        assert_eq!(pareto_ranks(f), [1, 0, 2, 0, 0, 1, 2]);
        // A third objective that orders nothing changes nothing; one that reverses the second
        // makes every point non-dominated.
        let flat: Vec<f64> = values.chunks(2).flat_map(|p| [p[0], p[1], 0.0]).collect();
        assert_eq!(pareto_ranks(front(&flat, 3)), [1, 0, 2, 0, 0, 1, 2]);
        let reversed: Vec<f64> = values
            .chunks(2)
            .flat_map(|p| [p[0], p[1], -p[0] - p[1]])
            .collect();
        assert_eq!(pareto_ranks(front(&reversed, 3)), [0; 7]);
    }

    #[test]
    fn negative_zero_is_zero() {
        // (0, 1) dominates (−0, 2) although total order puts −0 first.
        assert_eq!(pareto_ranks(front(&[-0.0, 2.0, 0.0, 1.0], 2)), [1, 0]);
    }

    #[test]
    fn crowding_distance_by_hand() {
        // Objective 0 ranges over 4: the interior points get (2 − 0)/4 and (4 − 1)/4;
        // objective 1 ranges over 4 with the reverse order: (4 − 1)/4 and (2 − 0)/4.
        let values = [0.0, 4.0, 1.0, 2.0, 2.0, 1.0, 4.0, 0.0];
        let d = crowding_distance(front(&values, 2));
        assert_eq!(d, [f64::INFINITY, 0.5 + 0.75, 0.75 + 0.5, f64::INFINITY]);
        // A constant objective adds nothing and makes no point infinite.
        let d = crowding_distance(front(&[0.0, 5.0, 1.0, 5.0, 3.0, 5.0], 2));
        assert_eq!(d, [f64::INFINITY, 1.0, f64::INFINITY]);
        assert_eq!(crowding_distance(front(&[1.0, 2.0], 1)), [f64::INFINITY; 2]);
    }
}
