//! The library's errors as Python exceptions, all under `bosweep.Error`: what the user gave is
//! a `bosweep.InputError` (also a `ValueError`), a failure while running a `bosweep.RunError`
//! (also a `RuntimeError`), both with the message the command line prints.

use bosweep_core::data::{Blame, Failure};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};

create_exception!(
    bosweep,
    Error,
    PyException,
    "Base class of every error bosweep raises."
);

static INPUT_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static RUN_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Adds `Error`, `InputError` and `RunError` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    let input = subclass(
        py,
        "InputError",
        py.get_type::<PyValueError>(),
        "Bad input: an argument, a config, a trace; the message names it.",
    )?;
    let run = subclass(
        py,
        "RunError",
        py.get_type::<PyRuntimeError>(),
        "A failure while running: a GPU that failed, an objective that crashed or hung.",
    )?;
    m.add("InputError", &input)?;
    m.add("RunError", &run)?;
    INPUT_ERROR.get_or_init(py, || input.unbind());
    RUN_ERROR.get_or_init(py, || run.unbind());
    Ok(())
}

/// `class NAME(bosweep.Error, builtin)`: catchable as either, so that code written against
/// the builtin exceptions keeps working.
fn subclass<'py>(
    py: Python<'py>,
    name: &str,
    builtin: Bound<'py, PyType>,
    doc: &str,
) -> PyResult<Bound<'py, PyType>> {
    let namespace = PyDict::new(py);
    namespace.set_item("__doc__", doc)?;
    namespace.set_item("__module__", "bosweep")?;
    let class =
        py.get_type::<PyType>()
            .call1((name, (py.get_type::<Error>(), builtin), namespace))?;
    Ok(class.cast_into::<PyType>()?)
}

/// An exception of `class` (registered at import) with `message`.
fn raise(class: &PyOnceLock<Py<PyType>>, message: String) -> PyErr {
    Python::attach(|py| match class.get(py) {
        Some(class) => PyErr::from_type(class.bind(py).clone(), message),
        None => Error::new_err(message),
    })
}

/// `error` as the exception its blame calls for.
pub fn to_py<E: Failure>(error: E) -> PyErr {
    match error.blame() {
        Blame::Input => raise(&INPUT_ERROR, error.to_string()),
        Blame::Running => raise(&RUN_ERROR, error.to_string()),
    }
}

/// A `bosweep.InputError` with `message`.
pub fn invalid(message: impl Into<String>) -> PyErr {
    raise(&INPUT_ERROR, message.into())
}

/// `repr(value)` for a message, or "?" where even that fails.
pub fn shown(value: &Bound<'_, PyAny>) -> String {
    value.repr().map_or_else(|_| "?".into(), |r| r.to_string())
}

/// A `bosweep.RunError` with `message`.
pub fn failed(message: impl Into<String>) -> PyErr {
    raise(&RUN_ERROR, message.into())
}
