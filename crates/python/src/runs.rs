//! `bosweep.run`: one whole run, as `bosweep run` makes it, its trace returned as a list of
//! dicts (the header first, then one per step).

use std::io::Write;
use std::sync::{Arc, Mutex};

use bosweep_core::params::ParamValue;
use bosweep_sweep::{Parallel, PrepareError, PreparedRun, RunConfig, StopSignal, TraceWriter};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::errors::{invalid, to_py};
use super::interrupt::interruptible;
use super::objectives::Objectives;
use super::ops::engine;
use super::optimizer::keyword_parameters;

/// The trace of one run, written in memory: [`TraceWriter`] takes a boxed writer, and the
/// run's caller keeps a handle on the same bytes.
#[derive(Clone, Default)]
struct TraceBuffer(Arc<Mutex<Vec<u8>>>);

impl TraceBuffer {
    fn text(&self) -> String {
        let bytes = self.0.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Write for TraceBuffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut buffer = self.0.lock().unwrap_or_else(|p| p.into_inner());
        buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `algorithm` on `problem` for `budget` evaluations (`init` of them the initial design)
/// from `seed`, with their parameters as dicts, and returns the trace `bosweep run --out`
/// writes, parsed (timings aside, identical for the same seed on the CPU). `problem` is a
/// registered problem's name, or a Python callable `f(x) -> float` (the problem `callable`,
/// its `bounds` and `sense` in `problem_params`). `batch` asks synchronous batches, `workers`
/// runs asynchronous workers, `runtime` times each evaluation on the simulated clock (a model
/// such as `"lognormal:sigma=0.5"`). Ctrl-C stops the run after the evaluation in progress.
#[pyfunction]
#[pyo3(signature = (algorithm, problem, budget, init=10, seed=0, params=None, problem_params=None, device="auto", precision="f32", batch=1, workers=1, runtime=None))]
#[allow(clippy::too_many_arguments)]
pub fn run<'py>(
    py: Python<'py>,
    algorithm: &str,
    problem: &Bound<'py, PyAny>,
    budget: usize,
    init: usize,
    seed: u64,
    params: Option<&Bound<'py, PyDict>>,
    problem_params: Option<&Bound<'py, PyDict>>,
    device: &str,
    precision: &str,
    batch: usize,
    workers: usize,
    runtime: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let algorithm_params = keyword_parameters(params)?;
    let mut problem_params = keyword_parameters(problem_params)?;
    let mut callables = Objectives::default();
    let problem: String = if problem.is_callable() {
        let name: String = problem.getattr("__name__")?.extract()?;
        callables.add(name.clone(), problem)?;
        problem_params.push(("function".into(), ParamValue::Text(name)));
        "callable".into()
    } else {
        problem.extract().map_err(|_| {
            invalid("problem: give a registered problem's name or a callable f(x) -> float")
        })?
    };
    let _registered = callables.register(py)?;
    let built_problem =
        bosweep_problems::build(&problem, &borrow(&problem_params)).map_err(to_py)?;
    let config = RunConfig {
        budget,
        init,
        seed,
        design_seed: seed,
        parallel: Parallel {
            batch,
            workers,
            runtime: runtime
                .map(str::parse)
                .transpose()
                .map_err(|e: String| invalid(format!("runtime: {e}")))?,
        },
    };
    // The checks of `bosweep run`, in its order, named by keyword.
    let keyword = |e: PrepareError| match e {
        PrepareError::Algorithm(e) => to_py(e),
        PrepareError::Parallel(e) => invalid(e.message),
        PrepareError::Memory(e) => invalid(format!("budget: {e}")),
    };
    let prepared = PreparedRun::new(built_problem, algorithm, &borrow(&algorithm_params), config)
        .map_err(keyword)?;
    prepared.check_memory().map_err(keyword)?;
    prepared.check_libraries().map_err(keyword)?;
    let engine = engine(device, precision)?;
    let buffer = TraceBuffer::default();
    let mut trace = TraceWriter::to_writer(Box::new(buffer.clone()));
    let stop = StopSignal::default();
    interruptible(py, &stop, || {
        prepared.run(engine.as_ref(), &mut trace, &stop)
    })?
    .map_err(to_py)?;
    drop(trace);
    let outcome = buffer.text();
    let loads = py.import("json")?.getattr("loads")?;
    let lines = PyList::empty(py);
    for line in outcome.lines() {
        lines.append(loads.call1((line,))?)?;
    }
    Ok(lines)
}

/// The registered algorithms' names, in `bosweep list` order.
#[pyfunction]
pub fn algorithms() -> Vec<&'static str> {
    bosweep_algorithms::registry().map(|e| e.name).collect()
}

/// The registered problems' names, in `bosweep list` order.
#[pyfunction]
pub fn problems() -> Vec<&'static str> {
    bosweep_problems::registry().map(|e| e.name).collect()
}

/// `(key, value)` pairs as the registries take them.
fn borrow(given: &[(String, ParamValue)]) -> Vec<(&str, ParamValue)> {
    given.iter().map(|(k, v)| (k.as_str(), v.clone())).collect()
}
