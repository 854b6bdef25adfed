//! `bosweep.Optimizer`: the library's [`Optimizer`](bosweep_algorithms::Optimizer) for
//! Python, any registered algorithm as ask/tell over a box (or a registered problem's
//! structure), the caller evaluating the points. A seed gives the decisions that `bosweep run
//! --seed` makes on the same objective.

use std::sync::Mutex;

use bosweep_algorithms::{Optimizer as Inner, Registered};
use bosweep_core::params::ParamValue;
use bosweep_problems::{Observation, Sense};
use numpy::{PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::arrays::{self, array, values};
use super::errors::{invalid, to_py};
use super::ops::engine;

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
    inner: Mutex<Inner>,
}

impl Optimizer {
    fn inner(&mut self) -> &mut Inner {
        self.inner.get_mut().unwrap_or_else(|p| p.into_inner())
    }
}

#[pymethods]
impl Optimizer {
    #[new]
    #[pyo3(signature = (algorithm, bounds=None, seed=0, init=10, sense="min", device="auto", precision="f32", context_bounds=None, problem=None, problem_params=None, constraints=0, **params))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        algorithm: &str,
        bounds: Option<&Bound<'_, PyAny>>,
        seed: u64,
        init: usize,
        sense: &str,
        device: &str,
        precision: &str,
        context_bounds: Option<&Bound<'_, PyAny>>,
        problem: Option<&str>,
        problem_params: Option<&Bound<'_, PyDict>>,
        constraints: usize,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let mut settings = Registered::new(algorithm);
        for (key, value) in keyword_parameters(params)? {
            settings = settings.with(key, value);
        }
        let sense = match sense {
            "min" => Sense::Minimize,
            "max" => Sense::Maximize,
            other => {
                return Err(invalid(format!(
                    "sense: \"{other}\" (expected \"min\" or \"max\")"
                )));
            }
        };
        let bounds = bounds.map(|b| arrays::bounds("bounds", b)).transpose()?;
        let context_bounds = context_bounds
            .map(|b| arrays::bounds("context_bounds", b))
            .transpose()?;
        let mut builder = Inner::builder(settings)
            .seed(seed)
            .init(init)
            .sense(sense)
            .constraints(constraints)
            .engine(engine(device, precision)?);
        builder = match (bounds, problem) {
            (Some(bounds), None) => {
                let builder = builder.bounds(&bounds);
                match context_bounds {
                    Some(context) => builder.context_bounds(&context),
                    None => builder,
                }
            }
            (None, Some(name)) if context_bounds.is_none() => {
                let given = keyword_parameters(problem_params)?;
                let given: Vec<(&str, ParamValue)> =
                    given.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                builder.problem(bosweep_problems::build(name, &given).map_err(to_py)?)
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
        let inner = py.detach(|| builder.build()).map_err(to_py)?;
        Ok(Self {
            inner: Mutex::new(inner),
        })
    }

    /// The next point to evaluate; with `n`, up to `n` points as the rows of a 2-D array (the
    /// initial design's points, as many as remain; after it, a batch where the algorithm takes
    /// pending points into account, else one point once every point asked has been told). The algorithm's work runs without the GIL.
    #[pyo3(signature = (n=None))]
    fn ask<'py>(&mut self, py: Python<'py>, n: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        let inner = self.inner();
        let Some(n) = n else {
            if let Some(p) = inner.pending().last() {
                return Err(invalid(format!(
                    "ask: the last point {:?} has not been told yet (tell(x, y) first)",
                    p.x
                )));
            }
            let mut points = py.detach(|| inner.ask(1)).map_err(to_py)?;
            return Ok(array(py, points.remove(0)).into_any());
        };
        let points = py.detach(|| inner.ask(n)).map_err(to_py)?;
        Ok(PyArray2::from_vec2(py, &points)
            .expect("every point has the optimizer's dimension")
            .into_any())
    }

    /// Evaluations the last asked point wants (RAHBO's k): tell that many values.
    #[getter]
    fn repeats(&mut self) -> usize {
        self.inner().pending().last().map_or(1, |p| p.repeats)
    }

    /// Tells the value `y` (a number, or a sequence of `repeats` numbers; on a problem of
    /// several objectives, the sequence of their values) of the asked point `x`, with the
    /// `context` the evaluation observed where the optimiser has a context box, and the values
    /// of its `constraints` where it was built with some (feasible where every one is ≤ 0).
    #[pyo3(signature = (x, y, context=None, constraints=None))]
    fn tell(
        &mut self,
        py: Python<'_>,
        x: PyReadonlyArray1<'_, f64>,
        y: &Bound<'_, PyAny>,
        context: Option<PyReadonlyArray1<'_, f64>>,
        constraints: Option<Vec<f64>>,
    ) -> PyResult<()> {
        let x = values("x", x)?;
        let told: Vec<f64> = match y.extract::<f64>() {
            Ok(v) => vec![v],
            Err(_) => y
                .extract::<Vec<f64>>()
                .map_err(|_| invalid("tell: y must be a number or a sequence of numbers"))?,
        };
        let context = context.map(|c| values("context", c)).transpose()?;
        let inner = self.inner();
        let observation = if inner.objective_count() > 1 {
            Observation::of_objectives(told, context)
        } else {
            Observation::new(told, context)
        }
        .with_constraints(constraints.unwrap_or_default());
        py.detach(|| inner.tell_observation(&x, observation))
            .map_err(to_py)
    }

    /// The point the algorithm reports after the last tell (none on a problem of several
    /// objectives, whose recommendation is the non-dominated set of the values told).
    fn recommend<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let m = self.inner().objective_count();
        if m > 1 {
            return Err(invalid(format!(
                "recommend: a problem of {m} objectives has no single recommended point (its \
                 recommendation is the non-dominated set of the values told)"
            )));
        }
        self.inner()
            .recommend()
            .map(|x| array(py, x.to_vec()))
            .ok_or_else(|| invalid("recommend: nothing was told yet"))
    }
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
