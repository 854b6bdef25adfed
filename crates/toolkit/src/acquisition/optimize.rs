//! Grid-then-refine maximisation of an acquisition over a box.

use std::time::Instant;

use super::Acquisition;
use super::sobol::{Bounds, SobolGrid, default_grid_size};
use bosweep_core::optim::ascend_from_starts;
use bosweep_core::optim::lbfgsb::{LbfgsbOptions, Termination};
use bosweep_engine::{Engine, EngineError, Points};

/// Candidates per engine call of the grid pass: about 16 MiB of f64 coordinates
/// (`2^21 / d` points), between 1024 and 65536.
pub fn default_chunk_size(dim: usize) -> usize {
    ((1usize << 21) / dim.max(1)).clamp(1024, 1 << 16)
}

bosweep_core::choices! {
    /// The gradient the L-BFGS refinement ascends on.
    pub enum RefineGradient {
        /// The acquisition's analytic gradient where it has one
        /// ([`Acquisition::analytic_gradient`]), one evaluation per gradient as BoTorch's
        /// autograd gives it; central differences where it has none.
        Analytic = "analytic",
        /// Central differences: one engine call of `2d + 1` points per gradient.
        Central = "central",
    }
}

/// Settings of [`maximize`].
#[derive(Clone, Debug, PartialEq)]
pub struct MaximizeConfig {
    /// Sobol grid size; `None`: [`default_grid_size`] `= min(2^12·d, 2^20)`.
    pub grid_size: Option<usize>,
    /// Scramble seed of the grid (same seed, same grid).
    pub seed: u64,
    /// Number of best grid points refined (starts).
    pub top_k: usize,
    /// Run L-BFGS from the starts; `false` returns the best grid point.
    pub refine: bool,
    /// L-BFGS iterations per start.
    pub max_iters: usize,
    /// L-BFGS stops when the relative decrease of the value in one iteration is ≤ `tolerance`,
    /// or when the ∞-norm of the projected gradient (per unit of box width) is ≤
    /// `gradient_tolerance` (`None`: `tolerance`).
    pub tolerance: f64,
    /// The projected-gradient tolerance (see `tolerance`).
    pub gradient_tolerance: Option<f64>,
    /// Central-difference step as a fraction of each box side (one-sided at the bounds).
    pub fd_step: f64,
    /// L-BFGS correction pairs.
    pub memory: usize,
    /// Grid points per engine call; `None`: [`default_chunk_size`].
    pub chunk_size: Option<usize>,
    /// The gradient the refinement ascends on.
    pub gradient: RefineGradient,
}

impl MaximizeConfig {
    /// The Sobol grid's size in `dim` dimensions: `grid_size`, else [`default_grid_size`].
    pub fn grid_points(&self, dim: usize) -> usize {
        self.grid_size.unwrap_or_else(|| default_grid_size(dim))
    }
}

impl Default for MaximizeConfig {
    fn default() -> Self {
        Self {
            grid_size: None,
            seed: 0,
            top_k: 8,
            refine: true,
            max_iters: 100,
            tolerance: 1e-12,
            gradient_tolerance: None,
            fd_step: 1e-6,
            memory: 10,
            chunk_size: None,
            gradient: RefineGradient::Analytic,
        }
    }
}

bosweep_core::settings! {
    /// The maximiser's settings, as the GP baselines declare them: what a [`MaximizeConfig`]
    /// takes from an algorithm's parameters.
    pub struct MaximizerSettings {
        grid_size: usize = 0 => ("Sobol candidates per step; 0 = min(2^12·d, 2^20)", 0, 1 << 24),
        top_k: usize = 8 => ("best grid points refined by L-BFGS-B", 1, 1024),
        refine: bool = true => ("refine the best grid points with bounded L-BFGS"),
        max_iters: usize = 100 => ("L-BFGS iterations per refined start", 1, 100_000),
        gradient: RefineGradient = RefineGradient::Central => (
            "what the refinement ascends on: analytic: the acquisition's own gradient (one posterior evaluation per gradient, as BoTorch's autograd; EI, LogEI, UCB and qLogNEI have one); central: central differences (2d + 1 evaluations per gradient)"
        ),
    }
}

