//! The JSONL trace every run writes (`../shared/conventions.md`): a header line, then one line
//! per evaluation step, each flushed as soon as it is written so that a crash loses no completed
//! evaluation.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

/// `"init"` for the initial design, `"opt"` for steps the algorithm chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Init,
    Opt,
}

/// One evaluation step, with exactly the fields the conventions require.
#[derive(Clone, Debug, Serialize)]
pub struct StepRecord {
    pub iter: usize,
    pub phase: Phase,
    pub x: Vec<f64>,
    /// The observed value in the problem's own sense (mean of the repeats).
    pub y: f64,
    pub repeats: usize,
    pub evals: usize,
    pub context: Option<Vec<f64>>,
    pub t: Option<usize>,
    /// Objective of interest at `x`, when computable.
    pub f: Option<f64>,
    pub best_value: f64,
    pub recommended_x: Vec<f64>,
    pub instant_regret: Option<f64>,
    pub cumulative_regret: Option<f64>,
    pub simple_regret: Option<f64>,
    pub model_seconds: f64,
    pub acq_seconds: f64,
    pub extra: Map<String, Value>,
    /// What went wrong but was recovered from at this step (a GPU failure the run survived on
    /// the CPU backend, a GP that needed jitter to factorise); omitted when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Writes a trace to a file (or any writer), one JSON object per line.
pub struct TraceWriter {
    out: BufWriter<Box<dyn Write + Send>>,
    path: Option<PathBuf>,
}

impl TraceWriter {
    pub fn create(path: &Path) -> std::io::Result<Self> {
        let file = File::create(path)?;
        Ok(Self {
            out: BufWriter::new(Box::new(file)),
            path: Some(path.to_path_buf()),
        })
    }

    pub fn to_writer(writer: Box<dyn Write + Send>) -> Self {
        Self {
            out: BufWriter::new(writer),
            path: None,
        }
    }

    /// The file being written, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The first line: `{"header": {...}}`.
    pub fn header(&mut self, header: &Value) -> std::io::Result<()> {
        self.line(&serde_json::json!({ "header": header }))
    }

    pub fn step(&mut self, record: &StepRecord) -> std::io::Result<()> {
        self.line(record)
    }

    fn line<T: Serialize>(&mut self, value: &T) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, value)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

/// Why a trace under its final name cannot be trusted as the complete run of `budget`
/// evaluations with `seed`: resume redoes such a run instead of keeping it. Checks that every
/// line is one whole JSON object, the first a header of that seed, the others steps numbered
/// 1, 2, … whose last has spent exactly the budget.
pub fn check_complete(path: &Path, seed: u64, budget: usize) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("unreadable: {e}"))?;
    if text.is_empty() {
        return Err("it is empty".into());
    }
    if !text.ends_with('\n') {
        return Err("its last line is cut off".into());
    }
    let mut lines = text.lines().enumerate();
    let parse = |(i, line): (usize, &str)| -> Result<Map<String, Value>, String> {
        match serde_json::from_str(line) {
            Ok(Value::Object(object)) => Ok(object),
            _ => Err(format!("line {} is not a whole JSON object", i + 1)),
        }
    };
    let header = lines.next().map(parse).ok_or("it is empty")??;
    let header_seed = header
        .get("header")
        .and_then(|h| h.get("seed"))
        .and_then(Value::as_u64);
    match header_seed {
        Some(found) if found == seed => {}
        Some(found) => {
            return Err(format!(
                "line 1 is the header of another run (seed {found}, not {seed})"
            ));
        }
        None => return Err("line 1 is not a header with the run's seed".into()),
    }
    let mut evals = 0;
    let mut steps = 0;
    for numbered in lines {
        let line = numbered.0 + 1;
        let step = parse(numbered)?;
        steps += 1;
        if step.get("iter").and_then(Value::as_u64) != Some(steps) {
            return Err(format!("line {line} is not step {steps}"));
        }
        evals = step
            .get("evals")
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("line {line} has no \"evals\""))?;
    }
    if evals != budget as u64 {
        return Err(format!(
            "its {steps} steps spend {evals} of the {budget} evaluations"
        ));
    }
    Ok(())
}
