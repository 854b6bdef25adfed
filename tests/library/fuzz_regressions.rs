//! Replays the inputs kept from fuzzing (`fuzz/regressions/<target>/`: the minimised corpus and
//! every input that once broke an invariant) through the fuzz targets' bodies, on stable Rust, so
//! that CI guards what `cargo +nightly fuzz run` found.

use std::path::Path;

fn replay(target: &str, body: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable directory entry").path())
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "{} holds no inputs", dir.display());
    for path in inputs {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if std::panic::catch_unwind(|| body(&bytes)).is_err() {
            panic!("{} breaks an invariant", path.display());
        }
    }
}

#[test]
fn sweep_config_inputs_parse_or_fail_cleanly() {
    replay("sweep_config", bosweep_fuzz::sweep_config);
}

#[test]
fn csv_inputs_parse_or_fail_cleanly() {
    replay("csv_table", bosweep_fuzz::csv_table);
}

#[test]
fn engine_inputs_give_checked_results_or_errors() {
    replay("engine_ops", bosweep_fuzz::engine_ops);
}

#[test]
fn external_objective_outputs_parse_or_fail_cleanly() {
    replay("objective_output", bosweep_fuzz::objective_output);
}

#[test]
fn trace_inputs_are_complete_runs_or_fail_cleanly() {
    replay("trace_reader", bosweep_fuzz::trace_reader);
}

#[test]
fn manifest_inputs_are_consistent_or_fail_cleanly() {
    replay("manifest_reader", bosweep_fuzz::manifest_reader);
}

#[test]
fn archive_inputs_are_sets_or_fail_cleanly() {
    replay("archive_reader", bosweep_fuzz::archive_reader);
}
