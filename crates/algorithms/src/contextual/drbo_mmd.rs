//! DRBO-MMD (Kirschner, Bogunovic, Jegelka and Krause 2020): the joint (x, c) GP of
//! SBO-KDE, and the acquisition
//!
//! ```text
//! α(x) = min_{w ∈ Δ(C̃), ‖w − ŵ‖_K ≤ ε_t} Σ_j w_j ucb(x, c̃_j)
//! ```
//!
//! on the context grid `C̃` (a Cartesian product), `ŵ` the empirical distribution of the
//! observed contexts snapped to the grid, `K` the GP kernel restricted to the context coordinates
//! and `ε_t = (2 + √(2 ln 10))/√n` (n = t − 1 observed contexts, as the reference code).
//!
//! Each value is an exact convex program ([`MmdProgram`]); the reference code's CVXPY/SCS solve
//! with a fallback to `ŵᵀg` on failure is replaced by Clarabel at tight tolerances, the bounds of
//! [`MmdProgram::bounds`] and the bound-screened top-k of [`screened_top_k`]. The refinement uses
//! Danskin's theorem: the feasible set does not depend on x, so `∇α(x) = w*ᵀ ∇_x ucb(x, C̃)` with
//! `w*` the worst-case distribution at x. One program per L-BFGS evaluation (central differences
//! of the smooth UCB values give `∇_x ucb`), where finite differences of `α` itself would need
//! `2Dx + 1` programs, each solved far more accurately than the difference step.

use std::time::Instant;

use clarabel::solver::DefaultSolver;
use rand::RngExt;
use serde_json::{Map, json};

use super::kde_bo::{KdeBo, Method, MethodParts, condition_on, evaluated_in_unit_box};
use super::mmd::{MmdBall, context_grid};
use super::mmd_program::{MmdProgram, screened_top_k};
use super::schedules::mmd_radius;
use super::settings::ContextualSettings;
use bosweep_core::optim::lbfgsb::LbfgsbOptions;
use bosweep_core::optim::{ascend_from_starts, best_ascent};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::GpState;
use bosweep_problems::Domain;
use bosweep_toolkit::acquisition::{Bounds, SobolGrid};
use bosweep_toolkit::surrogate::GpModel;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog,
};

/// Central-difference step of `∇_x ucb` (unit-cube decision coordinates).
const GRADIENT_STEP: f64 = 1e-6;

/// What the last `ask` fitted, kept for the recommendation.
struct StepProgram {
    model: GpModel,
    grid: Points,
    program: MmdProgram,
    domain: Domain,
}

/// DRBO-MMD, running.
pub(super) struct DrboMmdRunner {
    /// The joint GP fit, UCB multiplier and context bookkeeping shared with SBO-KDE (built as
    /// the MinimaxApprox variant; only its model parts are used).
    base: KdeBo,
    params: Params,
    grid_size: usize,
    radius_scale: f64,
    raw_samples: usize,
    restarts: usize,
    history: History,
    last: Option<StepProgram>,
    log: StepLog,
}

impl DrboMmdRunner {
    /// DRBO-MMD from its typed settings: a context grid of `grid_size` points and the MMD
    /// radius scaled by `radius_scale`; `params` are the checked parameters they came from.
    pub(super) fn new(
        params: Params,
        shared: &ContextualSettings,
        grid_size: usize,
        radius_scale: f64,
    ) -> Self {
        // Huang et al.'s code gave DRBO-MMD 32 raw samples and 5 restarts (CVXPY's cost).
        let (raw_samples, restarts) = shared.budget(true);
        let parts = MethodParts {
            grid_size,
            ..MethodParts::default()
        };
        Self {
            grid_size,
            radius_scale,
            raw_samples,
            restarts,
            base: KdeBo::new(params.clone(), Method::MinimaxApprox, shared, parts),
            params,
            history: History::default(),
            last: None,
            log: StepLog::default(),
        }
    }

    /// The step's inner program: the grid, `ŵ`, `K` and `ε_t`.
    fn program(
        &self,
        engine: &dyn Engine,
        model: &GpModel,
        decision_dim: usize,
    ) -> Result<(Points, MmdProgram), AlgorithmError> {
        let contexts = self.base.context_points()?;
        let (n, dc) = (contexts.rows(), contexts.dim());
        let radius = self.radius_scale * mmd_radius(n);
        let grid = context_grid(self.grid_size, dc)?;
        let observed = self.base.to_unit(contexts)?;
        let ball = MmdBall::new(engine, model.state(), decision_dim, grid, &observed, radius)?;
        let program = MmdProgram::new(&ball.kernel, ball.reference, radius)?;
        Ok((ball.grid, program))
    }
}

