//! When a trace holds its whole run: the one rule that resume, reports, `compare`, `merge`,
//! `archive create`, `export-coco` and the Python loader all apply, so that a run cut short (a
//! deleted last line, a file copied halfway, another run's file under its name) is never
//! counted as a result anywhere.
//!
//! A trace is complete when, blank lines aside:
//! - its first line is `{"header": {...}}` whose `seed` is the run's (and whose `budget`, where
//!   it records one, is the run's);
//! - every other line is one whole step of the trace schema ([`StepRecord`]), numbered 1, 2, …
//!   in order, its `evals` never decreasing and never above the budget;
//! - it has at least one step, and its last has spent exactly the run's budget: a run ends when
//!   its budget is reached (docs/conventions.md, "Complete runs").

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::StepRecord;
use bosweep_core::io::one_line;

/// A trace that holds its whole run.
#[derive(Clone, Debug, PartialEq)]
pub struct CompleteTrace {
    /// The header object: the run's settings, seeds, sense, device and version.
    pub header: Map<String, Value>,
    /// Every step, in order; the last one spent the budget.
    pub steps: Vec<StepRecord>,
}

/// Why a trace file is not a complete run.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// The file cannot be read.
    #[error("cannot read trace {}: {}", path.display(), bosweep_core::io::io_reason(source))]
    Io {
        /// The trace's path.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A line is not what the schema or the run says it must be, or the run stops short
    /// (`line` is 1-based, the header line 1; for a run cut short, its last line).
    #[error("{} line {line}: {message}", path.display())]
    Defect {
        /// The trace's path.
        path: PathBuf,
        /// The 1-based line.
        line: usize,
        /// What is wrong there.
        message: String,
    },
}

impl TraceError {
    /// What is wrong, without the path (for messages that name the file already).
    pub fn reason(&self) -> String {
        match self {
            Self::Io { source, .. } => {
                format!("unreadable: {}", bosweep_core::io::io_reason(source))
            }
            Self::Defect { line, message, .. } => format!("line {line}: {message}"),
        }
    }
}

/// The trace at `path` as the complete run with `seed` and `budget`, or why it is not one.
pub fn read_complete(path: &Path, seed: u64, budget: usize) -> Result<CompleteTrace, TraceError> {
    let text = std::fs::read_to_string(path).map_err(|source| TraceError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_complete(&text, seed, budget).map_err(|(line, message)| TraceError::Defect {
        path: path.to_path_buf(),
        line,
        message,
    })
}

/// [`read_complete`] on a trace's text: the defect's 1-based line and what is wrong there.
pub fn parse_complete(
    text: &str,
    seed: u64,
    budget: usize,
) -> Result<CompleteTrace, (usize, String)> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, raw)| (i + 1, raw))
        .filter(|(_, raw)| !raw.trim().is_empty());
    let (header_line, raw) = lines
        .next()
        .ok_or((1, "empty trace (no header line)".to_owned()))?;
    let header = parse_header(raw, seed, budget).map_err(|message| (header_line, message))?;
    let mut steps: Vec<StepRecord> = Vec::new();
    let mut last_line = header_line;
    for (line, raw) in lines {
        last_line = line;
        let step = serde_json::from_str::<StepRecord>(raw).map_err(|e| {
            let message = format!(
                "not a trace step ({}, at column {})",
                json_reason(&e),
                e.column()
            );
            (line, message)
        })?;
        let expected = steps.len() + 1;
        if step.iter != expected {
            return Err((
                line,
                format!("\"iter\" is {}, expected step {expected}", step.iter),
            ));
        }
        let previous = steps.last().map_or(0, |s| s.evals);
        if step.evals < previous {
            return Err((
                line,
                format!(
                    "\"evals\" is {}, less than the previous step's {previous}",
                    step.evals
                ),
            ));
        }
        if step.evals > budget {
            return Err((
                line,
                format!(
                    "\"evals\" is {}, more than the run's budget of {budget}",
                    step.evals
                ),
            ));
        }
        steps.push(step);
    }
    let spent = steps.last().map_or(0, |s| s.evals);
    if steps.is_empty() || spent != budget {
        return Err((
            last_line,
            format!("the run is not complete: it stops after {spent} of its {budget} evaluations"),
        ));
    }
    Ok(CompleteTrace { header, steps })
}

