//! Four objectives: HV4D⁺ (Guerreiro & Fonseca 2018, "Computing and updating hypervolume
//! contributions in up to four dimensions"), `O(n²)`.
//!
//! The points are swept in ascending order of the fourth objective. Between one point's fourth
//! objective and the next, the cross-section of the dominated region is the three-objective
//! hypervolume of the points swept so far, so the sweep only needs each new point's
//! three-objective contribution to them, which one pass in order of the third objective gives
//! in linear time.
//!
//! That pass replays the two-objective staircase sweep (the one of HV3D⁺) over the points kept
//! so far, `L`, which lists them in lexicographic order of (third, second, first) objective.
//! Each point of `L` remembers its two neighbours in the staircase at the moment it enters it:
//! `up`, the point before it in `L` with a smaller first objective and the smallest second, and
//! `right`, the one with a smaller second objective and the smallest first. Entering the
//! staircase then costs no search: a point is linked between `up` and `right`, and the steps
//! between them (those it dominates) are passed over. The new point `p` is not in `L`; its
//! exclusive area at the height of the sweep is its box less the staircase, which each point
//! entering after it reduces by what that point newly covers inside `p`'s box, until a point
//! covers `p`'s projection. Afterwards `p` joins `L`, the points it dominates leave it, and the
//! neighbours of the points above it are updated.

/// Node indices of the sentinels, after the `n` points: the staircase's left end `(−∞, r₂)`,
/// its right end `(r₁, −∞)`, both below every point in the third objective; and the end of `L`,
/// `(−∞, −∞, r₃)`, which covers every projection.
struct Sentinels {
    up: usize,
    right: usize,
    end: usize,
}

/// The points of the sweep and the links of `L` and of the staircase.
struct Hv4 {
    /// The first three objectives of each point, then of each sentinel.
    x: Vec<[f64; 3]>,
    /// The next node in `L`.
    next: Vec<usize>,
    /// Each node's neighbours when it enters the staircase: its `up` and its `right`.
    up: Vec<usize>,
    right: Vec<usize>,
    /// The staircase's links to the right, valid from each node's entry until a later point
    /// passes over it.
    step: Vec<usize>,
    ends: Sentinels,
}

/// The volume `points` (rows of four objectives, each strictly better than `reference`)
/// dominate.
pub(super) fn volume(points: &[f64], reference: &[f64]) -> f64 {
    let (rows, _) = points.as_chunks::<4>();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| rows[a][3].total_cmp(&rows[b][3]));
    let mut sweep = Hv4::new(order.iter().map(|&i| rows[i]), reference);
    let (mut below, mut total) = (0.0, 0.0);
    for (k, &i) in order.iter().enumerate() {
        below += sweep.add(k);
        let next = order.get(k + 1).map_or(reference[3], |&j| rows[j][3]);
        total += below * (next - rows[i][3]);
    }
    total
}

impl Hv4 {
    /// The points (in the order they will be added) and the sentinels; `L` holds only the
    /// sentinels.
    fn new(points: impl Iterator<Item = [f64; 4]>, reference: &[f64]) -> Self {
        let inf = f64::INFINITY;
        let mut x: Vec<[f64; 3]> = points.map(|p| [p[0], p[1], p[2]]).collect();
        let n = x.len();
        let ends = Sentinels {
            up: n,
            right: n + 1,
            end: n + 2,
        };
        x.extend([
            [-inf, reference[1], -inf],
            [reference[0], -inf, -inf],
            [-inf, -inf, reference[2]],
        ]);
        let mut next: Vec<usize> = (0..n + 3).collect();
        next[ends.up] = ends.right;
        next[ends.right] = ends.end;
        Self {
            x,
            next,
            up: vec![ends.up; n + 3],
            right: vec![ends.right; n + 3],
            step: vec![ends.right; n + 3],
            ends,
        }
    }

    /// Adds point `p` and returns its contribution to the three-objective hypervolume of `L`
    /// (0 for a point a point of `L` weakly dominates, which is left out).
    fn add(&mut self, p: usize) -> f64 {
        let Some((previous, after)) = self.restart(p) else {
            return 0.0;
        };
        let contribution = self.contribution(p, after);
        self.insert(p, previous, after);
        contribution
    }