/// `α(u)` and its Danskin gradient at the unit-cube decision `u`: one engine call for the UCB
/// values at `u` and `u ± h e_i` (one-sided at a bound), one program at `u` (on `cache`'s
/// solver, one per restart).
fn value_gradient(
    engine: &dyn Engine,
    gp: &GpState,
    grid: &Points,
    program: &MmdProgram,
    kappa: f64,
    u: &[f64],
    cache: &mut Option<DefaultSolver<f64>>,
) -> Result<(f64, Vec<f64>), EngineError> {
    let dim = u.len();
    let mut data = Vec::with_capacity((2 * dim + 1) * dim);
    data.extend_from_slice(u);
    let mut spans = Vec::with_capacity(dim);
    for (i, &ui) in u.iter().enumerate() {
        let (a, b) = ((ui - GRADIENT_STEP).max(0.0), (ui + GRADIENT_STEP).min(1.0));
        spans.push(b - a);
        for t in [a, b] {
            let at = data.len() + i;
            data.extend_from_slice(u);
            data[at] = t;
        }
    }
    let rows = engine.pair_values(gp, &Points::new(data, dim)?, grid, kappa)?;
    let n = grid.rows();
    let worst = program.solve_with(&rows[..n], cache)?;
    let gradient = (0..dim)
        .map(|i| {
            let (minus, plus) = (&rows[(2 * i + 1) * n..], &rows[(2 * i + 2) * n..]);
            worst
                .weights
                .iter()
                .enumerate()
                .map(|(j, w)| w * (plus[j] - minus[j]))
                .sum::<f64>()
                / spans[i]
        })
        .collect();
    Ok((worst.value, gradient))
}

impl Algorithm for DrboMmdRunner {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        self.log.extra = Map::new();
        let dx = ctx.domain.dim();
        let start = Instant::now();
        let model = self.base.fit_model(ctx)?;
        let (grid, program) = self.program(ctx.engine, &model, dx)?;
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();

        let start = Instant::now();
        let kappa = self.base.kappa_at(ctx.t, dx);
        let gp = model.state();
        let sobol = SobolGrid::new(
            Bounds::cube(0.0, 1.0, dx)?,
            self.raw_samples,
            ctx.rng.random(),
        )?;
        let candidates = sobol.all();
        let rows = ctx.engine.pair_values(gp, &candidates, &grid, kappa)?;
        let (top, grid_solves) = screened_top_k(&program, &rows, self.restarts)?;

        let cpu = ctx.reference;
        let options = LbfgsbOptions {
            max_iters: self.base.max_iters,
            gtol: self.base.gradient_tolerance,
            ftol: self.base.tolerance,
            ..LbfgsbOptions::default()
        };
        let (lo, hi) = (vec![0.0; dx], vec![1.0; dx]);
        let starts: Vec<Vec<f64>> = top
            .iter()
            .map(|&(index, _)| candidates.row(index).to_vec())
            .collect();
        let (grid_ref, program_ref) = (&grid, &program);
        let refined = ascend_from_starts(&starts, &lo, &hi, &options, || {
            let mut cache = None;
            move |u: &[f64]| value_gradient(cpu, gp, grid_ref, program_ref, kappa, u, &mut cache)
        })?;
        let best = best_ascent(&refined)
            .ok_or_else(|| EngineError::invalid("drbo-mmd: no start to refine"))?;
        let refine_solves: usize = refined.iter().map(|r| r.evaluations).sum();
        self.log
            .extra
            .insert("mmd_radius".into(), json!(program.radius()));
        self.log.extra.insert("ucb_multiplier".into(), json!(kappa));
        self.log
            .extra
            .insert("lengthscales".into(), json!(model.lengthscales_original()));
        self.log
            .extra
            .insert("acquisition".into(), json!(refined[best].value));
        self.log
            .extra
            .insert("grid_programs_solved".into(), json!(grid_solves));
        self.log
            .extra
            .insert("refine_programs".into(), json!(refine_solves));
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        let x = ctx.domain.from_unit(&refined[best].x);
        self.last = Some(StepProgram {
            model,
            grid,
            program,
            domain: ctx.domain.clone(),
        });
        Ok(Proposal { x, repeats: 1 })
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        self.base.tell(feedback)?;
        self.history.push(feedback.x, feedback.y);
        if let (Some(last), Some(context)) = (&mut self.last, feedback.context) {
            condition_on(&mut last.model, feedback.x, context, feedback.y)?;
        }
        Ok(())
    }

    /// The evaluated point maximising the worst case of the
    /// posterior mean (κ = 0) over the last step's MMD ball, with the last fit's hyperparameters
    /// conditioned on every observation; the best observation before any model exists.
    fn recommend(&mut self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        let Some(last) = &self.last else {
            return Ok(self.history.best_x());
        };
        let observed = evaluated_in_unit_box(&self.history, &last.domain)?;
        let rows = engine.pair_values(last.model.state(), &observed, &last.grid, 0.0)?;
        let (top, _) = screened_top_k(&last.program, &rows, 1)?;
        Ok(self.history.x(top[0].0).to_vec())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }
}
