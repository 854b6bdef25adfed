//! Sweep progress on stderr: a bar with completed runs, evaluations per second and ETA on a
//! terminal; plain lines at most every 10 seconds (and at the end) otherwise.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Seconds between plain progress lines when stderr is not a terminal.
const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

pub struct Progress {
    bar: Option<ProgressBar>,
    state: Mutex<State>,
    runs: usize,
}

struct State {
    done: usize,
    evals: usize,
    budget_left: usize,
    last_line: Duration,
}

impl Progress {
    /// Progress over `runs` runs whose budgets add up to `budget`.
    pub fn new(runs: usize, budget: usize) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(runs as u64);
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} runs  {msg}  ETA {eta}")
                    .expect("static template"),
            );
            bar
        });
        Self {
            bar,
            state: Mutex::new(State {
                done: 0,
                evals: 0,
                budget_left: budget,
                last_line: Duration::ZERO,
            }),
            runs,
        }
    }

    /// Records a finished run (successful or not) that spent `evals` evaluations.
    pub fn run_done(&self, evals: usize, elapsed: Duration) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.done += 1;
        s.evals += evals;
        s.budget_left = s.budget_left.saturating_sub(evals);
        let rate = s.evals as f64 / elapsed.as_secs_f64().max(1e-9);
        match &self.bar {
            Some(bar) => {
                bar.set_message(format!("{rate:.1} evals/s"));
                bar.inc(1);
            }
            None if elapsed - s.last_line >= PLAIN_INTERVAL || s.done == self.runs => {
                s.last_line = elapsed;
                let eta = if rate > 0.0 {
                    s.budget_left as f64 / rate
                } else {
                    0.0
                };
                eprintln!(
                    "[{}/{} runs] {rate:.1} evals/s, {:.0} s elapsed, ETA {eta:.0} s",
                    s.done,
                    self.runs,
                    elapsed.as_secs_f64()
                );
            }
            None => {}
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish();
        }
    }
}
