//! Pair reductions: UCBs of (decision, context) pairs from precomputed distance parts, reduced
//! over the contexts of each decision on the device.

use std::borrow::Cow;

use super::batch::{Batch, Slots};
use super::gp_upload::{self, GpBuffers, chunk_size, kind_code};
use super::params::{
    CrossCovarianceParams, PairCovarianceParams, PairReduceParams, PosteriorFinishParams,
};
use super::{GpuEngine, MAX_GROUPS, QUERY_THREADS};
use crate::{EngineError, PairReduction, Points, checks};
use bosweep_model::GpState;

/// One `pair_reduce` call, borrowed or (queued for another thread's pass) owned.
pub(super) struct Call<'a> {
    pub gp: Cow<'a, GpState>,
    pub decisions: Cow<'a, Points>,
    pub contexts: Cow<'a, Points>,
    pub beta: f64,
    pub reduction: Reduction,
    /// The worst case's infimum per decision (empty for the other reductions).
    pub infimum: Cow<'a, [f64]>,
}

/// [`PairReduction`] without its borrowed infimum.
#[derive(Clone, Copy)]
pub(super) enum Reduction {
    Mean,
    Min,
    WorstCaseTv { delta: f64 },
}

impl<'a> Call<'a> {
    pub fn new(
        gp: &'a GpState,
        decisions: &'a Points,
        contexts: &'a Points,
        beta: f64,
        reduction: PairReduction<'a>,
    ) -> Self {
        let (reduction, infimum) = match reduction {
            PairReduction::Mean => (Reduction::Mean, &[][..]),
            PairReduction::Min => (Reduction::Min, &[][..]),
            PairReduction::WorstCaseTv { delta, infimum } => {
                (Reduction::WorstCaseTv { delta }, infimum)
            }
        };
        Self {
            gp: Cow::Borrowed(gp),
            decisions: Cow::Borrowed(decisions),
            contexts: Cow::Borrowed(contexts),
            beta,
            reduction,
            infimum: Cow::Borrowed(infimum),
        }
    }

