//! Gaussian-product KDE log-densities per query chunk (data pre-scaled by the bandwidths).

use super::batch::{Batch, read_reals};
use super::params::KdeParams;
use super::{GpuEngine, QUERY_THREADS};
use crate::{EngineError, Points, checks};

pub(super) fn run(
    gpu: &GpuEngine,
    data: &Points,
    bandwidths: &[f64],
    weights: Option<&[f64]>,
    queries: &Points,
) -> Result<Vec<f64>, EngineError> {
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
    gpu.fits("the KDE data", scaled.len())?;
    let ctx = &gpu.ctx;
    let s = ctx.precision.bytes() as u64;
    let chunk = gpu.query_chunk(dim, 1)?;
    let mut slots = gpu.slots();
    let data_buf = slots.upload(ctx, "train", &gpu.encode(&scaled));
    let lw_buf = slots.upload(ctx, "alpha", &gpu.encode(&log_w));
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
        let q_buf = slots.upload(ctx, "cand", &gpu.encode(&q));
        let mut batch = Batch::new();
        batch.dispatch(
            KdeParams {
                n: kept.len() as u32,
                m: count as u32,
                dim: dim as u32,
                log_norm,
            },
            &[&data_buf, &lw_buf, &q_buf, &out],
            [count.div_ceil(QUERY_THREADS) as u32, 1, 1],
        );
        batch.copy_out(&out, 0, c0 as u64 * s, count as u64 * s);
        batch.submit(ctx, &mut slots, m as u64 * s)?;
    }
    read_reals(ctx, &mut slots, m)
}
