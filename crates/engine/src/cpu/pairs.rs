//! (Decision × context) pairs of a GP over joint inputs `(x, c)`, without building the joint
//! points: the scaled squared distance splits as `r² = Σ_{d∈x} (…)² + Σ_{d∈c} (…)²`, so the context
//! part is computed once per context set and each decision only adds its own part. The kernel
//! block of one decision against every context is then one long loop that vectorises, where a row
//! per joint point would be a short one.
//!
//! [`PairPosterior`] serves the CPU backend's pair reduction; [`PairGradient`] adds the analytic
//! gradient of a reduction of the UCB values with respect to the decision, for the
//! L-BFGS refinement of the contextual methods.

use super::simd::vectorized;

use super::posterior::{dot, gemm_into, quadratic_norms};
use super::scaled::{apply_profile, exp};
use crate::{EngineError, Points};
use bosweep_model::{GpState, KernelKind};

/// Buffers reused from one decision to the next by one caller (a thread, an L-BFGS run), so
/// that the `contexts × n` blocks are neither reallocated nor zeroed per decision.
#[derive(Clone, Debug, Default)]
pub struct PairScratch {
    decision_sq: Vec<f64>,
    block: Vec<f64>,
    slopes: Vec<f64>,
    solved: Vec<f64>,
}

/// A GP and a fixed set of context points, ready for the UCB values of any decision.
pub struct PairPosterior<'a> {
    gp: &'a GpState,
    decision_dim: usize,
    contexts: usize,
    /// `1/ℓ_d` of the decision columns.
    inv_lengthscales: Vec<f64>,
    /// Decision columns of the training points over their lengthscales, dimension-major:
    /// `scaled[d * n + i] = X[i, d] / ℓ_d`.
    scaled: Vec<f64>,
    /// `Σ_{d ∈ context} ((c_j,d − C_i,d) / ℓ_d)²`, row-major `contexts × n`.
    context_sq: Vec<f64>,
}

impl<'a> PairPosterior<'a> {
    /// Pairs for `gp`, whose inputs are the decision columns followed by the `contexts.dim()`
    /// context columns. Kernels with a time-decay column are not split this way.
    pub fn new(gp: &'a GpState, contexts: &Points) -> Result<Self, EngineError> {
        let kernel = gp.kernel();
        if kernel.time_decay().is_some() {
            return Err(EngineError::invalid(
                "pair posterior: time-decay kernels have no decision/context split",
            ));
        }
        let joint = kernel.spatial_dim();
        if contexts.dim() > joint {
            return Err(EngineError::invalid(format!(
                "pair posterior: {} context columns but the GP takes {joint} inputs",
                contexts.dim()
            )));
        }
        let decision_dim = joint - contexts.dim();
        let train = gp.train();
        let n = train.rows();
        let inverse: Vec<f64> = kernel.lengthscales().iter().map(|l| 1.0 / l).collect();
        let scaled = (0..decision_dim)
            .flat_map(|d| {
                let il = inverse[d];
                train.iter().map(move |row| row[d] * il)
            })
            .collect();
        let mut context_sq = vec![0.0; contexts.rows() * n];
        for (c, out) in contexts.iter().zip(context_sq.chunks_exact_mut(n.max(1))) {
            for (o, row) in out.iter_mut().zip(train.iter()) {
                *o = (decision_dim..joint)
                    .map(|d| {
                        let z = (c[d - decision_dim] - row[d]) * inverse[d];
                        z * z
                    })
                    .sum();
            }
        }
        Ok(Self {
            gp,
            decision_dim,
            contexts: contexts.rows(),
            inv_lengthscales: inverse[..decision_dim].to_vec(),
            scaled,
            context_sq,
        })
    }

    /// Number of context points.
    pub fn contexts(&self) -> usize {
        self.contexts
    }

    /// Number of decision columns.
    pub fn decision_dim(&self) -> usize {
        self.decision_dim
    }

