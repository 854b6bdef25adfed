//! Warnings for ill-conditioned GPs, for the trace of the step whose decision used them.
//!
//! [`GpState::fit`] (and [`GpState::append`], which refits through it) escalates diagonal jitter
//! until `K + λΣ` factorises, and records the jitter it needed. Every GP-based algorithm hands
//! the GPs its decisions rest on to the engine (posteriors over the candidate grid, pair
//! reductions over context samples), so a run sees every such GP by wrapping its engine in a
//! [`ConditioningMonitor`]: one per run, owned by the run loop, drained once per step. No
//! algorithm has to cooperate, and nothing is shared between runs: a thread-local sink would not
//! do, because a sweep's runs execute on rayon threads that steal each other's work while they
//! wait, and a GP fitted for one run could land in another run's sink.
//!
//! Jitter used only inside hyperparameter fitting (trial points of the likelihood optimiser) is
//! not reported: those factors decide nothing.

use std::sync::{Mutex, MutexGuard};

use bosweep_engine::{Engine, EngineError, EngineLayer, Work};
use bosweep_model::GpState;

/// An engine that forwards every operation to `inner` and notes the GPs that needed jitter.
pub(super) struct ConditioningMonitor<'a> {
    inner: &'a dyn Engine,
    /// This step's warnings, distinct, in the order first seen.
    pending: Mutex<Vec<String>>,
}

impl<'a> ConditioningMonitor<'a> {
    pub(super) fn new(inner: &'a dyn Engine) -> Self {
        Self {
            inner,
            pending: Mutex::new(Vec::new()),
        }
    }

    /// The warnings noted since the last call, each once.
    pub(super) fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.pending())
    }

    fn pending(&self) -> MutexGuard<'_, Vec<String>> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn note(&self, gp: &GpState) {
        if gp.jitter() > 0.0 {
            let n = gp.train().rows();
            let message = format!(
                "ill-conditioned kernel matrix: the {n}×{n} Cholesky factorisation needed \
                 diagonal jitter {:.3e} (near-duplicate inputs with little noise); the \
                 posterior is that of the jittered matrix",
                gp.jitter()
            );
            let mut pending = self.pending();
            if !pending.contains(&message) {
                pending.push(message);
            }
        }
    }
}

impl EngineLayer for ConditioningMonitor<'_> {
    fn inner(&self) -> &dyn Engine {
        self.inner
    }

    fn dispatch<T>(
        &self,
        gps: &[&GpState],
        _work: &Work,
        op: impl Fn(&dyn Engine) -> Result<T, EngineError>,
    ) -> Result<T, EngineError> {
        gps.iter().for_each(|gp| self.note(gp));
        op(self.inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep_engine::{CpuEngine, Points};
    use bosweep_model::{GpSpec, Kernel, KernelKind, Noise};

    fn gp(train: Vec<f64>, noise: f64) -> GpState {
        let n = train.len();
        let kernel = Kernel::new(KernelKind::SquaredExponential, vec![0.5], 1.0).unwrap();
        let targets: Vec<f64> = (0..n).map(|i| i as f64).collect();
        GpState::fit(
            Points::new(train, 1).unwrap(),
            &targets,
            GpSpec::new(kernel, Noise::Homoscedastic(noise)),
        )
        .unwrap()
    }

    #[test]
    fn duplicate_inputs_without_noise_are_noted_once_per_step() {
        let cpu = CpuEngine::new();
        let monitor = ConditioningMonitor::new(&cpu);
        let jittered = gp(vec![0.3, 0.3, 0.3], 0.0);
        assert!(jittered.jitter() > 0.0);
        let candidates = Points::new(vec![0.0, 0.5, 1.0], 1).unwrap();
        for _ in 0..3 {
            let post = monitor.posterior(&jittered, &candidates).unwrap();
            assert!(
                post.mean
                    .iter()
                    .chain(&post.variance)
                    .all(|v| v.is_finite())
            );
        }
        let warnings = monitor.take();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("3×3") && warnings[0].contains("jitter"));
        assert!(monitor.take().is_empty(), "drained");
    }

    #[test]
    fn well_conditioned_gps_and_other_operations_are_not_noted() {
        let cpu = CpuEngine::new();
        let monitor = ConditioningMonitor::new(&cpu);
        let fine = gp(vec![0.0, 0.5, 1.0], 1e-2);
        assert_eq!(fine.jitter(), 0.0);
        let candidates = Points::new(vec![0.25, 0.75], 1).unwrap();
        let direct = cpu.posterior(&fine, &candidates).unwrap();
        assert_eq!(monitor.posterior(&fine, &candidates).unwrap(), direct);
        assert_eq!(monitor.top_k(&[1.0, 3.0, 2.0], 2).unwrap(), vec![1, 2]);
        assert!(monitor.take().is_empty());
    }
}
