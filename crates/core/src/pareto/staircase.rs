//! The two-objective staircase a three-objective sweep keeps: the non-dominated projections of
//! the points swept so far, ordered by the first objective (so the second decreases), with the
//! area they dominate below the reference point. Inserting a point removes the steps it
//! dominates and reports what changed, which is all the hypervolume (HV3D⁺) and the
//! contributions (HVC3D) sweeps of Guerreiro & Fonseca (2018) need.

use std::collections::BTreeMap;

/// One step: a point's projection and its index in the caller's numbering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Step {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) id: usize,
}

/// What an insertion changed: the steps on either side of the new one afterwards (`None` at
/// the reference point's edge) and the area the staircase gained. The removed steps are
/// appended to the caller's buffer.
pub(super) struct Inserted {
    pub(super) left: Option<Step>,
    pub(super) right: Option<Step>,
    pub(super) gained: f64,
}

/// The staircase, keyed by the first objective's order ([`order_key`]).
pub(super) struct Staircase {
    steps: BTreeMap<u64, Step>,
    reference: [f64; 2],
}

impl Staircase {
    /// An empty staircase below `reference`.
    pub(super) fn new(reference: [f64; 2]) -> Self {
        Self {
            steps: BTreeMap::new(),
            reference,
        }
    }

    /// Whether a step weakly dominates `(x, y)`.
    pub(super) fn covers(&self, x: f64, y: f64) -> bool {
        self.covering(x, y).is_some()
    }

    /// A step that weakly dominates `(x, y)`, if there is one: the step with the largest first
    /// objective up to `x` has the smallest second objective among those, so it alone decides.
    pub(super) fn covering(&self, x: f64, y: f64) -> Option<Step> {
        (self.steps.range(..=order_key(x)).next_back())
            .map(|(_, s)| *s)
            .filter(|s| s.y <= y)
    }

    /// Inserts a point no step covers ([`Staircase::covers`] is false), removing the steps it
    /// dominates into `removed`.
    pub(super) fn insert(&mut self, step: Step, removed: &mut Vec<Step>) -> Inserted {
        let key = order_key(step.x);
        let left = self.steps.range(..key).next_back().map(|(_, s)| *s);
        let first_removed = removed.len();
        let mut right = None;
        for (_, s) in self.steps.range(key..) {
            if s.y < step.y {
                right = Some(*s);
                break;
            }
            removed.push(*s);
        }
        // The area gained, strip by strip: between consecutive removed steps the staircase was
        // at the height of the step before, and the new point lowers it to its own.
        let mut gained = 0.0;
        let mut from = step.x;
        let mut height = left.map_or(self.reference[1], |s| s.y);
        for s in &removed[first_removed..] {
            gained += (s.x - from) * (height - step.y);
            from = s.x;
            height = s.y;
            self.steps.remove(&order_key(s.x));
        }
        let to = right.map_or(self.reference[0], |s| s.x);
        gained += (to - from) * (height - step.y);
        self.steps.insert(key, step);
        Inserted {
            left,
            right,
            gained,
        }
    }

    /// The steps in order of the first objective.
    pub(super) fn steps(&self) -> impl Iterator<Item = &Step> {
        self.steps.values()
    }
}

/// A key whose unsigned order is the order of the finite value `x` (−0 and +0 the same key):
/// the sign bit flipped for positive values, every bit for negative ones.
fn order_key(x: f64) -> u64 {
    let bits = (x + 0.0).to_bits();
    if bits >> 63 == 0 {
        bits | 1 << 63
    } else {
        !bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_order_as_the_values() {
        let values = [-3.5, -1e-300, -0.0, 0.0, 1e-300, 2.0, 1e300];
        for pair in values.windows(2) {
            assert!(order_key(pair[0]) <= order_key(pair[1]), "{pair:?}");
        }
        assert_eq!(order_key(-0.0), order_key(0.0));
    }

    #[test]
    fn insertion_reports_neighbours_removals_and_area() {
        let mut stairs = Staircase::new([4.0, 4.0]);
        let mut removed = Vec::new();
        let step = |x, y, id| Step { x, y, id };
        assert_eq!(stairs.insert(step(1.0, 3.0, 0), &mut removed).gained, 3.0);
        assert_eq!(
            stairs.insert(step(3.0, 1.0, 1), &mut removed).gained,
            3.0 - 1.0
        );
        // (2, 2) adds the unit square [2, 3] × [2, 3].
        let inserted = stairs.insert(step(2.0, 2.0, 2), &mut removed);
        assert_eq!(inserted.gained, 1.0);
        assert_eq!(inserted.left.map(|s| s.id), Some(0));
        assert_eq!(inserted.right.map(|s| s.id), Some(1));
        assert!(removed.is_empty());
        assert!(stairs.covers(2.5, 2.0) && !stairs.covers(1.5, 2.5));
        // (0.5, 0.5) dominates every step: the staircase becomes one step, area 3.5².
        let inserted = stairs.insert(step(0.5, 0.5, 3), &mut removed);
        assert_eq!(removed.iter().map(|s| s.id).collect::<Vec<_>>(), [0, 2, 1]);
        assert_eq!(inserted.gained, 3.5 * 3.5 - 6.0);
        assert_eq!((inserted.left, inserted.right), (None, None));
        assert_eq!(stairs.steps().count(), 1);
    }
}
