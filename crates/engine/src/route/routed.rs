//! The GPU and the CPU backend side by side, each call sent where its [`CostModel`] says it
//! runs faster (`--route auto`). Results are the chosen backend's: within the documented
//! CPU/GPU parity tolerances of either.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::cost::{CostModel, Placement};
use super::work::Work;
use crate::{CpuEngine, Engine, EngineError, EngineLayer};
use bosweep_model::GpState;

/// Routes each call to `gpu` or to a CPU backend by size.
pub struct RoutedEngine {
    gpu: Box<dyn Engine>,
    cpu: CpuEngine,
    model: CostModel,
    /// Calls sent to the CPU and to the GPU so far.
    calls: [AtomicUsize; 2],
}

impl RoutedEngine {
    /// `gpu` (a bare GPU engine, or one that falls back to the CPU when it fails) beside a CPU
    /// backend, calls placed by `model`.
    pub fn new(gpu: Box<dyn Engine>, model: CostModel) -> Self {
        Self {
            gpu,
            cpu: CpuEngine::new(),
            model,
            calls: Default::default(),
        }
    }

    /// Calls sent to (the CPU, the GPU) so far.
    pub fn calls(&self) -> (usize, usize) {
        (
            self.calls[0].load(Ordering::Relaxed),
            self.calls[1].load(Ordering::Relaxed),
        )
    }
}

impl EngineLayer for RoutedEngine {
    fn inner(&self) -> &dyn Engine {
        self.gpu.as_ref()
    }

    fn dispatch<T>(
        &self,
        _gps: &[&GpState],
        work: &Work,
        op: impl Fn(&dyn Engine) -> Result<T, EngineError>,
    ) -> Result<T, EngineError> {
        let placement = self.model.place(work);
        let k = match placement {
            Placement::Cpu => 0,
            Placement::Gpu => 1,
        };
        self.calls[k].fetch_add(1, Ordering::Relaxed);
        match placement {
            Placement::Cpu => op(&self.cpu),
            Placement::Gpu => op(self.gpu.as_ref()),
        }
    }

    fn placement(&self, work: &Work) -> Option<Placement> {
        Some(self.model.place(work))
    }

    /// One: the calls routing keeps on the CPU hold a core while they run.
    fn runs_per_core(&self) -> usize {
        1
    }

    fn describe(&self) -> String {
        format!(
            "{} with {} (route {})",
            self.gpu.describe(),
            self.cpu.describe(),
            self.model.describe()
        )
    }

    /// Both backends' and the policy: a sweep resumed under another routing is a mixed one.
    fn identity(&self) -> String {
        format!(
            "{} + {} (route {})",
            self.gpu.identity(),
            self.cpu.identity(),
            self.model.describe()
        )
    }
}
