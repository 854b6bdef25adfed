//! One optimisation run: initial design, then ask/tell until the evaluation budget is spent,
//! with one trace line per step, in the order values are told (with batches or workers, the
//! [`Schedule`] says which evaluation finishes next).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};

use super::conditioning::ConditioningMonitor;
use super::front::{FrontIndicators, FrontTracker};
use super::placement::{ENGINE_CALLS_KEY, PlacementCounter};
use super::schedule::{Asked, Parallel, Schedule};
use super::stop::StopSignal;
use super::trace::{Phase, StepRecord, TraceWriter};
use bosweep_algorithms::optimizer::{Origin, Session, initial_design};
use bosweep_algorithms::{Algorithm, AlgorithmError};
use bosweep_core::data::{Blame, Failure};
use bosweep_core::io::io_reason;
use bosweep_core::params::ParamValue;
use bosweep_engine::{Engine, EngineError};
use bosweep_problems::{Objectives, Problem, ProblemError, Step};

/// The budget, seed and parallelism of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    /// Evaluations to spend, repeats included.
    pub budget: usize,
    /// Points of the initial design (scrambled Sobol in the box, or distinct members of the
    /// allowed set), evaluated before the algorithm is asked.
    pub init: usize,
    /// Seeds the run's own random stream: the algorithm's choices and the observation noise.
    pub seed: u64,
    /// Seeds the initial design only, so that the methods of one sweep replicate start from the
    /// same points, as the papers' paired comparisons do.
    pub design_seed: u64,
    /// Batches or asynchronous workers, and the simulated runtime of each evaluation; the
    /// default evaluates one point at a time, untimed.
    pub parallel: Parallel,
}

/// What a finished run reports.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// Steps taken (each one point, evaluated `repeats` times).
    pub steps: usize,
    /// Evaluations spent, repeats counted: the budget.
    pub evals: usize,
    /// The algorithm's recommendation after the last step.
    pub recommended_x: Vec<f64>,
    /// Objective of interest at the recommendation, when computable.
    pub recommended_f: Option<f64>,
    /// Whether the recommendation satisfies every constraint, on a constrained problem of one
    /// objective; `None` elsewhere, and where unknown.
    pub recommended_feasible: Option<bool>,
    /// The best objective of interest among the evaluated points (the observed value where it
    /// is not computable), in the problem's own sense; `None` on several objectives.
    pub best_value: Option<f64>,
    /// Regret of the final recommendation; `None` where the optimum is unknown.
    pub simple_regret: Option<f64>,
    /// Sum of the evaluated points' regrets; `None` where the optimum is unknown.
    pub cumulative_regret: Option<f64>,
    /// The non-dominated set and its indicators after the last step, on a problem of several
    /// objectives (whose `recommended_x` is empty).
    pub front: Option<FrontIndicators>,
}

