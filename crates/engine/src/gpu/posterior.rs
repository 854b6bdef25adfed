//! Posterior means and variances of one or more GPs over candidate chunks: kernel columns,
//! the packed-L⁻¹ quadratic form in panels, then the finishing pass.

use super::batch::{Batch, read_reals};
use super::gp_upload::{GpBuffers, chunk_size, kernel_params};
use super::params::PosteriorFinishParams;
use super::{GpuEngine, QUERY_THREADS};
use crate::{EngineError, Points, Posterior, checks};
use bosweep_model::GpState;

/// One `posterior_batch` call: GPs and the candidates they are all evaluated at.
pub(super) type Call<'a> = (&'a [&'a GpState], &'a Points);

pub(super) fn run(
    gpu: &GpuEngine,
    gps: &[&GpState],
    candidates: &Points,
) -> Result<Vec<Posterior>, EngineError> {
    checks::posterior(gps, candidates)?;
    Ok(run_each(gpu, &[(gps, candidates)])?.remove(0))
}

/// Several calls' posteriors (their inputs checked) in one pass over the device: every GP's
/// dispatches exactly as a call of its own would record them, one read-back for all. The
/// results of each call are those of the call alone, bit for bit.
pub(super) fn run_each(
    gpu: &GpuEngine,
    calls: &[Call<'_>],
) -> Result<Vec<Vec<Posterior>>, EngineError> {
    let ctx = &gpu.ctx;
    let s = ctx.precision.bytes() as u64;
    // Where each (call, GP)'s means start in the read-back, its variances m later.
    let mut bases = Vec::new();
    let mut total_reals = 0;
    for (gps, candidates) in calls {
        let m = candidates.rows();
        bases.push(
            (0..gps.len())
                .map(|g| total_reals + 2 * m * g)
                .collect::<Vec<_>>(),
        );
        total_reals += 2 * m * gps.len();
    }
    let total = total_reals as u64 * s;
    let mut slots = gpu.slots();
    let mut submitted = false;
    for ((gps, candidates), bases) in calls.iter().zip(&bases) {
        let (m, dim) = (candidates.rows(), candidates.dim());
        for (gp, &base) in gps.iter().zip(bases) {
            let n = gp.train().rows();
            if n == 0 || m == 0 {
                continue;
            }
            gpu.fits("the training inputs", n * dim)?;
            let bufs = GpBuffers::upload(ctx, &mut slots, gp)?;
            let ld = chunk_size(
                ctx,
                &[n, dim, bufs.groups, 2],
                "one candidate's kernel column",
            )?;
            let kt = slots.storage(ctx, "kt", (n * ld) as u64 * s);
            let part = slots.storage(ctx, "part", (bufs.groups * ld) as u64 * s);
            let out = slots.storage(ctx, "out", (2 * ld) as u64 * s);
            let base = base as u64 * s;
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
                batch.submit(ctx, &mut slots, total)?;
                submitted = true;
            }
        }
    }
    let values = if submitted {
        read_reals(ctx, &mut slots, total_reals)?
    } else {
        Vec::new()
    };
    Ok(calls
        .iter()
        .zip(&bases)
        .map(|((gps, candidates), bases)| {
            let m = candidates.rows();
            gps.iter()
                .zip(bases)
                .map(|(gp, &base)| {
                    if gp.train().is_empty() || m == 0 {
                        return Posterior {
                            mean: vec![gp.mean(); m],
                            variance: vec![gp.kernel().diag() / gp.lambda(); m],
                        };
                    }
                    Posterior {
                        mean: values[base..base + m].to_vec(),
                        variance: values[base + m..base + 2 * m].to_vec(),
                    }
                })
                .collect()
        })
        .collect())
}
