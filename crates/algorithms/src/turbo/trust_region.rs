//! The trust region of TuRBO-1 (Eriksson et al., NeurIPS 2019, Section 2): a box around the
//! best point whose base side length doubles after a run of successes, halves after a run of
//! failures, and ends the restart once it falls below its minimum. BAxUS (`baxus`) runs the same
//! region in its embedding's target space, with its own failure tolerance.

use bosweep_toolkit::History;
use serde_json::{Map, Value, json};

/// The side-length schedule's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RegionSchedule {
    /// Base side length of a new region.
    pub length_init: f64,
    /// Below this base side length the region restarts.
    pub length_min: f64,
    /// The base side length never grows beyond this.
    pub length_max: f64,
    /// Consecutive successes that double the side length.
    pub success_tolerance: usize,
    /// Consecutive failed batches that halve it; 0 for the region's own rule: the paper's
    /// `⌈max(4/q, d/q)⌉` ([`TrustRegion::new`]), or BAxUS's per point in batches
    /// ([`TrustRegion::with_point_tolerance`]).
    pub failure_tolerance: usize,
}

/// What one batch's outcome did to the region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// The counters moved, the side length did not.
    Counted,
    /// A run of successes doubled the side length (up to the maximum).
    Expanded,
    /// A run of failures halved the side length.
    Shrunk,
    /// A halving took the side length below its minimum: the region was reset to a new one,
    /// and the caller restarts from a fresh design.
    Restart,
}

/// The outcome of [`TrustRegion::update`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Whether the batch improved on the best value by the paper's relative rule.
    pub success: bool,
    /// What happened to the side length.
    pub change: Change,
}

/// Whether `batch_best` improves on `best` (maximisation) by more than `10⁻³ |best|`: the
/// reference implementation's rule (uber-research/TuRBO, `turbo_1.py`, `_adjust_length`),
/// written for maximisation.
pub(super) fn improves(batch_best: f64, best: f64) -> bool {
    batch_best - best > 1e-3 * best.abs()
}

/// `⌈max(4/q, d/q)⌉`: the paper's failure tolerance for batches of `q` in `d` dimensions.
pub(super) fn default_failure_tolerance(dim: usize, batch: usize) -> usize {
    batched_tolerance(dim.max(4), batch)
}

/// `⌈t/q⌉`: a tolerance of `t` failures one point at a time, counted in batches of `q` (each
/// batch is one success or failure).
fn batched_tolerance(points: usize, batch: usize) -> usize {
    points.div_ceil(batch.max(1))
}

/// The best value of the `group` (indices into `ys`) and the best of the others: what
/// [`TrustRegion::update`] compares, the group being the batch just told and the others the
/// restart's data before it.
pub(crate) fn group_bests(ys: &[f64], group: &[usize]) -> (f64, f64) {
    let batch_best = group
        .iter()
        .map(|&i| ys[i])
        .fold(f64::NEG_INFINITY, f64::max);
    let best = (0..ys.len())
        .filter(|i| !group.contains(i))
        .map(|i| ys[i])
        .fold(f64::NEG_INFINITY, f64::max);
    (batch_best, best)
}

/// SCBO's success rule (Eriksson and Poloczek 2021; BoTorch's SCBO tutorial, `update_state`) for
/// the `group` (indices into `data`, whose values are maximised and whose violations are
/// `Σ_j max(c_j, 0)`) against the restart's other points: each side's best is its best feasible
/// point, else its least violating one. A feasible group best succeeds over an infeasible (or
/// no) earlier best, or over a feasible one by TuRBO's relative rule ([`improves`]); an
/// infeasible group best succeeds only by a smaller violation than an infeasible earlier best.
pub(crate) fn constrained_success(data: &History, group: &[usize]) -> bool {
    let best_of = |points: &mut dyn Iterator<Item = usize>| {
        points.reduce(|b, i| {
            let (vi, vb) = (data.violation(i), data.violation(b));
            if vi < vb || (vi == vb && data.ys()[i] > data.ys()[b]) {
                i
            } else {
                b
            }
        })
    };
    let Some(batch) = best_of(&mut group.iter().copied()) else {
        return false;
    };
    let before = best_of(&mut (0..data.len()).filter(|i| !group.contains(i)));
    let violation = |i: Option<usize>| i.map_or(f64::INFINITY, |i| data.violation(i));
    match (data.is_feasible(batch), before) {
        (true, Some(before)) if data.is_feasible(before) => {
            improves(data.ys()[batch], data.ys()[before])
        }
        (true, _) => true,
        (false, before) => data.violation(batch) < violation(before),
    }
}

/// The side length and the success and failure counters of the current region.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TrustRegion {
    schedule: RegionSchedule,
    /// The failures one point at a time that halve the side when the schedule gives no
    /// tolerance: TuRBO's `max(4, d)`, or BAxUS's rule for its target dimension.
    point_tolerance: usize,
    length: f64,
    successes: usize,
    failures: usize,
}

impl TrustRegion {
    /// A new TuRBO region in `dim` dimensions at `length_init`: a schedule with no failure
    /// tolerance halves after the paper's `⌈max(4/q, d/q)⌉` failed batches.
    pub fn new(schedule: RegionSchedule, dim: usize) -> Self {
        Self::with_point_tolerance(schedule, default_failure_tolerance(dim, 1))
    }

