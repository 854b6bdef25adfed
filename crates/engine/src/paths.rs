//! The inputs and results of [`Engine::sample_path_maxima`](crate::Engine::sample_path_maxima):
//! sample paths of a GP posterior by pathwise conditioning (Wilson, Borovitskiy, Terenin,
//! Mostowsky and Deisenroth, "Efficiently Sampling Functions from Gaussian Process
//! Posteriors", ICML 2020, Eq. 13), each
//!
//! `f_s(x) = m + √(2 s² / F) Σ_f w_fs cos(ω_fᵀ (x/ℓ) + b_f) + Σ_j k(x, X_j) v_js`,
//!
//! a prior path from `F` random Fourier features plus Matheron's update through the training
//! points `X`. Evaluating `S` paths at `m` candidates costs `O(m (F + n) d S)` and no `m × m`
//! matrix, so Thompson sampling can search far more candidates than a joint posterior allows.
//! The random draws and the update weights are the caller's (the toolkit's `PosteriorPaths`
//! draws them from a run's random stream); the engine evaluates and reduces.

use crate::Points;
use bosweep_model::{Kernel, KernelKind};

/// `S` sample paths sharing one random Fourier basis, as [`crate::Engine::sample_path_maxima`]
/// evaluates them. Matrices are row-major.
#[derive(Clone, Copy, Debug)]
pub struct SamplePaths<'a> {
    /// The GP's kernel: its kind (one with a spectral density, see
    /// [`SamplePaths::supports`]), lengthscales `ℓ` and signal variance `s²`.
    pub kernel: &'a Kernel,
    /// The frequencies `ω`, `F × d`, in the kernel's scaled coordinates `x/ℓ`.
    pub frequencies: &'a Points,
    /// The phases `b`, one per feature.
    pub phases: &'a [f64],
    /// The prior weights `w`, `F × S`.
    pub prior_weights: &'a [f64],
    /// The training inputs `X`, `n × d`.
    pub train: &'a Points,
    /// The update weights `v`, `n × S` (Matheron's rule: `(K + λΣ)⁻¹ (y − m − f̃(X) − ε)`).
    pub update_weights: &'a [f64],
    /// The GP's constant prior mean `m`.
    pub mean: f64,
    /// The number of paths `S`.
    pub paths: usize,
}

impl SamplePaths<'_> {
    /// Whether paths of `kind` can be sampled: the squared-exponential and the Matérn-3/2 and
    /// -5/2 kernels, whose spectral densities (a normal and Student-t ones) the sampler draws
    /// frequencies from, and whose paths are differentiable. Matérn-1/2 paths are nowhere
    /// differentiable and the rational quadratic's density is a scale mixture that no caller
    /// draws yet; both are refused rather than sampled from the wrong distribution.
    pub fn supports(kind: KernelKind) -> bool {
        matches!(
            kind,
            KernelKind::SquaredExponential | KernelKind::Matern32 | KernelKind::Matern52
        )
    }

    /// The input dimension `d`.
    pub fn dim(&self) -> usize {
        self.kernel.input_dim()
    }

    /// The number of features `F`.
    pub fn features(&self) -> usize {
        self.phases.len()
    }

    /// `√(2 s² / F)`: the prior path's variance is `s²` at every point when `w ~ N(0, I)`.
    pub fn amplitude(&self) -> f64 {
        (2.0 * self.kernel.signal_variance() / self.features() as f64).sqrt()
    }
}

/// One path's best candidate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathMaximum {
    /// The candidate's row (the lowest among ties).
    pub index: usize,
    /// The path's value there.
    pub value: f64,
}
