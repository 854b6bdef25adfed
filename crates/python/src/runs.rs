//! `bosweep.run`: one whole run, as `bosweep run` makes it, its trace returned as a list of
//! dicts (the header first, then one per step).

use std::sync::atomic::{AtomicUsize, Ordering};

use bosweep_core::params::ParamValue;
use bosweep_sweep::{RunConfig, TraceWriter};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::errors::{invalid, to_py};
use super::ops::engine;
use super::optimizer::keyword_parameters;

/// Trace files of this process's runs, numbered so that concurrent runs do not share one.
static RUNS: AtomicUsize = AtomicUsize::new(0);

/// Runs `algorithm` on `problem` for `budget` evaluations (`init` of them the initial design)
/// from `seed`, with their parameters as dicts, and returns the trace `bosweep run --out`
/// writes, parsed (timings aside, identical for the same seed on the CPU).
#[pyfunction]
#[pyo3(signature = (algorithm, problem, budget, init=10, seed=1, params=None, problem_params=None, device="cpu", precision="f32"))]
#[allow(clippy::too_many_arguments)]
pub fn run<'py>(
    py: Python<'py>,
    algorithm: &str,
    problem: &str,
    budget: usize,
    init: usize,
    seed: u64,
    params: Option<&Bound<'py, PyDict>>,
    problem_params: Option<&Bound<'py, PyDict>>,
    device: &str,
    precision: &str,
) -> PyResult<Bound<'py, PyList>> {
    let algorithm_params = keyword_parameters(params)?;
    let problem_params = keyword_parameters(problem_params)?;
    let built_problem =
        bosweep_problems::build(problem, &borrow(&problem_params)).map_err(to_py)?;
    let mut built =
        bosweep_algorithms::build(algorithm, &borrow(&algorithm_params)).map_err(to_py)?;
    bosweep_algorithms::check_pair(algorithm, built.as_mut(), built_problem.as_ref())
        .map_err(to_py)?;
    let engine = engine(device, precision)?;
    let path = std::env::temp_dir().join(format!(
        "bosweep-python-{}-{}.jsonl",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let config = RunConfig {
        budget,
        init,
        seed,
        design_seed: seed,
    };
    let outcome = py.detach(|| -> Result<String, PyErr> {
        let mut trace = TraceWriter::create(&path)
            .map_err(|e| invalid(format!("the trace file {}: {e}", path.display())))?;
        let result = bosweep_sweep::run(
            built_problem.as_ref(),
            built.as_mut(),
            algorithm,
            engine.as_ref(),
            &config,
            &mut trace,
        );
        drop(trace);
        let text = std::fs::read_to_string(&path);
        let _ = std::fs::remove_file(&path);
        result.map_err(to_py)?;
        text.map_err(|e| invalid(format!("the trace file {}: {e}", path.display())))
    })?;
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
