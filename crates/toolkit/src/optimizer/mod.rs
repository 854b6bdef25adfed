//! Ask/tell optimisation with any algorithm, the caller evaluating the points: the library's
//! front door, in Rust as in Python (whose `bosweep.Optimizer` wraps this one).
//!
//! ```
//! use bosweep_toolkit::{Optimizer, RandomSearchSettings};
//!
//! // Any algorithm's settings: `bosweep_algorithms::GpUcb::default()` and its kin, or these.
//! let mut opt = Optimizer::builder(RandomSearchSettings::default())
//!     .bounds(&[(-3.0, 3.0), (-2.0, 2.0)])
//!     .seed(7)
//!     .init(5)
//!     .minimize()
//!     .build()?;
//! for _ in 0..8 {
//!     for x in opt.ask(1)? {
//!         let y = (x[0] - 1.0).powi(2) + x[1].powi(2);
//!         opt.tell(&x, y)?;
//!     }
//! }
//! assert_eq!(opt.recommend().map(<[f64]>::len), Some(2));
//! # Ok::<(), bosweep_toolkit::OptimizerError>(())
//! ```
//!
//! The first `init` points are the initial design a sweep run with the same seed evaluates
//! (scrambled Sobol in the box), then the algorithm chooses. Values are told in the sense the
//! builder was given; algorithms learn them in the maximisation sense. A seed gives the
//! decisions `bosweep run` makes with that seed on the same (noise-free) objective.

mod caller;
mod design;
mod session;
mod settings;

use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::algorithm::{Algorithm, AlgorithmError};
use crate::requirement::check_fit;
use bosweep_core::data::{Blame, Failure};
use bosweep_engine::{CpuEngine, Engine};
use bosweep_problems::{Constraints, Domain, Observation, Problem, Sense};
use caller::CallerProblem;

pub use design::{box_design, initial_design};
pub use session::{Origin, Session};
pub use settings::{AlgorithmSettings, Method, RandomSearchSettings};

/// The initial design's size when the builder is given none: as Python's `Optimizer`.
pub const DEFAULT_INIT: usize = 10;

/// Why an [`Optimizer`] could not be built, ask or tell.
#[derive(Debug, thiserror::Error)]
pub enum OptimizerError {
    /// The caller's settings or call do not fit (bounds, an unasked point, a non-finite value);
    /// the message names the argument.
    #[error("{0}")]
    Invalid(String),
    /// The algorithm refused its settings or failed while proposing.
    #[error(transparent)]
    Algorithm(#[from] AlgorithmError),
}

impl Failure for OptimizerError {
    fn blame(&self) -> Blame {
        match self {
            Self::Invalid(_) => Blame::Input,
            Self::Algorithm(e) => e.blame(),
        }
    }
}

fn invalid(message: impl Into<String>) -> OptimizerError {
    OptimizerError::Invalid(message.into())
}

/// A point asked and not yet told.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// The point, in the caller's coordinates.
    pub x: Vec<f64>,
    /// Values to tell for it (RAHBO's repeated evaluations; 1 for most algorithms).
    pub repeats: usize,
    /// The 1-based step it was asked at.
    pub step: usize,
}

/// What an [`Optimizer`] works on: a box, or a registered problem's structure.
enum Space {
    Box {
        bounds: Vec<(f64, f64)>,
        context: Option<Vec<(f64, f64)>>,
    },
    Problem(Box<dyn Problem>),
}

/// Settings of an [`Optimizer`] before it is built; see [`Optimizer::builder`].
pub struct OptimizerBuilder {
    settings: Box<dyn AlgorithmSettings>,
    space: Option<Space>,
    sense: Sense,
    seed: u64,
    init: usize,
    engine: Option<Arc<dyn Engine>>,
    constraints: usize,
}

impl OptimizerBuilder {
    /// The caller tells the values of `k` black-box constraints with each value
    /// ([`Optimizer::tell_constrained`]), feasible where every one is ≤ 0; the algorithm must
    /// handle constraints. On a box only: a registered problem declares its own.
    pub fn constraints(mut self, k: usize) -> Self {
        self.constraints = k;
        self
    }

