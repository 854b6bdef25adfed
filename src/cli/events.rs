//! A sweep's events on stderr: notes and warnings as `note:`/`warning:` lines, progress as a bar
//! with ended and running runs, evaluations per second and the estimate of the time left (or
//! whose runs it waits for) on a terminal; otherwise plain lines: the first run's start, then at
//! most every 10 seconds as runs start and end, and the end. While a thread is free and runs
//! wait, the next event is a start: the line waits for it, or it would count one run fewer under
//! way than there is.

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

impl Shown {
    /// Whether `progress` prints a plain line: once a run is under way, the first event, one at
    /// least [`PLAIN_INTERVAL`] after the last line and the last, except while a thread is
    /// free and runs wait: a start comes next, and prints the line with the right count.
    fn plain_line_now(&self, progress: &SweepProgress) -> bool {
        if progress.running == 0 && progress.done == 0 {
            return false;
        }
        if progress.done == progress.total {
            return true;
        }
        let a_start_follows = progress.running < progress.threads
            && progress.done + progress.running < progress.total;
        let due = self
            .last_line
            .is_none_or(|last| progress.elapsed.saturating_sub(last) >= PLAIN_INTERVAL);
        due && !a_start_follows
    }
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
        } else if shown.plain_line_now(progress) {
            shown.last_line = Some(progress.elapsed);
            say!("{progress}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(done: usize, running: usize, seconds: u64) -> SweepProgress {
        SweepProgress {
            done,
            total: 4,
            running,
            evals: 0,
            budget_left: 0,
            elapsed: Duration::from_secs(seconds),
            threads: 2,
            algorithms: Vec::new(),
        }
    }

    /// Which of a sweep's events print, two threads and four runs: what `plain_line_now` says
    /// of each in turn, the printed ones setting the interval's start as `progress` does.
    fn printed(events: &[SweepProgress]) -> Vec<(usize, usize)> {
        let mut shown = Shown::default();
        let mut lines = Vec::new();
        for event in events {
            if shown.plain_line_now(event) {
                shown.last_line = Some(event.elapsed);
                lines.push((event.done, event.running));
            }
        }
        lines
    }

    #[test]
    fn an_event_that_a_start_follows_leaves_its_line_to_the_start() {
        let lines = printed(&[
            at(0, 0, 0),  // the sweep's first count: nothing under way yet
            at(0, 1, 0),  // the other thread starts a run next
            at(0, 2, 0),  // which prints
            at(1, 1, 30), // due, but the freed thread starts run 3 next
            at(1, 2, 30), // that start prints, with both runs
            at(2, 1, 60), // due, but run 4 starts next
            at(2, 2, 60), // which prints
            at(3, 1, 90), // due, and no run waits: prints
            at(4, 0, 91), // the last prints, however soon
        ]);
        assert_eq!(lines, vec![(0, 2), (1, 2), (2, 2), (3, 1), (4, 0)]);
    }

    #[test]
    fn a_line_that_is_not_due_waits_for_the_interval() {
        let lines = printed(&[
            at(0, 1, 0),
            at(0, 2, 5),
            at(1, 1, 9),
            at(1, 2, 9),
            at(3, 1, 15),
        ]);
        assert_eq!(lines, vec![(0, 2), (3, 1)]);
    }
}
