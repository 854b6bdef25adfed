//! A sweep's events on stderr: notes and warnings as `note:`/`warning:` lines, progress as a bar
//! with ended and running runs, evaluations per second and the estimate of the time left (or
//! whose runs it waits for) on a terminal; otherwise plain lines: the first run's start, then at
//! most every 10 seconds as runs start and end, and the end.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use bosweep::sweep::{EventSink, SweepEvent, SweepProgress};
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
    /// When the last plain line was printed, if one was.
    last_line: Option<Duration>,
}

impl Printer {
    fn print(&self, event: &SweepEvent) {
        match event {
            SweepEvent::Note(_) => say!("note: {event}"),
            SweepEvent::Warning(_) => say!("warning: {event}"),
            SweepEvent::Progress(progress) => self.progress(progress),
            // The sweep's error lists every failed run when it ends.
            SweepEvent::RunFailed { .. } => {}
            SweepEvent::Started { .. } | SweepEvent::Finished(_) | SweepEvent::Reported { .. } => {
                say!("{event}");
            }
        }
    }

    /// The bar moved to where the runs stand, or their plain line when all have ended or the
    /// previous line is [`PLAIN_INTERVAL`] old.
    fn progress(&self, progress: &SweepProgress) {
        let mut shown = self.progress.lock().unwrap_or_else(|p| p.into_inner());
        let all_ended = progress.done == progress.total;
        if self.terminal {
            let bar = shown.bar.get_or_insert_with(|| {
                let bar = ProgressBar::new(progress.total as u64);
                bar.set_style(
                    ProgressStyle::with_template("{bar:30} {pos}/{len} runs  {elapsed}  {msg}")
                        .expect("static template"),
                );
                // The elapsed time moves while long runs are under way and no event comes.
                bar.enable_steady_tick(Duration::from_secs(1));
                bar
            });
            let rate = progress.evals as f64 / progress.elapsed.as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{} running, {rate:.1} evals/s, {}",
                progress.running,
                progress.eta_text()
            ));
            bar.set_position(progress.done as u64);
            if all_ended {
                bar.finish();
            }
        } else if progress.running > 0 || progress.done > 0 {
            let first = shown.last_line.is_none();
            let due = shown
                .last_line
                .is_none_or(|last| progress.elapsed.saturating_sub(last) >= PLAIN_INTERVAL);
            if first || due || all_ended {
                shown.last_line = Some(progress.elapsed);
                say!("{progress}");
            }
        }
    }
}