impl MaximizerSettings {
    /// The maximiser's configuration: these settings, the rest at their defaults.
    pub fn config(&self) -> MaximizeConfig {
        MaximizeConfig {
            grid_size: (self.grid_size > 0).then_some(self.grid_size),
            top_k: self.top_k,
            refine: self.refine,
            max_iters: self.max_iters,
            gradient: self.gradient,
            ..MaximizeConfig::default()
        }
    }
}

/// One refined start.
#[derive(Clone, Debug, PartialEq)]
pub struct RefinedStart {
    /// Index of the start in the Sobol grid.
    pub grid_index: usize,
    /// The grid point the ascent started from.
    pub start_x: Vec<f64>,
    /// The acquisition at the start, from the grid pass.
    pub start_value: f64,
    /// Where the ascent ended.
    pub x: Vec<f64>,
    /// The acquisition at `x`, from the refinement engine.
    pub value: f64,
    /// L-BFGS iterations taken.
    pub iterations: usize,
    /// Gradient evaluations (engine calls of `2d + 1` points each).
    pub evaluations: usize,
    /// Why the ascent stopped.
    pub termination: Termination,
}

/// How much work a maximisation took, in acquisition evaluations (points) and engine calls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvaluationCounts {
    /// Candidates evaluated in the grid pass.
    pub grid_points: usize,
    /// Engine calls of the grid pass (one per chunk).
    pub grid_calls: usize,
    /// Points evaluated by the refinements (`2d + 1` per finite-difference gradient).
    pub refine_points: usize,
    /// Engine calls of the refinements.
    pub refine_calls: usize,
}

impl EvaluationCounts {
    /// Points evaluated in all.
    pub fn total_points(&self) -> usize {
        self.grid_points + self.refine_points
    }
}

/// Wall-clock seconds of a maximisation's two stages, for a step's profile. They take no part in
/// equality: two maximisations that agree to the last bit take different times.
#[derive(Clone, Copy, Debug, Default)]
pub struct StageSeconds {
    /// The grid pass and the choice of starts.
    pub grid: f64,
    /// The L-BFGS refinements.
    pub refine: f64,
}

