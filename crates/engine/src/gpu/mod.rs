//! The wgpu backend: WGSL compute shaders from `shaders/`, in f32 or (where the adapter offers
//! `SHADER_F64`) f64.
//!
//! Every input larger than the adapter's binding limit is processed in chunks; each chunk is one
//! submission whose results are copied into one readback buffer, mapped once per operation. Only
//! the per-candidate results ever come back to the host: kernel blocks, partial sums and
//! (decision, context) values stay on the device. One engine serialises its operations behind a
//! mutex, so many threads may share it; `coalesce.rs` runs the calls that queue up meanwhile as
//! one pass over the device (`pass.rs`).
//!
//! One file per operation (`cross_covariance.rs`, `posterior.rs`, `pairs.rs`, `kde.rs`,
//! `kernel_regression.rs`, `nearest.rs`, `top_k.rs`, `paths.rs`); `params.rs` declares each shader's
//! parameter block once, for the host and (generated into its prelude) for the shader.

mod batch;
mod coalesce;
mod context;
mod cross_covariance;
mod gp_upload;
mod hypervolume;
mod kde;
mod kernel_regression;
mod nearest;
mod pairs;
mod params;
mod pass;
mod paths;
mod posterior;
mod shaders;
mod source;
mod top_k;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use nalgebra::DMatrix;

use self::batch::{Slots, encode};
use self::coalesce::Coalescer;
use self::context::GpuContext;
use self::gp_upload::chunk_size;
use self::pass::{Call, Output};
use super::{
    DeviceUse, Engine, EngineError, ImprovementSmoothing, KernelRegression, PairReduction,
    PathMaximum, Points, Posterior, Precision, SampleCells, SamplePaths,
};
use bosweep_model::{GpState, Kernel, SmoothingKernel};

pub(crate) use self::context::{backends, device_rank, instance};

/// How to open the GPU backend.
#[derive(Clone, Debug)]
pub struct GpuOptions {
    /// Arithmetic precision of the shaders.
    pub precision: Precision,
    /// Refuse software adapters (used by `--device auto`).
    pub hardware_only: bool,
    /// Caps the size of every storage binding below the adapter's limit; tests use a tiny cap
    /// to exercise chunking.
    pub max_binding_bytes: Option<u64>,
    /// Run the calls (posteriors, pair reductions, KDE and kernel regression) that threads make
    /// while the device is busy together, in one pass with one read-back (the default;
    /// `BOSWEEP_COALESCE=off` turns it off). Results are bit-identical either way.
    pub coalesce: bool,
    /// Under coalescing, how long a thread that finds the device free may hold it for other
    /// runs' calls to join its pass, when the previous pass ran several (zero, the default:
    /// never; `BOSWEEP_COALESCE_WINDOW_US`). A run alone on the device never waits.
    pub coalesce_window: Duration,
    /// Fault injection: destroy the device (as a driver reset or a GPU falling off the bus
    /// would) when this many operations have run, so that tests and `BOSWEEP_FAULT_GPU_LOSS_AFTER`
    /// exercise the real device-lost path. Only in builds with the `fault-injection` feature.
    #[cfg(feature = "fault-injection")]
    pub lose_device_after: Option<usize>,
}

impl Default for GpuOptions {
    fn default() -> Self {
        Self {
            precision: Precision::default(),
            hardware_only: false,
            max_binding_bytes: None,
            coalesce: true,
            coalesce_window: Duration::ZERO,
            #[cfg(feature = "fault-injection")]
            lose_device_after: None,
        }
    }
}

/// Workgroups per dimension are capped at 65535 by WebGPU.
const MAX_GROUPS: usize = 65535;
/// Threads per workgroup of the one-thread-per-query shaders.
const QUERY_THREADS: usize = 256;
/// Keys sorted per workgroup by `top_k.wgsl`.
const TOP_K_BLOCK: usize = 1024;

/// The wgpu backend: every batch operation as a compute shader on one adapter, the device
/// shared by the threads that call it.
pub struct GpuEngine {
    ctx: GpuContext,
    slots: Mutex<Slots>,
    /// Concurrent calls, run together ([`GpuOptions::coalesce`]); `None` runs each call on
    /// its own.
    coalescer: Option<Coalescer>,
    /// Calls run so far, and the passes over the device (read-backs) they took.
    calls: AtomicUsize,
    passes: AtomicUsize,
    /// Operations left before the injected device loss ([`GpuOptions::lose_device_after`]).
    #[cfg(feature = "fault-injection")]
    fault_countdown: Option<std::sync::atomic::AtomicUsize>,
}

impl GpuEngine {
    /// Opens the best adapter `options` allow; an error naming why when there is none.
    pub fn new(options: &GpuOptions) -> Result<Self, EngineError> {
        Ok(Self {
            ctx: GpuContext::new(options)?,
            slots: Mutex::new(Slots::default()),
            coalescer: options
                .coalesce
                .then(|| Coalescer::new(options.coalesce_window)),
            calls: AtomicUsize::new(0),
            passes: AtomicUsize::new(0),
            #[cfg(feature = "fault-injection")]
            fault_countdown: options
                .lose_device_after
                .map(std::sync::atomic::AtomicUsize::new),
        })
    }

    /// Destroys the device: every later operation fails with the device-lost error.
    pub fn lose_device(&self) {
        self.ctx.device.destroy();
    }

    /// Counts one operation towards an injected device loss: the operation that finds the
    /// countdown at zero (and every later one) runs on a destroyed device. Compiled to nothing
    /// without the `fault-injection` feature.
    fn inject_fault(&self) {
        #[cfg(feature = "fault-injection")]
        if let Some(countdown) = &self.fault_countdown {
            use std::sync::atomic::Ordering;
            let left =
                countdown.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
            if left == Err(0) {
                self.lose_device();
            }
        }
    }

