//! Where a run's engine calls went, under an engine that routes them by size (`--route auto`):
//! counted per run by a layer the run loop owns, drained once per step into the step's
//! `extra.engine_calls` (`{"cpu": …, "gpu": …}`). The routed engine is shared by every run of a
//! sweep, so its own totals cannot say which run a call came from.

use std::sync::atomic::{AtomicUsize, Ordering};

use bosweep_engine::{Engine, EngineError, EngineLayer, Placement, Work};
use bosweep_model::GpState;
use serde_json::{Value, json};

/// The trace's key for the counts, in a step's `extra`.
pub const ENGINE_CALLS_KEY: &str = "engine_calls";

/// Forwards every call to `inner` and counts where the inner engine places it.
pub(super) struct PlacementCounter<'a> {
    inner: &'a dyn Engine,
    /// Calls placed on (the CPU, the GPU) since the last [`PlacementCounter::take`].
    counts: [AtomicUsize; 2],
}

impl<'a> PlacementCounter<'a> {
    pub(super) fn new(inner: &'a dyn Engine) -> Self {
        Self {
            inner,
            counts: Default::default(),
        }
    }

    /// Whether the inner engine routes calls (else there is nothing to count).
    pub(super) fn routes(&self) -> bool {
        self.inner.placement(&Work::selection(0)).is_some()
    }

    /// `{"cpu": …, "gpu": …}`, the calls placed since the last call, counted from zero again.
    pub(super) fn take(&self) -> Value {
        let [cpu, gpu] = &self.counts;
        json!({
            "cpu": cpu.swap(0, Ordering::Relaxed),
            "gpu": gpu.swap(0, Ordering::Relaxed),
        })
    }
}

impl EngineLayer for PlacementCounter<'_> {
    fn inner(&self) -> &dyn Engine {
        self.inner
    }

    fn dispatch<T>(
        &self,
        _gps: &[&GpState],
        work: &Work,
        op: impl Fn(&dyn Engine) -> Result<T, EngineError>,
    ) -> Result<T, EngineError> {
        match self.inner.placement(work) {
            Some(Placement::Cpu) => self.counts[0].fetch_add(1, Ordering::Relaxed),
            Some(Placement::Gpu) => self.counts[1].fetch_add(1, Ordering::Relaxed),
            None => 0,
        };
        op(self.inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep_engine::{CostModel, CpuEngine, RoutedEngine};

    #[test]
    fn each_call_is_counted_where_the_routed_engine_places_it() {
        // "GPU" from 1000 units on: here a second CPU backend stands in for it.
        let model = CostModel {
            crossovers: [Some(1000.0); 3],
            source: "test".into(),
        };
        let routed = RoutedEngine::new(Box::new(CpuEngine::new()), model);
        let counter = PlacementCounter::new(&routed);
        assert!(counter.routes());
        counter.top_k(&[1.0, 2.0], 1).unwrap();
        counter.top_k(&vec![0.5; 1000], 1).unwrap();
        counter.top_k(&vec![0.5; 2000], 1).unwrap();
        assert_eq!(counter.take(), json!({"cpu": 1, "gpu": 2}));
        assert_eq!(counter.take(), json!({"cpu": 0, "gpu": 0}));
        assert_eq!(routed.calls(), (1, 2));
        let plain = CpuEngine::new();
        assert!(!PlacementCounter::new(&plain).routes());
    }
}