    /// `u_j = μ(x, c_j) + κ σ(x, c_j)` for every context point `j`, into `out`.
    pub fn ucb(&self, x: &[f64], kappa: f64, scratch: &mut PairScratch, out: &mut [f64]) {
        let gp = self.gp;
        let n = gp.train().rows();
        let kxx = gp.kernel().diag();
        if n == 0 {
            out.fill(gp.mean() + kappa * (kxx / gp.lambda()).max(0.0).sqrt());
            return;
        }
        self.kernel_block(x, scratch, false);
        let block = &scratch.block;
        let quad = quadratic_norms(block, self.contexts, n, gp.linv().as_slice());
        let alpha = gp.alpha().as_slice();
        for ((u, row), q) in out.iter_mut().zip(block.chunks_exact(n)).zip(quad) {
            let mean = gp.mean() + dot(row, alpha);
            *u = mean + kappa * ((kxx - q).max(0.0) / gp.lambda()).sqrt();
        }
    }

    /// `x`'s decision coordinates over their lengthscales.
    fn scaled_decision(&self, x: &[f64]) -> Vec<f64> {
        x.iter()
            .zip(&self.inv_lengthscales)
            .map(|(v, il)| v * il)
            .collect()
    }

    /// Writes `k(x, c_j; X_i)` into `scratch.block` (row-major contexts × n) and, with
    /// `slopes`, `s² ψ'(r²)` (the derivative in the squared scaled distance) into
    /// `scratch.slopes`.
    fn kernel_block(&self, x: &[f64], scratch: &mut PairScratch, slopes: bool) {
        vectorized(
            #[inline(always)]
            || self.kernel_block_portable(x, scratch, slopes),
        )
    }

    #[inline(always)]
    fn kernel_block_portable(&self, x: &[f64], scratch: &mut PairScratch, slopes: bool) {
        let n = self.gp.train().rows();
        let xs = self.scaled_decision(x);
        let decision_sq = &mut scratch.decision_sq;
        decision_sq.clear();
        decision_sq.resize(n, 0.0);
        for (xd, column) in xs.iter().zip(self.scaled.chunks_exact(n)) {
            for (o, t) in decision_sq.iter_mut().zip(column) {
                let z = xd - t;
                *o += z * z;
            }
        }
        let kernel = self.gp.kernel();
        let (kind, s2) = (kernel.kind(), kernel.signal_variance());
        // A tile of rows at a time, so that the profile pass reads the distances back from L1
        // and runs one long vector loop (a row alone would leave a scalar tail per row).
        let tile = (TILE_ROWS * n).max(1);
        let block = &mut scratch.block;
        block.resize(self.context_sq.len(), 0.0);
        let tiles = block.chunks_mut(tile).zip(self.context_sq.chunks(tile));
        let add = |out: &mut [f64], context: &[f64]| {
            for (row, context) in out.chunks_exact_mut(n).zip(context.chunks_exact(n)) {
                for ((o, c), d) in row.iter_mut().zip(context).zip(decision_sq.iter()) {
                    *o = c + d;
                }
            }
        };
        if slopes {
            scratch.slopes.resize(self.context_sq.len(), 0.0);
            for ((out, context), slope) in tiles.zip(scratch.slopes.chunks_mut(tile)) {
                add(out, context);
                profile_with_slopes(kind, s2, out, slope);
            }
        } else {
            for (out, context) in tiles {
                add(out, context);
                apply_profile(kind, s2, out);
            }
        }
    }
}

/// Context rows per tile of [`PairPosterior::kernel_block`]: 32 × n distances stay in L1 for
/// the GP sizes of the contextual methods (n ≤ a few hundred).
const TILE_ROWS: usize = 32;

