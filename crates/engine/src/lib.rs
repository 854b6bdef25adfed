//! The batch compute engine: every operation that evaluates many points at once.
//!
//! [`Engine`] has two implementations with identical semantics: [`CpuEngine`] (rayon, f64, the
//! reference) and `GpuEngine` (wgpu compute shaders from the workspace's `shaders/`, f32 or f64;
//! feature `gpu`, on by default). Algorithms hold a `&dyn Engine` and never know which one runs.

pub(crate) mod checks;
mod cpu;
mod device;
#[cfg(feature = "gpu")]
mod failover;
#[cfg(feature = "gpu")]
mod gpu;
mod hypervolume;
mod layer;
mod paths;
mod precision;
mod route;
mod tv;

pub use bosweep_core::data::{EngineError, Points};
pub use cpu::{CpuEngine, PairGradient, PairPosterior, PairScratch};
pub use device::{
    AdapterSummary, COALESCE_ENV, COALESCE_WINDOW_ENV, DeviceChoice, Route, list_adapters,
    select_engine, stored_model,
};
#[cfg(feature = "gpu")]
pub use failover::FailoverEngine;
#[cfg(feature = "gpu")]
pub use gpu::{GpuEngine, GpuOptions};
pub use hypervolume::{CELL_CAP, ImprovementSmoothing, SampleCells, log_improvement_over};
pub use layer::EngineLayer;
pub use paths::{PathMaximum, SamplePaths};
pub use precision::Precision;
pub use route::{
    Calibration, CostLine, CostModel, DEFAULT_CROSSOVER, Family, LADDERS, Ladder, Operation,
    Placement, RoutedEngine, Work, cache_dir, calibrate, calibration_file,
};
pub use tv::worst_case_tv;

use nalgebra::DMatrix;

use bosweep_model::{GpState, Kernel, SmoothingKernel};

/// Posterior mean and variance of the latent function at each candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Posterior {
    /// `μ(x)` at each candidate.
    pub mean: Vec<f64>,
    /// Never negative.
    pub variance: Vec<f64>,
}

impl Posterior {
    /// `σ(x)`, the square root of each variance.
    pub fn std(&self) -> impl Iterator<Item = f64> + '_ {
        self.variance.iter().map(|v| v.sqrt())
    }
}

/// How the M values `u_j = μ(x, c_j) + β σ(x, c_j)` of one decision `x` are reduced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PairReduction<'a> {
    /// `(1/M) Σ_j u_j` (SBO-KDE's sample-average acquisition).
    Mean,
    /// `min_j u_j` (the infimum estimate of DRBO-KDE).
    Min,
    /// The worst case of the mean over the total-variation (L1) ball of radius `delta`: remove
    /// mass δ/2 from the largest values and put it on the infimum `min(infimum[x], min_j u_j)`
    /// (the exact solution of the dual in Huang et al., AAAI 2024, Proposition 2, see
    /// [`worst_case_tv`]). `infimum` has one value per decision.
    WorstCaseTv {
        /// Radius of the total-variation ball.
        delta: f64,
        /// A lower bound of `u` per decision (the DRBO-KDE infimum estimate).
        infimum: &'a [f64],
    },
}

/// Calls a GPU engine has run and the passes over the device (uploads, dispatches and one
/// read-back) they took: one pass per call, or fewer where concurrent calls ran together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceUse {
    /// Operations run on the device.
    pub calls: usize,
    /// Passes over the device: read-backs.
    pub passes: usize,
}

/// Nadaraya–Watson mean and the log of the kernel weight sum `W = Σ_i k_i` at each query.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelRegression {
    /// The kernel-weighted mean of the targets at each query (where every weight vanishes, the
    /// mean target of the nearest data points, the `h → 0` limit).
    pub mean: Vec<f64>,
    /// `ln W`; `-inf` where no data point has positive weight (compact kernels only).
    pub log_weight_sum: Vec<f64>,
}

