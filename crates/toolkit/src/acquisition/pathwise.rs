//! Sample paths of a GP posterior by pathwise conditioning (Wilson, Borovitskiy, Terenin,
//! Mostowsky and Deisenroth, ICML 2020; BoTorch's `botorch.sampling.pathwise`): a prior path
//! from random Fourier features, updated by Matheron's rule, so that Thompson sampling needs
//! no joint posterior over its candidates. The random draws and the update are made here, in
//! f64 on the CPU, from the caller's random stream (a run repeats from its seed); the engine
//! evaluates the paths over the candidates and keeps each one's maximum
//! ([`Engine::sample_path_maxima`]).
//!
//! A [`GpState`] is the posterior of the prior `f − m ~ GP(0, k/λ)` given `y = f(X) + e`,
//! `e ~ N(0, Σ)`, factorised as `L Lᵀ = K + λΣ + jitter·I` (its targets in the units it was
//! fitted in: standardised by the toolkit's surrogate). A path is
//! `f(x) = m + f̃(x) + k(x, X) v` with
//! - `f̃(x) = √(2 s² / F) Σ_f w_f cos(ω_fᵀ (x/ℓ) + b_f)`, `b ~ U(0, 2π)`, `w ~ N(0, I/λ)`: a
//!   prior path of covariance `k/λ` as `F` grows (Rahimi and Recht, NeurIPS 2007), its
//!   frequencies `ω` from the kernel's spectral density in scaled coordinates: standard normal
//!   for the squared exponential, multivariate Student-t with `2ν` degrees of freedom for
//!   Matérn-ν (`z / √g`, `z ~ N(0, I)`, `g ~ Gamma(ν, rate ν)`, as BoTorch's and GPyTorch's
//!   Matérn features draw them);
//! - `v = (K + λΣ + jitter·I)⁻¹ (y − m − f̃(X) − ε) = α − L⁻ᵀ L⁻¹ (f̃(X) + ε)`,
//!   `ε ~ N(0, Σ + (jitter/λ) I)`: Matheron's rule with the noise the factor includes, so that
//!   the paths' mean and covariance are exactly `GpState`'s posterior's where the features'
//!   prior is exact.

use nalgebra::DMatrix;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Gamma, StandardNormal};

use bosweep_engine::{Engine, EngineError, PathMaximum, Points, SamplePaths};
use bosweep_model::{GpState, Kernel, KernelKind, Noise};

/// Random Fourier features per path unless told otherwise: BoTorch's default
/// (`gen_kernel_feature_map`'s `num_random_features = 1024`; BoTorch pairs sines and cosines,
/// 512 frequencies, where these are 1024 cosines with random phases).
pub const DEFAULT_PATH_FEATURES: usize = 1024;

/// `paths` sample paths of one GP's posterior sharing one random Fourier basis.
#[derive(Clone, Debug)]
pub struct PosteriorPaths<'g> {
    gp: &'g GpState,
    frequencies: Points,
    phases: Vec<f64>,
    prior_weights: Vec<f64>,
    update_weights: Vec<f64>,
    paths: usize,
}

impl<'g> PosteriorPaths<'g> {
    /// Draws `paths` paths of `gp`'s posterior with `features` random Fourier features, in this
    /// order from `rng`: the frequencies (row by row, the Matérn kernels' scale draw after each
    /// row's normals), the phases, the prior weights, the observation noise. Refuses kernels
    /// without a spectral density ([`SamplePaths::supports`]) or with time decay.
    pub fn draw(
        gp: &'g GpState,
        features: usize,
        paths: usize,
        rng: &mut ChaCha8Rng,
    ) -> Result<Self, EngineError> {
        let kernel = gp.kernel();
        if kernel.time_decay().is_some() {
            return Err(EngineError::invalid(
                "sample paths take a kernel without time decay",
            ));
        }
        if features == 0 || paths == 0 {
            return Err(EngineError::invalid(format!(
                "sample paths need at least one feature and one path (got {features} features, \
                 {paths} paths)"
            )));
        }
        let frequencies = draw_frequencies(kernel, features, rng)?;
        let phases: Vec<f64> = (0..features)
            .map(|_| rng.random::<f64>() * std::f64::consts::TAU)
            .collect();
        let prior_scale = 1.0 / gp.lambda().sqrt();
        let prior_weights: Vec<f64> = (0..features * paths)
            .map(|_| prior_scale * normal(rng))
            .collect();
        let mut out = Self {
            gp,
            frequencies,
            phases,
            prior_weights,
            update_weights: Vec::new(),
            paths,
        };
        out.update_weights = out.matheron_update(rng);
        Ok(out)
    }