/// Replaces each squared scaled distance `r²` in `values` by `s² ψ(r²)` and writes `s² ψ'(r²)`
/// into `slopes`, sharing one square root and one exponential per entry (Matérn-1/2 has no
/// slope at 0).
#[inline(always)]
fn profile_with_slopes(kind: KernelKind, s2: f64, values: &mut [f64], slopes: &mut [f64]) {
    let pairs = values.iter_mut().zip(slopes.iter_mut());
    match kind {
        KernelKind::SquaredExponential => pairs.for_each(|(v, o)| {
            let e = s2 * exp(-0.5 * *v);
            *o = -0.5 * e;
            *v = e;
        }),
        KernelKind::Matern32 => pairs.for_each(|(v, o)| {
            let s = (3.0 * v.min(KernelKind::MAX_SCALED_SQ_DISTANCE)).sqrt();
            let e = s2 * exp(-s);
            *o = -1.5 * e;
            *v = (1.0 + s) * e;
        }),
        KernelKind::Matern52 => pairs.for_each(|(v, o)| {
            *v = v.min(KernelKind::MAX_SCALED_SQ_DISTANCE);
            let s = (5.0 * *v).sqrt();
            let e = s2 * exp(-s);
            *o = -(5.0 / 6.0) * (1.0 + s) * e;
            *v = (1.0 + s + 5.0 * *v / 3.0) * e;
        }),
        KernelKind::RationalQuadratic { alpha } => pairs.for_each(|(v, o)| {
            let base = 1.0 + *v / (2.0 * alpha);
            let p = s2 * base.powf(-alpha - 1.0);
            *o = -0.5 * p;
            *v = p * base;
        }),
        KernelKind::Matern12 => pairs.for_each(|(v, o)| {
            let r = v.sqrt();
            let e = s2 * exp(-r);
            *o = -0.5 * e / r;
            *v = e;
        }),
    }
}

/// [`PairPosterior`] with the dense `(K + λΣ)⁻¹`, for gradients of reductions of the UCB values.
pub struct PairGradient<'a> {
    pairs: PairPosterior<'a>,
    /// `(K + λΣ)⁻¹ = L⁻ᵀ L⁻¹`, n × n (symmetric, so its layout does not matter).
    inverse: Vec<f64>,
}

impl<'a> PairGradient<'a> {
    /// As [`PairPosterior::new`]; Matérn-1/2 is refused (its profile has no derivative at 0).
    pub fn new(gp: &'a GpState, contexts: &Points) -> Result<Self, EngineError> {
        if gp.kernel().kind() == KernelKind::Matern12 {
            return Err(EngineError::invalid(
                "pair gradient: the Matérn-1/2 kernel is not differentiable at the data",
            ));
        }
        let linv = gp.linv();
        Ok(Self {
            pairs: PairPosterior::new(gp, contexts)?,
            inverse: (linv.transpose() * linv).as_slice().to_vec(),
        })
    }

