//! A sweep from code: the same config a TOML file would hold, run into a directory and reported
//! on, as `bosweep sweep` does, with the library alone (no command line involved).
//!
//! ```sh
//! cargo run --release --example sweep_from_code [-- OUT_DIR]   # default: results/example-sweep
//! ```

use std::path::PathBuf;

use bosweep::compute::{CpuEngine, Engine};
use bosweep::report::write_report;
use bosweep::sweep::{
    MixedDevices, SweepConfig, SweepLock, WhenLocked, prepare_directory, run_sweep,
};

const CONFIG: &str = r#"
seed = 3
replicates = 4
budget = 25
init = 6

[[algorithm]]
name = "random"

[[algorithm]]
name = "ei"

[[problem]]
name = "branin"

[[problem]]
name = "hartmann3"
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("results/example-sweep"), PathBuf::from);
    // Errors name the "file" given here and the line, as for a config on disk.
    let config = SweepConfig::parse(CONFIG, "example.toml")?;
    let runs = config.runs();
    let engine = CpuEngine::new();

    std::fs::create_dir_all(&dir)?;
    let _lock = SweepLock::acquire(&dir, WhenLocked::Refuse, |note| eprintln!("note: {note}"))?;
    prepare_directory(
        &dir,
        config.text(),
        &config.hash(),
        &runs,
        &engine.identity(),
        MixedDevices::Refuse,
    )?;
    // Runs already in the directory are kept: a second call resumes instead of redoing them.
    let outcome = run_sweep(&dir, &runs, None, &engine)?;
    println!(
        "{} runs: {} were already complete, {} ran now",
        outcome.selected, outcome.skipped, outcome.completed
    );
    write_report(&dir)?;
    println!("report: {}", dir.join("report.md").display());
    Ok(())
}
