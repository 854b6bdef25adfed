//! A whole sweep as `bosweep sweep` carries it out: the memory check, the directory's lock and
//! manifest, the pending runs on a pool of worker threads, and the report. The command line and
//! the Python package's `bosweep.sweep` both call [`execute_sweep`], each with its own
//! [`EventSink`] for what the sweep has to say.

use std::collections::BTreeSet;
use std::path::Path;

use super::config::SweepConfig;
use super::events::{EventSink, SweepEvent, SweepOutcome};
use super::lock::{SweepLock, WhenLocked};
use super::memory::{MemoryEstimate, available_bytes};
use super::plan::RunSpec;
use super::report::{HTML_REPORT_FILE, REPORT_FILE, ReportOptions, write_report_with};
use super::runner::{MixedDevices, Shard, SweepError, prepare_directory, run_sweep};
use super::stop::StopSignal;
use bosweep_algorithms as algorithms;
use bosweep_engine::Engine;

/// How a sweep is carried out, besides its config, directory and engine.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// The runs of this process (all when `None`).
    pub shard: Option<Shard>,
    /// Worker threads: the runs in flight at once. When `None`, one per core, or two per core
    /// on an engine whose calls all go to a GPU.
    pub threads: Option<usize>,
    /// What to do when another process is writing into the directory.
    pub when_locked: WhenLocked,
    /// Whether a sweep begun on another device may resume on this one.
    pub mixed: MixedDevices,
    /// Write `report.md` and its plots at the end (also when some runs failed).
    pub report: bool,
    /// Stops the sweep between steps when requested.
    pub stop: StopSignal,
    /// Receives the sweep's notes, warnings and progress.
    pub events: EventSink,
}

/// Runs the runs of `config` that `dir` does not hold yet on `engine`, then reports. What the
/// user should know (notes, engine warnings, progress, where the report is) goes to
/// `options.events`; nothing is written to stderr.
/// When runs fail, the others still complete and the report covers them; the error names the
/// failed runs.
pub fn execute_sweep(
    config: &SweepConfig,
    dir: &Path,
    engine: &dyn Engine,
    options: &SweepOptions,
) -> Result<SweepOutcome, SweepError> {
    if options.threads == Some(0) {
        return Err(SweepError::Usage(
            "threads: value 0 (must be at least 1)".into(),
        ));
    }
    let runs = config.runs();
    let selected: Vec<&RunSpec> = runs
        .iter()
        .filter(|r| options.shard.is_none_or(|s| s.includes(r)))
        .collect();
    let threads = options.threads.unwrap_or_else(|| default_threads(engine));
    let in_flight = threads.min(selected.len());
    let memory = MemoryEstimate::of(&selected, in_flight, |run| config.memory_bytes(run));
    if let Some(available) = available_bytes() {
        memory
            .check(available)
            .map_err(|e| SweepError::Usage(format!("sweep {}: {e}", config.file_name())))?;
    }
    check_peers(config, &selected)?;
    std::fs::create_dir_all(dir).map_err(|source| SweepError::Io {
        what: "create".into(),
        path: dir.display().to_string(),
        source,
    })?;
    let events = &options.events;
    let _lock = SweepLock::acquire(dir, options.when_locked, |note| {
        events.send(SweepEvent::Note(note));
    })?;
    let notes = prepare_directory(
        dir,
        config.text(),
        &config.hash(),
        &runs,
        &engine.identity(),
        options.mixed,
    )?;
    for note in notes {
        events.send(SweepEvent::Note(note));
    }
    events.send(SweepEvent::Started {
        config: config.file_name().to_owned(),
        runs: runs.len(),
        dir: dir.to_owned(),
        engine: engine.describe(),
    });
    let used_before = engine.device_use();
    let result = run_sweep(
        dir,
        &runs,
        options.shard,
        threads,
        engine,
        &options.stop,
        events,
    );
    for warning in engine.warnings() {
        events.send(SweepEvent::Warning(warning));
    }
    if let (Some(before), Some(after), Ok(outcome)) = (used_before, engine.device_use(), &result) {
        events.send(SweepEvent::Note(device_use_note(
            after.calls - before.calls,
            after.passes - before.passes,
            outcome.completed,
        )));
    }
    if let Ok(outcome) = &result {
        events.send(SweepEvent::Finished(outcome.clone()));
    }
    // A report of what is complete is useful even when some runs failed; a stopped sweep
    // reports nothing, its caller having asked to stop.
    let stopped = matches!(result, Err(SweepError::Stopped { .. }));
    let reported = if options.report && !stopped {
        report_sweep(dir, &ReportOptions::default(), events)
    } else {
        Ok(())
    };
    let outcome = result?;
    reported?;
    Ok(outcome)
}

/// Runs in flight when the user does not say: [`Engine::runs_per_core`] per core. On lavapipe
/// the quick sweep's 4 560 GPU calls took 4 559 passes over the device with 2 runs in flight on
/// 2 cores and 3 598 with 4, in the same time.
fn default_threads(engine: &dyn Engine) -> usize {
    rayon::current_num_threads() * engine.runs_per_core()
}

