//! The problem library: objectives that BO algorithms optimise, behind one interface that covers
//! all five papers.
//!
//! The separation follows BoTorch: a noise-free [`TestFunction`] (standard definition, standard
//! domain, known optimum) is made observable by one generic wrapper, [`Noisy`], that adds
//! homoscedastic Gaussian noise. Everything an algorithm or the trace writer touches goes
//! through the object-safe [`Problem`] trait, which also carries what the later papers need:
//!
//! - a box [`Domain`] and a declared optimisation [`Sense`] (each problem keeps its standard
//!   form; algorithms that maximise negate minimised problems internally);
//! - noisy evaluation, `k` repeated evaluations at one point (RAHBO) and an observed context
//!   drawn by the environment (SBO/DRBO), all in one [`Observation`];
//! - a time index `t` in [`Step`], a time-varying objective and optimum, and a finite allowed set
//!   per step (PE-GP-UCB);
//! - the objective of interest and the optimum, so that regret can be computed;
//! - evaluation that can fail (an external command per evaluation), as a [`ProblemError`].
//!
//! Problems are built by kebab-case name from the [`registry`] (`build("branin", &[])`).

#[macro_use]
mod support;

pub mod bbob;
pub mod boke;
mod callable;
mod command;
pub mod constrained;
mod constraints;
pub mod contextual;
mod domain;
mod entry;
mod error;
pub mod functions;
pub mod lasso;
pub mod multi_objective;
mod noisy;
mod objectives;
pub mod rahbo;
mod registry;
pub mod rover;
pub mod time_varying;

pub use bosweep_core::params::{ParamKind, ParamSpec, ParamValue, Params};
pub use callable::{CallableObjective, HostFunction, Registration, register_function};
pub use command::{
    COMMAND_TIMEOUT, CommandObjective, declared_objectives, excerpt, parse_bounds,
    parse_objective_output, parse_objectives_output, parse_senses,
};
pub use constraints::{Constraints, feasible, violation};
pub use domain::Domain;
pub use entry::Entry;
pub use error::ProblemError;
pub use functions::TestFunction;
pub use noisy::Noisy;
pub use objectives::Objectives;
pub use registry::{SETUP_KEYS, build, find, registry};

use rand_chacha::ChaCha8Rng;

use std::sync::Arc;

use bosweep_engine::Points;
use bosweep_model::CandidatePriors;

/// Whether a problem's standard form is minimised or maximised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sense {
    /// Lower values are better.
    Minimize,
    /// Higher values are better.
    Maximize,
}

impl Sense {
    /// `"minimize"` or `"maximize"`, as trace headers and listings print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Minimize => "minimize",
            Self::Maximize => "maximize",
        }
    }

    /// Whether `a` is strictly better than `b` in this sense.
    pub fn is_better(self, a: f64, b: f64) -> bool {
        match self {
            Self::Minimize => a < b,
            Self::Maximize => a > b,
        }
    }

    /// How far `value` falls short of `optimum`, never negative: an optimum known only to the
    /// literature's precision can be beaten by rounding, and regret is defined to be ≥ 0.
    pub fn regret(self, optimum: f64, value: f64) -> f64 {
        let gap = match self {
            Self::Minimize => value - optimum,
            Self::Maximize => optimum - value,
        };
        gap.max(0.0)
    }

    /// `value` in maximisation form (negated for minimisation problems), for algorithms that
    /// always maximise.
    pub fn to_maximization(self, value: f64) -> f64 {
        match self {
            Self::Minimize => -value,
            Self::Maximize => value,
        }
    }
}

/// One evaluation request's position in the run: the 1-based time index `t` (it selects the
/// objective and allowed set of time-varying problems; static problems ignore it) and the number
/// of repeated evaluations `k` at the point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    t: usize,
    repeats: usize,
}

