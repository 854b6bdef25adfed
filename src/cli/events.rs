//! A sweep's events on stderr: notes and warnings as `note:`/`warning:` lines, progress as a bar
//! with completed runs, evaluations per second and ETA on a terminal, plain lines at most every
//! 10 seconds (and at the end) otherwise.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use bosweep::sweep::{EventSink, SweepEvent};
use indicatif::{ProgressBar, ProgressStyle};

/// Seconds between plain progress lines when stderr is not a terminal.
const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

/// The sink that prints a sweep's events on stderr.
pub fn stderr_sink() -> EventSink {
    let printer = Printer {
        terminal: std::io::stderr().is_terminal(),
        progress: Mutex::new(Shown::default()),
    };
    EventSink::new(move |event| printer.print(event))
}

struct Printer {
    terminal: bool,
    progress: Mutex<Shown>,
}

/// What the progress display has shown so far.
#[derive(Default)]
struct Shown {
    /// The bar, on a terminal, from the first progress event on.
    bar: Option<ProgressBar>,
    /// When the last plain line was printed.
    last_line: Duration,
}

impl Printer {
    fn print(&self, event: &SweepEvent) {
        match event {
            SweepEvent::Note(_) => say!("note: {event}"),
            SweepEvent::Warning(_) => say!("warning: {event}"),
            SweepEvent::Progress {
                done,
                total,
                evals,
                elapsed,
                ..
            } => self.progress(event, *done, *total, *evals, *elapsed),
            // The sweep's error lists every failed run when it ends.
            SweepEvent::RunFailed { .. } => {}
            SweepEvent::Started { .. } | SweepEvent::Finished(_) | SweepEvent::Reported { .. } => {
                say!("{event}");
            }
        }
    }

    /// The bar moved to `done` of `total` runs, or `event`'s plain line when it is the last or
    /// the previous one is [`PLAIN_INTERVAL`] old.
    fn progress(
        &self,
        event: &SweepEvent,
        done: usize,
        total: usize,
        evals: usize,
        elapsed: Duration,
    ) {
        let mut shown = self.progress.lock().unwrap_or_else(|p| p.into_inner());
        if self.terminal {
            let bar = shown.bar.get_or_insert_with(|| {
                let bar = ProgressBar::new(total as u64);
                bar.set_style(
                    ProgressStyle::with_template("{bar:30} {pos}/{len} runs  {msg}  ETA {eta}")
                        .expect("static template"),
                );
                bar
            });
            if done > 0 {
                let rate = evals as f64 / elapsed.as_secs_f64().max(1e-9);
                bar.set_message(format!("{rate:.1} evals/s"));
            }
            bar.set_position(done as u64);
            if done == total {
                bar.finish();
            }
        } else if done > 0
            && (elapsed.saturating_sub(shown.last_line) >= PLAIN_INTERVAL || done == total)
        {
            shown.last_line = elapsed;
            say!("{event}");
        }
    }
}
