//! The CPU side of exact GP regression: factorise `K + λΣ` in f64 and keep what the engine
//! needs to evaluate posteriors over any number of candidates.

use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;

use super::dense;
use super::kernel::Kernel;
use bosweep_core::data::{EngineError, Points};

/// Observation noise variances `Σ`: one value for all points, or one per point.
#[derive(Clone, Debug, PartialEq)]
pub enum Noise {
    /// One variance for every point.
    Homoscedastic(f64),
    /// One variance per point, in the order of the data (RAHBO's sample variances).
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

/// What a GP is conditioned with besides its data: the kernel, the observation noise, the
/// constant prior mean `m` and RAHBO's noise scaling `λ` (1 elsewhere). Named fields, because the
/// two scalars sit side by side and would be easy to swap as positional arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct GpSpec {
    /// The covariance kernel with its hyperparameters.
    pub kernel: Kernel,
    /// The observation noise variances `Σ`.
    pub noise: Noise,
    /// The constant prior mean `m`.
    pub mean: f64,
    /// The noise scaling `λ` of `K + λΣ`.
    pub lambda: f64,
}

impl GpSpec {
    /// `kernel` and `noise` with a zero prior mean and `λ = 1`.
    pub fn new(kernel: Kernel, noise: Noise) -> Self {
        Self {
            kernel,
            noise,
            mean: 0.0,
            lambda: 1.0,
        }
    }

    /// The same with the constant prior mean `mean`.
    pub fn mean(mut self, mean: f64) -> Self {
        self.mean = mean;
        self
    }

    /// The same with the noise scaling `λ` (`K + λΣ`).
    pub fn lambda(mut self, lambda: f64) -> Self {
        self.lambda = lambda;
        self
    }
}

/// A GP conditioned on data, in the form the engine consumes:
/// `μ(x) = m + k_x^T α` and `σ²(x) = (k(x,x) − ‖L⁻¹ k_x‖²) / λ`,
/// with `L Lᵀ = K + λΣ (+ jitter)` and `α = (K + λΣ)⁻¹ (y − m)` (Makarova et al.,
/// NeurIPS 2021, Eqs. 5–6: the posterior with per-point noise Σ and scale λ).
#[derive(Clone, Debug)]
pub struct GpState {
    train: Points,
    kernel: Kernel,
    mean: f64,
    lambda: f64,
    alpha: DVector<f64>,
    linv: DMatrix<f64>,
    jitter: f64,
    targets: Vec<f64>,
    noise: Noise,
}

impl GpState {
    /// Factorises the training data. Fails with a message naming the problem when the inputs are
    /// inconsistent or when even the largest jitter leaves `K + λΣ` indefinite.
    pub fn fit(train: Points, targets: &[f64], spec: GpSpec) -> Result<Self, EngineError> {
        let GpSpec {
            kernel,
            noise,
            mean,
            lambda,
        } = spec;
        check_inputs(&train, targets, &kernel, &noise, mean, lambda)?;
        let n = train.rows();

        // The lower triangle, a column per task: the factorisation reads nothing else.
        let mut cov = DMatrix::<f64>::zeros(n, n);
        cov.as_mut_slice()
            .par_chunks_mut(n.max(1))
            .enumerate()
            .for_each(|(j, col)| {
                let xj = train.row(j);
                for (i, c) in col.iter_mut().enumerate().skip(j) {
                    *c = kernel.eval(train.row(i), xj);
                }
                col[j] += lambda * noise.variance(j);
            });
        let (chol, jitter) = dense::jittered_cholesky(&cov).ok_or_else(|| {
            EngineError::invalid(format!(
                "the {n}×{n} kernel matrix is not positive definite even with jitter {:e} \
                 (duplicate inputs with zero noise?)",
                dense::largest_jitter(&cov)
            ))
        })?;
        let linv = dense::lower_triangular_inverse(&chol);
        let residual = DVector::from_iterator(n, targets.iter().map(|y| y - mean));
        let alpha = linv.tr_mul(&(&linv * residual));
        check_mean_bound(&kernel, &alpha, mean)?;
        Ok(Self {
            train,
            kernel,
            mean,
            lambda,
            alpha,
            linv,
            jitter,
            targets: targets.to_vec(),
            noise,
        })
    }

