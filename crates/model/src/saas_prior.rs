//! The sparse axis-aligned subspace (SAAS) prior (Eriksson and Jankowiak, UAI 2021) as BoTorch's
//! MAP model places it (`add_saas_prior` in `botorch/models/map_saas.py`, 0.18.1): a global
//! shrinkage `τ ~ HalfCauchy(0.1)`, itself a hyperparameter of the fit, and
//! `τ / ℓ_d² ~ HalfCauchy(1)` for every lengthscale `ℓ_d`.
//!
//! With `φ_τ = ln τ`, `φ_d = ln ℓ_d` and `ψ_d = ln(τ/ℓ_d²) = φ_τ − 2φ_d`, the log prior is
//! `ln p_global(τ) + Σ_d ln p_local(τ/ℓ_d²)`, each term [`Prior::log_density_log_space`] of its
//! log argument, so that the derivatives chain as `∂/∂φ_τ = g_τ + Σ_d g_d` and
//! `∂/∂φ_d = −2 g_d`. In [`PriorSpace::Parameter`] (BoTorch's: GPyTorch evaluates each density at
//! the parameter's value, with no Jacobian of the log transform) that is all. In
//! [`PriorSpace::LogParameter`] the density is that of `(φ_τ, φ_1, …, φ_d)`: the map to
//! `(τ, τ/ℓ_1², …)` is triangular with Jacobian `τ ∏_d 2τ/ℓ_d²`, whose logarithm is the `φ_τ` and
//! `ψ_d` each term adds there plus the constant `d ln 2` added here.
//!
//! The direction of `τ` is BoTorch's MAP model's, the reverse of the paper's: there (and in
//! BoTorch's fully Bayesian `SaasPyroModel`) `1/ℓ_d² = τ'·z_d` with `z_d ~ HalfCauchy(1)`, so a
//! small `τ'` shrinks; here `1/ℓ_d² = z_d/τ`, so a large `τ` does. In BoTorch's parameter space
//! both terms decrease in `τ` everywhere and `τ` does not enter the likelihood, so the MAP
//! estimate of `τ` is its lower bound (1e-3 in BoTorch), where `τ/ℓ_d² ~ HalfCauchy(1)`
//! penalises lengthscales below about √τ ≈ 0.03 and leaves longer ones to the likelihood.

//!
//! # BoTorch's MAP SAAS model and its defaults
//!
//! What `get_fitted_map_saas_model(train_X, train_Y)` builds and fits in BoTorch 0.18.1, and
//! where bosweep has it (`fit = map-saas`, `GpSettings::saas_map`, the `saasbo-map` algorithm):
//!
//! * kernel: `ScaleKernel(MaternKernel(nu=2.5, ard_num_dims=d))` (`get_map_saas_model`,
//!   `botorch/models/map_saas.py`): Matérn-5/2 ARD with an outputscale;
//! * outputscale: no prior; `LogTransformedInterval(1e-2, 1e4, initial_value=10)`
//!   (`get_map_saas_model`): optimised as its log within [1e-2, 1e4], starting at 10;
//! * lengthscales: no prior of their own; `LogTransformedInterval(0.01, 1e4, initial_value=1)`
//!   (`add_saas_prior`, `log_scale=True`);
//! * the SAAS prior (`add_saas_prior` with `tau=None`, `SaasPriorHelper`): `HalfCauchyPrior(1)`
//!   on the closure `tau / lengthscale²` of every lengthscale, `HalfCauchyPrior(0.1)` on `tau`,
//!   `tau` a parameter `raw_tau` with `LogTransformedInterval(1e-3, 10, initial_value=0.1)`;
//!   [`SaasPrior::botorch`];
//! * mean: `ConstantMean` with `NormalPrior(0, 1)` and `Interval(-10, 10, initial_value=0,
//!   transform=None)` (`get_mean_module_with_normal_prior`), a bound bosweep does not impose
//!   (the prior keeps a standardised mean far inside it);
//! * noise: `GaussianLikelihood` with `GammaPrior(0.9, 10)` and
//!   `LogTransformedInterval(1e-4, 1, initial_value=1e-2)`
//!   (`get_gaussian_likelihood_with_gamma_prior`; its docstring's upper bound 0.1 is not the
//!   code's 1);
//! * transforms: none unless given (`get_fitted_map_saas_model`'s `input_transform` and
//!   `outcome_transform` default to `None`, which `SingleTaskGP` takes as no transform); the
//!   mean's N(0, 1) prior assumes standardised outcomes, as bosweep's models have them;
//! * objective: `ExactMarginalLogLikelihood`, the log marginal likelihood plus every prior's
//!   `log_prob` at the parameter's value (no Jacobian of the log transform:
//!   [`PriorSpace::Parameter`]), divided by n;
//! * fit: `fit_gpytorch_mll` (`botorch/fit.py`), one attempt from the initial values above by
//!   `fit_gpytorch_mll_scipy`: scipy's L-BFGS-B on the log parameters within the log bounds,
//!   scipy's defaults (`maxcor` 10, `ftol` 2.2e-9, `gtol` 1e-5, `maxiter` 15000, where bosweep
//!   stops at 200); up to 4 retries from `sample_all_priors` draws only when an attempt fails
//!   or warns. No restarts, no grid of τ, no ensemble (`EnsembleMapSaasSingleTaskGP` and
//!   `AdditiveMapSaasSingleTaskGP`, models with τ fixed by draws, are other models).

