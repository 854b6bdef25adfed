//! Buffer reuse, uploads in the engine's precision, and command submission with readback.

use std::collections::HashMap;
use std::num::NonZeroU64;

use super::Precision;
use super::context::GpuContext;
use super::params::{Params, ShaderParams};
use super::shaders::Shader;
use crate::EngineError;

/// One dispatch's parameter block in the bytes of `precision`, appended to `out`.
fn encode_block(params: &Params, precision: Precision, out: &mut Vec<u8>) {
    out.extend_from_slice(bytemuck::cast_slice(&params.u));
    out.extend_from_slice(&encode(&params.r, precision));
}

/// Host f64 values in the shader's `real` layout.
pub fn encode(values: &[f64], precision: Precision) -> Vec<u8> {
    match precision {
        Precision::F32 => {
            let v: Vec<f32> = values.iter().map(|&x| x as f32).collect();
            bytemuck::cast_slice(&v).to_vec()
        }
        Precision::F64 => bytemuck::cast_slice(values).to_vec(),
    }
}

fn decode(bytes: &[u8], precision: Precision) -> Vec<f64> {
    match precision {
        Precision::F32 => bytes
            .chunks_exact(4)
            .map(|b| f64::from(f32::from_le_bytes(b.try_into().unwrap())))
            .collect(),
        Precision::F64 => bytes
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
            .collect(),
    }
}

/// Named storage buffers that grow on demand and are reused by every later call.
#[derive(Default)]
pub struct Slots {
    buffers: HashMap<(&'static str, usize), wgpu::Buffer>,
}

impl Slots {
    /// A buffer of at least `bytes` under `name`, reallocated (to the next power of two, capped
    /// at `cap`) only when too small.
    fn get(
        &mut self,
        ctx: &GpuContext,
        name: (&'static str, usize),
        bytes: u64,
        usage: wgpu::BufferUsages,
        cap: u64,
    ) -> wgpu::Buffer {
        let bytes = bytes.max(256);
        if let Some(b) = self.buffers.get(&name)
            && b.size() >= bytes
        {
            return b.clone();
        }
        let size = bytes.next_power_of_two().min(cap).max(bytes);
        let buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(name.0),
            size,
            usage,
            mapped_at_creation: false,
        });
        self.buffers.insert(name, buffer.clone());
        buffer
    }

    /// A storage buffer bindable in a shader.
    pub fn storage(&mut self, ctx: &GpuContext, name: &'static str, bytes: u64) -> wgpu::Buffer {
        self.storage_at(ctx, name, 0, bytes)
    }

    /// The `index`-th storage buffer of a family (e.g. the panels of one matrix).
    pub fn storage_at(
        &mut self,
        ctx: &GpuContext,
        name: &'static str,
        index: usize,
        bytes: u64,
    ) -> wgpu::Buffer {
        let usage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC;
        self.get(ctx, (name, index), bytes, usage, ctx.max_binding)
    }

    /// A storage buffer holding `bytes` written from the host.
    pub fn upload(&mut self, ctx: &GpuContext, name: &'static str, bytes: &[u8]) -> wgpu::Buffer {
        self.upload_at(ctx, name, 0, bytes)
    }

    pub fn upload_at(
        &mut self,
        ctx: &GpuContext,
        name: &'static str,
        index: usize,
        bytes: &[u8],
    ) -> wgpu::Buffer {
        let buffer = self.storage_at(ctx, name, index, bytes.len() as u64);
        if !bytes.is_empty() {
            ctx.queue.write_buffer(&buffer, 0, bytes);
        }
        buffer
    }

    fn readback(&mut self, ctx: &GpuContext, bytes: u64) -> wgpu::Buffer {
        let usage = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
        self.get(ctx, ("readback", 0), bytes, usage, ctx.max_buffer)
    }

    fn uniform(&mut self, ctx: &GpuContext, bytes: u64) -> wgpu::Buffer {
        let usage = wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST;
        self.get(ctx, ("params", 0), bytes, usage, u64::MAX)
    }
}

enum Step {
    Dispatch {
        shader: Shader,
        params: usize,
        buffers: Vec<wgpu::Buffer>,
        groups: [u32; 3],
    },
    Copy {
        src: wgpu::Buffer,
        src_offset: u64,
        dst_offset: u64,
        bytes: u64,
    },
}

/// The commands of one submission: dispatches whose binding 0 is their parameter block, then
/// copies of results into the shared readback buffer.
pub struct Batch {
    params: Vec<Params>,
    steps: Vec<Step>,
}