    /// The training inputs.
    pub fn train(&self) -> &Points {
        &self.train
    }

    /// The kernel the state was conditioned with.
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

    /// The targets `y` the state is conditioned on.
    pub fn targets(&self) -> &[f64] {
        &self.targets
    }

    /// The noise variances `Σ` (before the scale λ).
    pub fn noise(&self) -> &Noise {
        &self.noise
    }

    /// `ln N(y; m·1, K + λΣ + jitter·I)` from the stored factor, in O(n):
    /// `−½ (y − m)ᵀα + Σ_i ln (L⁻¹)_ii − (n/2) ln 2π`.
    pub fn log_marginal_likelihood(&self) -> f64 {
        let n = self.targets.len();
        let fit: f64 = self
            .targets
            .iter()
            .zip(self.alpha.iter())
            .map(|(y, a)| (y - self.mean) * a)
            .sum();
        let log_det_inv_half: f64 = (0..n).map(|i| self.linv[(i, i)].ln()).sum();
        -0.5 * fit + log_det_inv_half - 0.5 * n as f64 * (2.0 * std::f64::consts::PI).ln()
    }

    /// Conditions on one more observation `(x, y)` in O(n²), keeping the hyperparameters.
    ///
    /// The Cholesky factor is extended through its stored inverse: with `l = L⁻¹k`,
    /// `d = √(k(x,x) + λσ² + jitter − ‖l‖²)`, the new last row of `L⁻¹` is `(−lᵀL⁻¹/d, 1/d)`,
    /// and `α` is recomputed as `L⁻ᵀ(L⁻¹(y − m))`. When `d² ≤ 0` (the new point is numerically
    /// a duplicate of the data, with too little noise) the state is refitted from scratch with
    /// jitter escalation, as [`GpState::fit`] does.
    ///
    /// `noise_variance` is the new point's noise variance: required for per-point noise; for
    /// homoscedastic noise it must be `None` or the common value.
    pub fn append(
        &mut self,
        x: &[f64],
        y: f64,
        noise_variance: Option<f64>,
    ) -> Result<AppendOutcome, EngineError> {
        let n = self.train.rows();
        let dim = self.train.dim();
        if x.len() != dim {
            return Err(EngineError::invalid(format!(
                "appended point has {} coordinates but the GP takes {dim}",
                x.len()
            )));
        }
        if !y.is_finite() {
            return Err(EngineError::invalid(format!("appended target is {y}")));
        }
        let new_var = match (&self.noise, noise_variance) {
            (Noise::Homoscedastic(v), None) => *v,
            (Noise::Homoscedastic(v), Some(s)) if s == *v => *v,
            (Noise::Homoscedastic(v), Some(s)) => {
                return Err(EngineError::invalid(format!(
                    "appended noise variance {s} differs from the homoscedastic {v}"
                )));
            }
            (Noise::PerPoint(_), None) => {
                return Err(EngineError::invalid(
                    "per-point noise: the appended point needs its noise variance",
                ));
            }
            (Noise::PerPoint(_), Some(s)) => s,
        };
        if !(new_var.is_finite() && new_var >= 0.0) {
            return Err(EngineError::invalid(format!(
                "appended noise variance is {new_var} (must be finite and non-negative)"
            )));
        }
        let mut data = Vec::with_capacity((n + 1) * dim);
        data.extend_from_slice(self.train.as_slice());
        data.extend_from_slice(x);
        let train = Points::new(data, dim)?;
        let mut targets = self.targets.clone();
        targets.push(y);
        let noise = match &self.noise {
            Noise::Homoscedastic(v) => Noise::Homoscedastic(*v),
            Noise::PerPoint(v) => {
                let mut v = v.clone();
                v.push(new_var);
                Noise::PerPoint(v)
            }
        };

        let k = DVector::from_iterator(n, (0..n).map(|i| self.kernel.eval(self.train.row(i), x)));
        let l = &self.linv * &k;
        let d2 = self.kernel.eval(x, x) + self.lambda * new_var + self.jitter - l.norm_squared();
        if !(d2 > 0.0 && d2.is_finite()) {
            let spec = GpSpec::new(self.kernel.clone(), noise)
                .mean(self.mean)
                .lambda(self.lambda);
            *self = Self::fit(train, &targets, spec)?;
            return Ok(AppendOutcome::Refactorised {
                jitter: self.jitter,
            });
        }
        let d = d2.sqrt();
        let u = self.linv.tr_mul(&l);
        let linv = std::mem::replace(&mut self.linv, DMatrix::zeros(0, 0));
        let mut linv = linv.resize(n + 1, n + 1, 0.0);
        for (j, uj) in u.iter().enumerate() {
            linv[(n, j)] = -uj / d;
        }
        linv[(n, n)] = 1.0 / d;
        let residual = DVector::from_iterator(n + 1, targets.iter().map(|t| t - self.mean));
        let alpha = linv.tr_mul(&(&linv * residual));
        if let Err(e) = check_mean_bound(&self.kernel, &alpha, self.mean) {
            self.linv = linv.resize(n, n, 0.0);
            return Err(e);
        }
        self.alpha = alpha;
        self.linv = linv;
        self.train = train;
        self.targets = targets;
        self.noise = noise;
        Ok(AppendOutcome::Extended)
    }
}