use bosweep_core::data::EngineError;

use super::log_space::Bounds;
use super::prior::{Prior, PriorSpace};

/// The SAAS prior and the global shrinkage `τ` it brings to a fit (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SaasPrior {
    /// The prior on the global shrinkage `τ`.
    pub global: Prior,
    /// The prior on every `τ / ℓ_d²`.
    pub local: Prior,
    /// Where `τ` may go.
    pub bounds: Bounds,
    /// Where a fit starts `τ` (also with a warm start, which carries no `τ`).
    pub initial: f64,
}

/// The log SAAS prior at one point and its derivatives with respect to the log parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct SaasLogDensity {
    /// `ln p(τ, ℓ)` in the chosen space.
    pub value: f64,
    /// `∂/∂ ln τ`.
    pub log_shrinkage: f64,
    /// `∂/∂ ln ℓ_d`, one per lengthscale.
    pub log_lengthscales: Vec<f64>,
}

impl SaasPrior {
    /// BoTorch's (`add_saas_prior` with `tau=None`): `τ ~ HalfCauchy(0.1)` in [1e-3, 10] starting
    /// at 0.1, `τ / ℓ_d² ~ HalfCauchy(1)`.
    pub fn botorch() -> Self {
        Self {
            global: Prior::HalfCauchy { scale: 0.1 },
            local: Prior::HalfCauchy { scale: 1.0 },
            bounds: Bounds::new(1e-3, 10.0),
            initial: 0.1,
        }
    }

    /// Checks both densities, the bounds of `τ` and that its start lies within them.
    pub fn validate(&self) -> Result<(), EngineError> {
        self.global.validate()?;
        self.local.validate()?;
        self.bounds.validate("SAAS shrinkage")?;
        if !(self.initial >= self.bounds.lower && self.initial <= self.bounds.upper) {
            return Err(EngineError::invalid(format!(
                "SAAS shrinkage starts at {}, outside its bounds [{}, {}]",
                self.initial, self.bounds.lower, self.bounds.upper
            )));
        }
        Ok(())
    }

