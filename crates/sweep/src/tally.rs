//! Counting a sweep's runs as they start and end, and sending where they stand
//! ([`SweepProgress`]) as events.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::events::{EventSink, SweepEvent};
use crate::plan::RunSpec;
use crate::progress::{AlgorithmProgress, SweepProgress};

/// Counts the runs of a sweep as they start and end, and sends where they stand.
pub struct ProgressTally<'a> {
    events: &'a EventSink,
    start: Instant,
    state: Mutex<SweepProgress>,
}

impl<'a> ProgressTally<'a> {
    /// Progress over `runs` from now, at most `threads` at once; sends the first event (no run
    /// started).
    pub fn start(runs: &[&RunSpec], threads: usize, events: &'a EventSink) -> Self {
        let mut algorithms: Vec<AlgorithmProgress> = Vec::new();
        for spec in runs {
            let label = label(spec);
            let index = match algorithms.iter().position(|a| a.algorithm == label) {
                Some(i) => i,
                None => {
                    algorithms.push(AlgorithmProgress {
                        algorithm: label,
                        runs_left: 0,
                        budget_left: 0,
                        completed_evals: 0,
                        completed_seconds: 0.0,
                    });
                    algorithms.len() - 1
                }
            };
            algorithms[index].runs_left += 1;
            algorithms[index].budget_left += spec.budget;
        }
        let progress = Self {
            events,
            start: Instant::now(),
            state: Mutex::new(SweepProgress {
                done: 0,
                total: runs.len(),
                running: 0,
                evals: 0,
                budget_left: runs.iter().map(|r| r.budget).sum(),
                elapsed: Duration::ZERO,
                threads,
                algorithms,
            }),
        };
        progress.update(|_| ());
        progress
    }

    /// Records that a run started; the returned instant times it.
    pub fn run_started(&self) -> Instant {
        self.update(|s| s.running += 1);
        Instant::now()
    }

    /// Records that `spec`, started at `started`, ended: completed after `evals` evaluations
    /// (`Some`), or failed (`None`), which teaches the estimate nothing.
    pub fn run_ended(&self, spec: &RunSpec, started: Instant, evals: Option<usize>) {
        let seconds = started.elapsed().as_secs_f64();
        let label = label(spec);
        self.update(|s| {
            s.running = s.running.saturating_sub(1);
            s.done += 1;
            s.evals += evals.unwrap_or(0);
            s.budget_left = s.budget_left.saturating_sub(spec.budget);
            if let Some(a) = s.algorithms.iter_mut().find(|a| a.algorithm == label) {
                a.runs_left = a.runs_left.saturating_sub(1);
                a.budget_left = a.budget_left.saturating_sub(spec.budget);
                if let Some(evals) = evals {
                    a.completed_evals += evals;
                    a.completed_seconds += seconds;
                }
            }
        });
    }

    /// Applies `change` and sends the result, under the lock, so that the events' counts never
    /// go backwards.
    fn update(&self, change: impl FnOnce(&mut SweepProgress)) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        change(&mut state);
        state.elapsed = self.start.elapsed();
        self.events.send(SweepEvent::Progress(state.clone()));
    }
}

/// The algorithm of `spec` as reports show it (a top-level batch on its label).
fn label(spec: &RunSpec) -> String {
    spec.algorithm
        .clone()
        .shown_with(&spec.parallel)
        .display_label()
}
