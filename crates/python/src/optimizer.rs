//! `bosweep.Optimizer`: any registered algorithm as ask/tell over a box, the caller evaluating
//! the points. It drives the same [`Session`] as `bosweep run` (initial design from the seed,
//! then the algorithm; the recommendation after every tell), so a seed gives the decisions that
//! `bosweep run --seed` makes on the same objective.

use std::sync::{Arc, Mutex};

use bosweep_algorithms::{self as algorithms, Algorithm, Proposal};
use bosweep_core::params::ParamValue;
use bosweep_engine::{Engine, Points};
use bosweep_model::CandidatePriors;
use bosweep_problems::{
    Domain, NoiseVariance, Observation, Optimum, Problem, ProblemError, Sense, Step,
};
use bosweep_sweep::{Session, initial_design};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::arrays::{array, values};
use super::errors::{invalid, to_py};
use super::ops::engine;

/// What an [`Optimizer`]'s algorithm is prepared for: a box (and the box of the contexts the
/// caller observes, where given), or the structure of a registered problem (its box, sense,
/// allowed sets, candidate priors, context box) whose points the caller evaluates. Points are
/// evaluated by the caller, never by it.
#[derive(Debug)]
enum CallerProblem {
    Box {
        domain: Domain,
        sense: Sense,
        context: Option<Domain>,
    },
    Like(Box<dyn Problem>),
}

impl Problem for CallerProblem {
    fn name(&self) -> &str {
        match self {
            Self::Box { .. } => "python",
            Self::Like(problem) => problem.name(),
        }
    }

    fn domain(&self) -> &Domain {
        match self {
            Self::Box { domain, .. } => domain,
            Self::Like(problem) => problem.domain(),
        }
    }

    fn sense(&self) -> Sense {
        match self {
            Self::Box { sense, .. } => *sense,
            Self::Like(problem) => problem.sense(),
        }
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        Vec::new()
    }

    fn observe(
        &self,
        _x: &[f64],
        _step: &Step,
        _rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        Err(ProblemError::evaluation(
            "an Optimizer's points are evaluated by its caller",
        ))
    }

    fn objective_of_interest(&self, _x: &[f64], _t: usize) -> Option<f64> {
        None
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        None
    }

    fn allowed_set(&self, t: usize) -> Option<&Points> {
        match self {
            Self::Box { .. } => None,
            Self::Like(problem) => problem.allowed_set(t),
        }
    }

    fn time_varying(&self) -> bool {
        matches!(self, Self::Like(problem) if problem.time_varying())
    }

    fn candidate_priors(&self) -> Option<Arc<CandidatePriors>> {
        match self {
            Self::Box { .. } => None,
            Self::Like(problem) => problem.candidate_priors(),
        }
    }

    fn context_domain(&self) -> Option<&Domain> {
        match self {
            Self::Box { context, .. } => context.as_ref(),
            Self::Like(problem) => problem.context_domain(),
        }
    }

    fn noise_variance(&self) -> Option<NoiseVariance> {
        match self {
            Self::Box { .. } => None,
            Self::Like(problem) => problem.noise_variance(),
        }
    }

    fn risk_aversion(&self) -> Option<f64> {
        match self {
            Self::Box { .. } => None,
            Self::Like(problem) => problem.risk_aversion(),
        }
    }
}

/// Ask/tell with algorithm `algorithm` (a name of `bosweep.algorithms()`, its parameters as
/// keyword arguments) over `bounds` (a (low, high) pair per dimension). The first `init` points
/// are the initial design of `bosweep run`; `sense` says whether the told values are minimised
/// ("min") or maximised ("max"). With `context_bounds` the caller tells the context each
/// evaluation observed (SBO/DRBO-KDE, StableOpt). With `problem` (a registered problem's name,
/// `problem_params` its parameters) instead of `bounds`, the algorithm works on that problem's
/// box, sense, allowed sets, candidate priors and context box, the caller still evaluating:
/// the time-varying problems of PE-GP-UCB and Regret Balancing.
#[pyclass(module = "bosweep")]
pub struct Optimizer {
    /// Behind a mutex because Python objects must be shareable between threads; the methods
    /// take `&mut self`, so it is never contended.
    algorithm: Mutex<Box<dyn Algorithm>>,
    problem: CallerProblem,
    session: Session,
    engine: Arc<dyn Engine>,
    /// The point asked and not yet told.
    pending: Option<Proposal>,
    /// The algorithm's recommendation after the last tell.
    recommended: Option<Vec<f64>>,
}