    /// The pair posterior without gradients.
    pub fn pairs(&self) -> &PairPosterior<'a> {
        &self.pairs
    }

    /// `(a, ∇ₓ a)` for `a = reduce(u)`, where `u_j = μ(x, c_j) + κ σ(x, c_j)` and `reduce`
    /// returns the reduced value and its weights `ω_j = ∂a/∂u_j` (a subgradient where `a` is not
    /// differentiable), so that `∇ₓ a = Σ_j ω_j ∇ₓ u_j` with
    /// `∇ₓ μ = Σ_i α_i ∇ₓ k_i`, `∇ₓ σ = −(1/(λσ)) Σ_i ((K + λΣ)⁻¹ k)_i ∇ₓ k_i` and
    /// `∇ₓ k_i = s² ψ'(r²_i) · 2 (x − X_i) / ℓ²` (σ = 0 contributes no gradient).
    ///
    /// `sparse` says that few weights are non-zero (a minimum, the minimax approximation): the
    /// values then take the triangular `‖L⁻¹k‖²` and only the weighted contexts the solve
    /// `(K + λΣ)⁻¹ k` and the kernel slopes; otherwise one GEMM gives every solve at once.
    pub fn reduce_with_gradient(
        &self,
        x: &[f64],
        kappa: f64,
        sparse: bool,
        scratch: &mut PairScratch,
        reduce: impl FnOnce(&[f64]) -> (f64, Vec<f64>),
    ) -> (f64, Vec<f64>) {
        let pairs = &self.pairs;
        let gp = pairs.gp;
        let n = gp.train().rows();
        let rows = pairs.contexts;
        let dx = pairs.decision_dim;
        let kxx = gp.kernel().diag();
        let lambda = gp.lambda();
        if n == 0 {
            let u = vec![gp.mean() + kappa * (kxx / lambda).max(0.0).sqrt(); rows];
            return (reduce(&u).0, vec![0.0; dx]);
        }
        let alpha = gp.alpha().as_slice();
        let sigma_of = |q: f64| ((kxx - q).max(0.0) / lambda).sqrt();
        let mean_of = |k: &[f64]| gp.mean() + dot(k, alpha);
        // u_j = μ(x, c_j) + κ σ_j from each context's kernel row of the block.
        let ucb_values = |block: &[f64], sigmas: &[f64]| -> Vec<f64> {
            block
                .chunks_exact(n)
                .zip(sigmas)
                .map(|(k, sigma)| mean_of(k) + kappa * sigma)
                .collect()
        };
        // c̄_i = Σ_j ω_j s²ψ'(r²_ji) (α_i − κ w_ji / (λ σ_j)).
        let mut combined = vec![0.0; n];
        let mut accumulate = |omega: f64, slope: &[f64], w: &[f64], sigma: f64| {
            let spread = if sigma > 0.0 {
                kappa / (lambda * sigma)
            } else {
                0.0
            };
            for (((c, s), a), w) in combined.iter_mut().zip(slope).zip(alpha).zip(w) {
                *c += omega * s * (a - spread * w);
            }
        };
        let value = if sparse {
            pairs.kernel_block(x, scratch, false);
            let block = &scratch.block;
            let quad = quadratic_norms(block, rows, n, gp.linv().as_slice());
            let sigmas: Vec<f64> = quad.into_iter().map(sigma_of).collect();
            let values = ucb_values(block, &sigmas);
            let (value, weights) = reduce(&values);
            let kernel = gp.kernel();
            let mut slope = vec![0.0; n];
            let mut k = vec![0.0; n];
            for (j, &omega) in weights.iter().enumerate() {
                if omega == 0.0 {
                    continue;
                }
                let context = &pairs.context_sq[j * n..(j + 1) * n];
                for ((k, c), d) in k.iter_mut().zip(context).zip(&scratch.decision_sq) {
                    *k = c + d;
                }
                profile_with_slopes(kernel.kind(), kernel.signal_variance(), &mut k, &mut slope);
                let w: Vec<f64> = self
                    .inverse
                    .chunks_exact(n)
                    .map(|row| dot(row, &k))
                    .collect();
                accumulate(omega, &slope, &w, sigmas[j]);
            }
            value
        } else {
            pairs.kernel_block(x, scratch, true);
            let PairScratch {
                block,
                slopes,
                solved,
                ..
            } = scratch;
            // w_j = (K + λΣ)⁻¹ k_j for every context, one GEMM.
            solved.resize(rows * n, 0.0);
            gemm_into([rows, n, n], (solved, n), (block, n), (&self.inverse, n));
            let sigmas: Vec<f64> = block
                .chunks_exact(n)
                .zip(solved.chunks_exact(n))
                .map(|(k, w)| sigma_of(dot(k, w)))
                .collect();
            let values = ucb_values(block, &sigmas);
            let (value, weights) = reduce(&values);
            for (j, &omega) in weights.iter().enumerate() {
                if omega != 0.0 {
                    let range = j * n..(j + 1) * n;
                    accumulate(omega, &slopes[range.clone()], &solved[range], sigmas[j]);
                }
            }
            value
        };
        // ∂r²_i/∂x_d = 2 (x_d/ℓ_d − X_id/ℓ_d) / ℓ_d.
        let xs = pairs.scaled_decision(x);
        let gradient = (0..dx)
            .map(|d| {
                let column = &pairs.scaled[d * n..(d + 1) * n];
                let sum: f64 = combined
                    .iter()
                    .zip(column)
                    .map(|(c, t)| c * (xs[d] - t))
                    .sum();
                2.0 * sum * pairs.inv_lengthscales[d]
            })
            .collect();
        (value, gradient)
    }
}