/// The batch operations every backend implements with the same semantics.
///
/// Inputs are validated by their types ([`Points`], [`Kernel`], [`GpState`]); each operation
/// checks only that its arguments agree with each other, and reports disagreement as
/// [`EngineError::InvalidInput`].
pub trait Engine: Send + Sync {
    /// A short description of the backend and device, for trace headers and logs.
    fn describe(&self) -> String;

    /// What identifies the device's results, for a sweep's manifest: two engines with the same
    /// identity make the same decisions, so a sweep may resume on either. The description
    /// without what does not change results (the CPU backend's thread count).
    fn identity(&self) -> String {
        self.describe()
    }

    /// Warnings the engine has issued so far, oldest first (a GPU failure it recovered from);
    /// a run traces the ones that appear while it runs.
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// How much the engine's GPU has been used so far, for engines with one: fewer passes than
    /// calls where concurrent calls were coalesced.
    fn device_use(&self) -> Option<DeviceUse> {
        None
    }

    /// Runs a sweep keeps in flight per core unless told otherwise: one, or two on an engine
    /// whose calls all go to a GPU, since a run waiting for the device holds no core and the
    /// more runs wait together, the more calls a coalesced pass carries.
    fn runs_per_core(&self) -> usize {
        1
    }

    /// Where a call of `work` would run, for engines that route calls by size
    /// ([`RoutedEngine`]); `None` for a single backend.
    fn placement(&self, work: &Work) -> Option<Placement> {
        let _ = work;
        None
    }

    /// The cross-covariance `K[i, j] = k(a_i, b_j)`, shape `a.rows() × b.rows()`.
    fn cross_covariance(
        &self,
        kernel: &Kernel,
        a: &Points,
        b: &Points,
    ) -> Result<DMatrix<f64>, EngineError>;

    /// Posterior mean and variance of one GP at every candidate.
    fn posterior(&self, gp: &GpState, candidates: &Points) -> Result<Posterior, EngineError> {
        Ok(self.posterior_batch(&[gp], candidates)?.remove(0))
    }

    /// Posteriors of several GPs (different kernels or data) over the same candidates in one call.
    fn posterior_batch(
        &self,
        gps: &[&GpState],
        candidates: &Points,
    ) -> Result<Vec<Posterior>, EngineError>;

    /// For each decision `x`, reduces `μ(x, c_j) + β σ(x, c_j)` over the context samples `c_j`
    /// with `reduction`. The GP's inputs are `(decision, context)` concatenated.
    fn pair_reduce(
        &self,
        gp: &GpState,
        decisions: &Points,
        contexts: &Points,
        beta: f64,
        reduction: PairReduction<'_>,
    ) -> Result<Vec<f64>, EngineError>;

    /// `μ(x_b, c_j) + β σ(x_b, c_j)` for every decision `b` and context sample `j`, row-major
    /// `decisions × contexts`: the values of a reduction that needs them all (the minimax
    /// approximation's arg-min). By default through [`Engine::posterior`] on joint points.
    fn pair_values(
        &self,
        gp: &GpState,
        decisions: &Points,
        contexts: &Points,
        beta: f64,
    ) -> Result<Vec<f64>, EngineError> {
        checks::pair_values(gp, decisions, contexts, beta)?;
        joint_pair_values(self, gp, decisions, contexts, beta)
    }

    /// Log of the Gaussian-product KDE `p̂(q) = Σ_i w_i Π_d φ((q_d − c_id)/h_d)/h_d / Σ_i w_i`
    /// (uniform weights when `weights` is `None`).
    fn kde_log_density(
        &self,
        data: &Points,
        bandwidths: &[f64],
        weights: Option<&[f64]>,
        queries: &Points,
    ) -> Result<Vec<f64>, EngineError>;

    /// [`Engine::kde_log_density`] exponentiated.
    fn kde_density(
        &self,
        data: &Points,
        bandwidths: &[f64],
        weights: Option<&[f64]>,
        queries: &Points,
    ) -> Result<Vec<f64>, EngineError> {
        Ok(self
            .kde_log_density(data, bandwidths, weights, queries)?
            .into_iter()
            .map(f64::exp)
            .collect())
    }

