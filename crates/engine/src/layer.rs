//! Engines that wrap another engine: the one forwarding mechanism.
//!
//! A wrapper (the GPU-to-CPU failover, a run's conditioning monitor, a test's spy) changes where
//! a call goes or watches what it reads; it does not re-implement the batch operations. It
//! implements [`EngineLayer`], and the blanket implementation below makes it an [`Engine`] that
//! sends every operation, the provided ones included, through [`EngineLayer::dispatch`]. A new
//! `Engine` operation is then forwarded by every wrapper at once, never forgotten by one.

use nalgebra::DMatrix;

use super::{
    DeviceUse, Engine, EngineError, ImprovementSmoothing, KernelRegression, Operation,
    PairReduction, PathMaximum, Placement, Points, Posterior, SampleCells, SamplePaths, Work,
};
use bosweep_model::{GpState, Kernel, SmoothingKernel};

/// A wrapper around an engine. Every method but [`EngineLayer::inner`] has a default that
/// forwards unchanged.
pub trait EngineLayer: Send + Sync {
    /// The engine calls reach unless [`EngineLayer::dispatch`] sends them elsewhere.
    fn inner(&self) -> &dyn Engine;

    /// Runs one operation: `op` applied to the engine that should serve it. `gps` are the GP
    /// states the operation reads (empty for operations on plain point sets), for layers that
    /// watch them; `work` is its operation and size, for layers that route by it.
    fn dispatch<T>(
        &self,
        gps: &[&GpState],
        work: &Work,
        op: impl Fn(&dyn Engine) -> Result<T, EngineError>,
    ) -> Result<T, EngineError> {
        let _ = (gps, work);
        op(self.inner())
    }

    /// See [`Engine::placement`].
    fn placement(&self, work: &Work) -> Option<Placement> {
        self.inner().placement(work)
    }

    /// See [`Engine::describe`].
    fn describe(&self) -> String {
        self.inner().describe()
    }

    /// See [`Engine::identity`].
    fn identity(&self) -> String {
        self.inner().identity()
    }

    /// See [`Engine::warnings`].
    fn warnings(&self) -> Vec<String> {
        self.inner().warnings()
    }

    /// See [`Engine::device_use`].
    fn device_use(&self) -> Option<DeviceUse> {
        self.inner().device_use()
    }

    /// See [`Engine::runs_per_core`].
    fn runs_per_core(&self) -> usize {
        self.inner().runs_per_core()
    }
}

impl<L: EngineLayer> Engine for L {
    fn describe(&self) -> String {
        EngineLayer::describe(self)
    }

    fn identity(&self) -> String {
        EngineLayer::identity(self)
    }

    fn warnings(&self) -> Vec<String> {
        EngineLayer::warnings(self)
    }

    fn device_use(&self) -> Option<DeviceUse> {
        EngineLayer::device_use(self)
    }

    fn runs_per_core(&self) -> usize {
        EngineLayer::runs_per_core(self)
    }

    fn placement(&self, work: &Work) -> Option<Placement> {
        EngineLayer::placement(self, work)
    }

    fn cross_covariance(
        &self,
        kernel: &Kernel,
        a: &Points,
        b: &Points,
    ) -> Result<DMatrix<f64>, EngineError> {
        self.dispatch(&[], &Work::cross_covariance(a, b), |e| {
            e.cross_covariance(kernel, a, b)
        })
    }

    fn posterior(&self, gp: &GpState, candidates: &Points) -> Result<Posterior, EngineError> {
        self.dispatch(&[gp], &Work::posterior(&[gp], candidates), |e| {
            e.posterior(gp, candidates)
        })
    }

    fn posterior_batch(
        &self,
        gps: &[&GpState],
        candidates: &Points,
    ) -> Result<Vec<Posterior>, EngineError> {
        self.dispatch(gps, &Work::posterior(gps, candidates), |e| {
            e.posterior_batch(gps, candidates)
        })
    }

    fn pair_reduce(
        &self,
        gp: &GpState,
        decisions: &Points,
        contexts: &Points,
        beta: f64,
        reduction: PairReduction<'_>,
    ) -> Result<Vec<f64>, EngineError> {
        let work = Work::pairs(Operation::PairReduce, gp, decisions, contexts);
        self.dispatch(&[gp], &work, |e| {
            e.pair_reduce(gp, decisions, contexts, beta, reduction)
        })
    }

    fn pair_values(
        &self,
        gp: &GpState,
        decisions: &Points,
        contexts: &Points,
        beta: f64,
    ) -> Result<Vec<f64>, EngineError> {
        let work = Work::pairs(Operation::PairValues, gp, decisions, contexts);
        self.dispatch(&[gp], &work, |e| {
            e.pair_values(gp, decisions, contexts, beta)
        })
    }

    fn kde_log_density(
        &self,
        data: &Points,
        bandwidths: &[f64],
        weights: Option<&[f64]>,
        queries: &Points,
    ) -> Result<Vec<f64>, EngineError> {
        let work = Work::point_pairs(Operation::KdeDensity, data, queries);
        self.dispatch(&[], &work, |e| {
            e.kde_log_density(data, bandwidths, weights, queries)
        })
    }

    fn kde_density(
        &self,
        data: &Points,
        bandwidths: &[f64],
        weights: Option<&[f64]>,
        queries: &Points,
    ) -> Result<Vec<f64>, EngineError> {
        let work = Work::point_pairs(Operation::KdeDensity, data, queries);
        self.dispatch(&[], &work, |e| {
            e.kde_density(data, bandwidths, weights, queries)
        })
    }

    fn kernel_regression(
        &self,
        data: &Points,
        targets: &[f64],
        kernel: SmoothingKernel,
        bandwidth: f64,
        queries: &Points,
    ) -> Result<KernelRegression, EngineError> {
        let work = Work::point_pairs(Operation::KernelRegression, data, queries);
        self.dispatch(&[], &work, |e| {
            e.kernel_regression(data, targets, kernel, bandwidth, queries)
        })
    }

    fn nearest(&self, data: &Points, queries: &Points) -> Result<Vec<usize>, EngineError> {
        let work = Work::point_pairs(Operation::Nearest, data, queries);
        self.dispatch(&[], &work, |e| e.nearest(data, queries))
    }

    fn top_k(&self, values: &[f64], k: usize) -> Result<Vec<usize>, EngineError> {
        self.dispatch(&[], &Work::selection(values.len()), |e| e.top_k(values, k))
    }

    fn sample_path_maxima(
        &self,
        paths: &SamplePaths<'_>,
        candidates: &Points,
        excluded: &[usize],
    ) -> Result<Vec<PathMaximum>, EngineError> {
        self.dispatch(&[], &Work::sample_paths(paths, candidates), |e| {
            e.sample_path_maxima(paths, candidates, excluded)
        })
    }

    fn log_hypervolume_improvement(
        &self,
        cells: &SampleCells,
        draws: &[f64],
        smoothing: ImprovementSmoothing,
    ) -> Result<Vec<f64>, EngineError> {
        self.dispatch(&[], &Work::hypervolume_improvement(cells, draws), |e| {
            e.log_hypervolume_improvement(cells, draws, smoothing)
        })
    }

    fn argmax(&self, values: &[f64]) -> Result<usize, EngineError> {
        self.dispatch(&[], &Work::selection(values.len()), |e| e.argmax(values))
    }
}
