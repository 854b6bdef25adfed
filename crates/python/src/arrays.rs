//! numpy arrays in and out: 2-D float arrays become [`Points`] (row-major, finite, checked
//! with the argument's name in the message), 1-D ones `Vec<f64>`.

use bosweep_engine::Points;
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

use super::errors::invalid;

/// The rows of the 2-D array `array` (argument `name`) as points.
pub fn points(name: &str, array: PyReadonlyArray2<'_, f64>) -> PyResult<Points> {
    let [rows, cols] = array.shape() else {
        unreachable!("a PyReadonlyArray2 has two axes")
    };
    if *cols == 0 {
        return Err(invalid(format!(
            "{name}: an array of shape ({rows}, 0); points need at least one column"
        )));
    }
    let data: Vec<f64> = array.as_array().iter().copied().collect();
    Points::new(data, *cols).map_err(|e| invalid(format!("{name}: {e}")))
}

/// The 1-D array `array` (argument `name`), every value finite.
pub fn values(name: &str, array: PyReadonlyArray1<'_, f64>) -> PyResult<Vec<f64>> {
    let data: Vec<f64> = array.as_array().iter().copied().collect();
    if let Some(i) = data.iter().position(|v| !v.is_finite()) {
        return Err(invalid(format!(
            "{name}: value {i} is {} (must be finite)",
            data[i]
        )));
    }
    Ok(data)
}

/// Two 1-D numpy arrays (a posterior's mean and variance, a regression's mean and log weight).
pub type ArrayPair<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>);

/// `data` as a new 1-D numpy array.
pub fn array<'py>(py: Python<'py>, data: Vec<f64>) -> Bound<'py, PyArray1<f64>> {
    PyArray1::from_vec(py, data)
}
