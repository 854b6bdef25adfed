//! The CPU backend's one runtime SIMD dispatch. The hot loops (kernel rows, KDE and
//! kernel-regression sums, pair blocks) are plain Rust written to autovectorise; running them
//! through [`pulp`]'s dispatch compiles them once more for the widest instruction set pulp
//! detects at run time (AVX-512F, else AVX2 + FMA on x86-64; NEON on Aarch64) and picks that
//! copy, with the portable copy as the fallback. It is the same dispatch faer's and gemm's
//! kernels use (the workspace enables pulp's AVX-512 level for them), so one detection decides
//! for the whole process.
//!
//! The loops never fuse a multiply and an add, and vector lanes never mix, so every copy rounds
//! alike: results do not depend on which instruction set ran them.

/// Runs `op` compiled for the widest instruction set the processor offers.
///
/// Pass an `#[inline(always)]` closure whose body calls `#[inline(always)]` code: only what is
/// inlined into pulp's target-feature function is compiled for the wider set. A closure left
/// out of line runs the baseline copy (SSE2), which made KDE 2.5 times slower.
#[inline(always)]
pub(super) fn vectorized<R>(op: impl FnOnce() -> R) -> R {
    pulp::Arch::new().dispatch(op)
}
