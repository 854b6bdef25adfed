//! `bosweep.sweep`: a sweep from a config file or a dict, Python callables as objectives; and
//! `bosweep.load_sweep`: a sweep directory's steps as columns for `pandas.DataFrame`.

use std::path::PathBuf;

use bosweep_sweep::report::read_steps;
use bosweep_sweep::{MixedDevices, Shard, StopSignal, SweepConfig, SweepOptions, WhenLocked};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::errors::{invalid, to_py};
use super::interrupt::interruptible;
use super::objectives::{Objectives, config_toml};
use super::ops::engine;
use super::sweep_events::PythonEvents;

/// Runs the sweep of `config` (a TOML file's path, or a dict shaped like one) into `out`
/// (default for a file: `results/<file stem>`, as `bosweep sweep`), resuming what the
/// directory holds. `objectives` maps names to Python callables `f(x) -> float` for problems
/// `name = "callable"`, `function = NAME`; a dict config may hold the callables themselves.
/// `shard` ("I/N") defaults, as `bosweep sweep --shard` does, to a SLURM array task's or a
/// Kubernetes Indexed Job's. `progress`, where given, is called as `progress(done, total)` before
/// the first run ends and after every run; warnings are Python `RuntimeWarning`s, and the other
/// notes go to the `bosweep` logger. Returns the directory and the counts of runs selected,
/// skipped and completed.
#[pyfunction]
#[pyo3(signature = (config, out=None, objectives=None, threads=None, shard=None, device="auto", precision="f32", report=true, wait=false, allow_mixed_devices=false, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn sweep<'py>(
    py: Python<'py>,
    config: &Bound<'py, PyAny>,
    out: Option<PathBuf>,
    objectives: Option<&Bound<'py, PyDict>>,
    threads: Option<usize>,
    shard: Option<&str>,
    device: &str,
    precision: &str,
    report: bool,
    wait: bool,
    allow_mixed_devices: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut callables = Objectives::from_dict(objectives)?;
    let (text, file_name, default_out) = if let Ok(dict) = config.cast::<PyDict>() {
        (
            config_toml(dict, &mut callables)?,
            "<dict>".to_owned(),
            None,
        )
    } else {
        let path: PathBuf = config.extract().map_err(|_| {
            invalid("config: give the path of a TOML sweep config or a dict shaped like one")
        })?;
        let text = std::fs::read_to_string(&path)
            .map_err(|e| invalid(format!("config: cannot read {}: {e}", path.display())))?;
        let stem = path
            .file_stem()
            .map_or_else(|| "sweep".into(), |s| s.to_string_lossy().into_owned());
        (
            text,
            path.display().to_string(),
            Some(PathBuf::from("results").join(stem)),
        )
    };
    let dir = out
        .or(default_out)
        .ok_or_else(|| invalid("out: a sweep from a dict needs its output directory (out=...)"))?;
    let shard = shard
        .map(Shard::parse)
        .transpose()
        .map_err(|e| invalid(format!("shard: {e}")))?;
    if progress.as_ref().is_some_and(|p| !p.bind(py).is_callable()) {
        return Err(invalid("progress: give a callable progress(done, total)"));
    }
    let stop = StopSignal::default();
    let events = PythonEvents::new(progress, stop.clone());
    let shard = Shard::given_or_scheduled(shard, &events.sink()).map_err(invalid)?;
    // Registered before the config is read: reading it builds every problem, as a run will.
    let _registered = callables.register(py)?;
    let config = SweepConfig::parse(&text, &file_name).map_err(to_py)?;
    let engine = engine(device, precision)?;
    let options = SweepOptions {
        shard,
        threads,
        when_locked: if wait {
            WhenLocked::Wait
        } else {
            WhenLocked::Refuse
        },
        mixed: if allow_mixed_devices {
            MixedDevices::Allow
        } else {
            MixedDevices::Refuse
        },
        report,
        stop,
        events: events.sink(),
    };
    let result = interruptible(py, &options.stop, || {
        bosweep_sweep::execute_sweep(&config, &dir, engine.as_ref(), &options)
    })?;
    if let Some(raised) = events.raised() {
        return Err(raised);
    }
    let outcome = result.map_err(to_py)?;
    let result = PyDict::new(py);
    result.set_item("dir", dir.display().to_string())?;
    result.set_item("selected", outcome.selected)?;
    result.set_item("skipped", outcome.skipped)?;
    result.set_item("completed", outcome.completed)?;
    Ok(result)
}