/// Checks that no posterior mean `m + Σ_i α_i k_i` can overflow, in any summation order: the
/// kernels are bounded by their diagonal `s²`, so `|m| + s² Σ|α_i|` bounds every partial sum.
/// (Found by fuzzing: s² = 1e300 with near-duplicate inputs gave |α| ≈ 5e11, and the mean was
/// `∞ − ∞ = NaN`.)
fn check_mean_bound(kernel: &Kernel, alpha: &DVector<f64>, mean: f64) -> Result<(), EngineError> {
    let s2 = kernel.diag();
    let total: f64 = alpha.iter().map(|a| a.abs()).sum();
    if mean.abs() + s2 * total < f64::MAX / 2.0 {
        Ok(())
    } else {
        Err(EngineError::invalid(format!(
            "the posterior mean can overflow: the signal variance {s2:e} times Σ|α| = {total:e} \
             leaves the f64 range (rescale the targets or the signal variance)"
        )))
    }
}

/// How [`GpState::append`] conditioned on the new point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AppendOutcome {
    /// The factor was extended in O(n²).
    Extended,
    /// The extension was not positive definite; the state was refitted from scratch and needed
    /// this diagonal jitter.
    Refactorised {
        /// The diagonal jitter the refitted factor needed (0 when none).
        jitter: f64,
    },
}

/// The range of the noise scale λ: posterior variances are `(k(x,x) − q)/λ`, so a subnormal λ
/// (found by fuzzing) turned a jitter-sized remainder into ∞.
pub const MIN_LAMBDA: f64 = 1e-150;
pub const MAX_LAMBDA: f64 = 1e150;

/// Rejects inconsistent GP inputs with a message naming the offending value: the checks shared
/// by factorisation, likelihood evaluation and fitting.
pub(crate) fn check_inputs(
    train: &Points,
    targets: &[f64],
    kernel: &Kernel,
    noise: &Noise,
    mean: f64,
    lambda: f64,
) -> Result<(), EngineError> {
    let n = train.rows();
    if train.dim() != kernel.input_dim() {
        return Err(EngineError::invalid(format!(
            "training inputs have {} columns but the kernel takes {}",
            train.dim(),
            kernel.input_dim()
        )));
    }
    super::kernel::scaled_coordinates("training inputs", kernel, train, 0)?;
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
    if !mean.is_finite() {
        return Err(EngineError::invalid(format!("prior mean is {mean}")));
    }
    if !(MIN_LAMBDA..=MAX_LAMBDA).contains(&lambda) {
        return Err(EngineError::invalid(format!(
            "lambda is {lambda} (must lie in [{MIN_LAMBDA:e}, {MAX_LAMBDA:e}])"
        )));
    }
    if !(kernel.diag() / lambda).is_finite() {
        return Err(EngineError::invalid(format!(
            "the prior variance s²/λ = {}/{lambda} overflows",
            kernel.diag()
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
    Ok(())
}