impl Batch {
    pub fn new() -> Self {
        Self {
            params: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// Dispatches the shader of `params` over `groups` workgroups with `buffers` bound at
    /// bindings 1, 2, ….
    pub fn dispatch<P: ShaderParams>(
        &mut self,
        params: P,
        buffers: &[&wgpu::Buffer],
        groups: [u32; 3],
    ) {
        self.params.push(params.block());
        self.steps.push(Step::Dispatch {
            shader: P::SHADER,
            params: self.params.len() - 1,
            buffers: buffers.iter().map(|b| (*b).clone()).collect(),
            groups,
        });
    }

    /// Copies `bytes` of `src` (from `src_offset`) to the readback buffer at `dst_offset`.
    pub fn copy_out(&mut self, src: &wgpu::Buffer, src_offset: u64, dst_offset: u64, bytes: u64) {
        if bytes > 0 {
            self.steps.push(Step::Copy {
                src: src.clone(),
                src_offset,
                dst_offset,
                bytes,
            });
        }
    }

    /// Encodes and submits the batch; `readback_bytes` sizes the readback buffer it copies into.
    pub fn submit(
        self,
        ctx: &GpuContext,
        slots: &mut Slots,
        readback_bytes: u64,
    ) -> Result<(), EngineError> {
        let stride = ctx.uniform_align.max(256);
        let mut bytes = Vec::with_capacity(self.params.len() * stride as usize);
        for p in &self.params {
            let start = bytes.len();
            encode_block(p, ctx.precision, &mut bytes);
            bytes.resize(start + stride as usize, 0);
        }
        let uniform = slots.uniform(ctx, bytes.len() as u64);
        if !bytes.is_empty() {
            ctx.queue.write_buffer(&uniform, 0, &bytes);
        }
        let readback = slots.readback(ctx, readback_bytes);
        let param_size = NonZeroU64::new(stride);
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        let mut steps = self.steps.iter().peekable();
        while let Some(step) = steps.next() {
            match step {
                Step::Copy {
                    src,
                    src_offset,
                    dst_offset,
                    bytes,
                } => {
                    encoder.copy_buffer_to_buffer(src, *src_offset, &readback, *dst_offset, *bytes);
                }
                Step::Dispatch { .. } => {
                    let mut pass = encoder.begin_compute_pass(&Default::default());
                    let mut current = Some(step);
                    while let Some(Step::Dispatch {
                        shader,
                        params,
                        buffers,
                        groups,
                    }) = current
                    {
                        let pipeline = ctx.pipeline(*shader);
                        let mut entries = vec![wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                                buffer: &uniform,
                                offset: *params as u64 * stride,
                                size: param_size,
                            }),
                        }];
                        entries.extend(buffers.iter().enumerate().map(|(i, b)| {
                            wgpu::BindGroupEntry {
                                binding: i as u32 + 1,
                                resource: b.as_entire_binding(),
                            }
                        }));
                        let group = ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
                            label: Some(shader.name()),
                            layout: &pipeline.get_bind_group_layout(0),
                            entries: &entries,
                        });
                        pass.set_pipeline(pipeline);
                        pass.set_bind_group(0, &group, &[]);
                        pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
                        current = match steps.peek() {
                            Some(Step::Dispatch { .. }) => steps.next(),
                            _ => None,
                        };
                    }
                }
            }
        }
        ctx.queue.submit([encoder.finish()]);
        ctx.check()
    }
}

/// Waits for all submitted work and returns the first `len` values of the readback buffer.
pub fn read_reals(
    ctx: &GpuContext,
    slots: &mut Slots,
    len: usize,
) -> Result<Vec<f64>, EngineError> {
    let bytes = read_bytes(ctx, slots, (len * ctx.precision.bytes()) as u64)?;
    Ok(decode(&bytes, ctx.precision))
}

/// Waits for all submitted work and returns the first `len` u32 of the readback buffer.
pub fn read_u32(ctx: &GpuContext, slots: &mut Slots, len: usize) -> Result<Vec<u32>, EngineError> {
    let bytes = read_bytes(ctx, slots, (len * 4) as u64)?;
    Ok(bytemuck::pod_collect_to_vec(&bytes))
}

/// Waits for all submitted work and returns the readback buffer's first `reals` values and the
/// `words` u32 that follow them.
pub fn read_reals_then_u32(
    ctx: &GpuContext,
    slots: &mut Slots,
    reals: usize,
    words: usize,
) -> Result<(Vec<f64>, Vec<u32>), EngineError> {
    let real_bytes = reals * ctx.precision.bytes();
    let bytes = read_bytes(ctx, slots, (real_bytes + words * 4) as u64)?;
    Ok((
        decode(&bytes[..real_bytes], ctx.precision),
        bytemuck::pod_collect_to_vec(&bytes[real_bytes..]),
    ))
}

fn read_bytes(ctx: &GpuContext, slots: &mut Slots, bytes: u64) -> Result<Vec<u8>, EngineError> {
    if bytes == 0 {
        return Ok(Vec::new());
    }
    let readback = slots.readback(ctx, bytes);
    let slice = readback.slice(..bytes);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    ctx.device
        .poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: None,
        })
        .map_err(|e| EngineError::gpu(format!("waiting for the GPU failed: {e}")))?;
    ctx.check()?;
    rx.recv()
        .map_err(|_| EngineError::gpu("readback was never completed"))?
        .map_err(|e| EngineError::gpu(format!("reading results back failed: {e}")))?;
    let out = slice
        .get_mapped_range()
        .map_err(|e| EngineError::gpu(format!("reading results back failed: {e}")))?
        .to_vec();
    readback.unmap();
    Ok(out)
}
