//! The interface every algorithm implements, in ask/tell form: what it sees when asked
//! ([`AskContext`]), what it proposes ([`Proposal`]), what it is told ([`Feedback`]), what a
//! step cost ([`StepLog`]), and the history most of them keep.

use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value};

use crate::acquisition::default_grid_size;
use bosweep_core::data::{Blame, Failure};
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_problems::{Domain, ParamValue, Problem};

/// What an algorithm sees when asked for its next point.
pub struct AskContext<'a> {
    /// The run's engine for batch work over grids and samples (CPU or GPU).
    pub engine: &'a dyn Engine,
    /// The run's f64 CPU engine: the reference for work whose result must not depend on the
    /// device, such as L-BFGS refinement of grid maxima. The run hands it
    /// in rather than algorithms making their own, so that one engine serves the run and a
    /// wrapper the run installs sees its work too.
    pub reference: &'a dyn Engine,
    /// The problem's box (and its integer or categorical coordinates), in its own units.
    pub domain: &'a Domain,
    /// The finite set of allowed points at this step, if the problem restricts the domain.
    pub allowed: Option<&'a Points>,
    /// 1-based index of the step being chosen.
    pub t: usize,
    /// Points asked and not yet told (a batch's earlier points), in the problem's coordinates;
    /// empty when points are asked one at a time. Only an algorithm whose
    /// [`Algorithm::accepts_pending`] is true is asked while points are pending.
    pub pending: &'a [Vec<f64>],
    /// The run's random stream: every random choice of the algorithm draws from it, so that
    /// a run is reproduced from its seed.
    pub rng: &'a mut ChaCha8Rng,
}

/// The next point to evaluate and how many repeated evaluations to spend on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    /// The point, in the problem's coordinates.
    pub x: Vec<f64>,
    /// Evaluations of `x` (1 but for algorithms that average repeats, such as RAHBO).
    pub repeats: usize,
}

/// An evaluated step, in the maximisation sense.
#[derive(Clone, Copy, Debug)]
pub struct Feedback<'a> {
    /// The evaluated point, in the problem's coordinates.
    pub x: &'a [f64],
    /// Mean of the repeats, negated for minimisation problems.
    pub y: f64,
    /// Every repeat's value, in the maximisation sense (RAHBO's sample variance reads them).
    pub repeats: &'a [f64],
    /// The context the environment drew for this step, on contextual problems.
    pub context: Option<&'a [f64]>,
    /// 1-based index of the step (initial design included).
    pub t: usize,
    /// The m values of a problem with several objectives, each in the maximisation sense
    /// (minimised ones negated); empty on a problem with one, where `y` says it all.
    pub objectives: &'a [f64],
    /// The k constraint values of a constrained problem (feasible where every one is ≤ 0);
    /// empty on an unconstrained one.
    pub constraints: &'a [f64],
}

/// Wall seconds spent since the last [`Algorithm::take_cost`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepCost {
    /// Fitting and updating the surrogate.
    pub model_seconds: f64,
    /// Maximising the acquisition.
    pub acq_seconds: f64,
    /// The part of `acq_seconds` spent evaluating the acquisition on the candidate grid (or
    /// the allowed set) and choosing the starts; 0 where a method has no such stage.
    pub grid_seconds: f64,
    /// The part of `acq_seconds` spent refining the starts; 0 where a method has no such stage.
    pub refine_seconds: f64,
}

/// The seconds of two spans together (a batch's ask and the tell of its value).
impl std::ops::Add for StepCost {
    type Output = Self;

    fn add(self, other: Self) -> Self {
        Self {
            model_seconds: self.model_seconds + other.model_seconds,
            acq_seconds: self.acq_seconds + other.acq_seconds,
            grid_seconds: self.grid_seconds + other.grid_seconds,
            refine_seconds: self.refine_seconds + other.refine_seconds,
        }
    }
}

