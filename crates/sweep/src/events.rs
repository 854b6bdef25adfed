//! What a sweep tells its caller while it runs. The library writes nothing to stderr: a library
//! caller (the Python package, a program) decides where notes, warnings and progress go, so it
//! receives them as [`SweepEvent`]s through the [`EventSink`] of its `SweepOptions`. The
//! command line prints them; the Python package turns warnings into Python warnings.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use crate::progress::SweepProgress;

/// What one invocation did; the last event, [`SweepEvent::Finished`], carries it too.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepOutcome {
    /// Runs of this shard in the sweep.
    pub selected: usize,
    /// Runs found complete and skipped.
    pub skipped: usize,
    /// Runs completed by this invocation.
    pub completed: usize,
}

/// One thing a sweep has to say, in the order it happens.
#[derive(Clone, Debug, PartialEq)]
pub enum SweepEvent {
    /// Worth knowing, nothing to do: the shard a scheduler assigned, waiting for another sweep's
    /// lock, a resume on another device.
    Note(String),
    /// Possibly needs attention: a trace that was not complete and runs again, an engine's
    /// warning (a fallback to another device).
    Warning(String),
    /// The sweep of `config` (its file name) starts its `runs` runs into `dir` on `engine` (the
    /// engine's description).
    Started {
        /// The config's file name.
        config: String,
        /// Runs the sweep holds, all shards and completed ones included.
        runs: usize,
        /// The sweep directory.
        dir: PathBuf,
        /// The engine's description (device and backend).
        engine: String,
    },
    /// Where the runs this invocation has to run stand: sent once before any starts, then as
    /// each starts and as each ends.
    Progress(SweepProgress),
    /// The run `run` (its key) failed with `error`; the others go on, and the sweep's error
    /// lists every failed run at the end.
    RunFailed {
        /// The run's key ([`crate::run_key`]).
        run: String,
        /// The run's error message.
        error: String,
    },
    /// Every selected run is complete (none failed, no stop was requested): how many there
    /// were, were already complete and completed now.
    Finished(SweepOutcome),
    /// The report was written: `markdown` (report.md) and `html` (report.html).
    Reported {
        /// The path of `report.md`.
        markdown: PathBuf,
        /// The path of `report.html`.
        html: PathBuf,
    },
}

/// The words the command line prints for each event (without its `note: ` or `warning: `),
/// which other callers may log.
impl fmt::Display for SweepEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Note(text) | Self::Warning(text) => f.write_str(text),
            Self::Started {
                config,
                runs,
                dir,
                engine,
            } => write!(
                f,
                "sweep {config}: {runs} runs into {} ({engine})",
                dir.display()
            ),
            Self::Progress(progress) => progress.fmt(f),
            Self::RunFailed { run, error } => write!(f, "run {run} failed: {error}"),
            Self::Finished(outcome) => write!(
                f,
                "{} runs selected: {} already complete, {} completed now",
                outcome.selected, outcome.skipped, outcome.completed
            ),
            Self::Reported { markdown, html } => {
                write!(f, "report: {} (and {})", markdown.display(), html.display())
            }
        }
    }
}

/// Where a sweep's events go: a function of the event, called from the sweep's worker threads
/// (hence `Send + Sync`), one event at a time per thread. Cloning shares the function.
#[derive(Clone)]
pub struct EventSink(Arc<dyn Fn(&SweepEvent) + Send + Sync>);

impl EventSink {
    /// A sink that hands every event to `receive`.
    pub fn new(receive: impl Fn(&SweepEvent) + Send + Sync + 'static) -> Self {
        Self(Arc::new(receive))
    }

    /// Delivers `event`.
    pub fn send(&self, event: SweepEvent) {
        (self.0)(&event);
    }
}

impl fmt::Debug for EventSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EventSink")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn a_sink_and_its_clones_deliver_to_one_function() {
        let received = Arc::new(Mutex::new(Vec::new()));
        let collected = Arc::clone(&received);
        let sink = EventSink::new(move |e| collected.lock().unwrap().push(e.clone()));
        sink.send(SweepEvent::Note("first".into()));
        sink.clone().send(SweepEvent::Warning("second".into()));
        assert_eq!(
            *received.lock().unwrap(),
            [
                SweepEvent::Note("first".into()),
                SweepEvent::Warning("second".into())
            ]
        );
    }

    #[test]
    fn a_finish_reads_as_its_counts() {
        let finished = SweepEvent::Finished(SweepOutcome {
            selected: 8,
            skipped: 5,
            completed: 3,
        });
        assert_eq!(
            finished.to_string(),
            "8 runs selected: 5 already complete, 3 completed now"
        );
    }
}