    /// The box to search, a `(low, high)` pair per dimension.
    pub fn bounds(mut self, bounds: &[(f64, f64)]) -> Self {
        let context = match self.space.take() {
            Some(Space::Box { context, .. }) => context,
            _ => None,
        };
        self.space = Some(Space::Box {
            bounds: bounds.to_vec(),
            context,
        });
        self
    }

    /// The box of the contexts the caller observes and tells with each value (SBO/DRBO-KDE,
    /// StableOpt), a `(low, high)` pair per context dimension.
    pub fn context_bounds(mut self, bounds: &[(f64, f64)]) -> Self {
        let given = match self.space.take() {
            Some(Space::Box { bounds, .. }) => bounds,
            _ => Vec::new(),
        };
        self.space = Some(Space::Box {
            bounds: given,
            context: Some(bounds.to_vec()),
        });
        self
    }

    /// Works on a registered problem's box, sense, allowed sets, candidate priors and context
    /// box (the time-varying problems of PE-GP-UCB), the caller still evaluating the points.
    /// Replaces any bounds given.
    pub fn problem(mut self, problem: Box<dyn Problem>) -> Self {
        self.space = Some(Space::Problem(problem));
        self
    }

    /// Told values are minimised (the default).
    pub fn minimize(self) -> Self {
        self.sense(Sense::Minimize)
    }

    /// Told values are maximised.
    pub fn maximize(self) -> Self {
        self.sense(Sense::Maximize)
    }

    /// Whether told values are minimised or maximised.
    pub fn sense(mut self, sense: Sense) -> Self {
        self.sense = sense;
        self
    }

    /// Seeds the initial design and the algorithm's random choices (default 0).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Points of the initial design (default [`DEFAULT_INIT`]).
    pub fn init(mut self, points: usize) -> Self {
        self.init = points;
        self
    }

    /// The engine for the algorithm's batch work (default: the CPU backend).
    pub fn engine(mut self, engine: Arc<dyn Engine>) -> Self {
        self.engine = Some(engine);
        self
    }

    /// The optimizer, its algorithm built and checked against the box or problem.
    pub fn build(self) -> Result<Optimizer, OptimizerError> {
        let problem = match self.space {
            None => return Err(invalid("bounds: give the box, or a problem")),
            Some(Space::Problem(_)) if self.constraints > 0 => {
                return Err(invalid(
                    "constraints: a registered problem declares its own constraints; give \
                     constraints with bounds only",
                ));
            }
            Some(Space::Problem(problem)) => CallerProblem::Like(problem),
            Some(Space::Box { bounds, context }) => CallerProblem::Box {
                domain: domain("bounds", &bounds)?,
                sense: self.sense,
                context: context.map(|c| domain("context_bounds", &c)).transpose()?,
                constraints: match self.constraints {
                    0 => None,
                    k => Some(
                        Constraints::new(k).map_err(|e| invalid(format!("constraints: {e}")))?,
                    ),
                },
            },
        };
        let name = self.settings.name().to_owned();
        let mut algorithm = self.settings.build()?;
        check_fit(
            &name,
            self.settings.requires()?,
            algorithm.as_mut(),
            &problem,
        )?;
        self.settings.check_libraries()?;
        let design = initial_design(
            &problem,
            self.init,
            &mut ChaCha8Rng::seed_from_u64(self.seed),
        )?;
        Ok(Optimizer {
            algorithm,
            problem,
            session: Session::new(design, self.seed),
            engine: self
                .engine
                .unwrap_or_else(|| Arc::new(CpuEngine::new()) as Arc<dyn Engine>),
            pending: Vec::new(),
            recommended: None,
        })
    }
}

/// `bounds` (the builder's argument `name`) as a box.
fn domain(name: &str, bounds: &[(f64, f64)]) -> Result<Domain, OptimizerError> {
    let (lower, upper): (Vec<f64>, Vec<f64>) = bounds.iter().copied().unzip();
    Domain::new(lower, upper).map_err(|e| invalid(format!("{name}: {e}")))
}

/// An algorithm asked for points and told their values by its caller. Built by
/// [`Optimizer::builder`].
pub struct Optimizer {
    algorithm: Box<dyn Algorithm>,
    problem: CallerProblem,
    session: Session,
    engine: Arc<dyn Engine>,
    pending: Vec<Pending>,
    recommended: Option<Vec<f64>>,
}

