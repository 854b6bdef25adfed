//! Top-k selection by block passes on the device, segment by segment, merged on the host.

use super::batch::{Batch, read_u32};
use super::params::TopKParams;
use super::{GpuEngine, MAX_GROUPS, TOP_K_BLOCK};
use crate::{EngineError, checks};

pub(super) fn run(gpu: &GpuEngine, values: &[f64], k: usize) -> Result<Vec<usize>, EngineError> {
    checks::values(values)?;
    let k = k.min(values.len());
    if k == 0 {
        return Ok(Vec::new());
    }
    let order = |a: &usize, b: &usize| values[*b].total_cmp(&values[*a]).then(a.cmp(b));
    if k > TOP_K_BLOCK / 2 && values.len() > TOP_K_BLOCK {
        // Block passes would not shrink the input: a host sort is the faster exact answer.
        let mut idx: Vec<usize> = (0..values.len()).collect();
        idx.sort_unstable_by(order);
        idx.truncate(k);
        return Ok(idx);
    }
    let segment = ((gpu.ctx.max_binding / 16) as usize / TOP_K_BLOCK * TOP_K_BLOCK)
        .clamp(TOP_K_BLOCK, MAX_GROUPS * TOP_K_BLOCK);
    let mut best = Vec::new();
    for s0 in (0..values.len()).step_by(segment) {
        let part = &values[s0..values.len().min(s0 + segment)];
        best.extend(top_k_of_segment(gpu, part, s0, k.min(part.len()))?);
    }
    best.sort_unstable_by(order);
    best.truncate(k);
    Ok(best)
}

/// Top-k of at most `values.len()` keys that fit one binding, on the device.
fn top_k_of_segment(
    gpu: &GpuEngine,
    values: &[f64],
    offset: usize,
    k: usize,
) -> Result<Vec<usize>, EngineError> {
    let ctx = &gpu.ctx;
    let mut slots = gpu.slots();
    let keys: Vec<[u32; 4]> = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let bits = v.to_bits();
            let key = if bits >> 63 == 1 {
                !bits
            } else {
                bits | (1 << 63)
            };
            [(key >> 32) as u32, key as u32, (offset + i) as u32, 0]
        })
        .collect();
    let mut input = slots.upload_at(ctx, "keys", 0, bytemuck::cast_slice(&keys));
    let mut len = values.len();
    let mut batch = Batch::new();
    let mut pass = 1;
    loop {
        let blocks = len.div_ceil(TOP_K_BLOCK);
        let keep = if blocks == 1 {
            k
        } else {
            k.min(TOP_K_BLOCK / 2)
        };
        let output = slots.storage_at(ctx, "keys", pass % 2, (blocks * keep * 16) as u64);
        batch.dispatch(
            TopKParams {
                len: len as u32,
                keep: keep as u32,
            },
            &[&input, &output],
            [blocks as u32, 1, 1],
        );
        len = blocks * keep;
        input = output;
        pass += 1;
        if blocks == 1 {
            break;
        }
    }
    batch.copy_out(&input, 0, 0, (k * 16) as u64);
    batch.submit(ctx, &mut slots, (k * 16) as u64)?;
    let words = read_u32(ctx, &mut slots, k * 4)?;
    Ok(words.chunks_exact(4).map(|w| w[2] as usize).collect())
}