    /// Nadaraya–Watson regression with an isotropic smoothing kernel of bandwidth `h`. Where the
    /// weights all vanish the mean is the average target of the nearest data points (squared
    /// distances within a relative 1e-9 of the minimum count as ties), the `h → 0` limit.
    fn kernel_regression(
        &self,
        data: &Points,
        targets: &[f64],
        kernel: SmoothingKernel,
        bandwidth: f64,
        queries: &Points,
    ) -> Result<KernelRegression, EngineError>;

    /// Index of the nearest data point (Euclidean) to each query; ties go to the lowest index.
    fn nearest(&self, data: &Points, queries: &Points) -> Result<Vec<usize>, EngineError>;

    /// Indices of the `k` largest values, largest first; ties go to the lowest index.
    /// Fewer than `k` when there are fewer values. NaN values are rejected.
    fn top_k(&self, values: &[f64], k: usize) -> Result<Vec<usize>, EngineError>;

    /// For each of the `S` sample paths of `paths`, its largest value over the candidates not
    /// in `excluded` and that candidate's row (the lowest among ties): Thompson sampling over
    /// `m` candidates with no `m × m` matrix ([`SamplePaths`]). Backends reduce where they
    /// evaluate, so only `S` results come back from a GPU, never `m × S` values. Refuses kernels
    /// without a spectral density, excluded rows out of range, and a call that leaves no
    /// candidate.
    fn sample_path_maxima(
        &self,
        paths: &SamplePaths<'_>,
        candidates: &Points,
        excluded: &[usize],
    ) -> Result<Vec<PathMaximum>, EngineError>;

    /// The smoothed log hypervolume improvement of every candidate's draw under every Monte
    /// Carlo sample, over that sample's non-dominated cells (see [`SampleCells`]): `draws` is
    /// row-major `candidates × samples × m` (maximisation form), the result `candidates ×
    /// samples`. The heavy part of qLogNEHVI: each value sums over all of its sample's cells.
    fn log_hypervolume_improvement(
        &self,
        cells: &SampleCells,
        draws: &[f64],
        smoothing: ImprovementSmoothing,
    ) -> Result<Vec<f64>, EngineError>;

    /// Index of the largest value (lowest index among ties).
    fn argmax(&self, values: &[f64]) -> Result<usize, EngineError> {
        self.top_k(values, 1)?
            .first()
            .copied()
            .ok_or_else(|| EngineError::invalid("arg-max of an empty array"))
    }
}

/// Joint points `(x_b, c_j)` per call of [`Engine::posterior`] in [`joint_pair_values`].
const JOINT_PAIRS_PER_CALL: usize = 1 << 15;

/// [`Engine::pair_values`] by building the joint points, a block of decisions at a time, and
/// asking `engine` for their posterior.
fn joint_pair_values<E: Engine + ?Sized>(
    engine: &E,
    gp: &GpState,
    decisions: &Points,
    contexts: &Points,
    beta: f64,
) -> Result<Vec<f64>, EngineError> {
    let dim = decisions.dim() + contexts.dim();
    let per_call = (JOINT_PAIRS_PER_CALL / contexts.rows()).max(1);
    let mut out = Vec::with_capacity(decisions.rows() * contexts.rows());
    for first in (0..decisions.rows()).step_by(per_call) {
        let last = (first + per_call).min(decisions.rows());
        let mut joint = Vec::with_capacity((last - first) * contexts.rows() * dim);
        for b in first..last {
            for c in contexts.iter() {
                joint.extend_from_slice(decisions.row(b));
                joint.extend_from_slice(c);
            }
        }
        let post = engine.posterior(gp, &Points::new(joint, dim)?)?;
        out.extend(
            post.mean
                .iter()
                .zip(&post.variance)
                .map(|(m, v)| m + beta * v.sqrt()),
        );
    }
    Ok(out)
}
