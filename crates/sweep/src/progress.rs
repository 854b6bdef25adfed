//! Counting a sweep's ended runs and their evaluations, sent as [`SweepEvent::Progress`] after
//! every run; the caller decides how to show it (the command line: a bar or periodic lines).

use std::sync::Mutex;
use std::time::Instant;

use super::events::{EventSink, SweepEvent};

pub struct Progress<'a> {
    events: &'a EventSink,
    start: Instant,
    runs: usize,
    state: Mutex<State>,
}

struct State {
    done: usize,
    evals: usize,
    budget_left: usize,
}

impl<'a> Progress<'a> {
    /// Progress over `runs` runs whose budgets add up to `budget`, from now; sends the first
    /// event (no run ended yet).
    pub fn start(runs: usize, budget: usize, events: &'a EventSink) -> Self {
        let progress = Self {
            events,
            start: Instant::now(),
            runs,
            state: Mutex::new(State {
                done: 0,
                evals: 0,
                budget_left: budget,
            }),
        };
        progress.send(&progress.lock());
        progress
    }

    /// Records an ended run (completed or failed) that spent `evals` of its `budget`.
    pub fn run_done(&self, evals: usize, budget: usize) {
        let mut s = self.lock();
        s.done += 1;
        s.evals += evals;
        s.budget_left = s.budget_left.saturating_sub(budget);
        // Sent under the lock, so that the events' counts never go backwards.
        self.send(&s);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn send(&self, s: &State) {
        self.events.send(SweepEvent::Progress {
            done: s.done,
            total: self.runs,
            evals: s.evals,
            budget_left: s.budget_left,
            elapsed: self.start.elapsed(),
        });
    }
}
