//! Grid-then-refine maximisation of a contextual acquisition (spec §2.9): the scrambled-Sobol
//! grid through the engine's pair reduction, then L-BFGS-B from the best grid points on the
//! analytic gradient of §7.1 (one pass over the context points per iteration, where central
//! differences need `2 Dx + 1`).

use super::acquisition::PairAcquisition;
use crate::acquisition::{Acquisition as _, Bounds, SobolGrid, default_chunk_size};
use bosweep_core::optim::lbfgsb::LbfgsbOptions;
use bosweep_core::optim::{ascend_from_starts, best_ascent};
use bosweep_engine::{Engine, EngineError, PairScratch};

/// Settings of [`maximize_pairs`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefineSettings {
    /// Sobol grid size (`raw_samples`).
    pub grid_size: usize,
    /// Best grid points refined (`num_restarts`).
    pub restarts: usize,
    /// L-BFGS-B iterations per start.
    pub max_iters: usize,
    /// L-BFGS-B relative-decrease tolerance (scipy's `ftol`).
    pub ftol: f64,
    /// L-BFGS-B projected-gradient tolerance (scipy's `pgtol`).
    pub gtol: f64,
    /// Scramble seed of the grid.
    pub seed: u64,
}

/// The best point found (unit-cube decision) and the acquisition there.
#[derive(Clone, Debug, PartialEq)]
pub struct PairMaximum {
    pub x: Vec<f64>,
    pub value: f64,
    /// Value-and-gradient evaluations of the refinement, over every start.
    pub evaluations: usize,
}

/// Maximises `acquisition` over the unit cube of the decisions: evaluates it on the Sobol grid
/// through `engine`, keeps the `restarts` largest with [`Engine::top_k`] (ties to the lowest
/// index) and refines each (in parallel) with bounded L-BFGS-B on the f64 CPU value and gradient;
/// returns the refined point of largest value (ties to the better start).
pub fn maximize_pairs(
    acquisition: &PairAcquisition<'_>,
    engine: &dyn Engine,
    settings: &RefineSettings,
) -> Result<PairMaximum, EngineError> {
    let dim = acquisition.dim();
    let unit = Bounds::cube(0.0, 1.0, dim)?;
    let grid = SobolGrid::new(unit, settings.grid_size, settings.seed)?;
    let chunk = default_chunk_size(dim);
    let mut values = Vec::with_capacity(settings.grid_size);
    for start in (0..settings.grid_size).step_by(chunk) {
        let end = (start + chunk).min(settings.grid_size);
        values.extend(acquisition.evaluate(engine, &grid.points(start, end))?);
    }
    let top = engine.top_k(&values, settings.restarts.min(values.len()))?;
    let differentiable = acquisition.differentiable()?;
    let options = LbfgsbOptions {
        max_iters: settings.max_iters,
        gtol: settings.gtol,
        ftol: settings.ftol,
        ..LbfgsbOptions::default()
    };
    let (lo, hi) = (vec![0.0; dim], vec![1.0; dim]);
    let starts: Vec<Vec<f64>> = top.iter().map(|&index| grid.point(index)).collect();
    let differentiable = &differentiable;
    let ascents = ascend_from_starts(&starts, &lo, &hi, &options, || {
        let mut scratch = PairScratch::default();
        move |u: &[f64]| {
            let (value, gradient) = differentiable.value_gradient(u, &mut scratch);
            if value.is_nan() || gradient.iter().any(|g| g.is_nan()) {
                return Err(EngineError::invalid(format!(
                    "contextual acquisition: NaN value or gradient at {u:?}"
                )));
            }
            Ok((value, gradient))
        }
    })?;
    let best = best_ascent(&ascents)
        .ok_or_else(|| EngineError::invalid("contextual acquisition: no start to refine"))?;
    Ok(PairMaximum {
        x: ascents[best].x.clone(),
        value: ascents[best].value,
        evaluations: ascents.iter().map(|a| a.evaluations).sum(),
    })
}