impl Optimizer {
    /// An optimizer with the algorithm `settings` describe: typed ones (`GpUcb`, `Ei`, … of
    /// `bosweep-algorithms`, [`RandomSearchSettings`]) or the registry's `Registered` for any
    /// algorithm by name.
    pub fn builder(settings: impl AlgorithmSettings + 'static) -> OptimizerBuilder {
        OptimizerBuilder {
            settings: Box::new(settings),
            space: None,
            sense: Sense::Minimize,
            seed: 0,
            init: DEFAULT_INIT,
            engine: None,
            constraints: 0,
        }
    }

    /// Up to `n` points to evaluate next: the initial design's next points, as many as remain;
    /// after it, `n` points from an algorithm that takes pending points into account, each
    /// chosen knowing the others. An algorithm without a batch version refuses `n > 1` after the
    /// design, as a sweep refuses `batch > 1` for it (never a silent single point), and takes
    /// every value told before its next point (the algorithms choose from all values told).
    pub fn ask(&mut self, n: usize) -> Result<Vec<Vec<f64>>, OptimizerError> {
        if n == 0 {
            return Err(invalid("ask: n = 0 (ask for at least one point)"));
        }
        let mut asked = Vec::new();
        while asked.len() < n && self.session.design_left() > 0 {
            self.ask_one()?;
            asked.push(self.pending.last().expect("just asked").x.clone());
        }
        if !asked.is_empty() {
            return Ok(asked);
        }
        // After the design: the algorithm chooses from the told values, so the design must be
        // told first; then a batch where the algorithm takes pending points into account, else
        // one point once every value is told.
        let design = self.session.design_size();
        let waiting = match self.pending.first() {
            Some(first) if first.step <= design => Some((first, "the initial design")),
            Some(first) if !self.algorithm.accepts_pending() => Some((first, "the algorithm")),
            _ => None,
        };
        if n > 1 && !self.algorithm.accepts_pending() {
            return Err(invalid(format!(
                "ask: n = {n}, but the algorithm proposes one point at a time (it has no batch \
                 version); ask for one point"
            )));
        }
        if let Some((first, needs)) = waiting {
            return Err(invalid(format!(
                "ask: the point {:?} asked at step {} has not been told yet; {needs} needs every \
                 value told before the next point (tell first)",
                first.x, first.step
            )));
        }
        while asked.len() < n {
            self.ask_one()?;
            asked.push(self.pending.last().expect("just asked").x.clone());
        }
        Ok(asked)
    }

    fn ask_one(&mut self) -> Result<(), OptimizerError> {
        let step = self.session.step() + 1;
        let pending: Vec<Vec<f64>> = self.pending.iter().map(|p| p.x.clone()).collect();
        let (_, proposal) = self.session.ask(
            self.algorithm.as_mut(),
            self.engine.as_ref(),
            self.problem.domain(),
            self.problem.allowed_set(step),
            &pending,
        )?;
        self.pending.push(Pending {
            x: proposal.x,
            repeats: proposal.repeats,
            step,
        });
        Ok(())
    }

    /// The points asked and not yet told, in the order asked.
    pub fn pending(&self) -> &[Pending] {
        &self.pending
    }

    /// Tells the value `y` of the asked point `x`.
    pub fn tell(&mut self, x: &[f64], y: f64) -> Result<(), OptimizerError> {
        self.tell_observation(x, Observation::new(vec![y], None))
    }

    /// Tells the value `y` of the asked point `x` and its k constraint values (feasible where
    /// every one is ≤ 0) on a constrained problem.
    pub fn tell_constrained(
        &mut self,
        x: &[f64],
        y: f64,
        constraints: &[f64],
    ) -> Result<(), OptimizerError> {
        self.tell_observation(
            x,
            Observation::new(vec![y], None).with_constraints(constraints.to_vec()),
        )
    }

    /// Tells the m values of the asked point `x` on a problem of m ≥ 2 objectives, each in its
    /// objective's sense.
    pub fn tell_objectives(&mut self, x: &[f64], values: &[f64]) -> Result<(), OptimizerError> {
        self.tell_observation(x, Observation::of_objectives(values.to_vec(), None))
    }

