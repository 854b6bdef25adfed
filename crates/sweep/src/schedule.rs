//! When a run's points are asked and told: one at a time, in synchronous batches, or on
//! asynchronous workers, each evaluation timed on a simulated clock by a [`RuntimeModel`]. The
//! clock is simulated so that a run's schedule, like its decisions, follows from its seed alone.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::thread::Scope;
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::runtime::{DEFAULT_RUNTIME, RuntimeModel};
use bosweep_algorithms::optimizer::{Origin, Session};
use bosweep_algorithms::{Algorithm, StepCost};
use bosweep_core::io::format_number;
use bosweep_core::params::IntegerParam;
use bosweep_problems::{Observation, Problem, ProblemError, Step};

/// `batch`: points asked together; a run's, a sweep config's and the command line's.
pub const BATCH: IntegerParam = IntegerParam::new(
    "batch",
    1,
    1,
    4096,
    "points asked together and evaluated in parallel (synchronous batches; the run's, not the algorithm's)",
);
/// `workers`: asynchronous workers; a run's, a sweep config's and the command line's.
pub const WORKERS: IntegerParam = IntegerParam::new(
    "workers",
    1,
    1,
    4096,
    "asynchronous workers on a simulated clock (the run's, not the algorithm's)",
);

/// How a run's evaluations overlap: one at a time (the default), in synchronous batches of
/// `batch` points, or on `workers` asynchronous workers, timed on a simulated clock.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Parallel {
    /// Points asked together and evaluated together; the next batch is asked once every value
    /// of this one is told.
    pub batch: usize,
    /// Asynchronous workers: each asks for its next point as soon as its evaluation finishes.
    pub workers: usize,
    /// How long each evaluation takes on the simulated clock; `None`: untimed for a
    /// sequential run, [`DEFAULT_RUNTIME`] for a parallel one.
    pub runtime: Option<RuntimeModel>,
}

impl Default for Parallel {
    fn default() -> Self {
        Self {
            batch: 1,
            workers: 1,
            runtime: None,
        }
    }
}

impl Parallel {
    /// Whether these are the defaults: one point at a time, untimed.
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }

    /// Whether several evaluations may be under way at once.
    pub fn is_parallel(&self) -> bool {
        self.batch > 1 || self.workers > 1
    }

    /// The runtime model a run uses, if it is timed.
    pub fn runtime_model(&self) -> Option<RuntimeModel> {
        self.runtime
            .or_else(|| self.is_parallel().then_some(DEFAULT_RUNTIME))
    }

    /// Refuses settings a run cannot honour: a count outside `BATCH`'s or `WORKERS`'s
    /// range, batches and workers together, a
    /// parallel run of a method without a batch version (there is no silent one-at-a-time
    /// fallback), a runtime model that reads a coordinate a `dim`-dimensional problem lacks.
    /// The error names the key at fault, so that a config's message points at its line.
    pub fn check(
        &self,
        algorithm: &dyn Algorithm,
        algorithm_name: &str,
        dim: usize,
    ) -> Result<(), ParallelError> {
        let at = |key: &'static str| move |message: String| ParallelError { key, message };
        BATCH.check(self.batch).map_err(at("batch"))?;
        WORKERS.check(self.workers).map_err(at("workers"))?;
        if self.batch > 1 && self.workers > 1 {
            return Err(at("workers")(format!(
                "batch = {} and workers = {}: give one of them (batch runs synchronous batches, workers asynchronous workers)",
                self.batch, self.workers
            )));
        }
        if self.is_parallel() && !algorithm.accepts_pending() {
            let (key, value) = if self.batch > 1 {
                ("batch", self.batch)
            } else {
                ("workers", self.workers)
            };
            return Err(at(key)(format!(
                "{key} = {value}: algorithm {algorithm_name} proposes one point at a time (it has no batch version); run it with {key} = 1"
            )));
        }
        match &self.runtime {
            Some(model) => model.check(dim).map_err(at("runtime")),
            None => Ok(()),
        }
    }

    /// `one point at a time`, `batches of 4`, `4 workers`, with the runtime model where one
    /// is given: what a message says of how a run evaluates.
    pub fn describe_briefly(&self) -> String {
        let how = if self.batch > 1 {
            format!("batches of {}", self.batch)
        } else if self.workers > 1 {
            format!("{} workers", self.workers)
        } else {
            "one point at a time".to_owned()
        };
        match self.runtime {
            Some(model) => format!("{how}, runtime {model}"),
            None => how,
        }
    }

    /// Adds the settings that differ from the defaults to a trace header.
    pub(crate) fn describe(&self, header: &mut Value) {
        let Value::Object(map) = header else {
            return;
        };
        if self.batch > 1 {
            map.insert("batch".into(), json!(self.batch));
        }
        if self.workers > 1 {
            map.insert("workers".into(), json!(self.workers));
        }
        if let Some(model) = self.runtime_model() {
            map.insert("runtime".into(), json!(model.to_string()));
        }
    }
}