/// What the sweep asked of the GPU: its calls, the passes over the device they took (fewer
/// where concurrent runs' calls were coalesced), and passes per run.
fn device_use_note(calls: usize, passes: usize, runs: usize) -> String {
    let per_run = if runs > 0 {
        format!(", {:.1} per run", passes as f64 / runs as f64)
    } else {
        String::new()
    };
    format!("the GPU ran {calls} calls in {passes} passes over the device{per_run}")
}

/// Refuses the sweep before any run starts when an algorithm of the `selected` runs is a peer
/// library that cannot run here ([`algorithms::Preflight`]), naming every one that cannot;
/// each distinct check runs once.
fn check_peers(config: &SweepConfig, selected: &[&RunSpec]) -> Result<(), SweepError> {
    let refused = |why: String| SweepError::Usage(format!("sweep {}: {why}", config.file_name()));
    let mut checks = BTreeSet::new();
    for run in selected {
        let setting = &run.algorithm;
        if let Some(check) = algorithms::preflight(&setting.name, &setting.param_values())
            .map_err(|e| refused(e.to_string()))?
        {
            checks.insert(check);
        }
    }
    let failures: Vec<String> = checks
        .iter()
        .filter_map(|check| check.run().err().map(|e| e.to_string()))
        .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(refused(failures.join("\n")))
    }
}

