//! `bosweep.sweep`: a sweep from a config file or a dict, Python callables as objectives; and
//! `bosweep.load_sweep`: a sweep directory's steps as columns for `pandas.DataFrame`.

use std::path::PathBuf;

use bosweep_sweep::report::{RunSteps, read_steps};
use bosweep_sweep::{
    MixedDevices, Shard, StepRecord, StopSignal, SweepConfig, SweepOptions, TableColumn, WhenLocked,
};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use super::errors::{invalid, to_py};
use super::interrupt::interruptible;
use super::objectives::{Objectives, config_toml, dict_path};
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
    let from_dict = config.is_instance_of::<PyDict>();
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
    let config = SweepConfig::parse(&text, &file_name).map_err(|e| match e.line {
        // A dict's errors name the key's path, not a line of the TOML written from it.
        Some(line) if from_dict => invalid(format!(
            "{}: {}",
            dict_path(&text, line, &e.message),
            e.message
        )),
        _ => to_py(e),
    })?;
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
/// `problem` labels, `replicate`, `seed`, `device`), then the trace's fields as the report's
/// long table has them ([`StepRecord::COLUMNS`]: counts as uint64 arrays, or lists with None
/// where a step has none; reals as float64 arrays, NaN where the trace has null; points as
/// lists), then `extra` (dicts) and `warnings` (lists of text).
#[pyfunction]
pub fn load_sweep<'py>(py: Python<'py>, dir: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let runs = py.detach(|| read_steps(&dir)).map_err(to_py)?;
    let steps = || {
        runs.iter()
            .flat_map(|run| run.steps.iter().map(move |step| (run, step)))
    };
    let dict = PyDict::new(py);
    let of_run =
        |f: fn(&RunSteps) -> String| -> Vec<String> { steps().map(|(run, _)| f(run)).collect() };
    dict.set_item("run", of_run(|run| run.spec.key()))?;
    dict.set_item(
        "algorithm",
        of_run(|run| run.spec.algorithm.display_label()),
    )?;
    dict.set_item("problem", of_run(|run| run.spec.problem.display_label()))?;
    let replicates = steps().map(|(run, _)| run.spec.replicate as u64).collect();
    dict.set_item("replicate", PyArray1::from_vec(py, replicates))?;
    let seeds = steps().map(|(run, _)| run.spec.seed).collect();
    dict.set_item("seed", PyArray1::from_vec(py, seeds))?;
    dict.set_item(
        "device",
        of_run(|run| {
            let device = run.header.get("device").and_then(|d| d.as_str());
            device.unwrap_or("").to_owned()
        }),
    )?;
    for (name, column) in &StepRecord::COLUMNS {
        let values = match column {
            TableColumn::Count(f) => {
                let counts: Vec<Option<u64>> = steps().map(|(_, s)| f(s)).collect();
                match counts.iter().copied().collect::<Option<Vec<u64>>>() {
                    Some(all) => PyArray1::from_vec(py, all).into_any(),
                    None => PyList::new(py, counts)?.into_any(),
                }
            }
            TableColumn::Real(f) => {
                let reals = steps().map(|(_, s)| f(s).unwrap_or(f64::NAN)).collect();
                PyArray1::from_vec(py, reals).into_any()
            }
            TableColumn::Text(f) => {
                let texts: Vec<String> = steps().map(|(_, s)| f(s)).collect();
                PyList::new(py, texts)?.into_any()
            }
            TableColumn::Points(f) => {
                let points: Vec<Option<Vec<f64>>> =
                    steps().map(|(_, s)| f(s).map(<[f64]>::to_vec)).collect();
                PyList::new(py, points)?.into_any()
            }
        };
        dict.set_item(name, values)?;
    }
    // The free-form fields, which the long table leaves out, as Python objects.
    let loads = py.import("json")?.getattr("loads")?;
    let extra = steps()
        .map(|(_, s)| loads.call1((serde_json::Value::Object(s.extra.clone()).to_string(),)))
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("extra", extra)?;
    let warnings: Vec<Vec<String>> = steps().map(|(_, s)| s.warnings.clone()).collect();
    dict.set_item("warnings", warnings)?;
    Ok(dict)
}
