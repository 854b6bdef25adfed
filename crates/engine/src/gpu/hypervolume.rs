//! The smoothed log hypervolume improvement on the device: the samples' cells uploaded once,
//! then per chunk of candidates one thread per (candidate, sample) draw.
//!
//! Not coalesced: qLogNEHVI makes one such call per grid chunk of its own, large enough to
//! fill the device, not the many small calls coalescing gathers.

use super::batch::{Batch, read_reals};
use super::params::HypervolumeImprovementParams;
use super::{GpuEngine, MAX_GROUPS, QUERY_THREADS};
use crate::{EngineError, ImprovementSmoothing, SampleCells, checks};

pub(super) fn run(
    gpu: &GpuEngine,
    cells: &SampleCells,
    draws: &[f64],
    smoothing: ImprovementSmoothing,
) -> Result<Vec<f64>, EngineError> {
    checks::hypervolume_improvement(cells, draws, smoothing)?;
    let (m, samples) = (cells.m(), cells.samples());
    let candidates = draws.len() / (m * samples);
    if candidates == 0 {
        return Ok(Vec::new());
    }
    if cells.cells() >= u32::MAX as usize || draws.len() >= u32::MAX as usize {
        return Err(EngineError::gpu(format!(
            "{} cells or {} draws exceed the device's 32-bit indices",
            cells.cells(),
            draws.len()
        )));
    }
    gpu.fits("the hypervolume cells", cells.lower().len())?;
    let ctx = &gpu.ctx;
    let s = ctx.precision.bytes() as u64;
    // Draws per chunk: one thread each, within a dispatch and a binding.
    let by_binding = (ctx.max_binding / (m as u64 * s)) as usize;
    let chunk = (by_binding.min(MAX_GROUPS * QUERY_THREADS) / samples).max(1);
    if chunk * samples > by_binding {
        return Err(EngineError::gpu(format!(
            "one candidate's {samples} draws of {m} objectives exceed the GPU binding limit of \
             {} bytes",
            ctx.max_binding
        )));
    }
    let mut slots = gpu.slots();
    let lower = slots.upload(ctx, "lower", &gpu.encode(cells.lower()));
    let log_length = slots.upload(ctx, "log_length", &gpu.encode(cells.log_length()));
    let offsets: Vec<u32> = cells.offsets().iter().map(|&o| o as u32).collect();
    let offsets = slots.upload(ctx, "offsets", bytemuck::cast_slice(&offsets));
    let out = slots.storage(ctx, "out", (chunk * samples) as u64 * s);
    let total = (candidates * samples) as u64 * s;
    for c0 in (0..candidates).step_by(chunk) {
        let count = chunk.min(candidates - c0);
        let part = &draws[c0 * samples * m..(c0 + count) * samples * m];
        let draws_buf = slots.upload(ctx, "draws", &gpu.encode(part));
        let mut batch = Batch::new();
        batch.dispatch(
            HypervolumeImprovementParams {
                count: count as u32,
                samples: samples as u32,
                m: m as u32,
                tau_relu: smoothing.tau_relu,
                tau_max: smoothing.tau_max,
                log_tau_relu: smoothing.tau_relu.ln(),
            },
            &[&lower, &log_length, &offsets, &draws_buf, &out],
            [(count * samples).div_ceil(QUERY_THREADS) as u32, 1, 1],
        );
        batch.copy_out(
            &out,
            0,
            (c0 * samples) as u64 * s,
            (count * samples) as u64 * s,
        );
        batch.submit(ctx, &mut slots, total)?;
    }
    read_reals(ctx, &mut slots, candidates * samples)
}
