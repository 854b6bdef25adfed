//! Sample-path maxima on the device: per chunk of candidates, every path evaluated and reduced
//! to one best candidate per workgroup (`path_maxima.wgsl`), then each path's best of those
//! (`path_reduce.wgsl`). Only the `S` bests come back, never the `m × S` values.
//!
//! Not coalesced: a call answers indices beside values, which a coalesced pass's one array of
//! reals does not carry, and a Thompson step makes one such call per ask, not the many small
//! ones coalescing gathers.

use super::batch::{Batch, read_reals_then_u32};
use super::gp_upload::{inv_lengthscales, kind_code};
use super::params::{PathMaximaParams, PathReduceParams};
use super::{GpuEngine, MAX_GROUPS, QUERY_THREADS};
use crate::{EngineError, PathMaximum, Points, SamplePaths, checks};

/// Paths per workgroup row of `path_maxima.wgsl`: its accumulators.
const PATHS_PER_GROUP: usize = 4;
/// Candidates per chunk at most, so that the host's scaled copy of a chunk stays small.
const MAX_PATH_CHUNK: usize = 1 << 18;

pub(super) fn run(
    gpu: &GpuEngine,
    paths: &SamplePaths<'_>,
    candidates: &Points,
    excluded: &[usize],
) -> Result<Vec<PathMaximum>, EngineError> {
    checks::sample_paths(paths, candidates, excluded)?;
    let ctx = &gpu.ctx;
    let s = ctx.precision.bytes() as u64;
    let (m, dim, features, n, count) = (
        candidates.rows(),
        candidates.dim(),
        paths.features(),
        paths.train.rows(),
        paths.paths,
    );
    if count > MAX_GROUPS {
        return Err(EngineError::gpu(format!(
            "{count} sample paths in one call exceed the {MAX_GROUPS} a dispatch takes"
        )));
    }
    if m >= u32::MAX as usize {
        return Err(EngineError::gpu(format!(
            "{m} candidates exceed the device's 32-bit indices"
        )));
    }
    gpu.fits("the random Fourier basis", features * (dim + 1))?;
    gpu.fits("the training inputs", n * dim)?;
    gpu.fits("the path weights", (features + n) * count)?;
    let chunk = ((ctx.max_binding / (dim as u64 * s)) as usize)
        .min(MAX_GROUPS * QUERY_THREADS)
        .min(MAX_PATH_CHUNK);
    if chunk == 0 {
        return Err(EngineError::gpu(format!(
            "one {dim}-dimensional candidate exceeds the GPU binding limit of {} bytes",
            ctx.max_binding
        )));
    }
    let groups_total: usize = (0..m)
        .step_by(chunk)
        .map(|c0| chunk.min(m - c0).div_ceil(QUERY_THREADS))
        .sum();
    gpu.fits("the partial maxima", groups_total * count)?;

    let inv_ls = inv_lengthscales(paths.kernel, ctx.precision);
    let scaled = |points: &Points| -> Vec<f64> {
        points
            .iter()
            .flat_map(|x| x.iter().zip(&inv_ls).map(|(v, il)| v * il))
            .collect()
    };
    let mut basis = Vec::with_capacity(features * (dim + 1));
    for (omega, b) in paths.frequencies.iter().zip(paths.phases) {
        basis.extend_from_slice(omega);
        basis.push(*b);
    }
    let weights = [paths.prior_weights, paths.update_weights].concat();
    let mut excluded: Vec<u32> = excluded.iter().map(|&i| i as u32).collect();
    excluded.sort_unstable();
    excluded.dedup();

    let readback_bytes = count as u64 * (s + 4);
    let mut slots = gpu.slots();
    let basis = slots.upload(ctx, "basis", &gpu.encode(&basis));
    let train = slots.upload(ctx, "train", &gpu.encode(&scaled(paths.train)));
    let weights = slots.upload(ctx, "path_weights", &gpu.encode(&weights));
    let excluded_buf = slots.upload(ctx, "excluded", bytemuck::cast_slice(&excluded));
    let part_value = slots.storage(ctx, "part_value", (groups_total * count) as u64 * s);
    let part_index = slots.storage(ctx, "part_index", (groups_total * count) as u64 * 4);
    let (kind, _) = kind_code(paths.kernel.kind());
    let mut group_offset = 0;
    for c0 in (0..m).step_by(chunk) {
        let rows = chunk.min(m - c0);
        let cand = slots.upload(
            ctx,
            "cand",
            &gpu.encode(&scaled(&candidates.slice_rows(c0, c0 + rows))),
        );
        let groups = rows.div_ceil(QUERY_THREADS);
        let mut batch = Batch::new();
        batch.dispatch(
            PathMaximaParams {
                count: rows as u32,
                dim: dim as u32,
                features: features as u32,
                n: n as u32,
                paths: count as u32,
                first: c0 as u32,
                excluded: excluded.len() as u32,
                groups_total: groups_total as u32,
                group_offset: group_offset as u32,
                kind,
                mean: paths.mean,
                amplitude: paths.amplitude(),
                signal_var: paths.kernel.signal_variance(),
            },
            &[
                &cand,
                &basis,
                &train,
                &weights,
                &excluded_buf,
                &part_value,
                &part_index,
            ],
            [groups as u32, count.div_ceil(PATHS_PER_GROUP) as u32, 1],
        );
        batch.submit(ctx, &mut slots, readback_bytes)?;
        group_offset += groups;
    }
    let out_value = slots.storage(ctx, "out", count as u64 * s);
    let out_index = slots.storage(ctx, "out_index", count as u64 * 4);
    let mut batch = Batch::new();
    batch.dispatch(
        PathReduceParams {
            groups: groups_total as u32,
        },
        &[&part_value, &part_index, &out_value, &out_index],
        [count as u32, 1, 1],
    );
    batch.copy_out(&out_value, 0, 0, count as u64 * s);
    batch.copy_out(&out_index, 0, count as u64 * s, count as u64 * 4);
    batch.submit(ctx, &mut slots, readback_bytes)?;
    let (values, indices) = read_reals_then_u32(ctx, &mut slots, count, count)?;
    values
        .into_iter()
        .zip(indices)
        .enumerate()
        .map(|(path, (value, index))| {
            if index == u32::MAX {
                return Err(EngineError::gpu(format!(
                    "sample path {path} has no maximum on the device"
                )));
            }
            Ok(PathMaximum {
                index: index as usize,
                value,
            })
        })
        .collect()
}
