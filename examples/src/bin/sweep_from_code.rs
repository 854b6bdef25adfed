//! A sweep from code: the same config a TOML file would hold, run into a directory and reported
//! on, as `bosweep sweep` does, with the library alone (no command line involved).
//!
//! ```sh
//! # OUT_DIR defaults to results/example-sweep
//! cargo run --release -p bosweep-examples --bin sweep_from_code [-- OUT_DIR]
//! ```

use std::path::PathBuf;

use bosweep::compute::CpuEngine;
use bosweep::sweep::{
    EventSink, MixedDevices, StopSignal, SweepConfig, SweepEvent, SweepOptions, WhenLocked,
    execute_sweep,
};

const CONFIG: &str = r#"
seed = 3
replicates = 6
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
    let engine = CpuEngine::new();
    let options = SweepOptions {
        shard: None,
        threads: None,
        when_locked: WhenLocked::Refuse,
        mixed: MixedDevices::Refuse,
        report: true,
        stop: StopSignal::default(),
        // The library prints nothing itself: what the sweep has to say comes here.
        events: EventSink::new(|event| match event {
            SweepEvent::Warning(_) => eprintln!("warning: {event}"),
            // Sent as each run starts and ends, with the time left estimated per algorithm.
            SweepEvent::Progress(p) => {
                println!("{}/{} runs ended, {}", p.done, p.total, p.eta_text())
            }
            _ => println!("{event}"),
        }),
    };
    // Locks the directory, writes its manifest, runs what it does not hold yet (a second call
    // resumes instead of redoing), then writes report.md: what `bosweep sweep` does.
    let outcome = execute_sweep(&config, &dir, &engine, &options)?;
    println!(
        "{} runs: {} were already complete, {} ran now",
        outcome.selected, outcome.skipped, outcome.completed
    );
    Ok(())
}