impl Step {
    /// Step `t ≥ 1` with `repeats ≥ 1` evaluations.
    pub fn new(t: usize, repeats: usize) -> Result<Self, ProblemError> {
        if t == 0 {
            return Err(ProblemError::invalid_point(
                "time index t is 1-based, got 0",
            ));
        }
        if repeats == 0 {
            return Err(ProblemError::invalid_point(
                "a step needs at least 1 evaluation, got repeats = 0",
            ));
        }
        Ok(Self { t, repeats })
    }

    /// The 1-based time index.
    pub fn t(&self) -> usize {
        self.t
    }

    /// How many evaluations the step makes at its point, at least 1.
    pub fn repeats(&self) -> usize {
        self.repeats
    }
}

/// What one step observes, in the problem's own sense.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// The mean of `repeats` (the value a trace records as `y`). With several objectives, the
    /// first objective's value: only methods that read [`Observation::objectives`] run there.
    pub y: f64,
    /// The `k` raw values, in the order drawn (RAHBO needs their spread, not only the mean).
    /// With several objectives, `[y]`: their steps make one evaluation.
    pub repeats: Vec<f64>,
    /// The context the environment drew for this step (SBO/DRBO), shared by all repeats.
    pub context: Option<Vec<f64>>,
    /// The m values of a problem with m ≥ 2 objectives, each in its own sense; empty for a
    /// problem with one.
    pub objectives: Vec<f64>,
    /// The k constraint values of a constrained problem (feasible where every one is ≤ 0);
    /// empty for an unconstrained one.
    pub constraints: Vec<f64>,
}

impl Observation {
    /// The observation of the raw values `repeats`, with `y` their mean.
    pub fn new(repeats: Vec<f64>, context: Option<Vec<f64>>) -> Self {
        let y = repeats.iter().sum::<f64>() / repeats.len() as f64;
        Self {
            y,
            repeats,
            context,
            objectives: Vec::new(),
            constraints: Vec::new(),
        }
    }

    /// The observation of one evaluation of several objectives (`values`, at least one).
    pub fn of_objectives(values: Vec<f64>, context: Option<Vec<f64>>) -> Self {
        let first = values.first().copied().unwrap_or(f64::NAN);
        Self {
            y: first,
            repeats: vec![first],
            context,
            objectives: values,
            constraints: Vec::new(),
        }
    }

    /// This observation with the constraint values `values` beside its objectives.
    pub fn with_constraints(mut self, values: Vec<f64>) -> Self {
        self.constraints = values;
        self
    }
}

/// The true noise variance of a problem, as a function of the point (shareable with an algorithm
/// for the whole run).
pub type NoiseVariance = std::sync::Arc<dyn Fn(&[f64]) -> f64 + Send + Sync>;

/// A known optimum of the objective of interest.
#[derive(Clone, Debug, PartialEq)]
pub struct Optimum {
    /// The optimal value, in the problem's sense.
    pub value: f64,
    /// Every known optimiser (several for Branin and the six-hump camel); empty where only the
    /// value is known.
    pub locations: Vec<Vec<f64>>,
}

/// An objective a BO algorithm optimises. Object-safe, and shareable across the threads of a
/// sweep.
///
/// Implementors provide [`Problem::observe`]; callers use [`Problem::evaluate`], which checks the
/// point before and the observation after, so that a misbehaving objective (an external command
/// that prints too few or non-finite values) surfaces as an error, not as a corrupt trace.
pub trait Problem: Send + Sync + std::fmt::Debug {
    /// The kebab-case registry name (`branin`).
    fn name(&self) -> &str;

    /// The box the decision variable lives in.
    fn domain(&self) -> &Domain;

    /// Whether the problem's standard form is minimised or maximised.
    fn sense(&self) -> Sense;

    /// The full parameter set, defaults included, for the trace header.
    fn parameters(&self) -> Vec<(String, ParamValue)>;