/// What an algorithm's steps spend and note, for the trace: the cost since the last
/// [`Algorithm::take_cost`] and the last step's algorithm-specific fields, which each step
/// rewrites or extends as the algorithm documents.
#[derive(Clone, Debug, Default)]
pub struct StepLog {
    /// Seconds spent since the last [`Algorithm::take_cost`].
    pub cost: StepCost,
    /// The last step's algorithm-specific trace fields (the trace's `extra`).
    pub extra: Map<String, Value>,
}

/// Why an algorithm could not propose a point.
#[derive(Debug, thiserror::Error)]
pub enum AlgorithmError {
    /// The algorithm's configuration is invalid.
    #[error("{0}")]
    Config(String),
    /// The engine failed while running. Inputs the engine refuses mid-run are the algorithm's
    /// doing, not the user's, so this is a failure while running whatever the engine's cause.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A user's optimiser run as a command failed while running (crashed, hung, answered
    /// garbage).
    #[error("{0}")]
    External(String),
}

impl Failure for AlgorithmError {
    fn blame(&self) -> Blame {
        match self {
            Self::Config(_) => Blame::Input,
            Self::Engine(_) | Self::External(_) => Blame::Running,
        }
    }
}

/// A sequential optimiser.
pub trait Algorithm: Send {
    /// The next point to evaluate. Only called after the initial design has been told.
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError>;

    /// Whether [`Algorithm::ask`] may be called while points are pending
    /// ([`AskContext::pending`]), so that a batch of several points is asked before any is told.
    /// `false` (the default) for a method without a batch version: its caller asks one point
    /// and waits for its value.
    fn accepts_pending(&self) -> bool {
        false
    }

    /// Whether the method handles problems of several objectives (it reads
    /// [`Feedback::objectives`]); `false` (the default) for a single-objective method, which is
    /// refused up front on such a problem ([`crate::check_fit`]).
    fn handles_several_objectives(&self) -> bool {
        false
    }

    /// Whether the method handles black-box constraints (it reads [`Feedback::constraints`]);
    /// `false` (the default) for a method that ignores them, which is refused up front on a
    /// constrained problem ([`crate::check_fit`]).
    fn handles_constraints(&self) -> bool {
        false
    }

    /// Learns the outcome of one step (initial design included).
    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError>;

    /// The point the algorithm would report now.
    fn recommend(&mut self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError>;

    /// Where the algorithm records what its steps spend and note; `None` for one that records
    /// nothing. [`Algorithm::take_cost`] and [`Algorithm::extra`] read it.
    fn step_log(&mut self) -> Option<&mut StepLog> {
        None
    }

    /// Model and acquisition seconds spent since the last call.
    fn take_cost(&mut self) -> StepCost {
        self.step_log()
            .map(|log| std::mem::take(&mut log.cost))
            .unwrap_or_default()
    }

    /// Algorithm-specific trace fields of the last step (the trace's `extra`).
    fn extra(&mut self) -> Map<String, Value> {
        self.step_log()
            .map(|log| log.extra.clone())
            .unwrap_or_default()
    }

    /// The full parameter set, defaults included, for the trace header.
    fn parameters(&self) -> Vec<(String, ParamValue)>;

    /// Evaluations to spend at each initial-design point (RAHBO needs `k` there too, to have a
    /// sample variance at every point).
    fn initial_repeats(&self) -> usize {
        1
    }

    /// Called once before the run with the problem, for oracle variants that use what the
    /// problem knows (RAHBO with known variance takes the true noise variance).
    fn prepare(&mut self, _problem: &dyn Problem) -> Result<(), AlgorithmError> {
        Ok(())
    }

    /// Called once before the run, after [`Algorithm::prepare`], with the evaluations it will
    /// spend (initial design included), for a method that plans for them: a peer library's
    /// optimiser that picks its method from the budget. Not called where there is no budget
    /// (an ask/tell optimiser driven by its user).
    fn plan_budget(&mut self, _budget: usize) {}

    /// An upper estimate of the peak memory, in bytes, of one run of `budget` evaluations in
    /// `dim` dimensions, so that a sweep that cannot fit is refused before it starts. The
    /// default is a GP's: [`gp_memory_bytes`] with the default candidate grid.
    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        gp_memory_bytes(budget, dim, default_grid_size(dim))
    }
}

