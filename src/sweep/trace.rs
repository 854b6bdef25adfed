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