    /// The log prior at `ln τ = log_shrinkage` and `ln ℓ_d = log_lengthscales[d]` in `space`,
    /// with its derivatives (see the module docs).
    pub fn log_density(
        &self,
        log_shrinkage: f64,
        log_lengthscales: &[f64],
        space: PriorSpace,
    ) -> SaasLogDensity {
        let (mut value, mut d_shrinkage) = self.global.log_density_log_space(log_shrinkage, space);
        let log_lengthscales = log_lengthscales
            .iter()
            .map(|phi| {
                let (v, g) = self
                    .local
                    .log_density_log_space(log_shrinkage - 2.0 * phi, space);
                value += v;
                d_shrinkage += g;
                -2.0 * g
            })
            .collect::<Vec<_>>();
        if space == PriorSpace::LogParameter {
            value += log_lengthscales.len() as f64 * std::f64::consts::LN_2;
        }
        SaasLogDensity {
            value,
            log_shrinkage: d_shrinkage,
            log_lengthscales,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ln HalfCauchy(h; s) = ln 2 − ln π − ln s − ln(1 + (h/s)²), written out.
    fn half_cauchy(h: f64, s: f64) -> f64 {
        (2.0 / std::f64::consts::PI).ln() - s.ln() - (1.0 + (h / s).powi(2)).ln()
    }

    #[test]
    fn the_parameter_space_density_is_the_sum_of_botorchs_half_cauchy_terms() {
        let saas = SaasPrior::botorch();
        let (tau, ls) = (0.05f64, [0.5f64, 2.0, 0.1]);
        let phis: Vec<f64> = ls.iter().map(|l| l.ln()).collect();
        let got = saas.log_density(tau.ln(), &phis, PriorSpace::Parameter);
        let expect = half_cauchy(tau, 0.1)
            + ls.iter()
                .map(|l| half_cauchy(tau / (l * l), 1.0))
                .sum::<f64>();
        assert!(
            (got.value - expect).abs() < 1e-13,
            "{} vs {expect}",
            got.value
        );
    }

    #[test]
    fn the_log_parameter_space_adds_the_jacobian_of_the_triangular_map() {
        let saas = SaasPrior::botorch();
        let (tau, ls) = (0.3f64, [0.7f64, 4.0]);
        let phis: Vec<f64> = ls.iter().map(|l| l.ln()).collect();
        let plain = saas.log_density(tau.ln(), &phis, PriorSpace::Parameter);
        let logs = saas.log_density(tau.ln(), &phis, PriorSpace::LogParameter);
        // |∂(τ, τ/ℓ_1², τ/ℓ_2²)/∂(ln τ, ln ℓ_1, ln ℓ_2)| = τ · (2τ/ℓ_1²) · (2τ/ℓ_2²).
        let jacobian = tau * ls.iter().map(|l| 2.0 * tau / (l * l)).product::<f64>();
        assert!((logs.value - plain.value - jacobian.ln()).abs() < 1e-13);
    }

    #[test]
    fn derivatives_match_central_differences() {
        let saas = SaasPrior::botorch();
        let phis = [0.3f64, -1.2, 2.5];
        let phi_tau = (0.02f64).ln();
        let h = 1e-6;
        for space in [PriorSpace::Parameter, PriorSpace::LogParameter] {
            let at = saas.log_density(phi_tau, &phis, space);
            let value = |t: f64, p: &[f64]| saas.log_density(t, p, space).value;
            let numeric = (value(phi_tau + h, &phis) - value(phi_tau - h, &phis)) / (2.0 * h);
            assert!((at.log_shrinkage - numeric).abs() < 1e-8, "{space:?}");
            for d in 0..phis.len() {
                let (mut up, mut down) = (phis, phis);
                up[d] += h;
                down[d] -= h;
                let numeric = (value(phi_tau, &up) - value(phi_tau, &down)) / (2.0 * h);
                assert!(
                    (at.log_lengthscales[d] - numeric).abs() < 1e-8,
                    "{space:?} {d}"
                );
            }
        }
    }

    #[test]
    fn the_parameter_space_density_decreases_in_the_shrinkage_everywhere() {
        // Why the MAP estimate of τ is its lower bound (module docs).
        let saas = SaasPrior::botorch();
        for log_tau in [-7.0, -3.0, 0.0, 2.0] {
            for phi in [-4.0, 0.0, 9.0] {
                let at = saas.log_density(log_tau, &[phi], PriorSpace::Parameter);
                assert!(at.log_shrinkage < 0.0, "ln τ = {log_tau}, ln ℓ = {phi}");
            }
        }
    }

    #[test]
    fn bad_shrinkage_bounds_or_starts_are_refused() {
        let outside = SaasPrior {
            initial: 20.0,
            ..SaasPrior::botorch()
        };
        let error = outside.validate().unwrap_err().to_string();
        assert!(
            error.contains("SAAS shrinkage starts at 20, outside its bounds [0.001, 10]"),
            "{error}"
        );
        let reversed = SaasPrior {
            bounds: Bounds::new(1.0, 0.5),
            ..SaasPrior::botorch()
        };
        assert!(reversed.validate().is_err());
        let bad_scale = SaasPrior {
            local: Prior::HalfCauchy { scale: -1.0 },
            ..SaasPrior::botorch()
        };
        assert!(bad_scale.validate().is_err());
        assert!(SaasPrior::botorch().validate().is_ok());
    }
}