/// Why a run stopped early. Every step completed before the error is already in the trace.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Bad configuration: budget, initial design.
    #[error("{0}")]
    Config(String),
    /// The problem refused a point or failed to evaluate it.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// The algorithm failed, or its engine did.
    #[error(transparent)]
    Algorithm(#[from] AlgorithmError),
    /// Writing the trace failed.
    #[error("writing the trace failed: {}", io_reason(.0))]
    Io(#[from] std::io::Error),
    /// The caller's [`StopSignal`] asked for it after `steps` steps.
    #[error("stopped on request after {steps} step(s)")]
    Stopped {
        /// Steps completed and written before the stop.
        steps: usize,
    },
}

impl Failure for RunError {
    fn blame(&self) -> Blame {
        match self {
            Self::Config(_) => Blame::Input,
            Self::Problem(e) => e.blame(),
            Self::Algorithm(e) => e.blame(),
            Self::Io(_) | Self::Stopped { .. } => Blame::Running,
        }
    }
}

impl From<EngineError> for RunError {
    fn from(e: EngineError) -> Self {
        Self::Algorithm(AlgorithmError::Engine(e))
    }
}

fn params_json(params: &[(String, ParamValue)]) -> Value {
    let map: Map<String, Value> = params
        .iter()
        .map(|(k, v)| {
            let v = match v {
                // Integer-valued parameters (sizes, counts) read better as JSON integers.
                ParamValue::Number(x) if x.fract() == 0.0 && x.abs() < 9e15 => json!(*x as i64),
                ParamValue::Number(x) => json!(x),
                ParamValue::Text(s) => json!(s),
            };
            (k.clone(), v)
        })
        .collect();
    Value::Object(map)
}

/// What a step records of its values: regrets and the recommendation on one objective, the
/// front's indicators on several.
enum StepValues {
    One {
        f: Option<f64>,
        instant: Option<f64>,
        simple: Option<f64>,
        recommended_x: Vec<f64>,
        recommended_f: Option<f64>,
        recommended_feasible: Option<bool>,
    },
    Several(FrontIndicators),
}

impl StepValues {
    /// The recommended point: empty on several objectives, whose recommendation is the front.
    fn recommended_x(&self) -> &[f64] {
        match self {
            Self::One { recommended_x, .. } => recommended_x,
            Self::Several(_) => &[],
        }
    }
}

/// Judges feasibility on a constrained problem: on the problem's noise-free constraint values
/// where it computes them, else on the values observed (an external objective's), remembered
/// per evaluated point so that a recommendation among them can be judged too.
#[derive(Default)]
struct Feasibility {
    observed: Vec<(Vec<f64>, bool)>,
}

impl Feasibility {
    /// Whether the point `x` evaluated at `step`, whose constraints were observed as
    /// `observed`, is feasible.
    fn judge(&mut self, problem: &dyn Problem, x: &[f64], step: usize, observed: &[f64]) -> bool {
        let feasible =
            by_problem(problem, x, step).unwrap_or_else(|| bosweep_problems::feasible(observed));
        self.observed.push((x.to_vec(), feasible));
        feasible
    }

    /// Whether the point `x` is feasible at `step`: from the problem, else from its latest
    /// evaluation; `None` where neither says.
    fn of(&self, problem: &dyn Problem, x: &[f64], step: usize) -> Option<bool> {
        by_problem(problem, x, step).or_else(|| {
            self.observed
                .iter()
                .rev()
                .find(|(point, _)| point == x)
                .map(|&(_, feasible)| feasible)
        })
    }
}

/// Whether `x` is feasible at `step` on the problem's noise-free constraint values, where it
/// computes them.
fn by_problem(problem: &dyn Problem, x: &[f64], step: usize) -> Option<bool> {
    problem
        .constraint_values(x, step)
        .map(|values| bosweep_problems::feasible(&values))
}

/// The header's fields of a problem of several objectives (docs/conventions.md).
fn describe_objectives(objectives: &Objectives, header: &mut Value) {
    let senses: Vec<&str> = objectives.senses().iter().map(|s| s.as_str()).collect();
    header["objectives"] = json!(objectives.count());
    header["senses"] = json!(senses);
    if let Some(r) = objectives.reference_point() {
        header["reference_point"] = json!(r);
    }
    if let Some(hv) = objectives.max_hypervolume() {
        header["max_hypervolume"] = json!(hv);
    }
}

/// Runs `algorithm` on `problem` with `engine` for `config.budget` evaluations, writing the
/// header and one line per step to `trace`.
pub fn run(
    problem: &dyn Problem,
    algorithm: &mut dyn Algorithm,
    algorithm_name: &str,
    engine: &dyn Engine,
    config: &RunConfig,
    trace: &mut TraceWriter,
) -> Result<RunSummary, RunError> {
    let never = StopSignal::default();
    run_stoppable(
        problem,
        algorithm,
        algorithm_name,
        engine,
        config,
        trace,
        &never,
    )
}

/// [`run`], checking `stop` before each step: once it is requested, the run ends with
/// [`RunError::Stopped`], every step before it in the trace.
pub fn run_stoppable(
    problem: &dyn Problem,
    algorithm: &mut dyn Algorithm,
    algorithm_name: &str,
    engine: &dyn Engine,
    config: &RunConfig,
    trace: &mut TraceWriter,
    stop: &StopSignal,
) -> Result<RunSummary, RunError> {
    if config.budget == 0 {
        return Err(RunError::Config(
            "budget: value 0 (must be at least 1)".into(),
        ));
    }
    if config.init > config.budget {
        return Err(RunError::Config(format!(
            "init: value {} exceeds the budget of {} evaluations",
            config.init, config.budget
        )));
    }
    bosweep_algorithms::check_objectives(algorithm_name, algorithm, problem)?;
    algorithm.prepare(problem)?;
    algorithm.plan_budget(config.budget);
    let parallel = &config.parallel;
    parallel
        .check(algorithm, algorithm_name, problem.dim())
        .map_err(|e| RunError::Config(e.message))?;
    let placements = PlacementCounter::new(engine);
    let routed = placements.routes();
    let monitor = ConditioningMonitor::new(&placements);
    let engine: &dyn Engine = &monitor;
    let mut header = json!({
        "algorithm": algorithm_name,
        "algorithm_parameters": params_json(&algorithm.parameters()),
        "problem": problem.name(),
        "problem_parameters": params_json(&problem.parameters()),
        "sense": problem.sense().as_str(),
        "budget": config.budget,
        "init": config.init,
        "seed": config.seed,
        "design_seed": config.design_seed,
        "device": engine.describe(),
        "bosweep_version": env!("CARGO_PKG_VERSION"),
    });
    let objectives = problem.objectives();
    if let Some(o) = objectives {
        describe_objectives(o, &mut header);
    }
    if let Some(c) = problem.constraints() {
        header["constraints"] = json!(c.names());
    }
    parallel.describe(&mut header);
    trace.header(&header)?;
    let mut tracker = objectives.map(FrontTracker::new);
    // The problem's random instance, then the initial design, from the design stream: shared by
    // every algorithm of a replicate.
    let mut design_rng = ChaCha8Rng::seed_from_u64(config.design_seed);
    problem.draw_instance(&mut design_rng);
    let design = initial_design(problem, config.init, &mut design_rng)?;
    let sense = problem.sense();
    let time_varying = problem.time_varying();
    let mut session = Session::new(design, config.seed);
    let mut schedule = Schedule::new(parallel, config.seed);
    let mut reserved = 0;
    let mut evals = 0;
    let mut told = 0;
    let constrained = problem.constraint_count() > 0;
    // Regret is summed over feasible points only where there are no constraints: an infeasible
    // point has none (docs/conventions.md, "Constraints").
    let mut cumulative: Option<f64> = (!constrained).then_some(0.0);
    let mut feasibility = Feasibility::default();
    let mut best: Option<f64> = None;
    let mut summary = None;
    let mut warnings_seen = engine.warnings().len();
    // Evaluations on the wall clock run on threads of this scope, which the run outlives.
    std::thread::scope(|scope| {
        loop {
            if stop.requested() {
                return Err(RunError::Stopped { steps: told });
            }
            while reserved < config.budget
                && schedule.may_ask(&session, algorithm.accepts_pending())
            {
                let step = session.step() + 1;
                let pending = schedule.pending();
                let (origin, proposal) = session.ask(
                    algorithm,
                    engine,
                    problem.domain(),
                    problem.allowed_set(step),
                    &pending,
                )?;
                let repeats = proposal.repeats.clamp(1, config.budget - reserved);
                reserved += repeats;
                // A batch's asks are logged as they are made: its later asks would overwrite them.
                let log = parallel
                    .is_parallel()
                    .then(|| (algorithm.take_cost(), algorithm.extra()));
                schedule.start(
                    Asked {
                        step,
                        origin,
                        x: proposal.x,
                        repeats,
                        log,
                    },
                    problem,
                    scope,
                )?;
            }
            let Some(done) = schedule.next_done() else {
                break;
            };
            let Asked {
                step,
                origin,
                x,
                repeats,
                log,
            } = done.asked;
            let observation = match done.evaluated {
                Some(evaluated) => evaluated?,
                None => problem.evaluate(&x, &Step::new(step, repeats)?, session.rng())?,
            };
            evals += repeats;
            told += 1;
            session.tell(algorithm, problem, step, &x, &observation)?;
            // The tell's own cost (conditioning the model on the value) counts too.
            let told_cost = algorithm.take_cost();
            let (cost, asked_extra) = match log {
                Some((asked_cost, extra)) => (asked_cost + told_cost, Some(extra)),
                None => (told_cost, None),
            };
            let feasible =
                constrained.then(|| feasibility.judge(problem, &x, step, &observation.constraints));
            let infeasible = feasible == Some(false);
            let step_values = match &mut tracker {
                Some(tracker) => {
                    let values = problem
                        .objective_values(&x, step)
                        .unwrap_or_else(|| observation.objectives.clone());
                    let indicators = tracker.push(told, &values, !infeasible).map_err(|e| {
                        RunError::Problem(ProblemError::evaluation(format!(
                            "{}: the indicators of the values {values:?} at {x:?}: {e}",
                            problem.name()
                        )))
                    })?;
                    StepValues::Several(indicators)
                }
                None => {
                    let recommended_x = algorithm.recommend(engine)?;
                    let f = problem.objective_of_interest(&x, step);
                    let optimum = problem.optimum(step).map(|o| o.value);
                    let instant = optimum
                        .zip(f)
                        .map(|(o, f)| sense.regret(o, f))
                        .filter(|_| !infeasible);
                    cumulative = cumulative.zip(instant).map(|(c, r)| c + r);
                    if !infeasible {
                        let candidate = f.unwrap_or(observation.y);
                        best = Some(match best {
                            Some(b) if !sense.is_better(candidate, b) => b,
                            _ => candidate,
                        });
                    }
                    let recommended_f = problem.objective_of_interest(&recommended_x, step);
                    let recommended_feasible =
                        constrained.then(|| feasibility.of(problem, &recommended_x, step));
                    // A recommendation not known to be feasible has no regret to report.
                    let simple = optimum
                        .zip(recommended_f)
                        .map(|(o, f)| sense.regret(o, f))
                        .filter(|_| !constrained || recommended_feasible == Some(Some(true)));
                    StepValues::One {
                        f,
                        instant,
                        simple,
                        recommended_x,
                        recommended_f,
                        recommended_feasible: recommended_feasible.flatten(),
                    }
                }
            };
            let mut warnings = engine.warnings().split_off(warnings_seen);
            warnings_seen += warnings.len();
            warnings.extend(monitor.take());
            // One at a time, the fields are the algorithm's latest, recommend's included.
            let mut extra = asked_extra.unwrap_or_else(|| algorithm.extra());
            if routed {
                extra.insert(ENGINE_CALLS_KEY.into(), placements.take());
            }
            let recommended_x = step_values.recommended_x().to_vec();
            for (key, x) in [("metrics", &x), ("recommended_metrics", &recommended_x)] {
                if x.is_empty() {
                    continue;
                }
                let metrics = problem.point_metrics(x, step);
                if !metrics.is_empty() {
                    let map: Map<String, Value> = metrics
                        .into_iter()
                        .map(|(k, v)| (k.into(), json!(v)))
                        .collect();
                    extra.insert(key.into(), Value::Object(map));
                }
            }
            let several = matches!(step_values, StepValues::Several(_));
            let (f, instant, simple, recommended_f, recommended_feasible, indicators) =
                match step_values {
                    StepValues::One {
                        f,
                        instant,
                        simple,
                        recommended_f,
                        recommended_feasible,
                        ..
                    } => (
                        f,
                        instant,
                        simple,
                        recommended_f,
                        recommended_feasible,
                        FrontIndicators::default(),
                    ),
                    StepValues::Several(indicators) => (None, None, None, None, None, indicators),
                };
            trace.step(&StepRecord {
                iter: told,
                phase: match origin {
                    Origin::Design => Phase::Init,
                    Origin::Algorithm => Phase::Opt,
                },
                x,
                y: (!several).then_some(observation.y),
                objectives: observation.objectives,
                constraints: observation.constraints,
                feasible,
                repeats,
                evals,
                context: observation.context,
                t: time_varying.then_some(step),
                f,
                best_value: best,
                front: indicators.front.clone(),
                hypervolume: indicators.hypervolume,
                log_hv_difference: indicators.log_hv_difference,
                igd_plus: indicators.igd_plus,
                recommended_x: recommended_x.clone(),
                recommended_feasible,
                instant_regret: instant,
                cumulative_regret: cumulative.filter(|_| !several),
                simple_regret: simple,
                model_seconds: cost.model_seconds,
                acq_seconds: cost.acq_seconds,
                grid_seconds: cost.grid_seconds,
                refine_seconds: cost.refine_seconds,
                batch: done.batch,
                worker: done.worker,
                start: done.start,
                finish: done.finish,
                extra,
                warnings,
            })?;
            summary = Some(RunSummary {
                steps: told,
                evals,
                recommended_x,
                recommended_f,
                recommended_feasible,
                best_value: best,
                simple_regret: simple,
                cumulative_regret: cumulative.filter(|_| !several),
                front: several.then_some(indicators),
            });
        }
        Ok(summary.expect("the budget is at least one evaluation"))
    })
}
