//! The engine's batch operations on numpy arrays, on the device the caller names.

use std::sync::{Arc, Mutex};

use bosweep_engine::{DeviceChoice, Engine, Precision, select_engine};
use bosweep_model::SmoothingKernel;
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use super::arrays::{ArrayPair, array, points, values};
use super::errors::{invalid, to_py};

/// Engines already started, by device and precision: a GPU engine takes a while to start, and
/// the same one serves every later call.
type Engines = Vec<((DeviceChoice, Precision), Arc<dyn Engine>)>;
static ENGINES: Mutex<Engines> = Mutex::new(Vec::new());

/// The engine for `device` ("auto", "cpu", "gpu") and `precision` ("f32", "f64"; the CPU is
/// always f64).
pub fn engine(device: &str, precision: &str) -> PyResult<Arc<dyn Engine>> {
    let choice: DeviceChoice = device
        .parse()
        .map_err(|e: String| invalid(format!("device: {e}")))?;
    let precision = Precision::parse(precision).ok_or_else(|| {
        invalid(format!(
            "precision: unknown precision \"{precision}\" (expected f32 or f64)"
        ))
    })?;
    let mut engines = ENGINES.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, engine)) = engines.iter().find(|(key, _)| *key == (choice, precision)) {
        return Ok(engine.clone());
    }
    let engine: Arc<dyn Engine> = Arc::from(select_engine(choice, precision, None).map_err(to_py)?);
    engines.push(((choice, precision), engine.clone()));
    Ok(engine)
}

/// The Gaussian-product KDE `p̂(q) = Σ_i w_i Π_d φ((q_d − c_id)/h_d)/h_d / Σ_i w_i` of `data`
/// (n × d) at `queries` (m × d), with one bandwidth per column (uniform weights when `weights`
/// is None); its logarithm with `log=True`.
#[pyfunction]
#[pyo3(signature = (data, queries, bandwidths, weights=None, log=false, device="auto", precision="f32"))]
#[allow(clippy::too_many_arguments)]
pub fn kde<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    queries: PyReadonlyArray2<'py, f64>,
    bandwidths: PyReadonlyArray1<'py, f64>,
    weights: Option<PyReadonlyArray1<'py, f64>>,
    log: bool,
    device: &str,
    precision: &str,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let data = points("data", data)?;
    let queries = points("queries", queries)?;
    let bandwidths = values("bandwidths", bandwidths)?;
    let weights = weights.map(|w| values("weights", w)).transpose()?;
    let engine = engine(device, precision)?;
    let out = py
        .detach(|| {
            if log {
                engine.kde_log_density(&data, &bandwidths, weights.as_deref(), &queries)
            } else {
                engine.kde_density(&data, &bandwidths, weights.as_deref(), &queries)
            }
        })
        .map_err(to_py)?;
    Ok(array(py, out))
}

/// Nadaraya–Watson regression of `targets` on `data` at `queries` with an isotropic smoothing
/// kernel ("gaussian", "epanechnikov", "uniform") of bandwidth `bandwidth`: the mean and the
/// log of the weight sum at each query.
#[pyfunction]
#[pyo3(signature = (data, targets, queries, bandwidth, kernel="gaussian", device="auto", precision="f32"))]
#[allow(clippy::too_many_arguments)]
pub fn kernel_regression<'py>(
    py: Python<'py>,
    data: PyReadonlyArray2<'py, f64>,
    targets: PyReadonlyArray1<'py, f64>,
    queries: PyReadonlyArray2<'py, f64>,
    bandwidth: f64,
    kernel: &str,
    device: &str,
    precision: &str,
) -> PyResult<ArrayPair<'py>> {
    let data = points("data", data)?;
    let targets = values("targets", targets)?;
    let queries = points("queries", queries)?;
    let kernel = match kernel {
        "gaussian" => SmoothingKernel::Gaussian,
        "epanechnikov" => SmoothingKernel::Epanechnikov,
        "uniform" => SmoothingKernel::Uniform,
        other => {
            return Err(invalid(format!(
                "kernel: unknown smoothing kernel \"{other}\" (expected gaussian, epanechnikov \
                 or uniform)"
            )));
        }
    };
    let engine = engine(device, precision)?;
    let out = py
        .detach(|| engine.kernel_regression(&data, &targets, kernel, bandwidth, &queries))
        .map_err(to_py)?;
    Ok((array(py, out.mean), array(py, out.log_weight_sum)))
}