/// Why a run's parallel settings cannot be honoured ([`Parallel::check`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParallelError {
    /// The setting at fault: `batch`, `workers` or `runtime`.
    pub key: &'static str,
    /// What is wrong, naming the key and its value.
    pub message: String,
}

/// A point asked and not yet told, with what its ask cost and noted when the run is parallel
/// (later asks of a batch overwrite the algorithm's log).
pub(crate) struct Asked {
    pub(crate) step: usize,
    pub(crate) origin: Origin,
    pub(crate) x: Vec<f64>,
    pub(crate) repeats: usize,
    pub(crate) log: Option<(StepCost, Map<String, Value>)>,
}

/// What an evaluation returned.
pub(crate) type Evaluated = Result<Observation, ProblemError>;

/// An evaluation that has finished, with the trace's scheduling fields (each `None` where the
/// run does not record it).
pub(crate) struct Done {
    pub(crate) asked: Asked,
    /// The value, where the evaluation ran for real on a worker thread ([`RuntimeModel::Wall`]);
    /// `None`: the simulation evaluates it now.
    pub(crate) evaluated: Option<Evaluated>,
    pub(crate) batch: Option<usize>,
    pub(crate) worker: Option<usize>,
    pub(crate) start: Option<f64>,
    pub(crate) finish: Option<f64>,
}

struct Running {
    asked: Asked,
    worker: usize,
    start: f64,
    /// Drawn when it starts on a simulated clock; on the wall clock, known when it ends.
    finish: f64,
}

/// A value that came back from a worker thread: the step, the value, when it came back.
type Arrival = (usize, Evaluated, Instant);

/// The real clock of [`RuntimeModel::Wall`]: when the run began and the values coming back
/// from the worker threads.
struct WallClock {
    began: Instant,
    sender: mpsc::Sender<Arrival>,
    receiver: mpsc::Receiver<Arrival>,
    /// Values that came back before their turn (a batch's values are told in the order asked).
    arrived: Vec<Arrival>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Sequential,
    Batch(usize),
    Workers(usize),
}

/// The evaluations under way and the simulated clock.
pub(crate) struct Schedule {
    mode: Mode,
    runtime: Option<RuntimeModel>,
    /// The runtimes' own stream (stream 1 of the run's seed): drawing them leaves the
    /// algorithm's stream, hence its decisions, as they are without a runtime model.
    rng: ChaCha8Rng,
    clock: f64,
    running: Vec<Running>,
    /// Batches started.
    batches: usize,
    /// Whether the current batch still takes asks (a batch closes at its first tell).
    open: bool,
    /// The run's seed, from which each real evaluation's noise stream derives.
    seed: u64,
    wall: Option<WallClock>,
}

