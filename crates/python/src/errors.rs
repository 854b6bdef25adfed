//! The library's errors as Python exceptions: what the user gave is a `ValueError`, a failure
//! while running a `RuntimeError`, both with the message the command line prints.

use bosweep_core::data::{Blame, Failure};
use pyo3::PyErr;
use pyo3::exceptions::{PyRuntimeError, PyValueError};

/// `error` as the exception its blame calls for.
pub fn to_py<E: Failure>(error: E) -> PyErr {
    match error.blame() {
        Blame::Input => PyValueError::new_err(error.to_string()),
        Blame::Running => PyRuntimeError::new_err(error.to_string()),
    }
}

/// A `ValueError` with `message`.
pub fn invalid(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}
