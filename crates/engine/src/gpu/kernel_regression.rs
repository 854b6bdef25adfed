//! Nadaraya–Watson means and weight sums per query chunk (inputs pre-scaled by 1/h).

use super::batch::{Batch, read_reals};
use super::params::KernelRegressionParams;
use super::{GpuEngine, QUERY_THREADS};
use crate::{EngineError, KernelRegression, Points, checks};
use bosweep_model::SmoothingKernel;

pub(super) fn run(
    gpu: &GpuEngine,
    data: &Points,
    targets: &[f64],
    kernel: SmoothingKernel,
    bandwidth: f64,
    queries: &Points,
) -> Result<KernelRegression, EngineError> {
    checks::kernel_regression(data, targets, bandwidth, queries)?;
    let (m, dim) = (queries.rows(), queries.dim());
    if m == 0 {
        return Ok(KernelRegression {
            mean: Vec::new(),
            log_weight_sum: Vec::new(),
        });
    }
    gpu.fits("the regression data", data.as_slice().len())?;
    let ctx = &gpu.ctx;
    let s = ctx.precision.bytes() as u64;
    let inv_h = 1.0 / bandwidth;
    let scale = |p: &Points| -> Vec<f64> { p.as_slice().iter().map(|v| v * inv_h).collect() };
    let code = match kernel {
        SmoothingKernel::Gaussian => 0,
        SmoothingKernel::Epanechnikov => 1,
        SmoothingKernel::Uniform => 2,
    };
    let chunk = gpu.query_chunk(dim, 1)?;
    let mut slots = gpu.slots();
    let data_buf = slots.upload(ctx, "train", &gpu.encode(&scale(data)));
    let y_buf = slots.upload(ctx, "alpha", &gpu.encode(targets));
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