/// Writes `dir`'s report with `options` and tells `events` where it is.
pub fn report_sweep(
    dir: &Path,
    options: &ReportOptions,
    events: &EventSink,
) -> Result<(), SweepError> {
    write_report_with(dir, options).map_err(|e| SweepError::Report {
        message: e.to_string(),
        blame: bosweep_core::data::Failure::blame(&e),
    })?;
    events.send(SweepEvent::Reported {
        markdown: dir.join(REPORT_FILE),
        html: dir.join(HTML_REPORT_FILE),
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::process::Command;
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::manifest::RUNS_DIR;
    use bosweep_engine::CpuEngine;

    /// Set in the child process that [`a_sweep_writes_nothing_to_stderr`] starts.
    const CHILD: &str = "BOSWEEP_TEST_SWEEP_CHILD";

    /// Two runs of four evaluations: one on Branin, one on a command that always fails.
    const CONFIG: &str = "seed = 1\nbudget = 4\ninit = 2\n\
                          [[algorithm]]\nname = \"random\"\n\
                          [[problem]]\nname = \"branin\"\n\
                          [[problem]]\nname = \"command\"\ncmd = \"exit 3\"\nbounds = \"0:1\"\n";

    /// Runs the sweep of [`CONFIG`] into `dir` with a collecting sink: its result and events.
    fn sweep_collecting_events(dir: &Path) -> (Result<SweepOutcome, SweepError>, Vec<SweepEvent>) {
        let config = SweepConfig::parse(CONFIG, "events.toml").unwrap();
        let received = Arc::new(Mutex::new(Vec::new()));
        let collected = Arc::clone(&received);
        let options = SweepOptions {
            shard: None,
            threads: Some(1),
            when_locked: WhenLocked::Refuse,
            mixed: MixedDevices::Refuse,
            report: false,
            stop: StopSignal::default(),
            events: EventSink::new(move |e| collected.lock().unwrap().push(e.clone())),
        };
        let result = execute_sweep(&config, dir, &CpuEngine::new(), &options);
        let events = received.lock().unwrap().clone();
        (result, events)
    }

    fn fresh_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bosweep-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// The progress of [`CONFIG`]'s two runs on one thread: before any run, then as each starts
    /// and ends, as `(done, total, running, budget_left)`.
    const PROGRESS_OF_TWO_RUNS: [(usize, usize, usize, usize); 5] = [
        (0, 2, 0, 8),
        (0, 2, 1, 8),
        (1, 2, 0, 4),
        (1, 2, 1, 4),
        (2, 2, 0, 0),
    ];

    /// `(done, total, running, budget_left)` of every progress event.
    fn progress(events: &[SweepEvent]) -> Vec<(usize, usize, usize, usize)> {
        events
            .iter()
            .filter_map(|e| match e {
                SweepEvent::Progress(p) => Some((p.done, p.total, p.running, p.budget_left)),
                _ => None,
            })
            .collect()
    }

    /// The CPU backend dressed as a GPU engine: it counts every call as a GPU call, each its
    /// own pass, and asks for two runs per core.
    struct CountingGpu {
        cpu: CpuEngine,
        calls: std::sync::atomic::AtomicUsize,
    }

    impl bosweep_engine::EngineLayer for CountingGpu {
        fn inner(&self) -> &dyn Engine {
            &self.cpu
        }

        fn dispatch<T>(
            &self,
            _gps: &[&bosweep_model::GpState],
            _work: &bosweep_engine::Work,
            op: impl Fn(&dyn Engine) -> Result<T, bosweep_engine::EngineError>,
        ) -> Result<T, bosweep_engine::EngineError> {
            self.calls
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            op(&self.cpu)
        }

        fn runs_per_core(&self) -> usize {
            2
        }

        fn device_use(&self) -> Option<bosweep_engine::DeviceUse> {
            let calls = self.calls.load(std::sync::atomic::Ordering::Relaxed);
            Some(bosweep_engine::DeviceUse {
                calls,
                passes: calls,
            })
        }
    }

    #[test]
    fn a_sweep_on_a_gpu_runs_two_runs_per_core_and_says_what_the_gpu_did() {
        let engine = CountingGpu {
            cpu: CpuEngine::new(),
            calls: Default::default(),
        };
        let cores = rayon::current_num_threads();
        assert_eq!(default_threads(&engine), 2 * cores);
        assert_eq!(default_threads(&CpuEngine::new()), cores);
        let config = SweepConfig::parse(
            "seed = 1\nbudget = 6\ninit = 4\nreplicates = 2\n\
             [[algorithm]]\nname = \"ei\"\n[[problem]]\nname = \"branin\"\n",
            "gpu.toml",
        )
        .unwrap();
        let dir = fresh_dir("device-use");
        let received = Arc::new(Mutex::new(Vec::new()));
        let collected = Arc::clone(&received);
        let options = SweepOptions {
            shard: None,
            threads: None,
            when_locked: WhenLocked::Refuse,
            mixed: MixedDevices::Refuse,
            report: false,
            stop: StopSignal::default(),
            events: EventSink::new(move |e| collected.lock().unwrap().push(e.clone())),
        };
        execute_sweep(&config, &dir, &engine, &options).unwrap();
        let calls = engine.calls.load(std::sync::atomic::Ordering::Relaxed);
        assert!(calls > 0);
        let note = SweepEvent::Note(format!(
            "the GPU ran {calls} calls in {calls} passes over the device, {:.1} per run",
            calls as f64 / 2.0
        ));
        assert!(received.lock().unwrap().contains(&note), "{note:?}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_sweep_sends_what_it_has_to_say_to_its_sink() {
        let dir = fresh_dir("events");
        let (result, events) = sweep_collecting_events(&dir);
        assert!(matches!(result, Err(SweepError::RunsFailed(ref f)) if f.len() == 1));
        assert_eq!(
            events[0],
            SweepEvent::Started {
                config: "events.toml".into(),
                runs: 2,
                dir: dir.clone(),
                engine: CpuEngine::new().describe(),
            }
        );
        assert_eq!(progress(&events), PROGRESS_OF_TWO_RUNS);
        // The estimate learns from the completed Branin run only: its 4 evaluations.
        let Some(SweepEvent::Progress(last)) = events
            .iter()
            .rfind(|e| matches!(e, SweepEvent::Progress(_)))
        else {
            unreachable!("progress events were counted above")
        };
        assert_eq!(last.algorithms.len(), 1);
        let random = &last.algorithms[0];
        assert_eq!(
            (
                random.algorithm.as_str(),
                random.runs_left,
                random.completed_evals
            ),
            ("random", 0, 4)
        );
        assert_eq!(last.time_left(), Ok(std::time::Duration::ZERO));
        let failed: Vec<String> = events
            .iter()
            .filter(|e| matches!(e, SweepEvent::RunFailed { .. }))
            .map(SweepEvent::to_string)
            .collect();
        assert_eq!(failed.len(), 1);
        assert!(failed[0].contains("`exit 3`"), "{failed:?}");
        // Failed runs end the sweep in an error, not a finish.
        assert!(!events.iter().any(|e| matches!(e, SweepEvent::Finished(_))));

        // Resuming with the Branin trace cut short: after the start, a warning that it is moved
        // aside, then both runs run again.
        let runs: Vec<PathBuf> = std::fs::read_dir(dir.join(RUNS_DIR))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        assert_eq!(runs.len(), 1, "{runs:?}");
        let text = std::fs::read_to_string(&runs[0]).unwrap();
        std::fs::write(&runs[0], &text[..text.len() - 10]).unwrap();
        let (_, events) = sweep_collecting_events(&dir);
        let warning = format!("{} is not a complete trace (", runs[0].display());
        assert!(
            matches!(&events[1], SweepEvent::Warning(w) if w.starts_with(&warning)),
            "{events:?}"
        );
        assert_eq!(progress(&events), PROGRESS_OF_TWO_RUNS);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// The test harness captures what a test prints, so the sweep runs in a child process of
    /// this test binary whose stderr is read.
    #[test]
    fn a_sweep_writes_nothing_to_stderr() {
        if std::env::var_os(CHILD).is_some() {
            let dir = fresh_dir("quiet");
            let (_, events) = sweep_collecting_events(&dir);
            assert!(events.len() > 3);
            std::fs::remove_dir_all(dir).unwrap();
            return;
        }
        let out = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "execute::tests::a_sweep_writes_nothing_to_stderr",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("1 passed"),
            "{out:?}"
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    }
}
