//! The nearest data point of each query, per query chunk.

use super::batch::{Batch, read_u32};
use super::params::NearestParams;
use super::{GpuEngine, QUERY_THREADS};
use crate::{EngineError, Points, checks};

pub(super) fn run(
    gpu: &GpuEngine,
    data: &Points,
    queries: &Points,
) -> Result<Vec<usize>, EngineError> {
    checks::nearest(data, queries)?;
    let (m, dim) = (queries.rows(), queries.dim());
    if m == 0 {
        return Ok(Vec::new());
    }
    gpu.fits("the data points", data.as_slice().len())?;
    let ctx = &gpu.ctx;
    let s = ctx.precision.bytes() as u64;
    let chunk = gpu.query_chunk(dim, 1)?;
    let mut slots = gpu.slots();
    let data_buf = slots.upload(ctx, "train", &gpu.encode(data.as_slice()));
    let out = slots.storage(ctx, "out", chunk as u64 * s.max(4));
    for c0 in (0..m).step_by(chunk) {
        let count = chunk.min(m - c0);
        let q_buf = slots.upload(
            ctx,
            "cand",
            &gpu.encode(queries.slice_rows(c0, c0 + count).as_slice()),
        );
        let mut batch = Batch::new();
        batch.dispatch(
            NearestParams {
                n: data.rows() as u32,
                m: count as u32,
                dim: dim as u32,
            },
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
