//! Every step of every completed run of a sweep directory, each field of the trace schema typed
//! ([`StepRecord`], the type runs write): what a program analysing a sweep reads (the Python
//! package's `bosweep.load` makes a table of it).

use std::path::Path;

use serde_json::{Map, Value};

use super::error::ReportError;
use crate::{MANIFEST_FILE, Manifest, RunSpec, StepRecord};

/// A completed run: its place in the sweep, its trace header and its steps.
#[derive(Clone, Debug)]
pub struct RunSteps {
    /// The run as the manifest lists it.
    pub spec: RunSpec,
    /// The trace's header object: the run's settings, seeds, sense, device and version.
    pub header: Map<String, Value>,
    /// Every step, in order.
    pub steps: Vec<StepRecord>,
}

/// The completed runs of the sweep in `dir`, in manifest order (runs without a trace, not run
/// yet or failed, are left out). A malformed trace is an error naming its file and line.
pub fn read_steps(dir: &Path) -> Result<Vec<RunSteps>, ReportError> {
    let manifest = Manifest::read(dir).map_err(|source| ReportError::Manifest {
        path: dir.join(MANIFEST_FILE),
        source,
    })?;
    let mut runs = Vec::new();
    for spec in &manifest.runs {
        let path = Manifest::trace_path(dir, spec);
        if path.is_file() {
            runs.push(read_run(spec, &path)?);
        }
    }
    Ok(runs)
}

/// `spec`'s completed trace at `path`.
pub(crate) fn read_run(spec: &RunSpec, path: &Path) -> Result<RunSteps, ReportError> {
    let (header, steps) = read_trace_steps(path)?;
    Ok(RunSteps {
        spec: spec.clone(),
        header,
        steps,
    })
}

/// The header and the steps of the trace at `path`: the header object first, then at least one
/// step, `evals` never decreasing; blank lines skipped, counted in line numbers.
fn read_trace_steps(path: &Path) -> Result<(Map<String, Value>, Vec<StepRecord>), ReportError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReportError::TraceIo {
        path: path.to_path_buf(),
        source,
    })?;
    let err = |line: usize, message: String| ReportError::Trace {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, raw)| (i + 1, raw))
        .filter(|(_, raw)| !raw.trim().is_empty());
    let header = match lines.next() {
        None => return Err(err(1, "empty trace (no header line)".into())),
        Some((line, raw)) => match serde_json::from_str::<Value>(raw) {
            Ok(Value::Object(mut object)) => match object.remove("header") {
                Some(Value::Object(header)) => header,
                _ => {
                    return Err(err(
                        line,
                        "expected the header line {\"header\": {...}} first".into(),
                    ));
                }
            },
            Ok(_) => return Err(err(line, "expected a JSON object".into())),
            Err(e) => return Err(err(line, format!("not valid JSON ({})", json_reason(&e)))),
        },
    };
    let mut steps: Vec<StepRecord> = Vec::new();
    let mut last_line = 1;
    for (line, raw) in lines {
        last_line = line;
        let step = serde_json::from_str::<StepRecord>(raw).map_err(|e| {
            err(
                line,
                format!(
                    "not a trace step ({}, at column {})",
                    json_reason(&e),
                    e.column()
                ),
            )
        })?;
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
    if steps.is_empty() {
        return Err(err(last_line, "the trace has a header but no steps".into()));
    }
    Ok((header, steps))
}

/// serde_json's message without its own "at line 1 column N" (the trace line is ours to name).
fn json_reason(e: &serde_json::Error) -> String {
    let message = e.to_string();
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(dir: &Path, body: &str) -> std::path::PathBuf {
        let path = dir.join("t.jsonl");
        std::fs::write(&path, body).unwrap();
        path
    }

    const STEP: &str = r#"{"iter":1,"phase":"init","x":[0.5],"y":null,"repeats":1,"evals":1,"context":null,"t":null,"f":2.0,"best_value":2.0,"recommended_x":[0.5],"instant_regret":1.5,"cumulative_regret":1.5,"simple_regret":1.5,"model_seconds":0.0,"acq_seconds":0.0,"extra":{"arm":1}}"#;

    #[test]
    fn steps_are_read_with_every_field_and_nulls_kept() {
        let dir = std::env::temp_dir().join(format!("bosweep-steps-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = trace(&dir, &format!("{{\"header\":{{\"seed\":3}}}}\n\n{STEP}\n"));
        let (header, steps) = read_trace_steps(&path).unwrap();
        assert_eq!(header["seed"], 3);
        assert_eq!(steps.len(), 1);
        assert_eq!(steps[0].y, None);
        assert_eq!(steps[0].f, Some(2.0));
        assert_eq!(steps[0].extra["arm"], 1);
        let bad = trace(
            &dir,
            &format!(
                "{{\"header\":{{}}}}\n{}\n",
                STEP.replace("\"evals\":1,", "")
            ),
        );
        let message = read_trace_steps(&bad).unwrap_err().to_string();
        assert!(
            message.contains("t.jsonl line 2: not a trace step (missing field `evals`, at column"),
            "{message}"
        );
        let headless = trace(&dir, &format!("{STEP}\n"));
        let message = read_trace_steps(&headless).unwrap_err().to_string();
        assert!(
            message.contains("line 1: expected the header line"),
            "{message}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
