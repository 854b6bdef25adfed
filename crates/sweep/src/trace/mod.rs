//! The JSONL trace every run writes: a header line, then one line per evaluation step, each
//! flushed as soon as it is written so that a crash loses no completed evaluation. A step is one
//! [`StepRecord`], the type that writes it, reads it back (the report, the Python loader,
//! `export-coco`) and tabulates it ([`StepRecord::COLUMNS`]), so that the schema is stated once.
//! [`read_complete`] is the one rule by which every reader (resume, report, compare, merge,
//! archive, export, Python) decides that a trace holds its whole run.

mod complete;

pub use complete::{CompleteTrace, TraceError, parse_complete, read_complete};

use std::fs::{OpenOptions, TryLockError};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `"init"` for the initial design, `"opt"` for steps the algorithm chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// A point of the initial design.
    Init,
    /// A point the algorithm chose.
    Opt,
}

impl Phase {
    /// The name a trace writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Init => "init",
            Phase::Opt => "opt",
        }
    }
}

/// One evaluation step, with exactly the fields of the trace schema, in the order they are
/// written. Non-finite numbers are written as `null` (JSON has no NaN) and read back as `None`,
/// which is why `y` and `best_value`, always computed, are options too.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// The 1-based step number.
    pub iter: usize,
    /// Whether the design or the algorithm chose `x`.
    pub phase: Phase,
    /// The evaluated point.
    pub x: Vec<f64>,
    /// The observed value in the problem's own sense (mean of the repeats); `None` on a problem
    /// of several objectives, whose values are `objectives`.
    pub y: Option<f64>,
    /// The m observed values of a problem of several objectives, each in its own sense;
    /// omitted (empty) on a problem with one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<f64>,
    /// The k constraint values observed at `x` on a constrained problem; omitted (empty) on an
    /// unconstrained one (docs/conventions.md, "Constraints").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<f64>,
    /// Whether `x` satisfies every constraint, judged on the noise-free values where the
    /// problem computes them; omitted on an unconstrained problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feasible: Option<bool>,
    /// Evaluations made at `x` in this step.
    pub repeats: usize,
    /// Evaluations made so far, this step's included.
    pub evals: usize,
    /// The context the learner observed, for contextual problems.
    pub context: Option<Vec<f64>>,
    /// The time index, for time-varying problems.
    pub t: Option<usize>,
    /// Objective of interest at `x`, when computable.
    pub f: Option<f64>,
    /// The best `f` among the points so far (the observed `y` where `f` is unknown), in the
    /// problem's sense.
    pub best_value: Option<f64>,
    /// The hypervolume of the non-dominated set so far, where the problem has several
    /// objectives and a reference point (docs/conventions.md, "Several objectives").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hypervolume: Option<f64>,
    /// `log10(HV_max − HV)`, floored, where the maximum hypervolume is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_hv_difference: Option<f64>,
    /// IGD+ of the non-dominated set against the true front's sample, where it is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub igd_plus: Option<f64>,
    /// The algorithm's recommendation after this step (empty on several objectives: the
    /// recommendation is `front`).
    pub recommended_x: Vec<f64>,
    /// Whether `recommended_x` satisfies every constraint, on a constrained problem (unknown,
    /// and omitted, where neither the problem nor an evaluation of it says).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recommended_feasible: Option<bool>,
    /// Regret of `x`: how far its `f` falls short of the optimum at this step.
    pub instant_regret: Option<f64>,
    /// Sum of the instant regrets so far.
    pub cumulative_regret: Option<f64>,
    /// Regret of `recommended_x`.
    pub simple_regret: Option<f64>,
    /// Seconds the algorithm spent on its model this step.
    pub model_seconds: f64,
    /// Seconds the algorithm spent maximising its acquisition this step.
    pub acq_seconds: f64,
    /// The part of `acq_seconds` spent on the candidate grid (or the allowed set); omitted
    /// where the method has no grid stage.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub grid_seconds: f64,
    /// The part of `acq_seconds` spent refining the grid's best points; omitted where the
    /// method has no refinement.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub refine_seconds: f64,
    /// The synchronous batch the point was asked in (1-based); omitted for runs without
    /// batches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<usize>,
    /// The worker that evaluated the point (1-based; a batch's position); omitted for runs that
    /// evaluate one point at a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worker: Option<usize>,
    /// When the evaluation started on the run's simulated clock; omitted for untimed runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<f64>,
    /// When the evaluation finished (its value was told) on the simulated clock; omitted for
    /// untimed runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish: Option<f64>,
    /// Algorithm-specific values; traces that predate it read as empty.
    #[serde(default)]
    pub extra: Map<String, Value>,
    /// What went wrong but was recovered from at this step (a GPU failure the run survived on
    /// the CPU backend, a GP that needed jitter to factorise); omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The `iter`s of the steps whose values form the non-dominated set so far: the
    /// recommendation of a run on several objectives; omitted (empty) on one objective.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub front: Vec<usize>,
}

