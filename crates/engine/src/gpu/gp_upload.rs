//! A GP's training data, weights and packed `L⁻¹` panels on the device, plus the chunk plan of
//! the posterior kernels that consume them.

use super::batch::{Batch, Slots, encode};
use super::context::GpuContext;
use super::params::{CrossCovarianceParams, PosteriorQuadParams};
use crate::{EngineError, Precision};
use bosweep_model::{GpState, Kernel, KernelKind};

/// Rows of `L⁻¹` handled by one workgroup row of `posterior_quad.wgsl`.
const ROWS_PER_GROUP: usize = 256;
/// Upper bound on candidates (or pairs) per chunk, keeping scratch buffers moderate.
pub const MAX_CHUNK: usize = 65536;

/// A row range of `L⁻¹`, packed row by row (row j holds columns 0..=j), in its own buffer.
pub struct Panel {
    buffer: wgpu::Buffer,
    j0: usize,
    j1: usize,
    part_offset: usize,
    groups: usize,
}

pub struct GpBuffers {
    pub train: wgpu::Buffer,
    pub inv_ls: wgpu::Buffer,
    pub alpha: wgpu::Buffer,
    panels: Vec<Panel>,
    /// Partial-sum rows written by all panels together.
    pub groups: usize,
}

/// Kernel kind code shared with `kernel_profile.wgsl`, and the RQ α (unused otherwise).
pub fn kind_code(kind: KernelKind) -> (u32, f64) {
    match kind {
        KernelKind::SquaredExponential => (0, 0.0),
        KernelKind::Matern12 => (1, 0.0),
        KernelKind::Matern32 => (2, 0.0),
        KernelKind::Matern52 => (3, 0.0),
        KernelKind::RationalQuadratic { alpha } => (4, alpha),
    }
}

/// `cross_covariance.wgsl` parameters for kernel values between rows of `a` (dimension
/// `dim_a`) and rows of `b` (dimension `dim_b`) over all of the kernel's columns.
pub fn kernel_params(
    kernel: &Kernel,
    rows_a: usize,
    rows_b: usize,
    strides: [usize; 2],
) -> CrossCovarianceParams {
    let (kind, rq_alpha) = kind_code(kernel.kind());
    let dim = kernel.input_dim() as u32;
    let (flags, log_rho) = match kernel.time_decay() {
        None => (0, 0.0),
        Some(d) if d.epsilon >= 1.0 => (2 | 4, 0.0),
        Some(d) => (2, 0.5 * (1.0 - d.epsilon).ln()),
    };
    CrossCovarianceParams {
        rows_a: rows_a as u32,
        rows_b: rows_b as u32,
        dim_a: dim,
        dim_b: dim,
        a_off: 0,
        b_off: 0,
        cols: kernel.spatial_dim() as u32,
        ls_off: 0,
        kind,
        flags,
        stride_a: strides[0] as u32,
        stride_b: strides[1] as u32,
        signal_var: kernel.signal_variance(),
        rq_alpha,
        log_rho,
    }
}

/// The inverse lengthscales the shaders scale coordinates by, capped so that scaled squared
/// distances stay finite: `1/ℓ` overflows f32 for ℓ < 3e-39, scaled coordinates much earlier
/// (`∞ − ∞ = NaN`), and the f64 shaders' own logarithm (the rational-quadratic profile) is not
/// defined at ∞. The caps matter only for lengthscales below 1e-18 (f32) or 1e-150 (f64): the SE
/// and Matérn values there stay 0 except between coordinates closer than about 1e-17 (f32), and
/// the rational-quadratic's polynomial tail is taken at `r = d·cap` instead of `d/ℓ` (e.g.
/// 1e-24 · s² instead of about 0 for α = 0.7, d = 0.1 in f32).
pub fn inv_lengthscales(kernel: &Kernel, precision: Precision) -> Vec<f64> {
    let cap = match precision {
        Precision::F32 => 1e18,
        Precision::F64 => 1e150,
    };
    kernel
        .lengthscales()
        .iter()
        .map(|l| (1.0 / l).min(cap))
        .collect()
}

impl GpBuffers {
    /// Uploads everything of `gp` the posterior kernels read. `gp` must have data.
    pub fn upload(ctx: &GpuContext, slots: &mut Slots, gp: &GpState) -> Result<Self, EngineError> {
        let p = ctx.precision;
        let s = p.bytes() as u64;
        let n = gp.train().rows();
        let linv = gp.linv();
        let mut panels = Vec::new();
        let mut j0 = 0;
        let mut groups = 0;
        while j0 < n {
            let mut j1 = j0;
            let mut size = 0u64;
            while j1 < n && size + (j1 as u64 + 1) * s <= ctx.max_binding {
                size += (j1 as u64 + 1) * s;
                j1 += 1;
            }
            if j1 == j0 {
                return Err(EngineError::gpu(format!(
                    "row {j0} of the {n}×{n} inverse Cholesky factor exceeds the GPU binding limit \
                     of {} bytes",
                    ctx.max_binding
                )));
            }
            let packed: Vec<f64> = (j0..j1)
                .flat_map(|j| (0..=j).map(move |k| linv[(j, k)]))
                .collect();
            let buffer = slots.upload_at(ctx, "linv", panels.len(), &encode(&packed, p));
            let panel_groups = (j1 - j0).div_ceil(ROWS_PER_GROUP);
            panels.push(Panel {
                buffer,
                j0,
                j1,
                part_offset: groups,
                groups: panel_groups,
            });
            groups += panel_groups;
            j0 = j1;
        }
        Ok(Self {
            train: slots.upload(ctx, "train", &encode(gp.train().as_slice(), p)),
            inv_ls: slots.upload(ctx, "inv_ls", &encode(&inv_lengthscales(gp.kernel(), p), p)),
            alpha: slots.upload(ctx, "alpha", &encode(gp.alpha().as_slice(), p)),
            panels,
            groups,
        })
    }

    /// Records `‖L⁻¹ k_x‖²` partial sums for the `count` columns of `kt` (stride `ld`) into `part`.
    pub fn record_quad(
        &self,
        batch: &mut Batch,
        n: usize,
        kt: &wgpu::Buffer,
        part: &wgpu::Buffer,
        ld: usize,
        count: usize,
    ) {
        for panel in &self.panels {
            let params = PosteriorQuadParams {
                ld: ld as u32,
                count: count as u32,
                n: n as u32,
                j0: panel.j0 as u32,
                j1: panel.j1 as u32,
                part_off: panel.part_offset as u32,
                panel_base: (panel.j0 * (panel.j0 + 1) / 2) as u32,
            };
            batch.dispatch(
                params,
                &[kt, &panel.buffer, part],
                [count.div_ceil(64) as u32, panel.groups as u32, 1],
            );
        }
    }
}

/// The largest chunk (≤ `MAX_CHUNK`) whose buffers of `per_item` reals each stay within the
/// binding limit; an error naming `what` when not even one item fits.
pub fn chunk_size(ctx: &GpuContext, per_item: &[usize], what: &str) -> Result<usize, EngineError> {
    let s = ctx.precision.bytes() as u64;
    let chunk = per_item
        .iter()
        .map(|&reals| (ctx.max_binding / (reals.max(1) as u64 * s)) as usize)
        .fold(MAX_CHUNK, usize::min);
    if chunk == 0 {
        return Err(EngineError::gpu(format!(
            "{what} does not fit the GPU binding limit of {} bytes",
            ctx.max_binding
        )));
    }
    Ok(chunk)
}