    /// The engine's view of the paths.
    pub fn inputs(&self) -> SamplePaths<'_> {
        SamplePaths {
            kernel: self.gp.kernel(),
            frequencies: &self.frequencies,
            phases: &self.phases,
            prior_weights: &self.prior_weights,
            train: self.gp.train(),
            update_weights: &self.update_weights,
            mean: self.gp.mean(),
            paths: self.paths,
        }
    }

    /// Each path's maximum over `candidates` not in `excluded`, on `engine`.
    pub fn maxima(
        &self,
        engine: &dyn Engine,
        candidates: &Points,
        excluded: &[usize],
    ) -> Result<Vec<PathMaximum>, EngineError> {
        engine.sample_path_maxima(&self.inputs(), candidates, excluded)
    }

    /// The update weights `v = α − L⁻ᵀ L⁻¹ (f̃(X) + ε)`, `n × S` row-major, drawing `ε`.
    fn matheron_update(&self, rng: &mut ChaCha8Rng) -> Vec<f64> {
        let gp = self.gp;
        let (n, s) = (gp.train().rows(), self.paths);
        if n == 0 {
            return Vec::new();
        }
        let noise_scale = |i: usize| {
            let variance = match gp.noise() {
                Noise::Homoscedastic(v) => *v,
                Noise::PerPoint(v) => v[i],
            };
            (variance + gp.jitter() / gp.lambda()).sqrt()
        };
        let prior = self.prior_at_train();
        let mut residual = DMatrix::<f64>::zeros(n, s);
        for i in 0..n {
            let scale = noise_scale(i);
            for p in 0..s {
                residual[(i, p)] = prior[i * s + p] + scale * normal(rng);
            }
        }
        let linv = gp.linv();
        let solved = linv.tr_mul(&(linv * residual));
        let alpha = gp.alpha();
        (0..n)
            .flat_map(|i| (0..s).map(move |p| (i, p)))
            .map(|(i, p)| alpha[i] - solved[(i, p)])
            .collect()
    }

    /// `f̃(X)`, `n × S` row-major: the prior paths at the training inputs.
    fn prior_at_train(&self) -> Vec<f64> {
        let gp = self.gp;
        let s = self.paths;
        let amplitude = (2.0 * gp.kernel().signal_variance() / self.phases.len() as f64).sqrt();
        let inv_ls: Vec<f64> = gp.kernel().lengthscales().iter().map(|l| 1.0 / l).collect();
        let mut out = Vec::with_capacity(gp.train().rows() * s);
        for x in gp.train().iter() {
            let scaled: Vec<f64> = x.iter().zip(&inv_ls).map(|(v, il)| v * il).collect();
            let mut sums = vec![0.0; s];
            for ((omega, b), w) in self
                .frequencies
                .iter()
                .zip(&self.phases)
                .zip(self.prior_weights.chunks_exact(s))
            {
                let theta = b + omega.iter().zip(&scaled).map(|(o, x)| o * x).sum::<f64>();
                let c = theta.cos();
                for (sum, w) in sums.iter_mut().zip(w) {
                    *sum += w * c;
                }
            }
            out.extend(sums.iter().map(|sum| amplitude * sum));
        }
        out
    }
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    StandardNormal.sample(rng)
}

/// `features` frequencies from `kernel`'s spectral density in scaled coordinates, `F × d`.
fn draw_frequencies(
    kernel: &Kernel,
    features: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Points, EngineError> {
    let nu = match kernel.kind() {
        KernelKind::SquaredExponential => None,
        KernelKind::Matern32 => Some(1.5),
        KernelKind::Matern52 => Some(2.5),
        other => {
            return Err(EngineError::invalid(format!(
                "sample paths need a kernel with a spectral density (se, matern32 or \
                 matern52), not {other:?}"
            )));
        }
    };
    let scale = nu
        .map(|nu| Gamma::new(nu, 1.0 / nu))
        .transpose()
        .map_err(|e| EngineError::invalid(format!("Matérn spectral density: {e}")))?;
    let dim = kernel.input_dim();
    let mut values = Vec::with_capacity(features * dim);
    for _ in 0..features {
        let start = values.len();
        values.extend((0..dim).map(|_| normal(rng)));
        if let Some(gamma) = &scale {
            let g: f64 = gamma.sample(rng);
            let factor = 1.0 / g.sqrt();
            values[start..].iter_mut().for_each(|v| *v *= factor);
        }
    }
    Points::new(values, dim)
}
