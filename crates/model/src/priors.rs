//! The priors of a MAP fit, one per kind of hyperparameter ([`Priors`]), and the presets the
//! methods fit with (BoTorch's, UHE-BO's, the SAAS model's). The densities themselves are in
//! `prior.rs` and `saas_prior.rs`.

use bosweep_core::data::EngineError;

use super::prior::{NormalPrior, Prior, PriorSpace};
use super::saas_prior::SaasPrior;

/// The priors of a MAP fit: one prior shared by every lengthscale and/or the SAAS prior on them,
/// one on the signal variance and one on the noise variance (each used only when that variance
/// is fitted), and one on the constant mean (used only when the mean is fitted). `None` is a flat
/// prior (nothing added).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Priors {
    /// On every lengthscale.
    pub lengthscale: Option<Prior>,
    /// The SAAS prior on the lengthscales jointly with its global shrinkage τ, a hyperparameter
    /// it adds to the fit.
    pub saas: Option<SaasPrior>,
    /// On the signal variance.
    pub signal_variance: Option<Prior>,
    /// On the noise variance.
    pub noise_variance: Option<Prior>,
    /// On the constant mean.
    pub mean: Option<NormalPrior>,
    /// Whether the densities are of the log parameters or of the parameters.
    pub space: PriorSpace,
}

impl Priors {
    /// BoTorch's `SingleTaskGP` priors of late 2023, those of the GP in Huang et al.'s published
    /// SBO-KDE and DRBO-KDE code (AAAI 2024): lengthscales
    /// Gamma(3, 6), outputscale Gamma(2, 0.15), noise Gamma(1.1, 0.05), as densities of the
    /// parameters (no Jacobian), like `fit_gpytorch_mll`. Pair with a noise lower bound of 1e-4.
    pub fn botorch() -> Self {
        Self {
            lengthscale: Some(Prior::Gamma {
                shape: 3.0,
                rate: 6.0,
            }),
            signal_variance: Some(Prior::Gamma {
                shape: 2.0,
                rate: 0.15,
            }),
            noise_variance: Some(Prior::Gamma {
                shape: 1.1,
                rate: 0.05,
            }),
            space: PriorSpace::Parameter,
            ..Self::default()
        }
    }

    /// BoTorch's dimension-scaled priors (Hvarfner et al. 2024, "Vanilla Bayesian optimization
    /// performs great in high dimensions"; BoTorch's `get_covar_module_with_dim_scaled_prior` and
    /// `get_gaussian_likelihood_with_lognormal_prior`): lengthscales LogNormal(√2 + ln(d)/2, √3),
    /// whose median `e^{√2}·√d` grows with the dimension `d` as typical distances do, outputscale
    /// Gamma(2, 0.15), noise LogNormal(−4, 1), as densities of the parameters like
    /// `fit_gpytorch_mll`. Pair with lengthscales of at least 0.025 and noise of at least 1e-4.
    pub fn botorch_dimension_scaled(dim: usize) -> Self {
        Self {
            lengthscale: Some(Prior::LogNormal {
                mu: std::f64::consts::SQRT_2 + 0.5 * (dim.max(1) as f64).ln(),
                sigma: 3f64.sqrt(),
            }),
            signal_variance: Some(Prior::Gamma {
                shape: 2.0,
                rate: 0.15,
            }),
            noise_variance: Some(Prior::LogNormal {
                mu: -4.0,
                sigma: 1.0,
            }),
            space: PriorSpace::Parameter,
            ..Self::default()
        }
    }

    /// BoTorch's MAP SAAS model (`get_map_saas_model` in `botorch/models/map_saas.py`, 0.18.1):
    /// the SAAS prior of [`SaasPrior::botorch`] on the lengthscales, no prior on the outputscale,
    /// noise Gamma(0.9, 10) (`get_gaussian_likelihood_with_gamma_prior`), the constant mean
    /// N(0, 1) (`get_mean_module_with_normal_prior`), as densities of the parameters like
    /// `fit_gpytorch_mll`. Pair with lengthscales in [0.01, 1e4], an outputscale in [1e-2, 1e4]
    /// and noise in [1e-4, 1].
    pub fn botorch_saas() -> Self {
        Self {
            saas: Some(SaasPrior::botorch()),
            noise_variance: Some(Prior::Gamma {
                shape: 0.9,
                rate: 10.0,
            }),
            mean: Some(NormalPrior {
                mu: 0.0,
                sigma: 1.0,
            }),
            space: PriorSpace::Parameter,
            ..Self::default()
        }
    }

    /// UHE-BO's priors (Ha et al. 2023, Appendix C: GPy's Gamma(1e-3, 10), shape and rate, on
    /// every hyperparameter), as densities of `ln h` (Jacobian included, as GPy adds the Jacobian
    /// of its positivity transform).
    pub fn uhe_bo() -> Self {
        let g = Prior::Gamma {
            shape: 1e-3,
            rate: 10.0,
        };
        Self {
            lengthscale: Some(g),
            signal_variance: Some(g),
            noise_variance: Some(g),
            space: PriorSpace::LogParameter,
            ..Self::default()
        }
    }

    /// Checks every prior's parameters (finite, positive where they must be, the SAAS prior's
    /// shrinkage bounds and start).
    pub fn validate(&self) -> Result<(), EngineError> {
        for p in [
            &self.lengthscale,
            &self.signal_variance,
            &self.noise_variance,
        ]
        .into_iter()
        .flatten()
        {
            p.validate()?;
        }
        if let Some(saas) = &self.saas {
            saas.validate()?;
        }
        if let Some(mean) = &self.mean {
            mean.validate()?;
        }
        Ok(())
    }

    /// Adds `(value, d/dφ)` of an optional prior at `φ`.
    pub fn term(prior: &Option<Prior>, phi: f64, space: PriorSpace) -> (f64, f64) {
        prior.map_or((0.0, 0.0), |p| p.log_density_log_space(phi, space))
    }
}
