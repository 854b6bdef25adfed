//! Where a sweep stands, sent as [`SweepEvent::Progress`](crate::SweepEvent::Progress) when a run
//! starts and when it ends (by [`crate::tally`]); the caller decides how to show it (the command
//! line: a bar or periodic lines).
//!
//! The time left is estimated per algorithm, from its own completed runs: methods of one sweep
//! differ in cost by orders of magnitude (a qLogNEI run against a TuRBO run), so one rate over
//! every evaluation would promise the expensive runs at the cheap ones' pace. Until every
//! algorithm with runs left has completed one, no estimate is given, and the progress says
//! whose runs it waits for.

use std::fmt;
use std::time::Duration;

/// Where a sweep's runs stand at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepProgress {
    /// Runs ended, completed or failed.
    pub done: usize,
    /// Runs this invocation has to run.
    pub total: usize,
    /// Runs started and not ended.
    pub running: usize,
    /// Evaluations spent by the ended runs.
    pub evals: usize,
    /// Evaluations still budgeted for the runs not ended.
    pub budget_left: usize,
    /// Wall time since the runs began.
    pub elapsed: Duration,
    /// Runs at most under way at once (the sweep's worker threads).
    pub threads: usize,
    /// Per algorithm (its label as reports show it), in the order of the sweep's runs.
    pub algorithms: Vec<AlgorithmProgress>,
}

/// One algorithm's runs in a [`SweepProgress`].
#[derive(Clone, Debug, PartialEq)]
pub struct AlgorithmProgress {
    /// The algorithm's label as reports show it.
    pub algorithm: String,
    /// Runs not ended yet, running or waiting.
    pub runs_left: usize,
    /// Evaluations still budgeted for them.
    pub budget_left: usize,
    /// Evaluations of its completed runs.
    pub completed_evals: usize,
    /// Wall seconds its completed runs took, each from its start to its end.
    pub completed_seconds: f64,
}

impl AlgorithmProgress {
    /// Wall seconds per evaluation of its completed runs; `None` before one completes.
    pub fn seconds_per_eval(&self) -> Option<f64> {
        (self.completed_evals > 0).then(|| self.completed_seconds / self.completed_evals as f64)
    }
}

/// Why [`SweepProgress::time_left`] has no estimate.
#[derive(Clone, Debug, PartialEq)]
pub enum NoEstimate {
    /// These algorithms have runs left and none completed yet.
    Waiting(Vec<String>),
}

impl SweepProgress {
    /// The time the runs not ended will take: per algorithm, its budget left at its completed
    /// runs' seconds per evaluation, summed, spread over the runs that can be under way at once
    /// (the threads, or the runs left if fewer). A running run counts its whole budget, so the
    /// estimate errs long by at most the part of the running runs already done.
    pub fn time_left(&self) -> Result<Duration, NoEstimate> {
        let waiting: Vec<String> = self
            .algorithms
            .iter()
            .filter(|a| a.runs_left > 0 && a.seconds_per_eval().is_none())
            .map(|a| a.algorithm.clone())
            .collect();
        if !waiting.is_empty() {
            return Err(NoEstimate::Waiting(waiting));
        }
        let work: f64 = self
            .algorithms
            .iter()
            .filter_map(|a| Some(a.budget_left as f64 * a.seconds_per_eval()?))
            .sum();
        let runs_left = self.total - self.done;
        let lanes = self.threads.min(runs_left).max(1);
        Ok(Duration::from_secs_f64(work / lanes as f64))
    }

    /// `ETA 5 min 20 s`, or why there is none yet (`ETA once a run of qlognei completes`).
    pub fn eta_text(&self) -> String {
        match self.time_left() {
            Ok(left) => format!("ETA {}", duration_text(left)),
            Err(NoEstimate::Waiting(algorithms)) => {
                let shown: Vec<&str> = algorithms.iter().take(3).map(String::as_str).collect();
                let more = algorithms.len().saturating_sub(shown.len());
                let tail = if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                };
                format!("ETA once a run of {}{tail} completes", shown.join(", "))
            }
        }
    }
}

/// `42 s`, `5 min 20 s`, `2 h 5 min`: seconds to the second under an hour, minutes above.
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs_f64().round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, (s % 3600) / 60),
    }
}

/// `[29/50 runs, 4 running] 12.1 evals/s, 2 min 0 s elapsed, ETA 5 min 40 s`.
impl fmt::Display for SweepProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rate = self.evals as f64 / self.elapsed.as_secs_f64().max(1e-9);
        write!(
            f,
            "[{}/{} runs, {} running] {rate:.1} evals/s, {} elapsed, {}",
            self.done,
            self.total,
            self.running,
            duration_text(self.elapsed),
            self.eta_text()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn algorithm(name: &str, runs_left: usize, evals: usize, seconds: f64) -> AlgorithmProgress {
        AlgorithmProgress {
            algorithm: name.into(),
            runs_left,
            budget_left: runs_left * 10,
            completed_evals: evals,
            completed_seconds: seconds,
        }
    }

    fn progress(algorithms: Vec<AlgorithmProgress>, threads: usize) -> SweepProgress {
        let left: usize = algorithms.iter().map(|a| a.runs_left).sum();
        SweepProgress {
            done: 4,
            total: 4 + left,
            running: 2,
            evals: 40,
            budget_left: left * 10,
            elapsed: Duration::from_secs(125),
            threads,
            algorithms,
        }
    }

    /// Two runs of a cheap method (0.1 s an evaluation) and two of one fifty times dearer
    /// (5 s), ten evaluations each, on two threads: (2·10·0.1 + 2·10·5)/2 = 51 s, where one
    /// rate over all evaluations (20 · 2.55 s / 2) would say 25.5 s.
    #[test]
    fn the_time_left_weighs_each_algorithms_own_rate() {
        let p = progress(
            vec![
                algorithm("turbo", 2, 20, 2.0),
                algorithm("qlognei", 2, 20, 100.0),
            ],
            2,
        );
        assert_eq!(p.time_left(), Ok(Duration::from_secs(51)));
        assert_eq!(
            p.to_string(),
            "[4/8 runs, 2 running] 0.3 evals/s, 2 min 5 s elapsed, ETA 51 s"
        );
        // One run left on eight threads runs on one.
        let one = progress(vec![algorithm("qlognei", 1, 20, 100.0)], 8);
        assert_eq!(one.time_left(), Ok(Duration::from_secs(50)));
    }

    #[test]
    fn no_estimate_before_each_algorithm_with_runs_left_completes_one() {
        let p = progress(
            vec![
                algorithm("turbo", 2, 20, 2.0),
                algorithm("qlognei", 2, 0, 0.0),
                algorithm("ei", 0, 0, 0.0),
            ],
            2,
        );
        assert_eq!(
            p.time_left(),
            Err(NoEstimate::Waiting(vec!["qlognei".into()]))
        );
        assert!(
            p.to_string()
                .ends_with("ETA once a run of qlognei completes")
        );
        let many = progress(
            (0..5)
                .map(|k| algorithm(&format!("a{k}"), 1, 0, 0.0))
                .collect(),
            2,
        );
        assert!(
            many.eta_text()
                .ends_with("once a run of a0, a1, a2 and 2 more completes")
        );
    }

    #[test]
    fn durations_read_in_seconds_minutes_or_hours() {
        assert_eq!(duration_text(Duration::from_secs_f64(41.6)), "42 s");
        assert_eq!(duration_text(Duration::from_secs(320)), "5 min 20 s");
        assert_eq!(duration_text(Duration::from_secs(7500)), "2 h 5 min");
    }
}