    /// Draws the observation at `x`, which [`Problem::evaluate`] has already checked to lie in
    /// the domain and the allowed set of `step`. It must return `step.repeats()` finite values.
    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError>;

    /// The noise-free value the regret is measured on at time `t`: the function value; the
    /// expectation over the context distribution (SBO/DRBO); the mean-variance value (RAHBO).
    /// `None` where it cannot be computed (an external objective).
    ///
    /// `x` must have [`Problem::dim`] coordinates; implementations may panic otherwise.
    fn objective_of_interest(&self, x: &[f64], t: usize) -> Option<f64>;

    /// The optimum of the objective of interest at time `t` (over the allowed set where there is
    /// one), or `None` where unknown.
    fn optimum(&self, t: usize) -> Option<Optimum>;

    /// The name of the family member this is, where a parameter picks one from a numbered
    /// family (`function = 8` of `bbob` is `f8 Rosenbrock`), for listings and report headings,
    /// which would otherwise show only the number. `None` for problems that are not one of a
    /// numbered family.
    fn title(&self) -> Option<String> {
        None
    }

    /// The number of decision coordinates, the domain's dimension.
    fn dim(&self) -> usize {
        self.domain().dim()
    }

    /// The objectives of a problem with several (each one's sense, the reference point, the
    /// maximum hypervolume, the true front); `None` for a problem with one, whose
    /// [`Problem::sense`] says it all. A multi-objective problem's `sense` is its first
    /// objective's.
    fn objectives(&self) -> Option<&Objectives> {
        None
    }

    /// The number of objectives m, 1 for a problem that declares no [`Problem::objectives`].
    fn objective_count(&self) -> usize {
        self.objectives().map_or(1, Objectives::count)
    }

    /// The noise-free values of a multi-objective problem at `x` (each in its own sense), which
    /// its indicators are measured on, as regret is on [`Problem::objective_of_interest`];
    /// `None` where they cannot be computed (an external objective) and for a problem with one
    /// objective.
    fn objective_values(&self, _x: &[f64], _t: usize) -> Option<Vec<f64>> {
        None
    }

    /// The black-box constraints of a constrained problem (how many, their names); `None` for
    /// an unconstrained one. Every observation of a constrained problem carries one value per
    /// constraint, feasible where all are ≤ 0.
    fn constraints(&self) -> Option<&Constraints> {
        None
    }

    /// The number of constraints k, 0 for a problem that declares no
    /// [`Problem::constraints`].
    fn constraint_count(&self) -> usize {
        self.constraints().map_or(0, Constraints::count)
    }

    /// The noise-free constraint values at `x`, which feasibility is judged on, as regret is on
    /// [`Problem::objective_of_interest`]; `None` where they cannot be computed (an external
    /// objective, whose observed values are used) and for an unconstrained problem.
    fn constraint_values(&self, _x: &[f64], _t: usize) -> Option<Vec<f64>> {
        None
    }

    /// Draws the random instance of a problem that has one (`pe-toy` without a fixed
    /// `instance`: its f is a GP sample) from `rng`, before the run's first evaluation. The
    /// runner passes the stream of the run's initial design, which every algorithm of one
    /// replicate shares, so that they all meet the same instance and their results pair. Does
    /// nothing for fixed problems, and consumes nothing from `rng` there.
    fn draw_instance(&self, _rng: &mut ChaCha8Rng) {}

    /// The finite set of points allowed at time `t` (PE-GP-UCB's time-varying domain); `None`
    /// means the whole box.
    fn allowed_set(&self, _t: usize) -> Option<&Points> {
        None
    }

    /// Whether the objective or the allowed set changes with the time index t; traces record
    /// `t` only for such problems.
    fn time_varying(&self) -> bool {
        false
    }

    /// The finite set of candidate GP priors the problem defines (time-varying problems with an
    /// unknown prior, Ziomek et al. 2025, §7): what the unknown-prior algorithms choose among.
    fn candidate_priors(&self) -> Option<Arc<CandidatePriors>> {
        None
    }