/// The steps of every completed run of the sweep in `dir`, one row per step, as a dict of
/// columns (`pandas.DataFrame(bosweep.load_sweep(dir))`): the run (`run` key, `algorithm` and
/// `problem` labels, `replicate`, `seed`, `device`) and every field of the trace schema;
/// numbers as numpy arrays (NaN where the trace has null), points as lists.
#[pyfunction]
pub fn load_sweep<'py>(py: Python<'py>, dir: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let runs = py.detach(|| read_steps(&dir)).map_err(to_py)?;
    let rows: usize = runs.iter().map(|r| r.steps.len()).sum();
    let mut columns = Columns::with_capacity(rows);
    let loads = py.import("json")?.getattr("loads")?;
    for run in &runs {
        let device = run.header.get("device").and_then(|d| d.as_str());
        for step in &run.steps {
            columns.text("run", run.spec.key());
            columns.text("algorithm", run.spec.algorithm.display_label());
            columns.text("problem", run.spec.problem.display_label());
            columns.integer("replicate", run.spec.replicate as u64);
            columns.integer("seed", run.spec.seed);
            columns.text("device", device.unwrap_or("").to_owned());
            columns.integer("iter", step.iter as u64);
            columns.text("phase", step.phase.as_str().to_owned());
            columns.object("x", PyList::new(py, &step.x)?.into_any());
            columns.number("y", step.y);
            columns.integer("repeats", step.repeats as u64);
            columns.integer("evals", step.evals as u64);
            let context = match &step.context {
                Some(c) => PyList::new(py, c)?.into_any(),
                None => py.None().into_bound(py),
            };
            columns.object("context", context);
            columns.object("t", step.t.into_pyobject(py)?.into_any());
            columns.number("f", step.f);
            columns.number("best_value", step.best_value);
            columns.object(
                "recommended_x",
                PyList::new(py, &step.recommended_x)?.into_any(),
            );
            columns.number("instant_regret", step.instant_regret);
            columns.number("cumulative_regret", step.cumulative_regret);
            columns.number("simple_regret", step.simple_regret);
            columns.number("model_seconds", Some(step.model_seconds));
            columns.number("acq_seconds", Some(step.acq_seconds));
            let extra = serde_json::Value::Object(step.extra.clone()).to_string();
            columns.object("extra", loads.call1((extra,))?);
        }
    }
    columns.into_dict(py)
}

/// The table's columns, in order, with what each holds.
const SCHEMA: &[(&str, Kind)] = &[
    ("run", Kind::Text),
    ("algorithm", Kind::Text),
    ("problem", Kind::Text),
    ("replicate", Kind::Integer),
    ("seed", Kind::Integer),
    ("device", Kind::Text),
    ("iter", Kind::Integer),
    ("phase", Kind::Text),
    ("x", Kind::Object),
    ("y", Kind::Number),
    ("repeats", Kind::Integer),
    ("evals", Kind::Integer),
    ("context", Kind::Object),
    ("t", Kind::Object),
    ("f", Kind::Number),
    ("best_value", Kind::Number),
    ("recommended_x", Kind::Object),
    ("instant_regret", Kind::Number),
    ("cumulative_regret", Kind::Number),
    ("simple_regret", Kind::Number),
    ("model_seconds", Kind::Number),
    ("acq_seconds", Kind::Number),
    ("extra", Kind::Object),
];

#[derive(Clone, Copy)]
enum Kind {
    /// A float64 array, NaN for null.
    Number,
    /// A uint64 array (every integer of a trace is a count, an index or a seed).
    Integer,
    Text,
    /// Python objects (lists, None, dicts).
    Object,
}

enum Column<'py> {
    Numbers(Vec<f64>),
    Integers(Vec<u64>),
    Texts(Vec<String>),
    Objects(Vec<Bound<'py, PyAny>>),
}

/// The [`SCHEMA`]'s columns, filled a row at a time.
struct Columns<'py>(Vec<(&'static str, Column<'py>)>);

impl<'py> Columns<'py> {
    fn with_capacity(rows: usize) -> Self {
        Self(
            SCHEMA
                .iter()
                .map(|&(name, kind)| {
                    let column = match kind {
                        Kind::Number => Column::Numbers(Vec::with_capacity(rows)),
                        Kind::Integer => Column::Integers(Vec::with_capacity(rows)),
                        Kind::Text => Column::Texts(Vec::with_capacity(rows)),
                        Kind::Object => Column::Objects(Vec::with_capacity(rows)),
                    };
                    (name, column)
                })
                .collect(),
        )
    }

    fn column(&mut self, name: &str) -> &mut Column<'py> {
        let at = self.0.iter().position(|(n, _)| *n == name);
        &mut self.0[at.expect("every column filled is in SCHEMA")].1
    }

    fn number(&mut self, name: &str, value: Option<f64>) {
        if let Column::Numbers(values) = self.column(name) {
            values.push(value.unwrap_or(f64::NAN));
        }
    }

    fn integer(&mut self, name: &str, value: u64) {
        if let Column::Integers(values) = self.column(name) {
            values.push(value);
        }
    }

    fn text(&mut self, name: &str, value: String) {
        if let Column::Texts(values) = self.column(name) {
            values.push(value);
        }
    }

    fn object(&mut self, name: &str, value: Bound<'py, PyAny>) {
        if let Column::Objects(values) = self.column(name) {
            values.push(value);
        }
    }

    fn into_dict(self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, column) in self.0 {
            match column {
                Column::Numbers(v) => dict.set_item(name, PyArray1::from_vec(py, v))?,
                Column::Integers(v) => dict.set_item(name, PyArray1::from_vec(py, v))?,
                Column::Texts(v) => dict.set_item(name, v)?,
                Column::Objects(v) => dict.set_item(name, PyList::new(py, v)?)?,
            }
        }
        Ok(dict)
    }
}
