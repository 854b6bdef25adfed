//! Asking runs in progress to stop between steps: the Python package's Ctrl-C. (The command
//! line stops by ending the process; a library caller cannot.)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Shared between the caller that asks for the stop and the runs that check it: a run checks
/// before each step, so it stops after the evaluation in progress, its trace whole up to there.
#[derive(Clone, Debug, Default)]
pub struct StopSignal(Arc<AtomicBool>);

impl StopSignal {
    /// Asks every run holding this signal to stop.
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub(crate) fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reaches_every_clone() {
        let signal = StopSignal::default();
        let held = signal.clone();
        assert!(!held.requested());
        signal.request();
        assert!(held.requested());
    }
}
