//! The CPU side of exact GP regression: factorise `K + λΣ` in f64 and keep what the engine
//! needs to evaluate posteriors over any number of candidates.

use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;

use super::kernel::Kernel;
use crate::compute::{EngineError, Points};

/// Observation noise variances `Σ`: one value for all points, or one per point.
#[derive(Clone, Debug, PartialEq)]
pub enum Noise {
    Homoscedastic(f64),
    PerPoint(Vec<f64>),
}

impl Noise {
    fn variance(&self, i: usize) -> f64 {
        match self {
            Self::Homoscedastic(v) => *v,
            Self::PerPoint(v) => v[i],
        }
    }
}

/// Relative jitters tried in turn (times the mean diagonal) when the Cholesky factorisation fails.
const JITTER_LADDER: [f64; 7] = [0.0, 1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2];

/// A GP conditioned on data, in the form the engine consumes:
/// `μ(x) = m + k_x^T α` and `σ²(x) = (k(x,x) − ‖L⁻¹ k_x‖²) / λ`,
/// with `L Lᵀ = K + λΣ (+ jitter)` and `α = (K + λΣ)⁻¹ (y − m)` (`specs/rahbo.md` §2.2).
#[derive(Clone, Debug)]
pub struct GpState {
    train: Points,
    kernel: Kernel,
    mean: f64,
    lambda: f64,
    alpha: DVector<f64>,
    linv: DMatrix<f64>,
    jitter: f64,
}

impl GpState {
    /// Factorises the training data. Fails with a message naming the problem when the inputs are
    /// inconsistent or when even the largest jitter leaves `K + λΣ` indefinite.
    pub fn fit(
        train: Points,
        targets: &[f64],
        kernel: Kernel,
        noise: &Noise,
        mean: f64,
        lambda: f64,
    ) -> Result<Self, EngineError> {
        let n = train.rows();
        if train.dim() != kernel.input_dim() {
            return Err(EngineError::invalid(format!(
                "training inputs have {} columns but the kernel takes {}",
                train.dim(),
                kernel.input_dim()
            )));
        }
        if targets.len() != n {
            return Err(EngineError::invalid(format!(
                "{} targets for {n} training points",
                targets.len()
            )));
        }
        if let Some(i) = targets.iter().position(|v| !v.is_finite()) {
            return Err(EngineError::invalid(format!(
                "target {i} is {}",
                targets[i]
            )));
        }
        if !(mean.is_finite()) {
            return Err(EngineError::invalid(format!("prior mean is {mean}")));
        }
        if !(lambda.is_finite() && lambda > 0.0) {
            return Err(EngineError::invalid(format!(
                "lambda is {lambda} (must be positive)"
            )));
        }
        match noise {
            Noise::Homoscedastic(v) if !(v.is_finite() && *v >= 0.0) => {
                return Err(EngineError::invalid(format!("noise variance is {v}")));
            }
            Noise::PerPoint(v) if v.len() != n => {
                return Err(EngineError::invalid(format!(
                    "{} noise variances for {n} training points",
                    v.len()
                )));
            }
            Noise::PerPoint(v) => {
                if let Some(i) = v.iter().position(|s| !(s.is_finite() && *s >= 0.0)) {
                    return Err(EngineError::invalid(format!(
                        "noise variance {i} is {} (must be finite and non-negative)",
                        v[i]
                    )));
                }
            }
            _ => {}
        }

        let mut cov = DMatrix::from_fn(n, n, |i, j| kernel.eval(train.row(i), train.row(j)));
        for i in 0..n {
            cov[(i, i)] += lambda * noise.variance(i);
        }
        let scale = if n == 0 {
            1.0
        } else {
            cov.diagonal().mean().max(f64::MIN_POSITIVE)
        };
        let (chol, jitter) = JITTER_LADDER
            .iter()
            .find_map(|rel| {
                let jitter = rel * scale;
                let mut jittered = cov.clone();
                for i in 0..n {
                    jittered[(i, i)] += jitter;
                }
                jittered.cholesky().map(|c| (c.unpack(), jitter))
            })
            .ok_or_else(|| {
                EngineError::invalid(format!(
                    "the {n}×{n} kernel matrix is not positive definite even with jitter {:e} \
                     (duplicate inputs with zero noise?)",
                    JITTER_LADDER[JITTER_LADDER.len() - 1] * scale
                ))
            })?;
        let linv = lower_triangular_inverse(&chol);
        let residual = DVector::from_iterator(n, targets.iter().map(|y| y - mean));
        let alpha = linv.tr_mul(&(&linv * residual));
        Ok(Self {
            train,
            kernel,
            mean,
            lambda,
            alpha,
            linv,
            jitter,
        })
    }

    pub fn train(&self) -> &Points {
        &self.train
    }

    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// The constant prior mean `m`.
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// The scale λ: the factor is of `K + λΣ` and variances are divided by λ.
    pub fn lambda(&self) -> f64 {
        self.lambda
    }

    /// `α = (K + λΣ)⁻¹ (y − m)`.
    pub fn alpha(&self) -> &DVector<f64> {
        &self.alpha
    }

    /// `L⁻¹`, lower triangular, dense.
    pub fn linv(&self) -> &DMatrix<f64> {
        &self.linv
    }

    /// The diagonal jitter that was needed to factorise (0 when none).
    pub fn jitter(&self) -> f64 {
        self.jitter
    }
}

/// Inverts a lower-triangular matrix column by column (column-oriented forward substitution, so
/// every inner loop runs down a contiguous column of `L`), columns in parallel: `n³/6` flops.
fn lower_triangular_inverse(l: &DMatrix<f64>) -> DMatrix<f64> {
    let n = l.nrows();
    let ls = l.as_slice();
    let mut inv = DMatrix::<f64>::zeros(n, n);
    inv.as_mut_slice()
        .par_chunks_mut(n.max(1))
        .enumerate()
        .for_each(|(j, col)| {
            col[j] = 1.0;
            for k in j..n {
                let lk = &ls[k * n..(k + 1) * n];
                col[k] /= lk[k];
                let xk = col[k];
                for (c, lik) in col[k + 1..].iter_mut().zip(&lk[k + 1..]) {
                    *c -= lik * xk;
                }
            }
        });
    inv
}
