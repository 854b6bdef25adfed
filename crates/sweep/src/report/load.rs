//! Reading a sweep directory: the manifest, the config text and the trace of every completed run
//! (only the fields a report needs, each checked, with errors that name the file and line).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::Metric;
use super::error::ReportError;
use crate::config::{METRIC_KEY, REPORT_TABLE};
use crate::{CONFIG_FILE, MANIFEST_FILE, Manifest, RUNS_DIR, RunSpec};
use bosweep_problems::Sense;

/// The fields of one trace step that a report uses.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Step {
    pub evals: usize,
    pub simple_regret: Option<f64>,
    pub cumulative_regret: Option<f64>,
    /// `None` only where the trace wrote `null` (a non-finite value).
    pub best_value: Option<f64>,
    /// `model_seconds + acq_seconds`.
    pub seconds: f64,
}

/// One completed run's trace.
#[derive(Clone, Debug)]
pub(crate) struct Trace {
    /// The header's `"sense"`, where it has a recognised one.
    pub sense: Option<Sense>,
    /// The header's `"device"`, where it has one.
    pub device: Option<String>,
    /// At least one step, `evals` non-decreasing.
    pub steps: Vec<Step>,
}

impl Trace {
    pub fn last(&self) -> &Step {
        self.steps.last().expect("a trace has at least one step")
    }
}

pub(crate) struct CompletedRun {
    pub spec: RunSpec,
    pub trace: Trace,
}

/// Everything a report is made from.
pub(crate) struct Sweep {
    /// The text of `config.toml`, where the directory has one.
    pub config: Option<String>,
    /// Every run of the manifest, in manifest order.
    pub runs: Vec<RunSpec>,
    /// The runs with a trace under `runs/`, in manifest order.
    pub completed: Vec<CompletedRun>,
    /// The runs without one (not run yet, still running, or failed), in manifest order.
    pub missing: Vec<RunSpec>,
}

/// The `[report] metric` of the sweep's config text (`None` without one, or without a config).
/// The config was checked when the sweep ran; this reads the one key again, so that a hand-edited
/// file still gets an error that names it.
pub(crate) fn configured_metric(
    dir: &Path,
    config: Option<&str>,
) -> Result<Option<Metric>, ReportError> {
    let Some(text) = config else {
        return Ok(None);
    };
    let error = |message: String| ReportError::Config {
        path: dir.join(CONFIG_FILE),
        message,
    };
    let table: toml::Table = toml::from_str(text).map_err(|e| error(e.message().to_owned()))?;
    let Some(metric) = table.get(REPORT_TABLE).and_then(|r| r.get(METRIC_KEY)) else {
        return Ok(None);
    };
    let name = metric.as_str().ok_or_else(|| {
        error(format!(
            "[{REPORT_TABLE}] {METRIC_KEY}: expected a string, found {metric}"
        ))
    })?;
    name.parse()
        .map(Some)
        .map_err(|e| error(format!("[{REPORT_TABLE}] {METRIC_KEY}: {e}")))
}

/// Reads `dir`. Fails on a missing or malformed manifest, on any unreadable or malformed trace,
/// and when no run has completed.
pub(crate) fn load_sweep(dir: &Path) -> Result<Sweep, ReportError> {
    let manifest = Manifest::read(dir).map_err(|source| ReportError::Manifest {
        path: dir.join(MANIFEST_FILE),
        source,
    })?;
    let config = std::fs::read_to_string(dir.join(CONFIG_FILE)).ok();
    let mut completed = Vec::new();
    let mut missing = Vec::new();
    for spec in &manifest.runs {
        let path = Manifest::trace_path(dir, spec);
        if path.is_file() {
            let trace = read_trace(&path)?;
            completed.push(CompletedRun {
                spec: spec.clone(),
                trace,
            });
        } else {
            missing.push(spec.clone());
        }
    }
    if completed.is_empty() {
        return Err(ReportError::NoCompletedRuns {
            dir: dir.to_path_buf(),
            runs_dir: dir.join(RUNS_DIR),
            total: manifest.runs.len(),
        });
    }
    Ok(Sweep {
        config,
        runs: manifest.runs,
        completed,
        missing,
    })
}