impl PartialEq for StageSeconds {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

/// The result of [`maximize`].
#[derive(Clone, Debug, PartialEq)]
pub struct Maximum {
    /// The best point found.
    pub x: Vec<f64>,
    /// The acquisition at `x` (refinement engine when refining, grid engine otherwise).
    pub value: f64,
    /// Index of the best grid point.
    pub grid_index: usize,
    /// The best grid point.
    pub grid_x: Vec<f64>,
    /// The acquisition at the best grid point (grid engine).
    pub grid_value: f64,
    /// Every refined start, best grid point first (empty without refinement).
    pub starts: Vec<RefinedStart>,
    /// The work it took.
    pub counts: EvaluationCounts,
    /// The time it took.
    pub seconds: StageSeconds,
}

fn check_config(config: &MaximizeConfig) -> Result<(), EngineError> {
    let bad = |msg: String| Err(EngineError::invalid(format!("maximize: {msg}")));
    if config.top_k == 0 {
        return bad("top_k is 0".into());
    }
    if config.grid_size == Some(0) || config.chunk_size == Some(0) {
        return bad("grid_size and chunk_size must be positive".into());
    }
    let gtol = config.gradient_tolerance.unwrap_or(config.tolerance);
    if !(config.tolerance.is_finite() && config.tolerance >= 0.0 && gtol.is_finite() && gtol >= 0.0)
    {
        return bad(format!(
            "tolerance is {} and gradient_tolerance {gtol}",
            config.tolerance
        ));
    }
    if !(config.fd_step > 0.0 && config.fd_step <= 0.5) {
        return bad(format!(
            "fd_step is {} (must lie in (0, 0.5])",
            config.fd_step
        ));
    }
    Ok(())
}

/// Maximises `acquisition` over `bounds`:
///
/// 1. evaluates it on a scrambled Sobol grid ([`SobolGrid`], `config.grid_size` points, seed
///    `config.seed`) through `engine`, `chunk_size` points per call, so memory stays at one chunk
///    of coordinates plus one value per grid point (2^20 × 256 takes 16 MiB chunks and 8 MiB of
///    values);
/// 2. keeps the `top_k` largest with [`Engine::top_k`] (ties to the lowest grid index);
/// 3. refines each start (in parallel) with [`bosweep_core::optim::lbfgsb::minimize`] on
///    `−acquisition` in the unit-cube coordinates of the box, with the acquisition's
///    [`Acquisition::analytic_gradient`] where it has one and `config.gradient` asks for it
///    (the contextual acquisitions, EI, LogEI, UCB and qLogNEI), else
///    central-difference gradients: one engine call of
///    `2d + 1` points (`x`, then `x ∓ h e_i` per coordinate, clipped to the box, one-sided at a
///    bound) per gradient, on `refine_engine`: the run's f64 CPU reference engine
///    ([`AskContext::reference`](crate::AskContext::reference)), so that the refined point
///    and value do not depend on the grid device beyond the choice of starts; pass `engine` itself to refine there
///    (with an f32 GPU engine raise [`MaximizeConfig::fd_step`] to about 1e-3: central
///    differences with a 1e-6 step are dominated by f32 rounding);
/// 4. returns the refined point of largest value (ties to the better start).
///
/// The acquisition is always **maximised** (negate the problem for minimisation).
pub fn maximize(
    acquisition: &dyn Acquisition,
    engine: &dyn Engine,
    refine_engine: &dyn Engine,
    bounds: &Bounds,
    config: &MaximizeConfig,
) -> Result<Maximum, EngineError> {
    check_config(config)?;
    let dim = bounds.dim();
    if acquisition.dim() != dim {
        return Err(EngineError::invalid(format!(
            "maximize: the acquisition takes {} columns but the box has {dim}",
            acquisition.dim()
        )));
    }
    let grid_start = Instant::now();
    let size = config.grid_points(dim);
    let grid = SobolGrid::new(bounds.clone(), size, config.seed)?;
    let chunk = config.chunk_size.unwrap_or_else(|| default_chunk_size(dim));

    let mut values = Vec::with_capacity(size);
    let mut counts = EvaluationCounts::default();
    for start in (0..size).step_by(chunk) {
        let end = (start + chunk).min(size);
        let batch = acquisition.evaluate(engine, &grid.points(start, end))?;
        if batch.len() != end - start {
            return Err(EngineError::invalid(format!(
                "maximize: the acquisition returned {} values for {} candidates",
                batch.len(),
                end - start
            )));
        }
        values.extend(batch);
        counts.grid_points += end - start;
        counts.grid_calls += 1;
    }
    let top = engine.top_k(&values, config.top_k)?;
    let grid_index = top[0];
    let grid_x = grid.point(grid_index);
    let grid_value = values[grid_index];
    let mut seconds = StageSeconds {
        grid: grid_start.elapsed().as_secs_f64(),
        refine: 0.0,
    };
    if !config.refine {
        return Ok(Maximum {
            x: grid_x.clone(),
            value: grid_value,
            grid_index,
            grid_x,
            grid_value,
            starts: Vec::new(),
            counts,
            seconds,
        });
    }
    let refine_start = Instant::now();

    let (unit_lo, unit_hi): (Vec<f64>, Vec<f64>) = (0..dim)
        .map(|i| {
            (
                0.0,
                if bounds.hi()[i] > bounds.lo()[i] {
                    1.0
                } else {
                    0.0
                },
            )
        })
        .unzip();
    let options = LbfgsbOptions {
        memory: config.memory,
        max_iters: config.max_iters,
        gtol: config.gradient_tolerance.unwrap_or(config.tolerance),
        ftol: config.tolerance,
        ..LbfgsbOptions::default()
    };
    let unit_starts: Vec<Vec<f64>> = top
        .iter()
        .map(|&index| {
            let mut u0 = vec![0.0; dim];
            bounds.to_unit(&grid.point(index), &mut u0);
            u0
        })
        .collect();
    let analytic = match config.gradient {
        RefineGradient::Analytic => acquisition.analytic_gradient()?,
        RefineGradient::Central => None,
    };
    let ascents = match &analytic {
        Some(source) => ascend_from_starts(&unit_starts, &unit_lo, &unit_hi, &options, || {
            let mut objective = source.objective();
            let mut x = vec![0.0; dim];
            move |u: &[f64]| {
                bounds.from_unit(u, &mut x);
                let (value, mut gradient) = objective(&x)?;
                for (g, (lo, hi)) in gradient.iter_mut().zip(bounds.lo().iter().zip(bounds.hi())) {
                    *g *= hi - lo;
                }
                Ok((value, gradient))
            }
        })?,
        None => ascend_from_starts(&unit_starts, &unit_lo, &unit_hi, &options, || {
            |u: &[f64]| fd_value_gradient(acquisition, refine_engine, bounds, config.fd_step, u)
        })?,
    };
    // Central differences evaluate 2d + 1 points per gradient; an analytic gradient one.
    let points_per_gradient = if analytic.is_some() { 1 } else { 2 * dim + 1 };
    let starts: Vec<RefinedStart> = top
        .iter()
        .zip(ascents)
        .map(|(&index, ascent)| {
            let mut x = vec![0.0; dim];
            bounds.from_unit(&ascent.x, &mut x);
            RefinedStart {
                grid_index: index,
                start_x: grid.point(index),
                start_value: values[index],
                x,
                value: ascent.value,
                iterations: ascent.iterations,
                evaluations: ascent.evaluations,
                termination: ascent.termination,
            }
        })
        .collect();
    for s in &starts {
        counts.refine_calls += s.evaluations;
        counts.refine_points += s.evaluations * points_per_gradient;
    }
    let best = starts
        .iter()
        .enumerate()
        .fold(0, |b, (i, s)| if s.value > starts[b].value { i } else { b });
    seconds.refine = refine_start.elapsed().as_secs_f64();
    Ok(Maximum {
        x: starts[best].x.clone(),
        value: starts[best].value,
        grid_index,
        grid_x,
        grid_value,
        starts,
        counts,
        seconds,
    })
}

/// `a(u)` and its central-difference gradient in unit coordinates, from one engine call of
/// `2d + 1` points. Non-finite differences (next to a `−∞` value) count as 0.
fn fd_value_gradient(
    acquisition: &dyn Acquisition,
    engine: &dyn Engine,
    bounds: &Bounds,
    step: f64,
    u: &[f64],
) -> Result<(f64, Vec<f64>), EngineError> {
    let dim = u.len();
    let mut x = vec![0.0; dim];
    bounds.from_unit(u, &mut x);
    let mut data = Vec::with_capacity((2 * dim + 1) * dim);
    data.extend_from_slice(&x);
    let mut spans = Vec::with_capacity(dim);
    for (i, &ui) in u.iter().enumerate() {
        let (lo, hi) = (bounds.lo()[i], bounds.hi()[i]);
        let (a, b) = if hi > lo {
            ((ui - step).max(0.0), (ui + step).min(1.0))
        } else {
            (ui, ui)
        };
        spans.push(b - a);
        for t in [a, b] {
            let at = data.len() + i;
            data.extend_from_slice(&x);
            data[at] = (lo + t * (hi - lo)).clamp(lo, hi);
        }
    }
    let v = acquisition.evaluate(engine, &Points::new(data, dim)?)?;
    if v.len() != 2 * dim + 1 {
        return Err(EngineError::invalid(format!(
            "maximize: the acquisition returned {} values for {} candidates",
            v.len(),
            2 * dim + 1
        )));
    }
    if let Some(i) = v.iter().position(|v| v.is_nan()) {
        return Err(EngineError::invalid(format!(
            "maximize: the acquisition is NaN at refinement point {i}"
        )));
    }
    let grad = (0..dim)
        .map(|i| {
            let g = if spans[i] > 0.0 {
                (v[2 * i + 2] - v[2 * i + 1]) / spans[i]
            } else {
                0.0
            };
            if g.is_finite() { g } else { 0.0 }
        })
        .collect();
    Ok((v[0], grad))
}