/// How one field of a record becomes a table column, read by a plain function: counts
/// (indices, seeds), reals (unknown: `None`), text, or points (absent: `None`).
pub enum TableColumn<R> {
    /// A whole number (an index, a count, a seed), `None` where absent.
    Count(fn(&R) -> Option<u64>),
    /// A real number, `None` where unknown.
    Real(fn(&R) -> Option<f64>),
    /// Text, such as the phase.
    Text(fn(&R) -> String),
    /// A point, `None` where absent.
    Points(fn(&R) -> Option<&[f64]>),
}

impl StepRecord {
    /// The fields as columns of a long table (the report's `steps.csv` and `steps.parquet`), in
    /// the trace's order: every field but the free-form objects `extra` and `warnings`, which
    /// have no column type. A field added to the record gets its column here.
    pub const COLUMNS: [(&'static str, TableColumn<StepRecord>); 29] = [
        ("iter", TableColumn::Count(|s| Some(s.iter as u64))),
        ("phase", TableColumn::Text(|s| s.phase.as_str().to_owned())),
        ("x", TableColumn::Points(|s| Some(s.x.as_slice()))),
        ("y", TableColumn::Real(|s| s.y)),
        (
            "objectives",
            TableColumn::Points(|s| (!s.objectives.is_empty()).then_some(s.objectives.as_slice())),
        ),
        (
            "constraints",
            TableColumn::Points(|s| {
                (!s.constraints.is_empty()).then_some(s.constraints.as_slice())
            }),
        ),
        (
            "feasible",
            TableColumn::Count(|s| s.feasible.map(u64::from)),
        ),
        ("repeats", TableColumn::Count(|s| Some(s.repeats as u64))),
        ("evals", TableColumn::Count(|s| Some(s.evals as u64))),
        ("context", TableColumn::Points(|s| s.context.as_deref())),
        ("t", TableColumn::Count(|s| s.t.map(|t| t as u64))),
        ("f", TableColumn::Real(|s| s.f)),
        ("best_value", TableColumn::Real(|s| s.best_value)),
        ("hypervolume", TableColumn::Real(|s| s.hypervolume)),
        (
            "log_hv_difference",
            TableColumn::Real(|s| s.log_hv_difference),
        ),
        ("igd_plus", TableColumn::Real(|s| s.igd_plus)),
        (
            "recommended_x",
            TableColumn::Points(|s| Some(s.recommended_x.as_slice())),
        ),
        (
            "recommended_feasible",
            TableColumn::Count(|s| s.recommended_feasible.map(u64::from)),
        ),
        ("instant_regret", TableColumn::Real(|s| s.instant_regret)),
        (
            "cumulative_regret",
            TableColumn::Real(|s| s.cumulative_regret),
        ),
        ("simple_regret", TableColumn::Real(|s| s.simple_regret)),
        (
            "model_seconds",
            TableColumn::Real(|s| Some(s.model_seconds)),
        ),
        ("acq_seconds", TableColumn::Real(|s| Some(s.acq_seconds))),
        ("grid_seconds", TableColumn::Real(|s| Some(s.grid_seconds))),
        (
            "refine_seconds",
            TableColumn::Real(|s| Some(s.refine_seconds)),
        ),
        ("batch", TableColumn::Count(|s| s.batch.map(|b| b as u64))),
        ("worker", TableColumn::Count(|s| s.worker.map(|w| w as u64))),
        ("start", TableColumn::Real(|s| s.start)),
        ("finish", TableColumn::Real(|s| s.finish)),
    ];

    /// The wall-clock fields: the only ones a rerun on the CPU backend may change.
    pub const TIMINGS: [&'static str; 4] = [
        "model_seconds",
        "acq_seconds",
        "grid_seconds",
        "refine_seconds",
    ];

    /// The fields left out of [`Self::COLUMNS`]: the free-form objects, and `front`, a list of
    /// step numbers that the `objectives` column already determines.
    pub const UNTABULATED: [&'static str; 3] = ["extra", "warnings", "front"];
}

/// Whether a seconds field is absent from the trace (a stage the method does not have).
fn is_zero(seconds: &f64) -> bool {
    *seconds == 0.0
}

/// Writes a trace to a file (or any writer), one JSON object per line.
pub struct TraceWriter {
    out: BufWriter<Box<dyn Write + Send>>,
    path: Option<PathBuf>,
}

impl TraceWriter {
    /// A writer into a new file at `path`, replacing one that exists, which this process holds
    /// locked until the writer is dropped (the operating system's advisory lock, released
    /// however the process ends): while another process writes a trace there, it is refused
    /// with [`std::io::ErrorKind::WouldBlock`] and left as it is, so that two runs given one
    /// output never interleave their lines.
    pub fn create(path: &Path) -> std::io::Result<Self> {
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::WouldBlock,
                    "another process is writing a trace there",
                ));
            }
            Err(TryLockError::Error(e)) => return Err(e),
        }
        file.set_len(0)?;
        Ok(Self {
            out: BufWriter::new(Box::new(file)),
            path: Some(path.to_path_buf()),
        })
    }

    /// A writer into `writer` (stdout, a buffer), with no file path.
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

    /// Writes one step line and flushes it.
    pub(crate) fn step(&mut self, record: &StepRecord) -> std::io::Result<()> {
        self.line(record)
    }

    fn line<T: Serialize>(&mut self, value: &T) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, value)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> StepRecord {
        StepRecord {
            iter: 2,
            phase: Phase::Opt,
            x: vec![0.5, -1.0],
            y: Some(f64::NAN),
            objectives: Vec::new(),
            constraints: Vec::new(),
            feasible: None,
            repeats: 1,
            evals: 2,
            context: None,
            t: Some(2),
            f: Some(1.25),
            best_value: Some(1.25),
            front: Vec::new(),
            hypervolume: None,
            log_hv_difference: None,
            igd_plus: None,
            recommended_x: vec![0.5, -1.0],
            recommended_feasible: None,
            instant_regret: None,
            cumulative_regret: None,
            simple_regret: None,
            model_seconds: 0.5,
            acq_seconds: 0.25,
            grid_seconds: 0.2,
            refine_seconds: 0.05,
            batch: Some(3),
            worker: Some(2),
            start: Some(4.5),
            finish: Some(6.0),
            extra: Map::from_iter([("arm".to_owned(), Value::from(1))]),
            warnings: vec!["jitter 1e-6".into()],
        }
    }

    #[test]
    fn a_record_is_written_in_schema_order_and_read_back() {
        let line = serde_json::to_string(&record()).unwrap();
        assert_eq!(
            line,
            r#"{"iter":2,"phase":"opt","x":[0.5,-1.0],"y":null,"repeats":1,"evals":2,"context":null,"t":2,"f":1.25,"best_value":1.25,"recommended_x":[0.5,-1.0],"instant_regret":null,"cumulative_regret":null,"simple_regret":null,"model_seconds":0.5,"acq_seconds":0.25,"grid_seconds":0.2,"refine_seconds":0.05,"batch":3,"worker":2,"start":4.5,"finish":6.0,"extra":{"arm":1},"warnings":["jitter 1e-6"]}"#
        );
        let read: StepRecord = serde_json::from_str(&line).unwrap();
        assert_eq!(
            read,
            StepRecord {
                y: None,
                ..record()
            }
        );

        // Without warnings, stages or scheduling (one point at a time, untimed) the fields are
        // left out, and a trace without `extra` reads as empty.
        let quiet = StepRecord {
            grid_seconds: 0.0,
            refine_seconds: 0.0,
            batch: None,
            worker: None,
            start: None,
            finish: None,
            warnings: Vec::new(),
            extra: Map::new(),
            ..record()
        };
        let line = serde_json::to_string(&quiet).unwrap();
        assert!(
            line.ends_with(r#""acq_seconds":0.25,"extra":{}}"#),
            "{line}"
        );
        let old = line.replace(r#","extra":{}"#, "");
        assert_eq!(
            serde_json::from_str::<StepRecord>(&old).unwrap(),
            StepRecord { y: None, ..quiet }
        );
    }

    #[test]
    fn every_field_is_a_column_or_named_untabulated_in_the_trace_order() {
        // A step of a constrained run on several objectives, whose fields of their own are
        // written too.
        let record = StepRecord {
            objectives: vec![1.0, 2.0],
            constraints: vec![0.5, -1.0],
            feasible: Some(false),
            recommended_feasible: Some(true),
            front: vec![1, 2],
            hypervolume: Some(3.0),
            log_hv_difference: Some(-1.0),
            igd_plus: Some(0.5),
            warnings: vec!["w".into()],
            ..record()
        };
        let Value::Object(fields) = serde_json::to_value(&record).unwrap() else {
            panic!("a record is an object");
        };
        let line = serde_json::to_string(&record).unwrap();
        let mut written: Vec<&str> = fields.keys().map(String::as_str).collect();
        written.sort_by_key(|key| line.find(&format!("\"{key}\":")).unwrap());
        let listed: Vec<&str> = StepRecord::COLUMNS
            .iter()
            .map(|(name, _)| *name)
            .chain(StepRecord::UNTABULATED)
            .collect();
        assert_eq!(written, listed);
    }

    #[test]
    fn columns_read_their_fields() {
        let record = record();
        let cell = |name: &str| {
            let (_, column) = StepRecord::COLUMNS
                .iter()
                .find(|(n, _)| *n == name)
                .unwrap();
            match column {
                TableColumn::Count(f) => format!("{:?}", f(&record)),
                TableColumn::Real(f) => format!("{:?}", f(&record)),
                TableColumn::Text(f) => f(&record),
                TableColumn::Points(f) => format!("{:?}", f(&record)),
            }
        };
        assert_eq!(cell("iter"), "Some(2)");
        assert_eq!(cell("phase"), "opt");
        assert_eq!(cell("x"), "Some([0.5, -1.0])");
        assert_eq!(cell("context"), "None");
        assert_eq!(cell("t"), "Some(2)");
        assert_eq!(cell("f"), "Some(1.25)");
        assert_eq!(cell("instant_regret"), "None");
        assert_eq!(cell("acq_seconds"), "Some(0.25)");
    }
}
