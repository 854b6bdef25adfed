//! `K[i, j] = k(a_i, b_j)` on the device, in row chunks of `a` that fit the binding limit.

use nalgebra::DMatrix;

use super::GpuEngine;
use super::batch::{Batch, read_reals};
use super::gp_upload::{chunk_size, inv_lengthscales, kernel_params};
use crate::{EngineError, Points, checks};
use bosweep_model::Kernel;

pub(super) fn run(
    gpu: &GpuEngine,
    kernel: &Kernel,
    a: &Points,
    b: &Points,
) -> Result<DMatrix<f64>, EngineError> {
    checks::cross_covariance(kernel, a, b)?;
    let (m, n, dim) = (a.rows(), b.rows(), a.dim());
    if m == 0 || n == 0 {
        return Ok(DMatrix::zeros(m, n));
    }
    let ctx = &gpu.ctx;
    gpu.fits("the second point set", n * dim)?;
    let chunk = chunk_size(ctx, &[n, dim], "one row of the cross-covariance")?;
    let s = ctx.precision.bytes() as u64;
    let mut slots = gpu.slots();
    let b_buf = slots.upload(ctx, "train", &gpu.encode(b.as_slice()));
    let inv_ls = slots.upload(
        ctx,
        "inv_ls",
        &gpu.encode(&inv_lengthscales(kernel, ctx.precision)),
    );
    let total = (m * n) as u64 * s;
    for c0 in (0..m).step_by(chunk) {
        let count = chunk.min(m - c0);
        let a_buf = slots.upload(
            ctx,
            "cand",
            &gpu.encode(a.slice_rows(c0, c0 + count).as_slice()),
        );
        let out = slots.storage(ctx, "kt", (count * n) as u64 * s);
        let mut batch = Batch::new();
        batch.dispatch(
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
