//! The posterior of the fully Bayesian SAAS model (Eriksson and Jankowiak, UAI 2021) as BoTorch's
//! `SaasPyroModel` states it (BoTorch 0.18.1, `botorch/models/fully_bayesian.py`), over the
//! unconstrained coordinates NUTS moves in.
//!
//! The model, on unit-cube inputs and standardised outputs:
//!
//! ```text
//! outputscale s² ~ Gamma(2, 0.15)          mean m ~ N(0, 1)
//! noise σ² = 1e-4 + ν,  ν ~ Gamma(0.9, 10)
//! τ ~ HalfCauchy(0.1),  z_d ~ HalfCauchy(1),  1/ℓ_d² = τ z_d
//! y ~ N(m·1, s² K_{5/2}(ℓ) + σ² I)
//! ```
//!
//! Here a *small* `τ` shrinks every inverse squared lengthscale towards 0, the paper's and the
//! fully Bayesian model's direction (the MAP model's `τ` runs the other way: `saas_prior.rs`).
//!
//! NUTS samples `θ = (ln s², m, ln ν, ln τ, ln z_1, …, ln z_d)`, each positive site by its
//! logarithm, as NumPyro does: the log density of `θ` is the log joint plus `ln s² + ln ν +
//! ln τ + Σ ln z_d`, the Jacobian of the exponentials ([`PriorSpace::LogParameter`]). With
//! `ln ℓ_d = −½ (ln τ + ln z_d)` the likelihood's slopes chain as `∂/∂ln τ = −½ Σ_d ∂/∂ln ℓ_d`
//! and `∂/∂ln z_d = −½ ∂/∂ln ℓ_d`, and `∂/∂ln ν = ν/σ² · ∂/∂ln σ²`.

use bosweep_core::data::{EngineError, Points};

use super::gp::Noise;
use super::kernel::{Kernel, KernelKind};
use super::likelihood::{Workspace, evaluate_in};
use super::prior::{NormalPrior, Prior, PriorSpace};

/// BoTorch's `MIN_INFERRED_NOISE_LEVEL`: the noise variance's floor, added to its Gamma draw.
pub const MIN_NOISE: f64 = 1e-4;

/// The number of coordinates before the `z_d`: `ln s², m, ln ν, ln τ`.
const LEADING: usize = 4;

/// One draw of the SAAS model's hyperparameters, in model units.
#[derive(Clone, Debug, PartialEq)]
pub struct SaasHyperparameters {
    /// `ℓ_d = 1/√(τ z_d)`, one per input.
    pub lengthscales: Vec<f64>,
    /// The kernel's variance `s²`.
    pub outputscale: f64,
    /// The noise variance `σ² = 1e-4 + ν`.
    pub noise: f64,
    /// The constant mean `m`.
    pub mean: f64,
    /// The global shrinkage `τ`.
    pub shrinkage: f64,
}

impl SaasHyperparameters {
    /// The hyperparameters at unconstrained coordinates `theta` (see the module docs).
    pub fn from_coordinates(theta: &[f64]) -> Self {
        let log_tau = theta[3];
        Self {
            lengthscales: theta[LEADING..]
                .iter()
                .map(|log_z| (-0.5 * (log_tau + log_z)).exp())
                .collect(),
            outputscale: theta[0].exp(),
            noise: MIN_NOISE + theta[2].exp(),
            mean: theta[1],
            shrinkage: log_tau.exp(),
        }
    }

    /// The Matérn-5/2 kernel of these hyperparameters; fails where a lengthscale or the
    /// outputscale leaves what a [`Kernel`] represents.
    pub fn kernel(&self) -> Result<Kernel, EngineError> {
        Kernel::new(
            KernelKind::Matern52,
            self.lengthscales.clone(),
            self.outputscale,
        )
    }
}

/// The log density of the SAAS model's posterior over its unconstrained coordinates, up to the
/// log evidence, for one data set (see the module docs).
#[derive(Debug)]
pub struct SaasPosterior<'a> {
    train: &'a Points,
    targets: &'a [f64],
    workspace: Workspace,
}

/// Why the density could not be evaluated at a point: the kernel matrix was not numerically
/// positive definite, or a hyperparameter left the representable range. NUTS treats such a
/// point as a divergence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unrepresentable;

impl std::fmt::Display for Unrepresentable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the SAAS model's density cannot be evaluated here")
    }
}

impl std::error::Error for Unrepresentable {}

impl<'a> SaasPosterior<'a> {
    /// BoTorch's `SaasPyroModel`'s priors.
    const OUTPUTSCALE: Prior = Prior::Gamma {
        shape: 2.0,
        rate: 0.15,
    };
    const NOISE: Prior = Prior::Gamma {
        shape: 0.9,
        rate: 10.0,
    };
    const GLOBAL: Prior = Prior::HalfCauchy { scale: 0.1 };
    const LOCAL: Prior = Prior::HalfCauchy { scale: 1.0 };
    const MEAN: NormalPrior = NormalPrior {
        mu: 0.0,
        sigma: 1.0,
    };

    /// The posterior given `train` (unit-cube inputs, at least one row) and `targets`
    /// (standardised), checked for shape and finiteness.
    pub fn new(train: &'a Points, targets: &'a [f64]) -> Result<Self, EngineError> {
        if train.rows() == 0 || train.rows() != targets.len() {
            return Err(EngineError::invalid(format!(
                "SAAS posterior: {} inputs and {} targets (need as many, at least one)",
                train.rows(),
                targets.len()
            )));
        }
        if let Some(i) = targets.iter().position(|y| !y.is_finite()) {
            return Err(EngineError::invalid(format!(
                "SAAS posterior: target {i} is {} (must be finite)",
                targets[i]
            )));
        }
        Ok(Self {
            train,
            targets,
            workspace: Workspace::default(),
        })
    }

