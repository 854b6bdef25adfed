//! The wgpu backend: WGSL compute shaders from `shaders/`, in f32 or (where the adapter offers
//! `SHADER_F64`) f64.
//!
//! Every input larger than the adapter's binding limit is processed in chunks; each chunk is one
//! submission whose results are copied into one readback buffer, mapped once per operation. Only
//! the per-candidate results ever come back to the host: kernel blocks, partial sums and
//! (decision, context) values stay on the device. One engine serialises its operations behind a
//! mutex, so many threads may share it.

mod batch;
mod context;
mod gp_upload;
mod shaders;

use std::sync::Mutex;

use nalgebra::DMatrix;

use self::batch::{Batch, Params, Slots, encode, read_reals, read_u32};
use self::context::GpuContext;
use self::gp_upload::{GpBuffers, chunk_size, inv_lengthscales, kernel_params, kind_code};
use self::shaders::Shader;
use super::{Engine, EngineError, KernelRegression, PairReduction, Points, Posterior, checks};
use crate::model::{GpState, Kernel, SmoothingKernel};

pub(crate) use self::context::{backends, device_rank, instance};

/// Arithmetic precision of the shaders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Precision {
    /// Fast everywhere; about 1e-6 relative accuracy (see the README for measured errors).
    #[default]
    F32,
    /// Needs `SHADER_F64`; agrees with the CPU backend to about 1e-12.
    F64,
}

impl Precision {
    pub fn bytes(self) -> usize {
        match self {
            Self::F32 => 4,
            Self::F64 => 8,
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "f32" => Some(Self::F32),
            "f64" => Some(Self::F64),
            _ => None,
        }
    }
}

/// How to open the GPU backend.
#[derive(Clone, Debug, Default)]
pub struct GpuOptions {
    pub precision: Precision,
    /// Refuse software adapters (used by `--device auto`).
    pub hardware_only: bool,
    /// Caps the size of every storage binding below the adapter's limit; tests use a tiny cap
    /// to exercise chunking.
    pub max_binding_bytes: Option<u64>,
    /// Fault injection: destroy the device (as a driver reset or a GPU falling off the bus
    /// would) when this many operations have run, so that tests and `BOSWEEP_FAULT_GPU_LOSS_AFTER`
    /// exercise the real device-lost path. Only in builds with the `fault-injection` feature.
    #[cfg(feature = "fault-injection")]
    pub lose_device_after: Option<usize>,
}

/// Workgroups per dimension are capped at 65535 by WebGPU.
const MAX_GROUPS: usize = 65535;
/// Threads per workgroup of the one-thread-per-query shaders.
const QUERY_THREADS: usize = 256;
/// Keys sorted per workgroup by `top_k.wgsl`.
const TOP_K_BLOCK: usize = 1024;

pub struct GpuEngine {
    ctx: GpuContext,
    slots: Mutex<Slots>,
    /// Operations left before the injected device loss ([`GpuOptions::lose_device_after`]).
    #[cfg(feature = "fault-injection")]
    fault_countdown: Option<std::sync::atomic::AtomicUsize>,
}

