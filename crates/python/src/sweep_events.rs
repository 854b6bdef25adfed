//! A sweep's events in Python's terms: warnings as `RuntimeWarning`s (`warnings.warn`), the
//! caller's `progress(done, total)` after every run, everything else to the `bosweep` logger at
//! INFO (silent unless the caller configures logging). The library itself writes nothing to
//! stderr.

use std::sync::{Arc, Mutex};

use bosweep_sweep::{EventSink, StopSignal, SweepEvent};
use pyo3::exceptions::PyRuntimeWarning;
use pyo3::prelude::*;

/// The sink of one `bosweep.sweep` call. A Python exception from a warning (a filter that turns
/// warnings into errors), the progress callable or the logger stops the sweep through `stop`;
/// [`PythonEvents::raised`] then gives it back to be raised.
#[derive(Clone)]
pub struct PythonEvents {
    progress: Option<Arc<Py<PyAny>>>,
    /// The ended runs of the last progress call: the library also reports runs starting,
    /// which `progress(done, total)` does not count.
    last_done: Arc<Mutex<Option<usize>>>,
    stop: StopSignal,
    raised: Arc<Mutex<Option<PyErr>>>,
}

impl PythonEvents {
    pub fn new(progress: Option<Py<PyAny>>, stop: StopSignal) -> Self {
        Self {
            progress: progress.map(Arc::new),
            last_done: Arc::default(),
            stop,
            raised: Arc::default(),
        }
    }

    /// The sink to put in the sweep's options: called from the sweep's threads, each event
    /// handled with the GIL held.
    pub fn sink(&self) -> EventSink {
        let this = self.clone();
        EventSink::new(move |event| {
            Python::attach(|py| {
                if let Err(error) = this.deliver(py, event) {
                    this.stop.request();
                    let mut raised = this.raised.lock().unwrap_or_else(|p| p.into_inner());
                    raised.get_or_insert(error);
                }
            });
        })
    }

    /// The first exception an event raised, if any.
    pub fn raised(&self) -> Option<PyErr> {
        self.raised.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    fn deliver(&self, py: Python<'_>, event: &SweepEvent) -> PyResult<()> {
        match event {
            SweepEvent::Warning(text) => {
                let category = py.get_type::<PyRuntimeWarning>();
                py.import("warnings")?
                    .call_method1("warn", (text.as_str(), category))?;
            }
            SweepEvent::Progress(p) => {
                let mut last = self.last_done.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(progress) = &self.progress
                    && *last != Some(p.done)
                {
                    *last = Some(p.done);
                    progress.call1(py, (p.done, p.total))?;
                }
            }
            _ => {
                py.import("logging")?
                    .call_method1("getLogger", ("bosweep",))?
                    .call_method1("info", (event.to_string(),))?;
            }
        }
        Ok(())
    }
}