    /// The box the observed context lives in, for problems whose environment draws one.
    fn context_domain(&self) -> Option<&Domain> {
        None
    }

    /// The true noise variance `ρ²(x)` of one evaluation, where the problem knows it (synthetic
    /// heteroscedastic problems): what oracle variants such as RAHBO with known variance use.
    fn noise_variance(&self) -> Option<NoiseVariance> {
        None
    }

    /// The risk coefficient α of a mean-variance objective of interest `f − α·ρ²` (RAHBO's
    /// problems), so that a risk-averse algorithm can optimise the objective the regret is
    /// measured on. `None` for problems without one.
    fn risk_aversion(&self) -> Option<f64> {
        None
    }

    /// Named noise-free quantities at `x` besides the objective of interest (RAHBO's problems:
    /// `f` and `rho2`), which the runner writes to the trace for the evaluated and the
    /// recommended point. Empty where there are none.
    fn point_metrics(&self, _x: &[f64], _t: usize) -> Vec<(&'static str, f64)> {
        Vec::new()
    }

    /// Evaluates at `x` for `step`: checks that `x` lies in the domain (and in the allowed set
    /// at `step.t()`), observes, and checks that the observation has `step.repeats()` finite
    /// values and a context of the declared dimension.
    fn evaluate(
        &self,
        x: &[f64],
        step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        self.domain().check_point(x)?;
        let allowed = self.allowed_set(step.t());
        if allowed.is_some_and(|set| !set.iter().any(|p| p == x)) {
            return Err(ProblemError::invalid_point(format!(
                "{}: point {x:?} is not in the allowed set at t = {}",
                self.name(),
                step.t()
            )));
        }
        let objectives = self.objective_count();
        if objectives > 1 && step.repeats() > 1 {
            return Err(ProblemError::invalid_point(format!(
                "{}: {} repeated evaluations asked of a problem with {objectives} objectives \
                 (its steps make one evaluation each)",
                self.name(),
                step.repeats()
            )));
        }
        let obs = self.observe(x, step, rng)?;
        let returned = obs.objectives.len().max(1);
        if returned != objectives {
            return Err(ProblemError::evaluation(format!(
                "{}: {returned} objective value(s) returned at {x:?} for {objectives} objectives",
                self.name()
            )));
        }
        if let Some(v) = obs.objectives.iter().find(|v| !v.is_finite()) {
            return Err(ProblemError::evaluation(format!(
                "{}: objective value {v} at {x:?} is not finite",
                self.name()
            )));
        }
        if obs.repeats.len() != step.repeats() {
            return Err(ProblemError::evaluation(format!(
                "{}: {} values returned for {} repeats",
                self.name(),
                obs.repeats.len(),
                step.repeats()
            )));
        }
        if let Some(v) = obs.repeats.iter().find(|v| !v.is_finite()) {
            return Err(ProblemError::evaluation(format!(
                "{}: value {v} at {x:?} is not finite",
                self.name()
            )));
        }
        let constraints = self.constraint_count();
        if obs.constraints.len() != constraints {
            return Err(ProblemError::evaluation(format!(
                "{}: {} constraint value(s) returned at {x:?} for {constraints} constraints",
                self.name(),
                obs.constraints.len()
            )));
        }
        if let Some(v) = obs.constraints.iter().find(|v| !v.is_finite()) {
            return Err(ProblemError::evaluation(format!(
                "{}: constraint value {v} at {x:?} is not finite",
                self.name()
            )));
        }
        let context_dim = self.context_domain().map(Domain::dim);
        if obs.context.as_ref().map(Vec::len) != context_dim {
            return Err(ProblemError::evaluation(format!(
                "{}: context {:?} does not match the declared context dimension {context_dim:?}",
                self.name(),
                obs.context
            )));
        }
        Ok(obs)
    }
}
