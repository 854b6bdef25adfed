//! The GPU backend with the CPU backend behind it: `--device auto` runs on a hardware GPU and,
//! if the GPU fails mid-run (device lost, driver error, out of device memory), finishes on the
//! CPU instead of losing the sweep. The failure is recorded as a warning that every affected
//! run's trace carries; `--device gpu` uses the bare [`GpuEngine`] and stops with the error.

use std::sync::Mutex;

use super::{CpuEngine, Engine, EngineError, EngineLayer, GpuEngine, Work};
use bosweep_model::GpState;

/// The GPU engine until it fails, the CPU engine from then on (`--device auto`).
pub struct FailoverEngine {
    gpu: GpuEngine,
    cpu: CpuEngine,
    /// The GPU's error once it has failed; from then on every operation runs on the CPU.
    failure: Mutex<Option<String>>,
}

impl FailoverEngine {
    /// `gpu`, with a CPU engine to take over when it fails.
    pub fn new(gpu: GpuEngine) -> Self {
        Self {
            gpu,
            cpu: CpuEngine::new(),
            failure: Mutex::new(None),
        }
    }

    fn failure(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        self.failure.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl EngineLayer for FailoverEngine {
    fn inner(&self) -> &dyn Engine {
        &self.gpu
    }

    /// Runs `op` on the GPU until it fails with a GPU error, then (that time and every later
    /// one) on the CPU. Invalid input is the caller's error on either backend and is returned.
    fn dispatch<T>(
        &self,
        _gps: &[&GpState],
        _work: &Work,
        op: impl Fn(&dyn Engine) -> Result<T, EngineError>,
    ) -> Result<T, EngineError> {
        if self.failure().is_some() {
            return op(&self.cpu);
        }
        match op(&self.gpu) {
            Err(EngineError::Gpu(message)) => {
                self.failure().get_or_insert(message);
                op(&self.cpu)
            }
            other => other,
        }
    }

    fn describe(&self) -> String {
        match self.failure().as_ref() {
            Some(_) => format!("{} after the GPU failed", self.cpu.describe()),
            None => format!("{} (CPU fallback)", self.gpu.describe()),
        }
    }

    /// The GPU's: the device the sweep chose, even after a failure moved the rest of a run to
    /// the CPU (its trace records that in its warnings).
    fn identity(&self) -> String {
        self.gpu.identity()
    }

    fn warnings(&self) -> Vec<String> {
        self.failure()
            .iter()
            .map(|m| format!("GPU failed ({m}); continuing on the CPU backend"))
            .collect()
    }
}