/// Reads and checks one JSONL trace: the header object first, then at least one step. Blank
/// lines are skipped (but counted in line numbers).
pub(crate) fn read_trace(path: &Path) -> Result<Trace, ReportError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReportError::TraceIo {
        path: path.to_path_buf(),
        source,
    })?;
    let err = |line: usize, message: String| ReportError::Trace {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut sense = None;
    let mut device = None;
    let mut header_seen = false;
    let mut steps: Vec<Step> = Vec::new();
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        last_line = line;
        if raw.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(raw).map_err(|e| {
            err(
                line,
                format!(
                    "not valid JSON ({}, at column {})",
                    json_reason(&e),
                    e.column()
                ),
            )
        })?;
        let Value::Object(object) = value else {
            return Err(err(line, "expected a JSON object".into()));
        };
        if !header_seen {
            match object.get("header") {
                Some(Value::Object(header)) => {
                    sense = header
                        .get("sense")
                        .and_then(Value::as_str)
                        .and_then(parse_sense);
                    device = header
                        .get("device")
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    header_seen = true;
                    continue;
                }
                _ => {
                    return Err(err(
                        line,
                        "expected the header line {\"header\": {...}} first".into(),
                    ));
                }
            }
        }
        let step = parse_step(&object).map_err(|message| err(line, message))?;
        let previous = steps.last().map_or(0, |s| s.evals);
        if step.evals < previous {
            return Err(err(
                line,
                format!(
                    "\"evals\" is {}, less than the previous step's {previous}",
                    step.evals
                ),
            ));
        }
        steps.push(step);
    }
    if !header_seen {
        return Err(err(last_line.max(1), "empty trace (no header line)".into()));
    }
    if steps.is_empty() {
        return Err(err(last_line, "the trace has a header but no steps".into()));
    }
    Ok(Trace {
        sense,
        device,
        steps,
    })
}

fn parse_sense(s: &str) -> Option<Sense> {
    match s {
        "minimize" | "minimise" | "min" => Some(Sense::Minimize),
        "maximize" | "maximise" | "max" => Some(Sense::Maximize),
        _ => None,
    }
}

/// serde_json's message without its own "at line 1 column N" (the trace line is ours to name).
pub(super) fn json_reason(e: &serde_json::Error) -> String {
    let message = e.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    }
}

fn parse_step(object: &Map<String, Value>) -> Result<Step, String> {
    let field = |name: &str| {
        object
            .get(name)
            .ok_or_else(|| format!("missing field \"{name}\""))
    };
    let number = |name: &str| -> Result<f64, String> {
        let v = field(name)?;
        v.as_f64()
            .ok_or_else(|| format!("field \"{name}\" is {v}, expected a number"))
    };
    let nullable = |name: &str| -> Result<Option<f64>, String> {
        match field(name)? {
            Value::Null => Ok(None),
            v => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| format!("field \"{name}\" is {v}, expected a number or null")),
        }
    };
    let evals_value = field("evals")?;
    let evals = evals_value
        .as_u64()
        .and_then(|e| usize::try_from(e).ok())
        .ok_or_else(|| {
            format!("field \"evals\" is {evals_value}, expected a non-negative integer")
        })?;
    let model = number("model_seconds")?;
    let acq = number("acq_seconds")?;
    Ok(Step {
        evals,
        simple_regret: nullable("simple_regret")?,
        cumulative_regret: nullable("cumulative_regret")?,
        best_value: nullable("best_value")?,
        seconds: model + acq,
    })
}

/// The path of `spec`'s trace, relative to the sweep directory (for messages and reports).
pub(crate) fn relative_trace_path(spec: &RunSpec) -> PathBuf {
    Path::new(RUNS_DIR).join(spec.trace_file())
}