/// The header object of the line `raw`, checked against the run's seed and budget.
fn parse_header(raw: &str, seed: u64, budget: usize) -> Result<Map<String, Value>, String> {
    let header = match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(mut object)) => match object.remove("header") {
            Some(Value::Object(header)) => header,
            _ => return Err("expected the header line {\"header\": {...}} first".into()),
        },
        Ok(_) => return Err("expected the header line {\"header\": {...}} first".into()),
        Err(e) => return Err(format!("not valid JSON ({})", json_reason(&e))),
    };
    match header.get("seed").map(Value::as_u64) {
        Some(Some(found)) if found == seed => {}
        Some(Some(found)) => {
            return Err(format!(
                "the header is another run's (seed {found}, not {seed})"
            ));
        }
        _ => return Err(format!("the header has no \"seed\" (the run's is {seed})")),
    }
    if let Some(recorded) = header.get("budget")
        && recorded.as_u64() != Some(budget as u64)
    {
        return Err(format!(
            "the header's \"budget\" is {recorded}, not the run's {budget}"
        ));
    }
    Ok(header)
}

/// serde_json's message without its own "at line 1 column N" (the trace line is ours to name),
/// on one line.
fn json_reason(e: &serde_json::Error) -> String {
    let message = e.to_string();
    one_line(match message.rfind(" at line ") {
        Some(at) => &message[..at],
        None => &message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A complete trace of seed 7 and budget 3: the header, then three steps.
    fn trace() -> Vec<String> {
        let step = |iter: usize| {
            format!(
                r#"{{"iter":{iter},"phase":"init","x":[0.5],"y":1.0,"repeats":1,"evals":{iter},"context":null,"t":null,"f":1.0,"best_value":1.0,"recommended_x":[0.5],"instant_regret":0.5,"cumulative_regret":0.5,"simple_regret":0.5,"model_seconds":0.0,"acq_seconds":0.0}}"#
            )
        };
        let mut lines = vec![r#"{"header":{"seed":7,"budget":3}}"#.to_owned()];
        lines.extend((1..=3).map(step));
        lines
    }

    fn check(lines: &[String]) -> Result<CompleteTrace, (usize, String)> {
        parse_complete(&format!("{}\n", lines.join("\n")), 7, 3)
    }

    fn defect(lines: &[String]) -> (usize, String) {
        check(lines).expect_err("the trace is not complete")
    }

    #[test]
    fn a_whole_run_is_complete_blank_lines_aside() {
        let read = check(&trace()).unwrap();
        assert_eq!(read.header["seed"], 7);
        assert_eq!(read.steps.len(), 3);
        assert_eq!(read.steps[2].evals, 3);
        let mut spaced = trace();
        spaced.insert(2, String::new());
        assert_eq!(check(&spaced).unwrap().steps.len(), 3);
    }

    #[test]
    fn a_run_cut_short_is_named_at_its_last_line() {
        let mut lines = trace();
        lines.pop();
        let (line, message) = defect(&lines);
        assert_eq!(line, 3);
        assert_eq!(
            message,
            "the run is not complete: it stops after 2 of its 3 evaluations"
        );
        let (line, message) = defect(&lines[..1]);
        assert_eq!(
            (line, message.as_str()),
            (
                1,
                "the run is not complete: it stops after 0 of its 3 evaluations"
            )
        );
        assert_eq!(defect(&[]).0, 1);
    }

    #[test]
    fn a_line_cut_off_or_out_of_order_is_named() {
        let mut cut = trace();
        let last = cut.pop().unwrap();
        cut.push(last[..last.len() / 2].to_owned());
        let (line, message) = defect(&cut);
        assert_eq!(line, 4);
        assert!(
            message.starts_with("not a trace step (EOF while parsing"),
            "{message}"
        );

        let mut swapped = trace();
        swapped.swap(2, 3);
        assert_eq!(
            defect(&swapped),
            (3, "\"iter\" is 3, expected step 2".to_owned())
        );

        let mut over = trace();
        over[3] = over[3].replace("\"evals\":3", "\"evals\":4");
        assert_eq!(
            defect(&over),
            (
                4,
                "\"evals\" is 4, more than the run's budget of 3".to_owned()
            )
        );
    }

    #[test]
    fn another_runs_header_is_refused() {
        let mut other = trace();
        other[0] = r#"{"header":{"seed":8,"budget":3}}"#.into();
        assert_eq!(
            defect(&other),
            (1, "the header is another run's (seed 8, not 7)".to_owned())
        );
        other[0] = r#"{"header":{"seed":7,"budget":30}}"#.into();
        assert_eq!(
            defect(&other),
            (
                1,
                "the header's \"budget\" is 30, not the run's 3".to_owned()
            )
        );
        other[0] = r#"{"header":{}}"#.into();
        assert_eq!(
            defect(&other),
            (1, "the header has no \"seed\" (the run's is 7)".to_owned())
        );
        let (line, message) = defect(&trace()[1..]);
        assert_eq!(line, 1);
        assert!(message.starts_with("expected the header line"), "{message}");
    }
}