    /// What the driver says about the adapter in use.
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.ctx.info
    }

    /// The shaders' arithmetic precision.
    pub fn precision(&self) -> Precision {
        self.ctx.precision
    }

    /// Counts a pass over the device that ran `calls` calls (`read_back`: it read results
    /// back; a pass of calls the prior answers did not).
    fn count_pass(&self, calls: usize, read_back: bool) {
        self.calls.fetch_add(calls, Ordering::Relaxed);
        if read_back {
            self.passes.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The most values one read-back holds.
    fn max_readback_reals(&self) -> usize {
        (self.ctx.max_buffer / self.ctx.precision.bytes() as u64) as usize
    }

    /// Runs `call` (after refusing what the device cannot take), coalesced with other threads'
    /// calls where coalescing is on.
    fn run(&self, call: Call<'_>) -> Result<Output, EngineError> {
        self.inject_fault();
        call.admit(self)?;
        match &self.coalescer {
            Some(coalescer) => coalescer.run(self, call),
            None => Ok(pass::run(self, &[&call])?.remove(0)),
        }
    }

    /// Runs an operation that is never coalesced: a pass of its own.
    fn run_alone<T>(&self, op: impl FnOnce() -> Result<T, EngineError>) -> Result<T, EngineError> {
        self.inject_fault();
        let result = op()?;
        self.count_pass(1, true);
        Ok(result)
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, Slots> {
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn encode(&self, values: &[f64]) -> Vec<u8> {
        encode(values, self.ctx.precision)
    }

    fn fits(&self, what: &str, reals: usize) -> Result<(), EngineError> {
        let bytes = (reals * self.ctx.precision.bytes()) as u64;
        if bytes > self.ctx.max_binding {
            return Err(EngineError::gpu(format!(
                "{what} ({bytes} bytes) exceeds the GPU binding limit of {} bytes",
                self.ctx.max_binding
            )));
        }
        Ok(())
    }

    /// Chunk size for one-thread-per-query shaders over `dim`-dimensional queries with
    /// `outputs` values per query.
    fn query_chunk(&self, dim: usize, outputs: usize) -> Result<usize, EngineError> {
        Ok(chunk_size(&self.ctx, &[dim, outputs], "one query")?.min(MAX_GROUPS * QUERY_THREADS))
    }
}

impl Engine for GpuEngine {
    fn describe(&self) -> String {
        let info = &self.ctx.info;
        format!(
            "gpu ({}, {:?}, {:?}, {:?})",
            info.name, info.backend, info.device_type, self.ctx.precision
        )
    }

    fn runs_per_core(&self) -> usize {
        2
    }

    fn device_use(&self) -> Option<DeviceUse> {
        Some(DeviceUse {
            calls: self.calls.load(Ordering::Relaxed),
            passes: self.passes.load(Ordering::Relaxed),
        })
    }

    fn cross_covariance(
        &self,
        kernel: &Kernel,
        a: &Points,
        b: &Points,
    ) -> Result<DMatrix<f64>, EngineError> {
        self.run_alone(|| cross_covariance::run(self, kernel, a, b))
    }

    fn posterior_batch(
        &self,
        gps: &[&GpState],
        candidates: &Points,
    ) -> Result<Vec<Posterior>, EngineError> {
        let call = Call::Posterior(posterior::Call::new(gps, candidates));
        Ok(self.run(call)?.posteriors())
    }

    fn pair_reduce(
        &self,
        gp: &GpState,
        decisions: &Points,
        contexts: &Points,
        beta: f64,
        reduction: PairReduction<'_>,
    ) -> Result<Vec<f64>, EngineError> {
        let call = pairs::Call::new(gp, decisions, contexts, beta, reduction);
        Ok(self.run(Call::Pairs(Box::new(call)))?.values())
    }

    fn kde_log_density(
        &self,
        data: &Points,
        bandwidths: &[f64],
        weights: Option<&[f64]>,
        queries: &Points,
    ) -> Result<Vec<f64>, EngineError> {
        let call = kde::Call::new(data, bandwidths, weights, queries);
        Ok(self.run(Call::Kde(call))?.values())
    }

    fn kernel_regression(
        &self,
        data: &Points,
        targets: &[f64],
        kernel: SmoothingKernel,
        bandwidth: f64,
        queries: &Points,
    ) -> Result<KernelRegression, EngineError> {
        let call = kernel_regression::Call::new(data, targets, kernel, bandwidth, queries);
        Ok(self.run(Call::Regression(call))?.regression())
    }

    fn nearest(&self, data: &Points, queries: &Points) -> Result<Vec<usize>, EngineError> {
        self.run_alone(|| nearest::run(self, data, queries))
    }

    fn top_k(&self, values: &[f64], k: usize) -> Result<Vec<usize>, EngineError> {
        self.run_alone(|| top_k::run(self, values, k))
    }

    fn sample_path_maxima(
        &self,
        paths: &SamplePaths<'_>,
        candidates: &Points,
        excluded: &[usize],
    ) -> Result<Vec<PathMaximum>, EngineError> {
        self.run_alone(|| paths::run(self, paths, candidates, excluded))
    }

    fn log_hypervolume_improvement(
        &self,
        cells: &SampleCells,
        draws: &[f64],
        smoothing: ImprovementSmoothing,
    ) -> Result<Vec<f64>, EngineError> {
        self.run_alone(|| hypervolume::run(self, cells, draws, smoothing))
    }
}
