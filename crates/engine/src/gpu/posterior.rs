//! Posterior means and variances of one or more GPs over candidate chunks: kernel columns,
//! the packed-L⁻¹ quadratic form in panels, then the finishing pass.

use std::borrow::Cow;

use super::batch::{Batch, Slots};
use super::gp_upload::{GpBuffers, chunk_size, kernel_params};
use super::params::PosteriorFinishParams;
use super::{GpuEngine, QUERY_THREADS};
use crate::{EngineError, Points, Posterior, checks};
use bosweep_model::GpState;

/// One `posterior_batch` call, borrowed or (queued for another thread's pass) owned.
pub(super) struct Call<'a> {
    pub gps: Vec<Cow<'a, GpState>>,
    pub candidates: Cow<'a, Points>,
}

impl<'a> Call<'a> {
    pub fn new(gps: &[&'a GpState], candidates: &'a Points) -> Self {
        Self {
            gps: gps.iter().map(|gp| Cow::Borrowed(*gp)).collect(),
            candidates: Cow::Borrowed(candidates),
        }
    }

    pub fn into_owned(self) -> Call<'static> {
        Call {
            gps: self
                .gps
                .into_iter()
                .map(|gp| Cow::Owned(gp.into_owned()))
                .collect(),
            candidates: Cow::Owned(self.candidates.into_owned()),
        }
    }

    /// Refuses what the device cannot take before the call joins a pass.
    pub fn admit(&self, gpu: &GpuEngine) -> Result<(), EngineError> {
        let gps: Vec<&GpState> = self.gps.iter().map(|gp| &**gp).collect();
        checks::posterior(&gps, &self.candidates)?;
        for gp in gps {
            gpu.fits(
                "the training inputs",
                gp.train().rows() * self.candidates.dim(),
            )?;
        }
        Ok(())
    }

    /// Values the call reads back: each GP's means, then its variances.
    pub fn reals(&self) -> usize {
        2 * self.candidates.rows() * self.gps.len()
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
        let ctx = &gpu.ctx;
        let s = ctx.precision.bytes() as u64;
        let candidates = &*self.candidates;
        let (m, dim) = (candidates.rows(), candidates.dim());
        let mut submitted = false;
        for (g, gp) in self.gps.iter().enumerate() {
            let n = gp.train().rows();
            if n == 0 || m == 0 {
                continue;
            }
            let bufs = GpBuffers::upload(ctx, slots, gp)?;
            let ld = chunk_size(
                ctx,
                &[n, dim, bufs.groups, 2],
                "one candidate's kernel column",
            )?;
            let kt = slots.storage(ctx, "kt", (n * ld) as u64 * s);
            let part = slots.storage(ctx, "part", (bufs.groups * ld) as u64 * s);
            let out = slots.storage(ctx, "out", (2 * ld) as u64 * s);
            let base = (base + 2 * m * g) as u64 * s;
            for c0 in (0..m).step_by(ld) {
                let count = ld.min(m - c0);
                let cand = slots.upload(
                    ctx,
                    "cand",
                    &gpu.encode(candidates.slice_rows(c0, c0 + count).as_slice()),
                );
                let mut batch = Batch::new();
                batch.dispatch(
                    kernel_params(gp.kernel(), count, n, [1, ld]),
                    &[&cand, &bufs.train, &bufs.inv_ls, &kt],
                    [n.div_ceil(64) as u32, count.div_ceil(64) as u32, 1],
                );
                bufs.record_quad(&mut batch, n, &kt, &part, ld, count);
                batch.dispatch(
                    PosteriorFinishParams {
                        ld: ld as u32,
                        count: count as u32,
                        n: n as u32,
                        groups: bufs.groups as u32,
                        mode: 0,
                        prior_mean: gp.mean(),
                        kxx: gp.kernel().diag(),
                        inv_lambda: 1.0 / gp.lambda(),
                        beta: 0.0,
                    },
                    &[&kt, &bufs.alpha, &part, &out],
                    [count.div_ceil(QUERY_THREADS) as u32, 1, 1],
                );
                let bytes = count as u64 * s;
                batch.copy_out(&out, 0, base + c0 as u64 * s, bytes);
                batch.copy_out(&out, ld as u64 * s, base + (m + c0) as u64 * s, bytes);
                batch.submit(ctx, slots, readback_bytes)?;
                submitted = true;
            }
        }
        Ok(submitted)
    }

    /// Each GP's posterior from the call's read-back `values` (the prior where it has no
    /// data).
    pub fn finish(&self, values: &[f64]) -> Vec<Posterior> {
        let m = self.candidates.rows();
        self.gps
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
            .collect()
    }
}
