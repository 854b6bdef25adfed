//! Gaussian-product KDE log-densities per query chunk (data pre-scaled by the bandwidths).

use std::borrow::Cow;

use super::batch::{Batch, Slots};
use super::params::KdeParams;
use super::{GpuEngine, QUERY_THREADS};
use crate::{EngineError, Points, checks};

/// One `kde_log_density` call, borrowed or (queued for another thread's pass) owned.
pub(super) struct Call<'a> {
    pub data: Cow<'a, Points>,
    pub bandwidths: Cow<'a, [f64]>,
    pub weights: Option<Cow<'a, [f64]>>,
    pub queries: Cow<'a, Points>,
}

impl<'a> Call<'a> {
    pub fn new(
        data: &'a Points,
        bandwidths: &'a [f64],
        weights: Option<&'a [f64]>,
        queries: &'a Points,
    ) -> Self {
        Self {
            data: Cow::Borrowed(data),
            bandwidths: Cow::Borrowed(bandwidths),
            weights: weights.map(Cow::Borrowed),
            queries: Cow::Borrowed(queries),
        }
    }

    pub fn into_owned(self) -> Call<'static> {
        Call {
            data: Cow::Owned(self.data.into_owned()),
            bandwidths: Cow::Owned(self.bandwidths.into_owned()),
            weights: self.weights.map(|w| Cow::Owned(w.into_owned())),
            queries: Cow::Owned(self.queries.into_owned()),
        }
    }

    /// The data points the density sums over with their weights: zero-weight points
    /// contribute nothing, and dropping them keeps every log-weight finite.
    fn kept(&self) -> Vec<(&[f64], f64)> {
        let weights = self.weights.as_deref();
        self.data
            .iter()
            .enumerate()
            .map(|(i, x)| (x, weights.map_or(1.0, |w| w[i])))
            .filter(|(_, w)| *w > 0.0)
            .collect()
    }

    /// Refuses what the device cannot take before the call joins a pass.
    pub fn admit(&self, gpu: &GpuEngine) -> Result<(), EngineError> {
        checks::kde(
            &self.data,
            &self.bandwidths,
            self.weights.as_deref(),
            &self.queries,
        )?;
        gpu.fits("the KDE data", self.kept().len() * self.data.dim())
    }

    /// Values the call reads back: one per query.
    pub fn reals(&self) -> usize {
        self.queries.rows()
    }

    /// The log-densities, read back.
    pub fn finish(&self, values: &[f64]) -> Vec<f64> {
        values.to_vec()
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
        let (queries, bandwidths) = (&*self.queries, &*self.bandwidths);
        let (m, dim) = (queries.rows(), queries.dim());
        if m == 0 {
            return Ok(false);
        }
        let kept = self.kept();
        let scaled: Vec<f64> = kept
            .iter()
            .flat_map(|(x, _)| x.iter().zip(bandwidths).map(|(v, h)| v / h))
            .collect();
        let log_w: Vec<f64> = kept.iter().map(|(_, w)| w.ln()).collect();
        let total: f64 = kept.iter().map(|(_, w)| w).sum();
        let log_norm = total.ln()
            + bandwidths.iter().map(|h| h.ln()).sum::<f64>()
            + 0.5 * dim as f64 * (2.0 * std::f64::consts::PI).ln();
        let ctx = &gpu.ctx;
        let s = ctx.precision.bytes() as u64;
        let chunk = gpu.query_chunk(dim, 1)?;
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
            batch.copy_out(&out, 0, (base + c0) as u64 * s, count as u64 * s);
            batch.submit(ctx, slots, readback_bytes)?;
        }
        Ok(true)
    }
}