    /// Number of unconstrained coordinates: four and one per input.
    pub fn dim(&self) -> usize {
        LEADING + self.train.dim()
    }

    /// The log density at `theta`, its gradient written to `gradient` (both of [`Self::dim`]
    /// entries).
    pub fn log_density(
        &mut self,
        theta: &[f64],
        gradient: &mut [f64],
    ) -> Result<f64, Unrepresentable> {
        debug_assert_eq!(theta.len(), self.dim());
        let at = SaasHyperparameters::from_coordinates(theta);
        let kernel = at.kernel().map_err(|_| Unrepresentable)?;
        if !(at.noise.is_finite() && at.mean.is_finite()) {
            return Err(Unrepresentable);
        }
        let lml = evaluate_in(
            &mut self.workspace,
            self.train,
            self.targets,
            &kernel,
            &Noise::Homoscedastic(at.noise),
            at.mean,
            1.0,
            true,
        )
        .ok_or(Unrepresentable)?;
        let space = PriorSpace::LogParameter;
        let (p_scale, g_scale) = Self::OUTPUTSCALE.log_density_log_space(theta[0], space);
        let (p_mean, g_mean) = Self::MEAN.log_density(theta[1]);
        let (p_noise, g_noise) = Self::NOISE.log_density_log_space(theta[2], space);
        let (p_tau, g_tau) = Self::GLOBAL.log_density_log_space(theta[3], space);
        let g = &lml.gradient;
        gradient[0] = g.log_signal_variance + g_scale;
        gradient[1] = g.mean + g_mean;
        gradient[2] = g.log_noise_variance * (theta[2].exp() / at.noise) + g_noise;
        gradient[3] = g_tau - 0.5 * g.log_lengthscales.iter().sum::<f64>();
        let mut value = lml.value + p_scale + p_mean + p_noise + p_tau;
        for ((slot, log_z), g_length) in gradient[LEADING..]
            .iter_mut()
            .zip(&theta[LEADING..])
            .zip(&g.log_lengthscales)
        {
            let (p_local, g_local) = Self::LOCAL.log_density_log_space(*log_z, space);
            value += p_local;
            *slot = g_local - 0.5 * g_length;
        }
        if value.is_finite() && gradient.iter().all(|g| g.is_finite()) {
            Ok(value)
        } else {
            Err(Unrepresentable)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> (Points, Vec<f64>) {
        let x = Points::new(
            vec![
                0.1, 0.9, 0.4, //
                0.7, 0.2, 0.5, //
                0.3, 0.3, 0.8, //
                0.9, 0.6, 0.1, //
                0.5, 0.5, 0.5,
            ],
            3,
        )
        .unwrap();
        (x, vec![0.3, -1.2, 0.8, 1.5, -1.4])
    }

    #[test]
    fn the_gradient_matches_central_differences() {
        let (x, y) = data();
        let mut posterior = SaasPosterior::new(&x, &y).unwrap();
        let theta = [0.4, -0.2, -3.0, -1.5, 0.7, -0.9, 2.0];
        let mut gradient = vec![0.0; 7];
        posterior.log_density(&theta, &mut gradient).unwrap();
        let h = 1e-6;
        let mut scratch = vec![0.0; 7];
        for i in 0..7 {
            let (mut up, mut down) = (theta, theta);
            up[i] += h;
            down[i] -= h;
            let numeric = (posterior.log_density(&up, &mut scratch).unwrap()
                - posterior.log_density(&down, &mut scratch).unwrap())
                / (2.0 * h);
            assert!(
                (gradient[i] - numeric).abs() < 1e-6 * (1.0 + numeric.abs()),
                "coordinate {i}: {} vs {numeric}",
                gradient[i]
            );
        }
    }

    #[test]
    fn coordinates_map_to_botorchs_hyperparameters() {
        let theta = [2.0f64.ln(), 0.3, 0.01f64.ln(), 0.25f64.ln(), 4.0f64.ln()];
        let at = SaasHyperparameters::from_coordinates(&theta);
        assert!((at.outputscale - 2.0).abs() < 1e-15);
        assert!((at.noise - (1e-4 + 0.01)).abs() < 1e-15);
        assert!((at.shrinkage - 0.25).abs() < 1e-15);
        // 1/ℓ² = τ z = 1.
        assert!((at.lengthscales[0] - 1.0).abs() < 1e-15);
        assert_eq!(at.mean, 0.3);
    }

    #[test]
    fn a_hyperparameter_beyond_representation_is_refused_not_propagated() {
        let (x, y) = data();
        let mut posterior = SaasPosterior::new(&x, &y).unwrap();
        let mut gradient = vec![0.0; 7];
        let theta = [0.0, 0.0, -3.0, -1.0, 800.0, 0.0, 0.0];
        assert_eq!(
            posterior.log_density(&theta, &mut gradient),
            Err(Unrepresentable)
        );
        let bad = [1.0, f64::NAN];
        assert!(
            SaasPosterior::new(&x, &bad)
                .unwrap_err()
                .to_string()
                .contains("SAAS posterior: 5 inputs and 2 targets")
        );
    }
}