impl Schedule {
    pub(crate) fn new(parallel: &Parallel, seed: u64) -> Self {
        let mode = if parallel.batch > 1 {
            Mode::Batch(parallel.batch)
        } else if parallel.workers > 1 {
            Mode::Workers(parallel.workers)
        } else {
            Mode::Sequential
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(1);
        let runtime = parallel.runtime_model();
        let wall = (runtime == Some(RuntimeModel::Wall)).then(|| {
            let (sender, receiver) = mpsc::channel();
            WallClock {
                began: Instant::now(),
                sender,
                receiver,
                arrived: Vec::new(),
            }
        });
        Self {
            mode,
            runtime,
            rng,
            clock: 0.0,
            running: Vec::new(),
            batches: 0,
            open: false,
            seed,
            wall,
        }
    }

    /// Whether the next point may be asked now. Sequentially, once the last is told. In a
    /// batch, while it has room and is still open, and of the same origin as its first point
    /// (a batch is design points or the algorithm's, as [`Optimizer::ask`] hands them out).
    /// With workers, while one is free, the algorithm only once the whole design is told (it
    /// chooses from told values) and, for a method without a batch version, nothing is pending.
    ///
    /// [`Optimizer::ask`]: bosweep_algorithms::optimizer::Optimizer::ask
    pub(crate) fn may_ask(&mut self, session: &Session, accepts_pending: bool) -> bool {
        let design_next = session.design_left() > 0;
        match self.mode {
            Mode::Sequential => self.running.is_empty(),
            Mode::Batch(q) => match self.running.first() {
                None => {
                    self.open = true;
                    self.batches += 1;
                    true
                }
                Some(first) => {
                    self.open
                        && self.running.len() < q
                        && design_next == (first.asked.origin == Origin::Design)
                }
            },
            Mode::Workers(w) => {
                self.running.len() < w
                    && (design_next
                        || (!self
                            .running
                            .iter()
                            .any(|r| r.asked.origin == Origin::Design)
                            && (accepts_pending || self.running.is_empty())))
            }
        }
    }

    /// The points asked and not yet told, in the order asked.
    pub(crate) fn pending(&self) -> Vec<Vec<f64>> {
        self.running.iter().map(|r| r.asked.x.clone()).collect()
    }

    /// Starts evaluating `asked` now on the lowest-numbered free worker (a batch's points on
    /// workers 1, 2, … in the order asked): on a simulated clock its runtime is drawn for its
    /// point; on the wall clock it is evaluated on a thread of `scope`, with a noise stream of
    /// its own (stream 2 + step of the run's seed, so that its value does not depend on when the
    /// other evaluations end).
    pub(crate) fn start<'scope, 'env>(
        &mut self,
        asked: Asked,
        problem: &'env dyn Problem,
        scope: &'scope Scope<'scope, 'env>,
    ) -> Result<(), ProblemError> {
        let worker = (1..)
            .find(|w| self.running.iter().all(|r| r.worker != *w))
            .expect("a free worker number exists");
        let (start, finish) = match &self.wall {
            Some(wall) => {
                let sender = wall.sender.clone();
                let (t, x, step) = (
                    asked.step,
                    asked.x.clone(),
                    Step::new(asked.step, asked.repeats)?,
                );
                let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
                rng.set_stream(2 + t as u64);
                // Read before the thread starts: read after, a quick evaluation could finish
                // before its own start.
                let start = wall.began.elapsed().as_secs_f64();
                scope.spawn(move || {
                    let evaluated =
                        catch_unwind(AssertUnwindSafe(|| problem.evaluate(&x, &step, &mut rng)))
                            .unwrap_or_else(|_| {
                                Err(ProblemError::evaluation(format!(
                                    "the evaluation of {x:?} panicked"
                                )))
                            });
                    // The run has ended (an error) where nobody receives.
                    let _ = sender.send((t, evaluated, Instant::now()));
                });
                (start, f64::NAN)
            }
            None => {
                let runtime = self.runtime.map_or(0.0, |model| {
                    model.draw(&asked.x, problem.domain(), &mut self.rng)
                });
                let finish = self.clock + runtime;
                if let (Some(model), false) = (self.runtime, finish.is_finite()) {
                    return Err(ProblemError::config(format!(
                        "runtime \"{model}\": the simulated clock overflowed at step {} (from \
                         {} by {}); give the model smaller times",
                        asked.step,
                        format_number(self.clock),
                        format_number(runtime)
                    )));
                }
                (self.clock, finish)
            }
        };
        self.running.push(Running {
            asked,
            worker,
            start,
            finish,
        });
        Ok(())
    }

    /// The next evaluation to finish, the clock moved to its finish: in the order asked
    /// (sequentially, and within a batch, whose values are told together), or the earliest
    /// finish (workers; ties to the earlier ask; on the wall clock, the first value back).
    /// `None` once nothing is under way.
    pub(crate) fn next_done(&mut self) -> Option<Done> {
        if self.running.is_empty() {
            return None;
        }
        let in_order = !matches!(self.mode, Mode::Workers(_));
        let (index, evaluated) = match &mut self.wall {
            Some(wall) => {
                let wanted = in_order.then(|| self.running[0].asked.step);
                let (step, evaluated, at) = wall.take(wanted);
                let index = self
                    .running
                    .iter()
                    .position(|r| r.asked.step == step)
                    .expect("values come back for running evaluations only");
                self.running[index].finish = (at - wall.began).as_secs_f64();
                (index, Some(evaluated))
            }
            None if in_order => (0, None),
            None => {
                let earliest = (0..self.running.len()).min_by(|&a, &b| {
                    let (a, b) = (&self.running[a], &self.running[b]);
                    a.finish
                        .total_cmp(&b.finish)
                        .then(a.asked.step.cmp(&b.asked.step))
                });
                (earliest.expect("something is running"), None)
            }
        };
        self.open = false;
        let running = self.running.remove(index);
        self.clock = self.clock.max(running.finish);
        let timed = self.runtime.is_some();
        Some(Done {
            batch: matches!(self.mode, Mode::Batch(_)).then_some(self.batches),
            worker: (self.mode != Mode::Sequential).then_some(running.worker),
            start: timed.then_some(running.start),
            finish: timed.then_some(running.finish),
            evaluated,
            asked: running.asked,
        })
    }
}

impl WallClock {
    /// The value of step `wanted` (waiting for it, keeping the others that come back first),
    /// or with `None` the first value back.
    fn take(&mut self, wanted: Option<usize>) -> Arrival {
        loop {
            let found = self
                .arrived
                .iter()
                .position(|(step, _, _)| wanted.is_none_or(|w| *step == w));
            if let Some(i) = found {
                return self.arrived.remove(i);
            }
            let arrival = self
                .receiver
                .recv()
                .expect("the clock keeps a sender, so the channel stays open");
            self.arrived.push(arrival);
        }
    }
}
