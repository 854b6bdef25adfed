//! The wgpu backend: WGSL compute shaders from `shaders/`, in f32 or (where the adapter offers
//! `SHADER_F64`) f64.
//!
//! Every input larger than the adapter's binding limit is processed in chunks; each chunk is one
//! submission whose results are copied into one readback buffer, mapped once per operation. Only
//! the per-candidate results ever come back to the host: kernel blocks, partial sums and
//! (decision, context) values stay on the device. One engine serialises its operations behind a
//! mutex, so many threads may share it.
//!
//! One file per operation (`cross_covariance.rs`, `posterior.rs`, `pairs.rs`, `kde.rs`,
//! `kernel_regression.rs`, `nearest.rs`, `top_k.rs`); `params.rs` declares each shader's
//! parameter block once, for the host and (generated into its prelude) for the shader.

mod batch;
mod coalesce;
mod context;
mod cross_covariance;
mod gp_upload;
mod kde;
mod kernel_regression;
mod nearest;
mod pairs;
mod params;
mod posterior;
mod shaders;
mod source;
mod top_k;

use std::sync::Mutex;

use nalgebra::DMatrix;

use self::batch::{Slots, encode};
use self::coalesce::Coalescer;
use self::context::GpuContext;
use self::gp_upload::chunk_size;
use super::{
    Engine, EngineError, KernelRegression, PairReduction, Points, Posterior, Precision, checks,
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
    /// Run the posterior calls that threads make while the device is busy together, in one
    /// pass with one read-back (the default; `BOSWEEP_COALESCE=off` turns it off). Results are
    /// bit-identical either way.
    pub coalesce: bool,
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
    /// Concurrent posterior calls, run together ([`GpuOptions::coalesce`]); `None` runs each
    /// call on its own.
    coalescer: Option<Coalescer>,
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
            coalescer: options.coalesce.then(Coalescer::default),
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

    /// Under coalescing, (passes over the device, posterior calls they ran) so far: fewer
    /// passes than calls where concurrent calls were run together.
    pub fn coalesced(&self) -> Option<(usize, usize)> {
        self.coalescer.as_ref().map(Coalescer::passes)
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

    fn cross_covariance(
        &self,
        kernel: &Kernel,
        a: &Points,
        b: &Points,
    ) -> Result<DMatrix<f64>, EngineError> {
        self.inject_fault();
        cross_covariance::run(self, kernel, a, b)
    }

    fn posterior_batch(
        &self,
        gps: &[&GpState],
        candidates: &Points,
    ) -> Result<Vec<Posterior>, EngineError> {
        self.inject_fault();
        match &self.coalescer {
            Some(coalescer) => {
                checks::posterior(gps, candidates)?;
                coalescer.posterior(self, gps, candidates)
            }
            None => posterior::run(self, gps, candidates),
        }
    }

    fn pair_reduce(
        &self,
        gp: &GpState,
        decisions: &Points,
        contexts: &Points,
        beta: f64,
        reduction: PairReduction<'_>,
    ) -> Result<Vec<f64>, EngineError> {
        self.inject_fault();
        pairs::run(self, gp, decisions, contexts, beta, reduction)
    }

    fn kde_log_density(
        &self,
        data: &Points,
        bandwidths: &[f64],
        weights: Option<&[f64]>,
        queries: &Points,
    ) -> Result<Vec<f64>, EngineError> {
        self.inject_fault();
        kde::run(self, data, bandwidths, weights, queries)
    }

    fn kernel_regression(
        &self,
        data: &Points,
        targets: &[f64],
        kernel: SmoothingKernel,
        bandwidth: f64,
        queries: &Points,
    ) -> Result<KernelRegression, EngineError> {
        self.inject_fault();
        kernel_regression::run(self, data, targets, kernel, bandwidth, queries)
    }

    fn nearest(&self, data: &Points, queries: &Points) -> Result<Vec<usize>, EngineError> {
        self.inject_fault();
        nearest::run(self, data, queries)
    }

    fn top_k(&self, values: &[f64], k: usize) -> Result<Vec<usize>, EngineError> {
        self.inject_fault();
        top_k::run(self, values, k)
    }
}