impl GpuEngine {
    pub fn new(options: &GpuOptions) -> Result<Self, EngineError> {
        Ok(Self {
            ctx: GpuContext::new(options)?,
            slots: Mutex::new(Slots::default()),
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
            let left = countdown.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                n.checked_sub(1)
            });
            if left == Err(0) {
                self.lose_device();
            }
        }
    }

    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.ctx.info
    }

    pub fn precision(&self) -> Precision {
        self.ctx.precision
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

    /// Top-k of at most `values.len()` keys that fit one binding, on the device.
    fn top_k_segment(
        &self,
        values: &[f64],
        offset: usize,
        k: usize,
    ) -> Result<Vec<usize>, EngineError> {
        let ctx = &self.ctx;
        let mut slots = self.slots();
        let keys: Vec<[u32; 4]> = values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let bits = v.to_bits();
                let key = if bits >> 63 == 1 {
                    !bits
                } else {
                    bits | (1 << 63)
                };
                [(key >> 32) as u32, key as u32, (offset + i) as u32, 0]
            })
            .collect();
        let mut input = slots.upload_at(ctx, "keys", 0, bytemuck::cast_slice(&keys));
        let mut len = values.len();
        let mut batch = Batch::new();
        let mut pass = 1;
        loop {
            let blocks = len.div_ceil(TOP_K_BLOCK);
            let keep = if blocks == 1 {
                k
            } else {
                k.min(TOP_K_BLOCK / 2)
            };
            let output = slots.storage_at(ctx, "keys", pass % 2, (blocks * keep * 16) as u64);
            batch.dispatch(
                Shader::TopK,
                Params::ints(&[len as u32, keep as u32]),
                &[&input, &output],
                [blocks as u32, 1, 1],
            );
            len = blocks * keep;
            input = output;
            pass += 1;
            if blocks == 1 {
                break;
            }
        }
        batch.copy_out(&input, 0, 0, (k * 16) as u64);
        batch.submit(ctx, &mut slots, (k * 16) as u64)?;
        let words = read_u32(ctx, &mut slots, k * 4)?;
        Ok(words.chunks_exact(4).map(|w| w[2] as usize).collect())
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
        checks::cross_covariance(kernel, a, b)?;
        let (m, n, dim) = (a.rows(), b.rows(), a.dim());
        if m == 0 || n == 0 {
            return Ok(DMatrix::zeros(m, n));
        }
        let ctx = &self.ctx;
        self.fits("the second point set", n * dim)?;
        let chunk = chunk_size(ctx, &[n, dim], "one row of the cross-covariance")?;
        let s = ctx.precision.bytes() as u64;
        let mut slots = self.slots();
        let b_buf = slots.upload(ctx, "train", &self.encode(b.as_slice()));
        let inv_ls = slots.upload(
            ctx,
            "inv_ls",
            &self.encode(&inv_lengthscales(kernel, ctx.precision)),
        );
        let total = (m * n) as u64 * s;
        for c0 in (0..m).step_by(chunk) {
            let count = chunk.min(m - c0);
            let a_buf = slots.upload(
                ctx,
                "cand",
                &self.encode(a.slice_rows(c0, c0 + count).as_slice()),
            );
            let out = slots.storage(ctx, "kt", (count * n) as u64 * s);
            let mut batch = Batch::new();
            batch.dispatch(
                Shader::CrossCovariance,
                kernel_params(kernel, count, n, [n, 1]),
                &[&a_buf, &b_buf, &inv_ls, &out],
                [n.div_ceil(64) as u32, count.div_ceil(64) as u32, 1],
            );
            batch.copy_out(&out, 0, (c0 * n) as u64 * s, (count * n) as u64 * s);
            batch.submit(ctx, &mut slots, total)?;
        }
        let values = read_reals(ctx, &mut slots, m * n)?;
        Ok(DMatrix::from_row_slice(m, n, &values))
    }

    fn posterior_batch(
        &self,
        gps: &[&GpState],
        candidates: &Points,
    ) -> Result<Vec<Posterior>, EngineError> {
        self.inject_fault();
        checks::posterior(gps, candidates)?;
        let ctx = &self.ctx;
        let (m, dim) = (candidates.rows(), candidates.dim());
        let s = ctx.precision.bytes() as u64;
        let total = (2 * m * gps.len()) as u64 * s;
        let mut slots = self.slots();
        let mut submitted = false;
        for (g, gp) in gps.iter().enumerate() {
            let n = gp.train().rows();
            if n == 0 || m == 0 {
                continue;
            }
            self.fits("the training inputs", n * dim)?;
            let bufs = GpBuffers::upload(ctx, &mut slots, gp)?;
            let ld = chunk_size(
                ctx,
                &[n, dim, bufs.groups, 2],
                "one candidate's kernel column",
            )?;
            let kt = slots.storage(ctx, "kt", (n * ld) as u64 * s);
            let part = slots.storage(ctx, "part", (bufs.groups * ld) as u64 * s);
            let out = slots.storage(ctx, "out", (2 * ld) as u64 * s);
            let base = (2 * m * g) as u64 * s;
            for c0 in (0..m).step_by(ld) {
                let count = ld.min(m - c0);
                let cand = slots.upload(
                    ctx,
                    "cand",
                    &self.encode(candidates.slice_rows(c0, c0 + count).as_slice()),
                );
                let mut batch = Batch::new();
                batch.dispatch(
                    Shader::CrossCovariance,
                    kernel_params(gp.kernel(), count, n, [1, ld]),
                    &[&cand, &bufs.train, &bufs.inv_ls, &kt],
                    [n.div_ceil(64) as u32, count.div_ceil(64) as u32, 1],
                );
                bufs.record_quad(&mut batch, n, &kt, &part, ld, count);
                batch.dispatch(
                    Shader::PosteriorFinish,
                    Params::ints(&[ld as u32, count as u32, n as u32, bufs.groups as u32, 0])
                        .with_reals(&[gp.mean(), gp.kernel().diag(), 1.0 / gp.lambda(), 0.0]),
                    &[&kt, &bufs.alpha, &part, &out],
                    [count.div_ceil(QUERY_THREADS) as u32, 1, 1],
                );
                let bytes = count as u64 * s;
                batch.copy_out(&out, 0, base + c0 as u64 * s, bytes);
                batch.copy_out(&out, ld as u64 * s, base + (m + c0) as u64 * s, bytes);
                batch.submit(ctx, &mut slots, total)?;
                submitted = true;
            }
        }
        let values = if submitted {
            read_reals(ctx, &mut slots, 2 * m * gps.len())?
        } else {
            Vec::new()
        };
        Ok(gps
            .iter()
            .enumerate()
            .map(|(g, gp)| {
                if gp.train().is_empty() || m == 0 {
                    return Posterior {
                        mean: vec![gp.mean(); m],
                        variance: vec![gp.kernel().diag() / gp.lambda(); m],
                    };
                }
                let base = 2 * m * g;
                Posterior {
                    mean: values[base..base + m].to_vec(),
                    variance: values[base + m..base + 2 * m].to_vec(),
                }
            })
            .collect())
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
        checks::pairs(gp, decisions, contexts, beta, &reduction)?;
        let ctx = &self.ctx;
        let n = gp.train().rows();
        let (rows, samples) = (decisions.rows(), contexts.rows());
        let (dx, dc) = (decisions.dim(), contexts.dim());
        if rows == 0 {
            return Ok(Vec::new());
        }
        if n == 0 {
            // The prior: every pair has the same UCB, and every reduction returns it (the
            // worst case too, since the infimum is clipped to the smallest sample).
            let u = gp.mean() + beta * (gp.kernel().diag() / gp.lambda()).sqrt();
            return Ok(match reduction {
                PairReduction::WorstCaseTv { delta, infimum } => infimum
                    .iter()
                    .map(|&inf| {
                        let mut values = vec![u; samples];
                        super::worst_case_tv(&mut values, delta, inf)
                    })
                    .collect(),
                _ => vec![u; rows],
            });
        }
        self.fits("the training inputs", n * (dx + dc))?;
        self.fits("the context samples' distances", samples * n)?;
        if n > MAX_GROUPS {
            return Err(EngineError::gpu(format!(
                "pair reductions on the GPU take at most {MAX_GROUPS} training points, got {n}"
            )));
        }
        let s = ctx.precision.bytes() as u64;
        let mut slots = self.slots();
        let bufs = GpBuffers::upload(ctx, &mut slots, gp)?;
        let kernel = gp.kernel();
        let (kind, rq_alpha) = kind_code(kernel.kind());
        let ctx_buf = slots.upload(ctx, "contexts", &self.encode(contexts.as_slice()));
        let dc2 = slots.storage(ctx, "dc2", (samples * n) as u64 * s);
        let pairs_per_item = [n * samples, bufs.groups * samples, samples];
        let per_decision = chunk_size(ctx, &pairs_per_item, "one decision's pairs")?
            .min(chunk_size(ctx, &[n, dx], "one decision")?);
        let chunk = (gp_upload::MAX_CHUNK / samples)
            .max(1)
            .min(per_decision)
            .min(MAX_GROUPS);
        let ld = chunk * samples;
        let dx2 = slots.storage(ctx, "dx2", (chunk * n) as u64 * s);
        let kt = slots.storage(ctx, "kt", (n * ld) as u64 * s);
        let part = slots.storage(ctx, "part", (bufs.groups * ld) as u64 * s);
        let ucb = slots.storage(ctx, "ucb", ld as u64 * s);
        let out = slots.storage(ctx, "out", chunk as u64 * s);
        let distance = |rows_a, dim_a, b_off, cols, ls_off| {
            Params::ints(&[
                rows_a as u32,
                n as u32,
                dim_a as u32,
                (dx + dc) as u32,
                0,
                b_off as u32,
                cols as u32,
                ls_off as u32,
                0,
                1,
                n as u32,
                1,
            ])
        };
        let (mode, k, delta) = match reduction {
            PairReduction::Mean => (0, 0, 0.0),
            PairReduction::Min => (1, 0, 0.0),
            PairReduction::WorstCaseTv { delta, .. } => (
                2,
                (delta * samples as f64 / 2.0).floor().min(samples as f64) as u32,
                delta,
            ),
        };
        let mut setup = Batch::new();
        setup.dispatch(
            Shader::CrossCovariance,
            distance(samples, dc, dx, dc, dx),
            &[&ctx_buf, &bufs.train, &bufs.inv_ls, &dc2],
            [n.div_ceil(64) as u32, samples.div_ceil(64) as u32, 1],
        );
        setup.submit(ctx, &mut slots, rows as u64 * s)?;
        for c0 in (0..rows).step_by(chunk) {
            let count = chunk.min(rows - c0);
            let pairs = count * samples;
            let dec = slots.upload(
                ctx,
                "cand",
                &self.encode(decisions.slice_rows(c0, c0 + count).as_slice()),
            );
            let inf = match reduction {
                PairReduction::WorstCaseTv { infimum, .. } => &infimum[c0..c0 + count],
                _ => &[0.0][..],
            };
            let inf = slots.upload(ctx, "infimum", &self.encode(inf));
            let mut batch = Batch::new();
            batch.dispatch(
                Shader::CrossCovariance,
                distance(count, dx, 0, dx, 0),
                &[&dec, &bufs.train, &bufs.inv_ls, &dx2],
                [n.div_ceil(64) as u32, count.div_ceil(64) as u32, 1],
            );
            batch.dispatch(
                Shader::PairCovariance,
                Params::ints(&[count as u32, samples as u32, n as u32, kind, ld as u32])
                    .with_reals(&[kernel.signal_variance(), rq_alpha]),
                &[&dx2, &dc2, &kt],
                [pairs.div_ceil(QUERY_THREADS) as u32, n as u32, 1],
            );
            bufs.record_quad(&mut batch, n, &kt, &part, ld, pairs);
            batch.dispatch(
                Shader::PosteriorFinish,
                Params::ints(&[ld as u32, pairs as u32, n as u32, bufs.groups as u32, 1])
                    .with_reals(&[gp.mean(), kernel.diag(), 1.0 / gp.lambda(), beta]),
                &[&kt, &bufs.alpha, &part, &ucb],
                [pairs.div_ceil(QUERY_THREADS) as u32, 1, 1],
            );
            batch.dispatch(
                Shader::PairReduce,
                Params::ints(&[count as u32, samples as u32, mode, k]).with_reals(&[delta]),
                &[&ucb, &inf, &out],
                [count as u32, 1, 1],
            );
            batch.copy_out(&out, 0, c0 as u64 * s, count as u64 * s);
            batch.submit(ctx, &mut slots, rows as u64 * s)?;
        }
        read_reals(ctx, &mut slots, rows)
    }

    fn kde_log_density(
        &self,
        data: &Points,
        bandwidths: &[f64],
        weights: Option<&[f64]>,
        queries: &Points,
    ) -> Result<Vec<f64>, EngineError> {
        self.inject_fault();
        checks::kde(data, bandwidths, weights, queries)?;
        let (m, dim) = (queries.rows(), queries.dim());
        if m == 0 {
            return Ok(Vec::new());
        }
        // Zero-weight points contribute nothing; dropping them keeps every log-weight finite.
        let kept: Vec<(&[f64], f64)> = data
            .iter()
            .zip(weights.map_or_else(|| vec![1.0; data.rows()], <[f64]>::to_vec))
            .filter(|(_, w)| *w > 0.0)
            .collect();
        let scaled: Vec<f64> = kept
            .iter()
            .flat_map(|(x, _)| x.iter().zip(bandwidths).map(|(v, h)| v / h))
            .collect();
        let log_w: Vec<f64> = kept.iter().map(|(_, w)| w.ln()).collect();
        let total: f64 = kept.iter().map(|(_, w)| w).sum();
        let log_norm = total.ln()
            + bandwidths.iter().map(|h| h.ln()).sum::<f64>()
            + 0.5 * dim as f64 * (2.0 * std::f64::consts::PI).ln();
        self.fits("the KDE data", scaled.len())?;
        let ctx = &self.ctx;
        let s = ctx.precision.bytes() as u64;
        let chunk = self.query_chunk(dim, 1)?;
        let mut slots = self.slots();
        let data_buf = slots.upload(ctx, "train", &self.encode(&scaled));
        let lw_buf = slots.upload(ctx, "alpha", &self.encode(&log_w));
        let out = slots.storage(ctx, "out", chunk as u64 * s);
        for c0 in (0..m).step_by(chunk) {
            let count = chunk.min(m - c0);
            let q: Vec<f64> = queries
                .slice_rows(c0, c0 + count)
                .iter()
                .flat_map(|x| {
                    x.iter()
                        .zip(bandwidths)
                        .map(|(v, h)| v / h)
                        .collect::<Vec<_>>()
                })
                .collect();
            let q_buf = slots.upload(ctx, "cand", &self.encode(&q));
            let mut batch = Batch::new();
            batch.dispatch(
                Shader::Kde,
                Params::ints(&[kept.len() as u32, count as u32, dim as u32])
                    .with_reals(&[log_norm]),
                &[&data_buf, &lw_buf, &q_buf, &out],
                [count.div_ceil(QUERY_THREADS) as u32, 1, 1],
            );
            batch.copy_out(&out, 0, c0 as u64 * s, count as u64 * s);
            batch.submit(ctx, &mut slots, m as u64 * s)?;
        }
        read_reals(ctx, &mut slots, m)
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
        checks::kernel_regression(data, targets, bandwidth, queries)?;
        let (m, dim) = (queries.rows(), queries.dim());
        if m == 0 {
            return Ok(KernelRegression {
                mean: Vec::new(),
                log_weight_sum: Vec::new(),
            });
        }
        self.fits("the regression data", data.as_slice().len())?;
        let ctx = &self.ctx;
        let s = ctx.precision.bytes() as u64;
        let inv_h = 1.0 / bandwidth;
        let scale = |p: &Points| -> Vec<f64> { p.as_slice().iter().map(|v| v * inv_h).collect() };
        let code = match kernel {
            SmoothingKernel::Gaussian => 0,
            SmoothingKernel::Epanechnikov => 1,
            SmoothingKernel::Uniform => 2,
        };
        let chunk = self.query_chunk(dim, 1)?;
        let mut slots = self.slots();
        let data_buf = slots.upload(ctx, "train", &self.encode(&scale(data)));
        let y_buf = slots.upload(ctx, "alpha", &self.encode(targets));
        let mean = slots.storage(ctx, "out", chunk as u64 * s);
        let weight = slots.storage(ctx, "part", chunk as u64 * s);
        for c0 in (0..m).step_by(chunk) {
            let count = chunk.min(m - c0);
            let q_buf = slots.upload(
                ctx,
                "cand",
                &self.encode(&scale(&queries.slice_rows(c0, c0 + count))),
            );
            let mut batch = Batch::new();
            batch.dispatch(
                Shader::KernelRegression,
                Params::ints(&[data.rows() as u32, count as u32, dim as u32, code]),
                &[&data_buf, &y_buf, &q_buf, &mean, &weight],
                [count.div_ceil(QUERY_THREADS) as u32, 1, 1],
            );
            batch.copy_out(&mean, 0, c0 as u64 * s, count as u64 * s);
            batch.copy_out(&weight, 0, (m + c0) as u64 * s, count as u64 * s);
            batch.submit(ctx, &mut slots, (2 * m) as u64 * s)?;
        }
        let mut values = read_reals(ctx, &mut slots, 2 * m)?;
        let mut log_weight_sum = values.split_off(m);
        if kernel != SmoothingKernel::Gaussian {
            for w in &mut log_weight_sum {
                *w = if *w > 0.0 { w.ln() } else { f64::NEG_INFINITY };
            }
        }
        Ok(KernelRegression {
            mean: values,
            log_weight_sum,
        })
    }

    fn nearest(&self, data: &Points, queries: &Points) -> Result<Vec<usize>, EngineError> {
        self.inject_fault();
        checks::nearest(data, queries)?;
        let (m, dim) = (queries.rows(), queries.dim());
        if m == 0 {
            return Ok(Vec::new());
        }
        self.fits("the data points", data.as_slice().len())?;
        let ctx = &self.ctx;
        let s = ctx.precision.bytes() as u64;
        let chunk = self.query_chunk(dim, 1)?;
        let mut slots = self.slots();
        let data_buf = slots.upload(ctx, "train", &self.encode(data.as_slice()));
        let out = slots.storage(ctx, "out", chunk as u64 * s.max(4));
        for c0 in (0..m).step_by(chunk) {
            let count = chunk.min(m - c0);
            let q_buf = slots.upload(
                ctx,
                "cand",
                &self.encode(queries.slice_rows(c0, c0 + count).as_slice()),
            );
            let mut batch = Batch::new();
            batch.dispatch(
                Shader::Nearest,
                Params::ints(&[data.rows() as u32, count as u32, dim as u32]),
                &[&data_buf, &q_buf, &out],
                [count.div_ceil(QUERY_THREADS) as u32, 1, 1],
            );
            batch.copy_out(&out, 0, c0 as u64 * 4, count as u64 * 4);
            batch.submit(ctx, &mut slots, m as u64 * 4)?;
        }
        Ok(read_u32(ctx, &mut slots, m)?
            .into_iter()
            .map(|i| i as usize)
            .collect())
    }

    fn top_k(&self, values: &[f64], k: usize) -> Result<Vec<usize>, EngineError> {
        self.inject_fault();
        checks::values(values)?;
        let k = k.min(values.len());
        if k == 0 {
            return Ok(Vec::new());
        }
        let order = |a: &usize, b: &usize| values[*b].total_cmp(&values[*a]).then(a.cmp(b));
        if k > TOP_K_BLOCK / 2 && values.len() > TOP_K_BLOCK {
            // Block passes would not shrink the input: a host sort is the faster exact answer.
            let mut idx: Vec<usize> = (0..values.len()).collect();
            idx.sort_unstable_by(order);
            idx.truncate(k);
            return Ok(idx);
        }
        let segment = ((self.ctx.max_binding / 16) as usize / TOP_K_BLOCK * TOP_K_BLOCK)
            .clamp(TOP_K_BLOCK, MAX_GROUPS * TOP_K_BLOCK);
        let mut best = Vec::new();
        for s0 in (0..values.len()).step_by(segment) {
            let part = &values[s0..values.len().min(s0 + segment)];
            best.extend(self.top_k_segment(part, s0, k.min(part.len()))?);
        }
        best.sort_unstable_by(order);
        best.truncate(k);
        Ok(best)
    }
}