    /// Replays the staircase over the points of `L` before `p`, setting `p`'s neighbours on
    /// the way; returns the last node of `L` before `p` and the first after it, or `None` where
    /// a point before `p` weakly dominates it.
    fn restart(&mut self, p: usize) -> Option<(usize, usize)> {
        let px = self.x[p];
        self.step[self.ends.up] = self.ends.right;
        let (mut up, mut right) = (self.ends.up, self.ends.right);
        let mut previous = self.ends.right;
        let mut q = self.next[previous];
        while before(self.x[q], px) {
            let qx = self.x[q];
            if qx.iter().zip(&px).all(|(a, b)| a <= b) {
                return None;
            }
            self.link(q);
            if qx[1] < px[1] && closer_right(qx, self.x[right]) {
                right = q;
            } else if qx[0] < px[0] && closer_up(qx, self.x[up]) {
                up = q;
            }
            previous = q;
            q = self.next[q];
        }
        self.up[p] = up;
        self.right[p] = right;
        Some((previous, q))
    }

    /// `p`'s three-objective exclusive volume: its exclusive area at each height, integrated
    /// from its third objective until a point covers its projection (at the latest the end of
    /// `L`, at the reference point).
    fn contribution(&mut self, p: usize, after: usize) -> f64 {
        let px = self.x[p];
        let mut area = self.newly_covered(p, [px[0], px[1]]);
        let (mut volume, mut z) = (0.0, px[2]);
        let mut q = after;
        loop {
            let qx = self.x[q];
            volume += area * (qx[2] - z);
            if qx[0] <= px[0] && qx[1] <= px[1] {
                return volume;
            }
            area -= self.newly_covered(q, [px[0], px[1]]);
            self.link(q);
            z = qx[2];
            q = self.next[q];
        }
    }

    /// The area point `q` adds to the staircase on entering it, counted only inside the
    /// quadrant above `corner`: the strips from `q` to its `right` neighbour, under its `up`
    /// neighbour and each step it passes over.
    fn newly_covered(&self, q: usize, corner: [f64; 2]) -> f64 {
        let qx = self.x[q];
        let bottom = qx[1].max(corner[1]);
        let strip = |from: f64, to: f64, top: f64| {
            (to - from.max(corner[0])).max(0.0) * (top - bottom).max(0.0)
        };
        let (mut from, mut top) = (qx[0], self.x[self.up[q]][1]);
        let mut area = 0.0;
        let mut s = self.step[self.up[q]];
        while s != self.right[q] {
            let sx = self.x[s];
            area += strip(from, sx[0], top);
            (from, top) = (sx[0], sx[1]);
            s = self.step[s];
        }
        area + strip(from, self.x[s][0], top)
    }

    /// Links `q` into the staircase between its neighbours, passing over the steps between.
    fn link(&mut self, q: usize) {
        self.step[self.up[q]] = q;
        self.step[q] = self.right[q];
    }

    /// Puts `p` into `L` before `after`; removes the points after it that it weakly
    /// dominates and makes it the neighbour of those it is now closest to, until a point whose
    /// projection dominates `p`'s (beyond it, such a point is always at least as close).
    fn insert(&mut self, p: usize, mut previous: usize, after: usize) {
        let px = self.x[p];
        self.next[previous] = p;
        self.next[p] = after;
        previous = p;
        let mut q = after;
        while q != self.ends.end {
            let qx = self.x[q];
            if qx[0] <= px[0] && qx[1] <= px[1] && (qx[0] < px[0] || qx[1] < px[1]) {
                return;
            }
            if px[0] <= qx[0] && px[1] <= qx[1] {
                self.next[previous] = self.next[q];
                q = self.next[q];
                continue;
            }
            if px[0] < qx[0] && closer_up(px, self.x[self.up[q]]) {
                self.up[q] = p;
            } else if px[1] < qx[1] && closer_right(px, self.x[self.right[q]]) {
                self.right[q] = p;
            }
            previous = q;
            q = self.next[q];
        }
    }
}

/// Whether `q` comes before `p` in `L`'s order, (third, second, first) objective.
fn before(q: [f64; 3], p: [f64; 3]) -> bool {
    (q[2], q[1], q[0]) <= (p[2], p[1], p[0])
}

/// Whether `a` is a closer `up` neighbour than `b`: a smaller second objective, ties broken by
/// the first and then the third (a point that weakly dominates another in all three comes first,
/// so it replaces the other when that one leaves `L`).
fn closer_up(a: [f64; 3], b: [f64; 3]) -> bool {
    (a[1], a[0], a[2]) < (b[1], b[0], b[2])
}

/// Whether `a` is a closer `right` neighbour than `b`: a smaller first objective, ties broken by
/// the second and then the third.
fn closer_right(a: [f64; 3], b: [f64; 3]) -> bool {
    (a[0], a[1], a[2]) < (b[0], b[1], b[2])
}
