//! Ctrl-C during long work: Python handles signals on its main thread, between bytecodes, which
//! never come while Rust holds that thread. So the work runs on a thread of its own and the
//! calling thread waits without the GIL, checking for signals a few times a second.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

use bosweep_sweep::StopSignal;
use pyo3::prelude::*;

use super::errors::failed;

/// How often the waiting thread looks for a signal.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` (which checks `stop` between its steps) on a new thread until it returns. When a
/// signal handler raises (Ctrl-C: `KeyboardInterrupt`), `stop` is requested, the work is
/// waited for (it ends after the evaluation in progress) and the exception propagates.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &StopSignal,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let ended = Ended::default();
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            // Marks the end when dropped: after the work returns or panics.
            let _guard = EndGuard(&ended);
            work()
        });
        let wait = |timeout| py.detach(|| ended.wait(timeout));
        while !wait(POLL) {
            if let Err(raised) = py.check_signals() {
                stop.request();
                while !wait(POLL) {}
                // The worker has ended; its outcome gives way to the exception.
                let _ = worker.join();
                return Err(raised);
            }
        }
        worker
            .join()
            .map_err(|_| failed("bosweep: the run's thread panicked"))
    })
}

/// Whether the work has ended, and a condition variable to wait for it.
#[derive(Default)]
struct Ended {
    flag: Mutex<bool>,
    changed: Condvar,
}

impl Ended {
    /// Waits up to `timeout` for the end; whether it came.
    fn wait(&self, timeout: Duration) -> bool {
        let flag = self.flag.lock().unwrap_or_else(|p| p.into_inner());
        let (flag, _) = self
            .changed
            .wait_timeout_while(flag, timeout, |ended| !*ended)
            .unwrap_or_else(|p| p.into_inner());
        *flag
    }
}

struct EndGuard<'a>(&'a Ended);

impl Drop for EndGuard<'_> {
    fn drop(&mut self) {
        *self.0.flag.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.0.changed.notify_all();
    }
}