    /// Tells what the asked point `x` gave: its `repeats` values (or, on a problem of several
    /// objectives, their values) and, where the optimizer has a context box, the context the
    /// evaluation observed.
    pub fn tell_observation(
        &mut self,
        x: &[f64],
        observation: Observation,
    ) -> Result<(), OptimizerError> {
        let m = self.problem.objective_count();
        let given = observation.objectives.len().max(1);
        if given != m {
            return Err(invalid(format!(
                "tell: {given} objective value(s) for a problem of {m} objective(s) \
                 ({})",
                if m > 1 {
                    "tell_objectives takes them"
                } else {
                    "tell takes one"
                }
            )));
        }
        if let Some(v) = observation.objectives.iter().find(|v| !v.is_finite()) {
            return Err(invalid(format!(
                "tell: objective value {v} (must be finite)"
            )));
        }
        let k = self.problem.constraint_count();
        if observation.constraints.len() != k {
            return Err(invalid(format!(
                "tell: {} constraint value(s) for {k} constraint(s) ({})",
                observation.constraints.len(),
                if k > 0 {
                    "tell_constrained takes them"
                } else {
                    "the optimizer was built without constraints"
                }
            )));
        }
        if let Some(v) = observation.constraints.iter().find(|v| !v.is_finite()) {
            return Err(invalid(format!(
                "tell: constraint value {v} (must be finite)"
            )));
        }
        let index = self.pending_index(x)?;
        let repeats = self.pending[index].repeats;
        let values = &observation.repeats;
        if values.len() != repeats {
            return Err(invalid(format!(
                "tell: {} values for a point asked with repeats = {repeats}",
                values.len()
            )));
        }
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(invalid(format!(
                "tell: value {i} of y is {} (must be finite)",
                values[i]
            )));
        }
        self.check_context(observation.context.as_deref())?;
        let pending = self.pending.remove(index);
        self.session.tell(
            self.algorithm.as_mut(),
            &self.problem,
            pending.step,
            &pending.x,
            &observation,
        )?;
        if m == 1 {
            self.recommended = Some(self.algorithm.recommend(self.engine.as_ref())?);
        }
        Ok(())
    }

    fn pending_index(&self, x: &[f64]) -> Result<usize, OptimizerError> {
        if let Some(i) = self.pending.iter().position(|p| p.x == x) {
            return Ok(i);
        }
        Err(invalid(match self.pending.as_slice() {
            [] => "tell: no point was asked (ask first)".to_owned(),
            [one] => format!("tell: x = {x:?} is not the point asked, {:?}", one.x),
            many => format!(
                "tell: x = {x:?} is not one of the {} points asked and not told",
                many.len()
            ),
        }))
    }

    fn check_context(&self, context: Option<&[f64]>) -> Result<(), OptimizerError> {
        match (self.problem.context_domain(), context) {
            (Some(domain), Some(c)) if !domain.contains(c) => Err(invalid(format!(
                "tell: context {c:?} is not in the context box (lower {:?}, upper {:?})",
                domain.lower(),
                domain.upper()
            ))),
            (Some(_), None) => Err(invalid(
                "tell: this optimizer's algorithm learns from contexts; tell the context each \
                 evaluation observed",
            )),
            (None, Some(_)) => Err(invalid(
                "tell: a context was given to an optimizer without context_bounds",
            )),
            _ => Ok(()),
        }
    }

    /// The point the algorithm reports after the last tell; `None` before the first, and on a
    /// problem of several objectives, whose recommendation is the non-dominated set of the
    /// values told.
    pub fn recommend(&self) -> Option<&[f64]> {
        self.recommended.as_deref()
    }

    /// The number of objectives each tell gives values of: the problem's, 1 on a box.
    pub fn objective_count(&self) -> usize {
        self.problem.objective_count()
    }

    /// Steps asked so far (told or not).
    pub fn steps(&self) -> usize {
        self.session.step()
    }

    /// The sense told values are in.
    pub fn sense(&self) -> Sense {
        self.problem.sense()
    }

    /// Dimension of the points.
    pub fn dim(&self) -> usize {
        self.problem.domain().dim()
    }
}