#[pymethods]
impl Optimizer {
    #[new]
    #[pyo3(signature = (algorithm, bounds=None, seed=0, init=10, sense="min", device="cpu", precision="f64", context_bounds=None, problem=None, problem_params=None, **params))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        algorithm: &str,
        bounds: Option<Vec<(f64, f64)>>,
        seed: u64,
        init: usize,
        sense: &str,
        device: &str,
        precision: &str,
        context_bounds: Option<Vec<(f64, f64)>>,
        problem: Option<&str>,
        problem_params: Option<&Bound<'_, PyDict>>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let problem = match (bounds, problem) {
            (Some(bounds), None) => CallerProblem::Box {
                domain: domain("bounds", bounds)?,
                sense: match sense {
                    "min" => Sense::Minimize,
                    "max" => Sense::Maximize,
                    other => {
                        return Err(invalid(format!(
                            "sense: \"{other}\" (expected \"min\" or \"max\")"
                        )));
                    }
                },
                context: context_bounds
                    .map(|b| domain("context_bounds", b))
                    .transpose()?,
            },
            (None, Some(name)) if context_bounds.is_none() => {
                let given = keyword_parameters(problem_params)?;
                let given: Vec<(&str, ParamValue)> =
                    given.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                CallerProblem::Like(bosweep_problems::build(name, &given).map_err(to_py)?)
            }
            (None, Some(_)) => {
                return Err(invalid(
                    "context_bounds: a problem's context box is its own; give bounds and \
                     context_bounds, or problem",
                ));
            }
            (Some(_), Some(_)) => {
                return Err(invalid(
                    "bounds and problem: give one (a problem brings its own box)",
                ));
            }
            (None, None) => {
                return Err(invalid(
                    "bounds: give the box, a (low, high) pair per dimension, or a problem",
                ));
            }
        };
        let given = keyword_parameters(params)?;
        let given: Vec<(&str, ParamValue)> =
            given.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
        let mut built = algorithms::build(algorithm, &given).map_err(to_py)?;
        algorithms::check_pair(algorithm, built.as_mut(), &problem).map_err(to_py)?;
        built.prepare(&problem).map_err(to_py)?;
        let design =
            initial_design(&problem, init, &mut ChaCha8Rng::seed_from_u64(seed)).map_err(to_py)?;
        Ok(Self {
            algorithm: Mutex::new(built),
            problem,
            session: Session::new(design, seed),
            engine: engine(device, precision)?,
            pending: None,
            recommended: None,
        })
    }

    /// The next point to evaluate (the algorithm's work runs without the GIL).
    fn ask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        if let Some(p) = &self.pending {
            return Err(invalid(format!(
                "ask: the last point {:?} has not been told yet (tell(x, y) first)",
                p.x
            )));
        }
        let Self {
            algorithm,
            problem,
            session,
            engine,
            ..
        } = self;
        let (_, proposal) = py
            .detach(|| {
                let step = session.step() + 1;
                session.ask(
                    algorithm
                        .get_mut()
                        .unwrap_or_else(|p| p.into_inner())
                        .as_mut(),
                    engine.as_ref(),
                    problem.domain(),
                    problem.allowed_set(step),
                )
            })
            .map_err(to_py)?;
        let x = proposal.x.clone();
        self.pending = Some(proposal);
        Ok(array(py, x))
    }

    /// Evaluations the last asked point wants (RAHBO's k): tell that many values.
    #[getter]
    fn repeats(&self) -> usize {
        self.pending.as_ref().map_or(1, |p| p.repeats)
    }

    /// Tells the value `y` (a number, or a sequence of `repeats` numbers) of the point `x`
    /// just asked, with the `context` the evaluation observed where the optimiser has a
    /// context box.
    #[pyo3(signature = (x, y, context=None))]
    fn tell(
        &mut self,
        py: Python<'_>,
        x: PyReadonlyArray1<'_, f64>,
        y: &Bound<'_, PyAny>,
        context: Option<PyReadonlyArray1<'_, f64>>,
    ) -> PyResult<()> {
        let x = values("x", x)?;
        let Some(proposal) = &self.pending else {
            return Err(invalid("tell: no point was asked (ask() first)"));
        };
        if x != proposal.x {
            return Err(invalid(format!(
                "tell: x = {x:?} is not the point asked, {:?}",
                proposal.x
            )));
        }
        let told: Vec<f64> = match y.extract::<f64>() {
            Ok(v) => vec![v],
            Err(_) => y
                .extract::<Vec<f64>>()
                .map_err(|_| invalid("tell: y must be a number or a sequence of numbers"))?,
        };
        if told.len() != proposal.repeats {
            return Err(invalid(format!(
                "tell: {} values for a point asked with repeats = {}",
                told.len(),
                proposal.repeats
            )));
        }
        if let Some(i) = told.iter().position(|v| !v.is_finite()) {
            return Err(invalid(format!(
                "tell: value {i} of y is {} (must be finite)",
                told[i]
            )));
        }
        let context = context.map(|c| values("context", c)).transpose()?;
        match (self.problem.context_domain(), &context) {
            (Some(domain), Some(c)) if !domain.contains(c) => {
                return Err(invalid(format!(
                    "tell: context {c:?} is not in the context box (lower {:?}, upper {:?})",
                    domain.lower(),
                    domain.upper()
                )));
            }
            (Some(_), None) => {
                return Err(invalid(
                    "tell: this optimiser's algorithm learns from contexts; tell(x, y, context=...)",
                ));
            }
            (None, Some(_)) => {
                return Err(invalid(
                    "tell: a context was given to an optimiser without context_bounds",
                ));
            }
            _ => {}
        }
        let observation = Observation::new(told, context);
        let Self {
            algorithm,
            problem,
            session,
            engine,
            ..
        } = self;
        let recommended = py
            .detach(|| {
                let algorithm = algorithm.get_mut().unwrap_or_else(|p| p.into_inner());
                session.tell(algorithm.as_mut(), problem.sense(), &x, &observation)?;
                algorithm.recommend(engine.as_ref())
            })
            .map_err(to_py)?;
        self.pending = None;
        self.recommended = Some(recommended);
        Ok(())
    }

    /// The point the algorithm reports after the last tell.
    fn recommend<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.recommended
            .clone()
            .map(|x| array(py, x))
            .ok_or_else(|| invalid("recommend: nothing was told yet"))
    }
}

/// `bounds` (argument `name`) as a box.
fn domain(name: &str, bounds: Vec<(f64, f64)>) -> PyResult<Domain> {
    let (lower, upper): (Vec<f64>, Vec<f64>) = bounds.into_iter().unzip();
    Domain::new(lower, upper).map_err(|e| invalid(format!("{name}: {e}")))
}

/// Keyword arguments as parameters: numbers stay numbers, booleans become "true"/"false", text
/// stays text.
pub fn keyword_parameters(
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, ParamValue)>> {
    let Some(params) = params else {
        return Ok(Vec::new());
    };
    params
        .iter()
        .map(|(key, value)| {
            let key: String = key.extract()?;
            let value = if let Ok(b) = value.extract::<bool>() {
                ParamValue::from(if b { "true" } else { "false" })
            } else if let Ok(v) = value.extract::<f64>() {
                ParamValue::Number(v)
            } else if let Ok(s) = value.extract::<String>() {
                ParamValue::Text(s)
            } else {
                return Err(invalid(format!(
                    "parameter {key}: {} (give a number, a string or a bool)",
                    value.repr()?
                )));
            };
            Ok((key, value))
        })
        .collect()
}
