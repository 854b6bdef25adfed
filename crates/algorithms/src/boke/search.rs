//! The multi-start acquisition maximiser of BOKE and its baselines (Zhu et al. 2025, §5):
//! one batch of global uniform and local candidates scored through the engine, then bounded
//! L-BFGS from the best few with analytic (or exact central-difference) gradients.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use super::surrogate::sq_dist;
use bosweep_core::optim::ascend_from_starts;
use bosweep_core::optim::lbfgsb::LbfgsbOptions;
use bosweep_engine::{Engine, EngineError, Points};

/// A function on the unit cube to maximise.
pub trait Surface: Sync {
    /// Values of every candidate; `+∞` marks a point with no data in its neighbourhood where
    /// the score rewards exploration (unbounded σ̂).
    fn values(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError>;

    /// Whether [`Surface::value_gradient`] is available: not for compact kernels, which are
    /// piecewise with flat zero-weight regions, so only the candidate batch ranks them.
    fn refinable(&self) -> bool;

    /// Value and gradient at one point, in f64 (only called when refinable).
    fn value_gradient(&self, u: &[f64]) -> Result<(f64, Vec<f64>), EngineError>;
}

/// Settings of `maximize`.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Global uniform candidates; `None`: `1000 · d`.
    pub global: Option<usize>,
    /// Local candidates as a fraction of the global ones.
    pub local_fraction: f64,
    /// Number of best-observed points the local candidates perturb.
    pub local_centres: usize,
    /// L-BFGS starts.
    pub starts: usize,
    /// Refine the best candidates by L-BFGS (`false`: the best candidate wins).
    pub refine: bool,
    /// L-BFGS iterations per start.
    pub max_iters: usize,
    /// L-BFGS stops at this relative decrease of the value.
    pub tolerance: f64,
}

impl Default for SearchConfig {
    fn default() -> Self {
        Self {
            global: None,
            local_fraction: 0.25,
            local_centres: 5,
            starts: 10,
            refine: true,
            max_iters: 100,
            tolerance: 1e-9,
        }
    }
}

impl SearchConfig {
    /// Candidates scored per call for dimension `dim` (global + local when `local` is set).
    pub fn candidate_count(&self, dim: usize, local: bool) -> usize {
        let global = self.global.unwrap_or(1000 * dim);
        global + if local { self.local_count(global) } else { 0 }
    }

    fn local_count(&self, global: usize) -> usize {
        (global as f64 * self.local_fraction).floor() as usize
    }
}

/// The maximiser found and the work it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub u: Vec<f64>,
    pub value: f64,
    /// Candidates scored in the batch.
    pub candidates: usize,
    /// Single-point evaluations during refinement.
    pub refine_evaluations: usize,
}

impl Found {
    /// Every point the surface was evaluated at.
    pub fn evaluated_points(&self) -> usize {
        self.candidates + self.refine_evaluations
    }
}

/// Maximises `surface` over `[0, 1]^d`:
/// 1. candidates: `n_g` uniform points, plus `⌊n_g · local_fraction⌋` points drawn around the
///    `local_centres` best observations (a uniformly chosen centre plus `N(0, h² I)`, clipped),
///    when `centres` is non-empty;
/// 2. one engine call scores them all;
/// 3. when some scores are `+∞` (empty neighbourhoods), the one farthest from `data` wins;
/// 4. otherwise L-BFGS refines the `starts` best, and the best refined point or candidate wins
///    (ties: the earlier candidate).
pub fn maximize(
    surface: &dyn Surface,
    engine: &dyn Engine,
    data: &Points,
    centres: &[&[f64]],
    spread: f64,
    config: &SearchConfig,
    rng: &mut ChaCha8Rng,
) -> Result<Found, EngineError> {
    let dim = data.dim();
    let global = config.global.unwrap_or(1000 * dim);
    let local = if centres.is_empty() {
        0
    } else {
        config.local_count(global)
    };
    let mut coords = Vec::with_capacity((global + local) * dim);
    for _ in 0..global * dim {
        coords.push(rng.random::<f64>());
    }
    for _ in 0..local {
        let centre = centres[rng.random_range(0..centres.len())];
        for &c in centre {
            let noise: f64 = rng.sample(StandardNormal);
            coords.push((c + spread * noise).clamp(0.0, 1.0));
        }
    }
    let candidates = Points::new(coords, dim)?;
    let values = surface.values(engine, &candidates)?;
    let mut found = Found {
        u: Vec::new(),
        value: f64::NEG_INFINITY,
        candidates: candidates.rows(),
        refine_evaluations: 0,
    };

    if let Some(best) = farthest_unbounded(engine, data, &candidates, &values)? {
        found.u = candidates.row(best).to_vec();
        found.value = f64::INFINITY;
        return Ok(found);
    }

    let top = engine.top_k(&values, config.starts.max(1))?;
    found.u = candidates.row(top[0]).to_vec();
    found.value = values[top[0]];
    if !config.refine || !surface.refinable() {
        return Ok(found);
    }
    let options = LbfgsbOptions {
        max_iters: config.max_iters,
        gtol: config.tolerance,
        ftol: config.tolerance,
        ..LbfgsbOptions::default()
    };
    let (lo, hi) = (vec![0.0; dim], vec![1.0; dim]);
    let starts: Vec<Vec<f64>> = top.iter().map(|&i| candidates.row(i).to_vec()).collect();
    let ascents = ascend_from_starts(&starts, &lo, &hi, &options, || {
        |u: &[f64]| surface.value_gradient(u)
    })?;
    for ascent in ascents {
        found.refine_evaluations += ascent.evaluations;
        if ascent.value > found.value {
            found.u = ascent.x;
            found.value = ascent.value;
        }
    }
    Ok(found)
}

/// The rule for empty neighbourhoods: among candidates scored `+∞` (no observation with
/// positive weight, so σ̂ = ∞), the one farthest from the data (ties: lowest index); `None`
/// when every score is finite.
pub fn farthest_unbounded(
    engine: &dyn Engine,
    data: &Points,
    candidates: &Points,
    values: &[f64],
) -> Result<Option<usize>, EngineError> {
    let unbounded: Vec<usize> = (0..values.len())
        .filter(|&i| values[i] == f64::INFINITY)
        .collect();
    if unbounded.is_empty() {
        return Ok(None);
    }
    let distances: Vec<f64> = unbounded
        .iter()
        .map(|&i| nearest_sq_dist(data, candidates.row(i)))
        .collect();
    Ok(Some(unbounded[engine.argmax(&distances)?]))
}

/// Squared distance from `u` to the nearest row of `data`.
pub(super) fn nearest_sq_dist(data: &Points, u: &[f64]) -> f64 {
    data.iter()
        .map(|x| sq_dist(u, x))
        .fold(f64::INFINITY, f64::min)
}