    /// A new region at `length_init` that, when the schedule gives no failure tolerance, halves
    /// after `points` failures one point at a time, `⌈points/q⌉` failed batches of `q`.
    pub fn with_point_tolerance(schedule: RegionSchedule, points: usize) -> Self {
        Self {
            schedule,
            point_tolerance: points,
            length: schedule.length_init,
            successes: 0,
            failures: 0,
        }
    }

    /// The base side length `L`.
    pub fn length(&self) -> f64 {
        self.length
    }

    /// Consecutive successes counted towards the next doubling.
    pub fn successes(&self) -> usize {
        self.successes
    }

    /// Consecutive failures counted towards the next halving.
    pub fn failures(&self) -> usize {
        self.failures
    }

    /// The failures that halve the side length for batches of `batch` points.
    pub fn failure_tolerance(&self, batch: usize) -> usize {
        match self.schedule.failure_tolerance {
            0 => batched_tolerance(self.point_tolerance, batch),
            given => given,
        }
    }

    /// Counts one batch of `batch` points whose best value is `batch_best` against the best
    /// value `best` before it, then doubles (capped at `length_max`) after `success_tolerance`
    /// consecutive successes or halves after the failure tolerance's consecutive failures,
    /// resetting that counter. A halving below `length_min` resets the region (length and
    /// counters) and reports [`Change::Restart`].
    pub fn update(&mut self, batch_best: f64, best: f64, batch: usize) -> Outcome {
        self.count(improves(batch_best, best), batch)
    }

    /// Counts one batch of `batch` points that succeeded or failed by the caller's rule (SCBO's
    /// feasibility-first one, [`constrained_success`]), as [`Self::update`] does.
    pub fn count(&mut self, success: bool, batch: usize) -> Outcome {
        if success {
            self.successes += 1;
            self.failures = 0;
        } else {
            self.successes = 0;
            self.failures += 1;
        }
        let change = if self.successes == self.schedule.success_tolerance {
            self.length = (2.0 * self.length).min(self.schedule.length_max);
            self.successes = 0;
            Change::Expanded
        } else if self.failures >= self.failure_tolerance(batch) {
            self.length /= 2.0;
            self.failures = 0;
            if self.length < self.schedule.length_min {
                *self = Self::with_point_tolerance(self.schedule, self.point_tolerance);
                Change::Restart
            } else {
                Change::Shrunk
            }
        } else {
            Change::Counted
        };
        Outcome { success, change }
    }

    /// The trace's `extra` of a step in this region: its side `length`, its `successes` and
    /// `failures` counters, the `failure_tolerance` at the batch size `batch` learnt so far,
    /// the `restarts` so far, the `phase` of the last ask (`design` or `region`; the previous
    /// record's when this step asked nothing) and the Cholesky `jitter` of the latest draws.
    /// TuRBO and BAxUS log this, BAxUS with its own fields beside it.
    pub fn record(
        &self,
        previous: &Map<String, Value>,
        (batch, restarts): (usize, usize),
        phase: Option<&str>,
        jitter: Option<f64>,
    ) -> Map<String, Value> {
        let mut extra = Map::new();
        extra.insert("length".into(), json!(self.length()));
        extra.insert("successes".into(), json!(self.successes()));
        extra.insert("failures".into(), json!(self.failures()));
        extra.insert(
            "failure_tolerance".into(),
            json!(self.failure_tolerance(batch)),
        );
        extra.insert("batch".into(), json!(batch));
        extra.insert("restarts".into(), json!(restarts));
        if let Some(phase) = phase {
            extra.insert("phase".into(), json!(phase));
        } else if let Some(phase) = previous.get("phase") {
            extra.insert("phase".into(), phase.clone());
        }
        if let Some(jitter) = jitter {
            extra.insert("jitter".into(), json!(jitter));
        }
        extra
    }

    /// The region around `centre` (unit cube) as `(lower, upper)`: side `L · w_i` in coordinate
    /// `i`, clipped to `[0, 1]`, where `w = ℓ / mean(ℓ)` rescaled to geometric mean 1 (so the
    /// volume is `L^d` before clipping), `ℓ` the GP's lengthscales in unit-cube units.
    pub fn bounds(&self, centre: &[f64], lengthscales: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let weights = side_weights(lengthscales);
        centre
            .iter()
            .zip(&weights)
            .map(|(c, w)| {
                let half = 0.5 * self.length * w;
                ((c - half).clamp(0.0, 1.0), (c + half).clamp(0.0, 1.0))
            })
            .unzip()
    }
}

/// `ℓ / mean(ℓ)`, then divided by its geometric mean: the region's side in each coordinate
/// relative to `L`, longer where the GP varies slowly.
pub(super) fn side_weights(lengthscales: &[f64]) -> Vec<f64> {
    let d = lengthscales.len() as f64;
    let mean = lengthscales.iter().sum::<f64>() / d;
    let weights: Vec<f64> = lengthscales.iter().map(|l| l / mean).collect();
    let geometric = (weights.iter().map(|w| w.ln()).sum::<f64>() / d).exp();
    weights.into_iter().map(|w| w / geometric).collect()
}
