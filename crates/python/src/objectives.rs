//! Python callables as objectives: each is registered with the problems crate under a name
//! ([`register_function`]) for as long as a sweep or run needs it, so that the problem
//! `callable` (`function = NAME`) evaluates it in-process. A sweep config given as a dict may
//! hold the callables themselves; they are registered under their `__name__`.

use std::collections::HashMap;
use std::sync::Arc;

use bosweep_problems::{HostFunction, Registration, register_function};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use super::errors::{invalid, shown, to_py};

/// `f(x) -> float` (or, on a problem of several objectives, a sequence of floats) with `x` a
/// 1-D numpy array, called with the GIL taken for each evaluation from whichever worker thread
/// evaluates.
struct PythonFunction(Py<PyAny>);

/// A number as a list of one, or a sequence of numbers.
fn numbers(value: &Bound<'_, PyAny>) -> Option<Vec<f64>> {
    match value.extract::<f64>() {
        Ok(v) => Some(vec![v]),
        Err(_) => value.extract::<Vec<f64>>().ok(),
    }
}

impl HostFunction for PythonFunction {
    /// A number or a sequence of numbers: the objectives' values; a pair whose second entry is
    /// a sequence, `(objectives, constraints)`: the objectives' values (a number or a sequence)
    /// and the constraint values.
    fn evaluate(&self, x: &[f64]) -> Result<(Vec<f64>, Vec<f64>), String> {
        Python::attach(|py| {
            let value = self
                .0
                .call1(py, (PyArray1::from_slice(py, x),))
                .map_err(|e| format!("raised {e}"))?;
            let value = value.bind(py);
            if let Ok(pair) = value.cast::<PyTuple>()
                && pair.len() == 2
                && let Ok(second) = pair.get_item(1)
                && !second.is_instance_of::<PyFloat>()
                && !second.is_instance_of::<PyInt>()
                && let Some(constraints) = numbers(&second)
            {
                let first = pair.get_item(0).map_err(|e| e.to_string())?;
                let objectives = numbers(&first).ok_or_else(|| {
                    format!(
                        "returned the pair {} whose objectives are not a number nor a sequence \
                         of numbers",
                        shown(value)
                    )
                })?;
                return Ok((objectives, constraints));
            }
            numbers(value).map(|v| (v, Vec::new())).ok_or_else(|| {
                format!(
                    "returned {} (expected a number, a sequence of numbers, or a pair \
                     (objectives, constraints))",
                    shown(value)
                )
            })
        })
    }
}

/// Named callables on their way to being registered.
#[derive(Default)]
pub struct Objectives(Vec<(String, Py<PyAny>)>);

impl Objectives {
    /// The `objectives` argument: a dict from names to callables.
    pub fn from_dict(objectives: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut out = Self::default();
        for (key, value) in objectives.into_iter().flat_map(|d| d.iter()) {
            let name: String = key
                .extract()
                .map_err(|_| invalid(format!("objectives: key {} is not a string", shown(&key))))?;
            out.add(name, &value)?;
        }
        Ok(out)
    }

    /// Adds `callable` under `name`; the same name for another object is refused.
    pub fn add(&mut self, name: String, callable: &Bound<'_, PyAny>) -> PyResult<()> {
        if !callable.is_callable() {
            return Err(invalid(format!(
                "objectives: \"{name}\" is {}, not a callable",
                callable.repr()?
            )));
        }
        match self.0.iter().find(|(n, _)| *n == name) {
            Some((_, known)) if known.is(callable) => Ok(()),
            Some(_) => Err(invalid(format!(
                "objectives: two different callables are named \"{name}\"; pass them as \
                 objectives={{NAME: f}} with distinct names"
            ))),
            None => {
                self.0.push((name, callable.clone().unbind()));
                Ok(())
            }
        }
    }

    /// Registers every callable; they stay registered until the registrations are dropped.
    pub fn register(&self, py: Python<'_>) -> PyResult<Vec<Registration>> {
        self.0
            .iter()
            .map(|(name, callable)| {
                register_function(name, Arc::new(PythonFunction(callable.clone_ref(py))))
                    .map_err(to_py)
            })
            .collect()
    }
}

/// A sweep config given as a dict, as the TOML text a config file would hold. Callables among
/// its values become their `__name__`, added to `objectives`.
pub fn config_toml(config: &Bound<'_, PyDict>, objectives: &mut Objectives) -> PyResult<String> {
    let table = table("config", config, objectives)?;
    toml::to_string(&table).map_err(|e| invalid(format!("config: cannot be written as TOML: {e}")))
}

/// The dotted path (`config.budget`, `config.problem[1].noise_std`, `config.algorithm[0]`) of
/// what line `line` of [`config_toml`]'s TOML holds, for errors the config's parser blames on a
/// line of text the user never saw. A key line names its key only where `message` does.
pub fn dict_path(toml: &str, line: usize, message: &str) -> String {
    let mut table = String::from("config");
    let mut path = table.clone();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for text in toml.lines().take(line) {
        let text = text.trim();
        if let Some(name) = text.strip_prefix("[[").and_then(|t| t.strip_suffix("]]")) {
            let index = seen.entry(name).or_default();
            table = format!("config.{name}[{index}]");
            *index += 1;
            path = table.clone();
        } else if let Some(name) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            table = format!("config.{name}");
            path = table.clone();
        } else if let Some((key, _)) = text.split_once('=') {
            let key = key.trim().trim_matches('"');
            path = if message.contains(key) {
                format!("{table}.{key}")
            } else {
                table.clone()
            };
        }
    }
    path
}

fn table(
    path: &str,
    dict: &Bound<'_, PyDict>,
    objectives: &mut Objectives,
) -> PyResult<toml::Table> {
    dict.iter()
        .map(|(key, value)| {
            let key: String = key
                .extract()
                .map_err(|_| invalid(format!("{path}: key {} is not a string", shown(&key))))?;
            let inner = format!("{path}.{key}");
            let value = toml_value(&inner, &value, objectives)?;
            Ok((key, value))
        })
        .collect()
}

fn toml_value(
    path: &str,
    value: &Bound<'_, PyAny>,
    objectives: &mut Objectives,
) -> PyResult<toml::Value> {
    if value.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(value.extract()?));
    }
    if value.is_instance_of::<PyInt>() {
        let v: i64 = value
            .extract()
            .map_err(|_| invalid(format!("{path}: {} is out of range", shown(value))))?;
        return Ok(toml::Value::Integer(v));
    }
    if value.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(value.extract()?));
    }
    if value.is_instance_of::<PyString>() {
        return Ok(toml::Value::String(value.extract()?));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        return Ok(toml::Value::Table(table(path, dict, objectives)?));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items: Vec<toml::Value> = value
            .try_iter()?
            .enumerate()
            .map(|(i, item)| toml_value(&format!("{path}[{i}]"), &item?, objectives))
            .collect::<PyResult<_>>()?;
        return Ok(toml::Value::Array(items));
    }
    if value.is_callable() {
        let name: String = value.getattr("__name__")?.extract()?;
        objectives.add(name.clone(), value)?;
        return Ok(toml::Value::String(name));
    }
    Err(invalid(format!(
        "{path}: {} (give a number, a string, a bool, a list, a dict or a callable)",
        value.repr()?
    )))
}