    pub fn into_owned(self) -> Call<'static> {
        Call {
            gp: Cow::Owned(self.gp.into_owned()),
            decisions: Cow::Owned(self.decisions.into_owned()),
            contexts: Cow::Owned(self.contexts.into_owned()),
            beta: self.beta,
            reduction: self.reduction,
            infimum: Cow::Owned(self.infimum.into_owned()),
        }
    }

    fn reduction(&self) -> PairReduction<'_> {
        match self.reduction {
            Reduction::Mean => PairReduction::Mean,
            Reduction::Min => PairReduction::Min,
            Reduction::WorstCaseTv { delta } => PairReduction::WorstCaseTv {
                delta,
                infimum: &self.infimum,
            },
        }
    }

    /// Refuses what the device cannot take before the call joins a pass.
    pub fn admit(&self, gpu: &GpuEngine) -> Result<(), EngineError> {
        let (gp, decisions, contexts) = (&*self.gp, &*self.decisions, &*self.contexts);
        checks::pairs(gp, decisions, contexts, self.beta, &self.reduction())?;
        let n = gp.train().rows();
        gpu.fits(
            "the training inputs",
            n * (decisions.dim() + contexts.dim()),
        )?;
        gpu.fits("the context samples' distances", contexts.rows() * n)?;
        if n > MAX_GROUPS {
            return Err(EngineError::gpu(format!(
                "pair reductions on the GPU take at most {MAX_GROUPS} training points, got {n}"
            )));
        }
        Ok(())
    }

    /// Values the call reads back: one per decision, none where the prior answers.
    pub fn reals(&self) -> usize {
        if self.gp.train().is_empty() {
            0
        } else {
            self.decisions.rows()
        }
    }

    /// The reduced values: from the call's read-back `values`, or the prior's where the GP has
    /// no data (every pair has the same UCB, and every reduction returns it; the worst case
    /// too, since the infimum is clipped to the smallest sample).
    pub fn finish(&self, values: &[f64]) -> Vec<f64> {
        let gp = &*self.gp;
        if !gp.train().is_empty() {
            return values.to_vec();
        }
        let u = gp.mean() + self.beta * (gp.kernel().diag() / gp.lambda()).sqrt();
        match self.reduction {
            Reduction::WorstCaseTv { delta } => self
                .infimum
                .iter()
                .map(|&inf| {
                    let mut values = vec![u; self.contexts.rows()];
                    crate::worst_case_tv(&mut values, delta, inf)
                })
                .collect(),
            _ => vec![u; self.decisions.rows()],
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
        let (gp, decisions, contexts) = (&*self.gp, &*self.decisions, &*self.contexts);
        let ctx = &gpu.ctx;
        let n = gp.train().rows();
        let (rows, samples) = (decisions.rows(), contexts.rows());
        let (dx, dc) = (decisions.dim(), contexts.dim());
        if rows == 0 || n == 0 {
            return Ok(false);
        }
        let s = ctx.precision.bytes() as u64;
        let bufs = GpBuffers::upload(ctx, slots, gp)?;
        let kernel = gp.kernel();
        let (kind, rq_alpha) = kind_code(kernel.kind());
        let ctx_buf = slots.upload(ctx, "contexts", &gpu.encode(contexts.as_slice()));
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
        // Scaled squared distances (flag 1) between some columns of the points and of the
        // training inputs, the training points along a row.
        let distance = |rows_a: usize, dim_a: usize, b_off: usize, cols: usize, ls_off: usize| {
            CrossCovarianceParams {
                rows_a: rows_a as u32,
                rows_b: n as u32,
                dim_a: dim_a as u32,
                dim_b: (dx + dc) as u32,
                b_off: b_off as u32,
                cols: cols as u32,
                ls_off: ls_off as u32,
                flags: 1,
                stride_a: n as u32,
                stride_b: 1,
                ..Default::default()
            }
        };
        let (mode, k, delta) = match self.reduction {
            Reduction::Mean => (0, 0, 0.0),
            Reduction::Min => (1, 0, 0.0),
            Reduction::WorstCaseTv { delta } => (
                2,
                (delta * samples as f64 / 2.0).floor().min(samples as f64) as u32,
                delta,
            ),
        };
        let mut setup = Batch::new();
        setup.dispatch(
            distance(samples, dc, dx, dc, dx),
            &[&ctx_buf, &bufs.train, &bufs.inv_ls, &dc2],
            [n.div_ceil(64) as u32, samples.div_ceil(64) as u32, 1],
        );
        setup.submit(ctx, slots, readback_bytes)?;
        for c0 in (0..rows).step_by(chunk) {
            let count = chunk.min(rows - c0);
            let pairs = count * samples;
            let dec = slots.upload(
                ctx,
                "cand",
                &gpu.encode(decisions.slice_rows(c0, c0 + count).as_slice()),
            );
            let inf = match self.reduction {
                Reduction::WorstCaseTv { .. } => &self.infimum[c0..c0 + count],
                _ => &[0.0][..],
            };
            let inf = slots.upload(ctx, "infimum", &gpu.encode(inf));
            let mut batch = Batch::new();
            batch.dispatch(
                distance(count, dx, 0, dx, 0),
                &[&dec, &bufs.train, &bufs.inv_ls, &dx2],
                [n.div_ceil(64) as u32, count.div_ceil(64) as u32, 1],
            );
            batch.dispatch(
                PairCovarianceParams {
                    decisions: count as u32,
                    samples: samples as u32,
                    n: n as u32,
                    kind,
                    ld: ld as u32,
                    signal_var: kernel.signal_variance(),
                    rq_alpha,
                },
                &[&dx2, &dc2, &kt],
                [pairs.div_ceil(QUERY_THREADS) as u32, n as u32, 1],
            );
            bufs.record_quad(&mut batch, n, &kt, &part, ld, pairs);
            batch.dispatch(
                PosteriorFinishParams {
                    ld: ld as u32,
                    count: pairs as u32,
                    n: n as u32,
                    groups: bufs.groups as u32,
                    mode: 1,
                    prior_mean: gp.mean(),
                    kxx: kernel.diag(),
                    inv_lambda: 1.0 / gp.lambda(),
                    beta: self.beta,
                },
                &[&kt, &bufs.alpha, &part, &ucb],
                [pairs.div_ceil(QUERY_THREADS) as u32, 1, 1],
            );
            batch.dispatch(
                PairReduceParams {
                    rows: count as u32,
                    samples: samples as u32,
                    mode,
                    k,
                    delta,
                },
                &[&ucb, &inf, &out],
                [count as u32, 1, 1],
            );
            batch.copy_out(&out, 0, (base + c0) as u64 * s, count as u64 * s);
            batch.submit(ctx, slots, readback_bytes)?;
        }
        Ok(true)
    }
}
