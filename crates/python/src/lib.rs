//! The `bosweep._native` extension module, which the Python package `bosweep` (python/bosweep)
//! re-exports: the engine's batch operations on numpy arrays, GP fit and predict, an ask/tell
//! optimiser for every registered algorithm, whole runs with the trace the command line writes,
//! sweeps (Python callables as objectives) and their traces as a table. A thin layer: each
//! function converts its arguments, calls the library with the GIL released, and turns the
//! library's errors into Python exceptions with the command line's messages
//! (`bosweep.InputError`, a `ValueError`, for bad input; `bosweep.RunError`, a `RuntimeError`,
//! for a failure while running; both `bosweep.Error`).

mod arrays;
mod compare;
mod errors;
mod gp;
mod interrupt;
mod objectives;
mod ops;
mod optimizer;
mod runs;
mod sweep_events;
mod sweeps;

use pyo3::prelude::*;

#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Mesa's device-select Vulkan layer prints "XDG_RUNTIME_DIR is invalid" without a desktop
    // session each time GPUs are listed, and bosweep ranks adapters itself: switched off as the
    // command line does (src/main.rs), through Python's environment, unless the user set it.
    m.py()
        .import("os")?
        .getattr("environ")?
        .call_method1("setdefault", ("NODEVICE_SELECT", "1"))?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    m.add_function(wrap_pyfunction!(ops::kde, m)?)?;
    m.add_function(wrap_pyfunction!(ops::kernel_regression, m)?)?;
    m.add_function(wrap_pyfunction!(runs::run, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps::sweep, m)?)?;
    m.add_function(wrap_pyfunction!(sweeps::load_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(compare::compare, m)?)?;
    m.add_function(wrap_pyfunction!(runs::algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(runs::problems, m)?)?;
    m.add_class::<gp::Gp>()?;
    m.add_class::<optimizer::Optimizer>()?;
    Ok(())
}
