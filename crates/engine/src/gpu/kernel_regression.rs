//! Nadaraya–Watson means and weight sums per query chunk (inputs pre-scaled by 1/h).

use std::borrow::Cow;

use super::batch::{Batch, Slots};
use super::params::KernelRegressionParams;
use super::{GpuEngine, QUERY_THREADS};
use crate::{EngineError, KernelRegression, Points, checks};
use bosweep_model::SmoothingKernel;

/// One `kernel_regression` call, borrowed or (queued for another thread's pass) owned.
pub(super) struct Call<'a> {
    pub data: Cow<'a, Points>,
    pub targets: Cow<'a, [f64]>,
    pub kernel: SmoothingKernel,
    pub bandwidth: f64,
    pub queries: Cow<'a, Points>,
}

impl<'a> Call<'a> {
    pub fn new(
        data: &'a Points,
        targets: &'a [f64],
        kernel: SmoothingKernel,
        bandwidth: f64,
        queries: &'a Points,
    ) -> Self {
        Self {
            data: Cow::Borrowed(data),
            targets: Cow::Borrowed(targets),
            kernel,
            bandwidth,
            queries: Cow::Borrowed(queries),
        }
    }

    pub fn into_owned(self) -> Call<'static> {
        Call {
            data: Cow::Owned(self.data.into_owned()),
            targets: Cow::Owned(self.targets.into_owned()),
            kernel: self.kernel,
            bandwidth: self.bandwidth,
            queries: Cow::Owned(self.queries.into_owned()),
        }
    }

    /// Refuses what the device cannot take before the call joins a pass.
    pub fn admit(&self, gpu: &GpuEngine) -> Result<(), EngineError> {
        checks::kernel_regression(&self.data, &self.targets, self.bandwidth, &self.queries)?;
        gpu.fits("the regression data", self.data.as_slice().len())
    }

    /// Values the call reads back: each query's mean, then each one's weight sum.
    pub fn reals(&self) -> usize {
        2 * self.queries.rows()
    }

    /// The means and log weight sums from the call's read-back `values`.
    pub fn finish(&self, values: &[f64]) -> KernelRegression {
        let m = self.queries.rows();
        if m == 0 {
            return KernelRegression {
                mean: Vec::new(),
                log_weight_sum: Vec::new(),
            };
        }
        let mut log_weight_sum = values[m..2 * m].to_vec();
        if self.kernel != SmoothingKernel::Gaussian {
            for w in &mut log_weight_sum {
                *w = if *w > 0.0 { w.ln() } else { f64::NEG_INFINITY };
            }
        }
        KernelRegression {
            mean: values[..m].to_vec(),
            log_weight_sum,
        }
    }

    /// Records and submits the call's dispatches, its results copied to the read-back from
    /// real `base` on; whether anything was submitted.
    pub fn record(
        &self,
        gpu: &GpuEngine,
        slots: &mut Slots,
        base: usize,
        readback_bytes: u64,
    ) -> Result<bool, EngineError> {
        let (data, queries) = (&*self.data, &*self.queries);
        let (m, dim) = (queries.rows(), queries.dim());
        if m == 0 {
            return Ok(false);
        }
        let ctx = &gpu.ctx;
        let s = ctx.precision.bytes() as u64;
        let inv_h = 1.0 / self.bandwidth;
        let scale = |p: &Points| -> Vec<f64> { p.as_slice().iter().map(|v| v * inv_h).collect() };
        let code = match self.kernel {
            SmoothingKernel::Gaussian => 0,
            SmoothingKernel::Epanechnikov => 1,
            SmoothingKernel::Uniform => 2,
        };
        let chunk = gpu.query_chunk(dim, 1)?;
        let data_buf = slots.upload(ctx, "train", &gpu.encode(&scale(data)));
        let y_buf = slots.upload(ctx, "alpha", &gpu.encode(&self.targets));
        let mean = slots.storage(ctx, "out", chunk as u64 * s);
        let weight = slots.storage(ctx, "part", chunk as u64 * s);
        for c0 in (0..m).step_by(chunk) {
            let count = chunk.min(m - c0);
            let q_buf = slots.upload(
                ctx,
                "cand",
                &gpu.encode(&scale(&queries.slice_rows(c0, c0 + count))),
            );
            let mut batch = Batch::new();
            batch.dispatch(
                KernelRegressionParams {
                    n: data.rows() as u32,
                    m: count as u32,
                    dim: dim as u32,
                    kind: code,
                },
                &[&data_buf, &y_buf, &q_buf, &mean, &weight],
                [count.div_ceil(QUERY_THREADS) as u32, 1, 1],
            );
            batch.copy_out(&mean, 0, (base + c0) as u64 * s, count as u64 * s);
            batch.copy_out(&weight, 0, (base + m + c0) as u64 * s, count as u64 * s);
            batch.submit(ctx, slots, readback_bytes)?;
        }
        Ok(true)
    }
}
