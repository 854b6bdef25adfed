//! Refusing, before anything runs, a sweep whose runs cannot fit in memory together: the user
//! gets one clear error with the estimate instead of the out-of-memory killer hours into the
//! sweep.

use super::RunSpec;

/// What the runs of a sweep need at once.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryEstimate {
    /// The largest single run's estimate ([`bosweep_algorithms::Algorithm::memory_bytes`]).
    pub per_run: u64,
    /// The key of that run.
    pub largest: String,
    /// Runs in flight at once: the worker threads, or fewer runs.
    pub parallel: usize,
    /// `per_run × parallel`: an upper estimate of the sweep's peak.
    pub total: u64,
}

impl MemoryEstimate {
    /// Estimates `runs` executed `threads` at a time, each needing `per_run` bytes
    /// ([`SweepConfig::memory_bytes`](crate::SweepConfig::memory_bytes), estimated from the
    /// instances the config built to validate its settings).
    pub fn of(runs: &[&RunSpec], threads: usize, per_run: impl Fn(&RunSpec) -> u64) -> Self {
        let mut largest = (0, String::new());
        for spec in runs {
            let bytes = per_run(spec);
            if bytes > largest.0 {
                largest = (bytes, spec.key());
            }
        }
        let parallel = threads.max(1).min(runs.len());
        Self {
            per_run: largest.0,
            largest: largest.1,
            parallel,
            total: largest.0.saturating_mul(parallel as u64),
        }
    }

    /// An error naming the estimate when it exceeds `available` bytes.
    pub fn check(&self, available: u64) -> Result<(), String> {
        if self.total <= available {
            return Ok(());
        }
        Err(format!(
            "the runs need about {} of memory ({} at once; the largest, {}, about {}), more \
             than the {} available; lower the budget, the candidate grid (grid_size) or the \
             worker threads (threads)",
            human_bytes(self.total),
            self.parallel,
            self.largest,
            human_bytes(self.per_run),
            human_bytes(available)
        ))
    }
}

/// Refuses one run whose estimate ([`bosweep_algorithms::Algorithm::memory_bytes`]) exceeds the
/// memory available, before it starts: what `bosweep run` and Python's `run` both ask, each
/// prefixing the budget's name as its caller writes it (`--budget`, `budget`). Passes where the
/// available memory is not known.
pub fn check_run_fits(
    algorithm: &dyn bosweep_algorithms::Algorithm,
    algorithm_name: &str,
    budget: usize,
    dim: usize,
) -> Result<(), String> {
    let needed = algorithm.memory_bytes(budget, dim);
    match available_bytes() {
        Some(available) if needed > available => Err(format!(
            "{budget} evaluations of {algorithm_name} need about {} of memory, more than the {} \
             available",
            human_bytes(needed),
            human_bytes(available)
        )),
        _ => Ok(()),
    }
}

/// The memory the system can give without swapping (`MemAvailable` of `/proc/meminfo`), or
/// `None` where that is not known (the check is then skipped).
pub fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// `bytes` in binary units with three significant digits (`1.50 GiB`).
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}
