//! The readers of what a sweep leaves on disk: a run's trace, a sweep's manifest and an archive
//! set. Each turns any bytes into a value that keeps the invariants every later reader relies on
//! (a complete run, a consistent run list, archived runs that end at their budgets), or an
//! error of one line naming the file, never a panic.

use std::path::Path;

use bosweep_sweep::Manifest;
use bosweep_sweep::parse_complete;
use bosweep_sweep::report::archive::ArchivedSet;

/// The seed the trace target's header must carry.
const SEED: u64 = 7;

/// Reads the bytes after the first as a trace of the run with seed 7 and a budget of
/// `1 + first byte % 8`.
pub fn trace_reader(bytes: &[u8]) {
    let (budget, text) = match bytes.split_first() {
        Some((b, rest)) => (1 + usize::from(b % 8), String::from_utf8_lossy(rest)),
        None => (1, String::new().into()),
    };
    match parse_complete(&text, SEED, budget) {
        Ok(trace) => {
            assert_eq!(trace.header["seed"], SEED, "another run's header accepted");
            assert!(!trace.steps.is_empty(), "a trace without steps accepted");
            for (i, step) in trace.steps.iter().enumerate() {
                assert_eq!(step.iter, i + 1, "steps out of order accepted");
                assert!(
                    step.evals <= budget,
                    "evaluations beyond the budget accepted"
                );
            }
            assert!(
                trace.steps.windows(2).all(|w| w[0].evals <= w[1].evals),
                "decreasing evaluations accepted"
            );
            assert_eq!(trace.steps.last().map(|s| s.evals), Some(budget));
        }
        Err((line, message)) => {
            let lines = text.lines().count().max(1);
            assert!(
                (1..=lines).contains(&line),
                "line {line} of a {lines}-line trace"
            );
            assert_one_line(&message);
        }
    }
}

/// Reads `bytes` as a sweep's `manifest.json`.
pub fn manifest_reader(bytes: &[u8]) {
    match Manifest::parse(&String::from_utf8_lossy(bytes)) {
        Ok(manifest) => {
            for (i, run) in manifest.runs.iter().enumerate() {
                assert_eq!(run.index, i, "a run out of place accepted");
                assert!(run.budget >= 1 && run.init <= run.budget);
                let file = run.trace_file();
                assert!(
                    file.ends_with(".jsonl")
                        && file.len() <= bosweep_sweep::MAX_NAME + ".jsonl".len()
                        && !file.contains('/'),
                    "trace file name {file:?}"
                );
            }
        }
        Err(message) => assert_one_line(&message),
    }
}

/// Reads `bytes` as an archive set: `archive.toml`, a NUL byte, then `runs.jsonl`; without a NUL,
/// all of it is `runs.jsonl` beside a valid description of as many runs as it has lines.
pub fn archive_reader(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let (meta, runs) = match text.split_once('\0') {
        Some((meta, runs)) => (meta.to_owned(), runs.to_owned()),
        None => (
            format!(
                "name = \"fuzz\"\nversion = 1\ndescription = \"d\"\ncreated = \"now\"\n\
                 bosweep_version = \"0\"\ncommit = \"0\"\ndevice = \"cpu\"\ncommand = \"c\"\n\
                 runs = {}\n",
                text.lines().count()
            ),
            text.into_owned(),
        ),
    };
    match ArchivedSet::from_texts(&meta, "", &runs, Path::new("fuzz-set")) {
        Ok(set) => {
            assert_eq!(
                set.runs(),
                set.meta.runs,
                "a run count that is not the set's"
            );
            assert!(set.algorithms().len() <= set.runs());
            assert!(set.problems().len() <= set.runs());
        }
        Err(e) => {
            let message = e.to_string();
            assert!(message.contains("fuzz-set"), "{message}");
            assert_one_line(&message);
        }
    }
}

fn assert_one_line(message: &str) {
    assert!(
        !message.is_empty() && !message.contains('\n'),
        "not one line: {message:?}"
    );
}
