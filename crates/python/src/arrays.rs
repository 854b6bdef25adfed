//! numpy arrays in and out: 2-D float arrays become [`Points`] (row-major, finite, checked
//! with the argument's name in the message), 1-D ones `Vec<f64>`; boxes given as (low, high)
//! pairs become `Vec<(f64, f64)>`.

use bosweep_engine::Points;
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

use super::errors::{invalid, shown};

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

/// The box `value` (argument `name`): a sequence (list, tuple, numpy array) of (low, high)
/// pairs, one per dimension. Anything else is a `bosweep.InputError` naming the argument and
/// the item, not the bare `TypeError` of a failed conversion.
pub fn bounds(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<(f64, f64)>> {
    let len = value.len().map_err(|_| {
        invalid(format!(
            "{name}: give a (low, high) pair per dimension, e.g. [(0, 1), (0, 1)]; got {}",
            shown(value)
        ))
    })?;
    (0..len)
        .map(|i| {
            let pair = value.get_item(i)?;
            let at = format!("{name}[{i}]");
            let not_a_pair = || {
                let flat = if i == 0 && pair.len().is_err() {
                    format!(" ({name} is a list of pairs, e.g. [(0, 1), (0, 1)])")
                } else {
                    String::new()
                };
                invalid(format!(
                    "{at}: give a (low, high) pair, got {}{flat}",
                    shown(&pair)
                ))
            };
            if pair.len().map_err(|_| not_a_pair())? != 2 {
                return Err(not_a_pair());
            }
            let end = |j: usize| -> PyResult<f64> {
                let v = pair.get_item(j)?;
                v.extract()
                    .map_err(|_| invalid(format!("{at}[{j}]: {} is not a number", shown(&v))))
            };
            Ok((end(0)?, end(1)?))
        })
        .collect()
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