/// Peak memory of a GP-based run: dense `n × n` matrices at `n = budget` — the fitted state's
/// `L⁻¹` and the previous step's, plus the four buffers of a likelihood evaluation (`K`, its
/// slope, the factor, its inverse) for each of the fit's 5 default starts, which may all run at
/// once — plus a candidate grid of `grid` points in `dim` dimensions with its posterior and
/// acquisition values.
pub fn gp_memory_bytes(budget: usize, dim: usize, grid: usize) -> u64 {
    const MATRICES: u64 = 2 + 4 * 5;
    let (n, dim, grid) = (budget as u64, dim as u64, grid as u64);
    let reals = MATRICES * n.saturating_mul(n) + grid * (dim + 4);
    reals.saturating_mul(8)
}

/// Observed points and values (maximisation sense) in arrival order, with each point's total
/// constraint violation (0 where feasible or unconstrained).
#[derive(Clone, Debug, Default)]
pub struct History {
    xs: Vec<f64>,
    ys: Vec<f64>,
    violations: Vec<f64>,
    dim: usize,
}

impl History {
    /// Appends observation `(x, y)` of an unconstrained problem; every `x` has the same length.
    pub fn push(&mut self, x: &[f64], y: f64) {
        self.push_constrained(x, y, &[]);
    }

    /// Appends observation `(x, y)` with its constraint values `constraints` (feasible where
    /// every one is ≤ 0; empty on an unconstrained problem).
    pub fn push_constrained(&mut self, x: &[f64], y: f64, constraints: &[f64]) {
        self.dim = x.len();
        self.xs.extend_from_slice(x);
        self.ys.push(y);
        self.violations
            .push(bosweep_problems::violation(constraints));
    }

    /// Observations so far.
    pub fn len(&self) -> usize {
        self.ys.len()
    }

    /// Whether nothing has been observed yet.
    pub fn is_empty(&self) -> bool {
        self.ys.is_empty()
    }

    /// The observed values, in arrival order.
    pub fn ys(&self) -> &[f64] {
        &self.ys
    }

    /// The `i`-th observed point.
    pub fn x(&self, i: usize) -> &[f64] {
        &self.xs[i * self.dim..(i + 1) * self.dim]
    }

    /// The observed points as one engine matrix (one row per observation).
    pub fn points(&self) -> Result<Points, EngineError> {
        Points::new(self.xs.clone(), self.dim.max(1))
    }

    /// Index of the best observation, feasible first: the best value among the feasible
    /// points, else (none feasible yet) the point of least total violation; the lowest index
    /// among ties.
    pub fn best(&self) -> Option<usize> {
        let better = |i: usize, b: usize| match self.violations[i].total_cmp(&self.violations[b]) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => self.ys[i] > self.ys[b],
        };
        (0..self.ys.len()).reduce(|b, i| if better(i, b) { i } else { b })
    }

    /// Whether the `i`-th observation satisfies every constraint (always, unconstrained).
    pub fn is_feasible(&self, i: usize) -> bool {
        self.violations[i] == 0.0
    }

    /// The `i`-th observation's total constraint violation `Σ_j max(c_j, 0)` (0 where feasible).
    pub fn violation(&self, i: usize) -> f64 {
        self.violations[i]
    }

    /// The point of the best observation (feasible first, [`History::best`]; empty before any
    /// observation): the recommendation of algorithms that report their best evaluation.
    pub fn best_x(&self) -> Vec<f64> {
        self.best().map(|i| self.x(i).to_vec()).unwrap_or_default()
    }
}
