//! The log prior of a MAP fit at one set of hyperparameters and its gradient in the fit's
//! coordinates (log parameters, the mean as it is): what [`super::fit`] adds to the log marginal
//! likelihood, public so that a check against another library can evaluate the same objective
//! at that library's optimum.

use bosweep_core::data::EngineError;

use super::priors::Priors;

/// Where to evaluate a log prior. A variance or the mean that is not fitted is `None`: its prior
/// does not apply, as in the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogHyperparameters<'a> {
    /// `ln ℓ_d`, one per input dimension.
    pub log_lengthscales: &'a [f64],
    /// `ln τ`, the SAAS prior's global shrinkage: given exactly when the priors have a SAAS
    /// prior.
    pub log_shrinkage: Option<f64>,
    /// `ln s²`, where fitted.
    pub log_signal_variance: Option<f64>,
    /// `ln σ²`, where fitted.
    pub log_noise_variance: Option<f64>,
    /// The constant mean, where fitted.
    pub mean: Option<f64>,
}

/// A log prior and its derivatives (zero for what is not fitted or has no prior).
#[derive(Clone, Debug, PartialEq)]
pub struct LogPrior {
    /// `ln p(θ)` in the priors' space.
    pub value: f64,
    /// `∂/∂ ln ℓ_d`.
    pub log_lengthscales: Vec<f64>,
    /// `∂/∂ ln τ`.
    pub log_shrinkage: f64,
    /// `∂/∂ ln s²`.
    pub log_signal_variance: f64,
    /// `∂/∂ ln σ²`.
    pub log_noise_variance: f64,
    /// `∂/∂m`.
    pub mean: f64,
}

impl Priors {
    /// The log prior at `at` and its derivatives: the lengthscale prior on every lengthscale,
    /// the SAAS prior on the lengthscales and the shrinkage, and each variance's and the mean's
    /// prior where that quantity is given.
    ///
    /// Fails when a shrinkage is given without a SAAS prior or a SAAS prior without one.
    pub fn log_density(&self, at: &LogHyperparameters<'_>) -> Result<LogPrior, EngineError> {
        let space = self.space;
        let mut prior = LogPrior {
            value: 0.0,
            log_lengthscales: vec![0.0; at.log_lengthscales.len()],
            log_shrinkage: 0.0,
            log_signal_variance: 0.0,
            log_noise_variance: 0.0,
            mean: 0.0,
        };
        for (phi, g) in at.log_lengthscales.iter().zip(&mut prior.log_lengthscales) {
            let (v, d) = Self::term(&self.lengthscale, *phi, space);
            prior.value += v;
            *g += d;
        }
        match (&self.saas, at.log_shrinkage) {
            (Some(saas), Some(log_shrinkage)) => {
                let term = saas.log_density(log_shrinkage, at.log_lengthscales, space);
                prior.value += term.value;
                prior.log_shrinkage = term.log_shrinkage;
                for (g, d) in prior.log_lengthscales.iter_mut().zip(term.log_lengthscales) {
                    *g += d;
                }
            }
            (None, None) => {}
            (Some(_), None) => {
                return Err(EngineError::invalid(
                    "the SAAS prior needs the global shrinkage τ it is evaluated at",
                ));
            }
            (None, Some(_)) => {
                return Err(EngineError::invalid(
                    "a global shrinkage τ is given but the priors have no SAAS prior",
                ));
            }
        }
        if let Some(phi) = at.log_signal_variance {
            let (v, d) = Self::term(&self.signal_variance, phi, space);
            prior.value += v;
            prior.log_signal_variance = d;
        }
        if let Some(phi) = at.log_noise_variance {
            let (v, d) = Self::term(&self.noise_variance, phi, space);
            prior.value += v;
            prior.log_noise_variance = d;
        }
        if let (Some(normal), Some(m)) = (&self.mean, at.mean) {
            let (v, d) = normal.log_density(m);
            prior.value += v;
            prior.mean = d;
        }
        Ok(prior)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prior::{NormalPrior, Prior, PriorSpace};

    #[test]
    fn botorchs_saas_priors_add_up_term_by_term() {
        let priors = Priors::botorch_saas();
        let (ls, tau, s2, noise, mean) = ([0.4f64, 30.0], 0.01f64, 3.0f64, 0.02f64, 0.3);
        let phis: Vec<f64> = ls.iter().map(|l| l.ln()).collect();
        let got = priors
            .log_density(&LogHyperparameters {
                log_lengthscales: &phis,
                log_shrinkage: Some(tau.ln()),
                log_signal_variance: Some(s2.ln()),
                log_noise_variance: Some(noise.ln()),
                mean: Some(mean),
            })
            .unwrap();
        let half_cauchy = |h: f64, s: f64| {
            (2.0 / std::f64::consts::PI).ln() - s.ln() - (1.0 + (h / s).powi(2)).ln()
        };
        // Gamma(0.9, 10) at σ²: 0.9 ln 10 − lnΓ(0.9) − 0.1 ln σ² − 10σ²; lnΓ(0.9) =
        // ln 1.068628702119319.
        let gamma = 0.9 * 10f64.ln() - 1.068_628_702_119_319f64.ln() - 0.1 * noise.ln() - 0.2;
        let normal = -0.5 * (2.0 * std::f64::consts::PI).ln() - 0.5 * mean * mean;
        let expect = half_cauchy(tau, 0.1)
            + ls.iter()
                .map(|l| half_cauchy(tau / (l * l), 1.0))
                .sum::<f64>()
            + gamma
            + normal;
        assert!(
            (got.value - expect).abs() < 1e-12,
            "{} vs {expect}",
            got.value
        );
        // No prior on the outputscale; the mean's derivative is −m.
        assert_eq!(got.log_signal_variance, 0.0);
        assert!((got.mean + mean).abs() < 1e-15);
        assert!((got.log_noise_variance - (-0.1 - 10.0 * noise)).abs() < 1e-13);
    }

    #[test]
    fn quantities_not_fitted_carry_no_prior() {
        let priors = Priors {
            lengthscale: Some(Prior::gamma(3.0, 6.0).unwrap()),
            signal_variance: Some(Prior::gamma(2.0, 0.15).unwrap()),
            noise_variance: Some(Prior::gamma(1.1, 0.05).unwrap()),
            mean: Some(NormalPrior::new(0.0, 1.0).unwrap()),
            space: PriorSpace::Parameter,
            ..Priors::default()
        };
        let phis = [0.1f64.ln()];
        let lengthscales_only = priors
            .log_density(&LogHyperparameters {
                log_lengthscales: &phis,
                log_shrinkage: None,
                log_signal_variance: None,
                log_noise_variance: None,
                mean: None,
            })
            .unwrap();
        let (expect, _) = Prior::gamma(3.0, 6.0)
            .unwrap()
            .log_density_log_space(phis[0], PriorSpace::Parameter);
        assert_eq!(lengthscales_only.value, expect);
        assert_eq!(lengthscales_only.mean, 0.0);
    }

    #[test]
    fn a_shrinkage_and_a_saas_prior_come_together() {
        let phis = [0.0];
        let at = |log_shrinkage| LogHyperparameters {
            log_lengthscales: &phis,
            log_shrinkage,
            log_signal_variance: None,
            log_noise_variance: None,
            mean: None,
        };
        let missing = Priors::botorch_saas().log_density(&at(None)).unwrap_err();
        assert!(
            missing.to_string().contains("needs the global shrinkage"),
            "{missing}"
        );
        let stray = Priors::botorch().log_density(&at(Some(0.0))).unwrap_err();
        assert!(stray.to_string().contains("no SAAS prior"), "{stray}");
    }
}
