//! Priors on the positive GP hyperparameters (lengthscales, signal variance, noise variance, the
//! SAAS prior's global shrinkage) and on the constant mean for MAP fitting, evaluated in the
//! log-parameter space the optimiser works in.
//!
//! A prior is a density `p(h)` on the parameter `h > 0`. The optimiser moves `φ = ln h`; the log
//! prior it adds to the log marginal likelihood is either
//!
//! * [`PriorSpace::LogParameter`] (the default): the density of `φ`, `ln p(e^φ) + φ` (Jacobian
//!   included). This is a proper, smooth density on `φ` even where `p(h)` diverges at 0 (Gamma
//!   shapes below 1, as UHE-BO's Gamma(1e-3, 10)), and its maximiser does not depend on the
//!   parametrisation of the optimiser;
//! * [`PriorSpace::Parameter`]: `ln p(e^φ)` (no Jacobian), which is what GPyTorch/BoTorch's
//!   `fit_gpytorch_mll` maximises (BoTorch's `SingleTaskGP` starts the noise at 2.0, the mode of
//!   its Gamma(1.1, 0.05) prior on the noise variance itself).

use bosweep_core::data::EngineError;

use super::log_space::{sigmoid, softplus};

const HALF_LN_2PI: f64 = 0.918_938_533_204_672_7;
/// `ln 2 − ln π`, the half-Cauchy density's constant besides its scale.
const LN_2_OVER_PI: f64 = -0.451_582_705_289_454_9;

/// A density on one positive hyperparameter `h`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Prior {
    /// `Gamma(shape a, rate b)`: `ln p(h) = a ln b − lnΓ(a) + (a − 1) ln h − b h`.
    Gamma {
        /// The shape `a`.
        shape: f64,
        /// The rate `b` (the inverse scale).
        rate: f64,
    },
    /// `ln h ~ N(μ, σ²)`: `ln p(h) = −ln h − ln σ − ½ ln 2π − (ln h − μ)² / (2σ²)`.
    LogNormal {
        /// The mean `μ` of `ln h`.
        mu: f64,
        /// The standard deviation `σ` of `ln h`.
        sigma: f64,
    },
    /// Half-Cauchy with scale `s`: `ln p(h) = ln 2 − ln π − ln s − ln(1 + (h/s)²)` (PyTorch's
    /// `HalfCauchy`, GPyTorch's `HalfCauchyPrior`): the SAAS prior's shrinkage densities.
    HalfCauchy {
        /// The scale `s` (the median).
        scale: f64,
    },
}

/// Which density the log prior is: of `ln h` (Jacobian included) or of `h`. See the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PriorSpace {
    /// A density on `ln h` (the Jacobian `h` included): BoTorch's convention.
    #[default]
    LogParameter,
    /// A density on `h` itself.
    Parameter,
}

impl Prior {
    /// `Gamma(shape, rate)`; both must be positive and finite.
    pub fn gamma(shape: f64, rate: f64) -> Result<Self, EngineError> {
        if !(shape.is_finite() && shape > 0.0 && rate.is_finite() && rate > 0.0) {
            return Err(EngineError::invalid(format!(
                "Gamma prior needs positive finite shape and rate, got ({shape}, {rate})"
            )));
        }
        Ok(Self::Gamma { shape, rate })
    }

    /// Log-normal with `ln h ~ N(mu, sigma²)`; `mu` finite, `sigma` positive and finite.
    pub fn log_normal(mu: f64, sigma: f64) -> Result<Self, EngineError> {
        if !(mu.is_finite() && sigma.is_finite() && sigma > 0.0) {
            return Err(EngineError::invalid(format!(
                "log-normal prior needs finite mu and positive finite sigma, got ({mu}, {sigma})"
            )));
        }
        Ok(Self::LogNormal { mu, sigma })
    }

    /// Half-Cauchy with scale `scale`, positive and finite.
    pub fn half_cauchy(scale: f64) -> Result<Self, EngineError> {
        if !(scale.is_finite() && scale > 0.0) {
            return Err(EngineError::invalid(format!(
                "half-Cauchy prior needs a positive finite scale, got {scale}"
            )));
        }
        Ok(Self::HalfCauchy { scale })
    }

    /// Checks the parameters of a prior built directly from the enum.
    pub fn validate(&self) -> Result<(), EngineError> {
        match *self {
            Self::Gamma { shape, rate } => Self::gamma(shape, rate).map(|_| ()),
            Self::LogNormal { mu, sigma } => Self::log_normal(mu, sigma).map(|_| ()),
            Self::HalfCauchy { scale } => Self::half_cauchy(scale).map(|_| ()),
        }
    }

    /// `ln p(h)`, the density of the parameter itself; `-inf` for `h ≤ 0`.
    pub fn log_density(&self, h: f64) -> f64 {
        if h <= 0.0 || h.is_nan() {
            return f64::NEG_INFINITY;
        }
        self.log_density_log_space(h.ln(), PriorSpace::Parameter).0
    }

    /// The log prior at `φ = ln h` in the chosen space, and its derivative with respect to `φ`.
    ///
    /// * Gamma, log-parameter space: `a ln b − lnΓ(a) + a φ − b e^φ`, derivative `a − b e^φ`;
    ///   parameter space: `(a − 1) φ` instead of `a φ`.
    /// * Log-normal, log-parameter space: `−ln σ − ½ ln 2π − (φ − μ)²/(2σ²)`, derivative
    ///   `−(φ − μ)/σ²`; parameter space: one `−φ` more (derivative `−1` more).
    /// * Half-Cauchy, parameter space: with `t = φ − ln s`, `ln 2 − ln π − ln s − softplus(2t)`
    ///   (`ln(1 + (h/s)²)` without overflow), derivative `−2 σ(2t)` (`σ` the logistic
    ///   function); log-parameter space: one `φ` more (derivative `1` more).
    pub fn log_density_log_space(&self, phi: f64, space: PriorSpace) -> (f64, f64) {
        let jac = match space {
            PriorSpace::LogParameter => 0.0,
            PriorSpace::Parameter => -1.0,
        };
        match *self {
            Self::Gamma { shape, rate } => {
                let h = phi.exp();
                let value = shape * rate.ln() - ln_gamma(shape) + (shape + jac) * phi - rate * h;
                (value, shape + jac - rate * h)
            }
            Self::LogNormal { mu, sigma } => {
                let z = (phi - mu) / sigma;
                let value = -sigma.ln() - HALF_LN_2PI - 0.5 * z * z + jac * phi;
                (value, -z / sigma + jac)
            }
            Self::HalfCauchy { scale } => {
                let t = 2.0 * (phi - scale.ln());
                let value = LN_2_OVER_PI - scale.ln() - softplus(t) + (1.0 + jac) * phi;
                (value, 1.0 + jac - 2.0 * sigmoid(t))
            }
        }
    }

    /// The value of `h` that maximises the log prior in `space` (where the MAP estimate goes when
    /// the data say nothing). `None` where there is no maximiser (Gamma with shape ≤ 1 and
    /// half-Cauchy in parameter space: the density is largest at `h → 0`).
    pub fn mode(&self, space: PriorSpace) -> Option<f64> {
        match (*self, space) {
            (Self::Gamma { shape, rate }, PriorSpace::LogParameter) => Some(shape / rate),
            (Self::Gamma { shape, rate }, PriorSpace::Parameter) => {
                (shape > 1.0).then(|| (shape - 1.0) / rate)
            }
            (Self::LogNormal { mu, .. }, PriorSpace::LogParameter) => Some(mu.exp()),
            (Self::LogNormal { mu, sigma }, PriorSpace::Parameter) => {
                Some((mu - sigma * sigma).exp())
            }
            // The density of φ, h/(s² + h²) up to a constant, peaks at h = s; the density of h
            // itself decreases from h = 0.
            (Self::HalfCauchy { scale }, PriorSpace::LogParameter) => Some(scale),
            (Self::HalfCauchy { .. }, PriorSpace::Parameter) => None,
        }
    }
}

/// `m ~ N(μ, σ²)` on the constant mean, which is not log-transformed (it may be any real), so
/// its density is the same in either [`PriorSpace`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormalPrior {
    /// The mean `μ`.
    pub mu: f64,
    /// The standard deviation `σ`.
    pub sigma: f64,
}

impl NormalPrior {
    /// `N(mu, sigma²)`; `mu` finite, `sigma` positive and finite.
    pub fn new(mu: f64, sigma: f64) -> Result<Self, EngineError> {
        if !(mu.is_finite() && sigma.is_finite() && sigma > 0.0) {
            return Err(EngineError::invalid(format!(
                "normal prior needs finite mu and positive finite sigma, got ({mu}, {sigma})"
            )));
        }
        Ok(Self { mu, sigma })
    }

    /// Checks the parameters of a prior built directly from the struct.
    pub fn validate(&self) -> Result<(), EngineError> {
        Self::new(self.mu, self.sigma).map(|_| ())
    }

    /// `ln p(m) = −ln σ − ½ ln 2π − (m − μ)²/(2σ²)` and its derivative `−(m − μ)/σ²`.
    pub fn log_density(&self, m: f64) -> (f64, f64) {
        let z = (m - self.mu) / self.sigma;
        (
            -self.sigma.ln() - HALF_LN_2PI - 0.5 * z * z,
            -z / self.sigma,
        )
    }
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms; relative error about 1e-15), with the
/// reflection-free shift `ln Γ(x) = ln Γ(x + 1) − ln x` below 0.5.
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return ln_gamma(x + 1.0) - x.ln();
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    HALF_LN_2PI + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_gamma_known_values() {
        assert!((ln_gamma(1.0)).abs() < 1e-14);
        assert!((ln_gamma(2.0)).abs() < 1e-14);
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-13);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-13);
        // Γ(1e-3) ≈ 999.4237724845955
        assert!((ln_gamma(1e-3) - 999.423_772_484_595_5f64.ln()).abs() < 1e-12);
        // Γ(1.1) = 0.9513507698668732
        assert!((ln_gamma(1.1) - 0.951_350_769_866_873_2f64.ln()).abs() < 1e-14);
    }

    #[test]
    fn half_cauchy_density_and_slope_match_hand_computed_values() {
        // HC(0.1) at h = 0.05: ln(2/π) − ln 0.1 − ln 1.25; d/dφ = −2 (h/s)² / (1 + (h/s)²) =
        // −2 · 0.25 / 1.25 = −0.4.
        let p = Prior::half_cauchy(0.1).unwrap();
        let phi = 0.05f64.ln();
        let (value, slope) = p.log_density_log_space(phi, PriorSpace::Parameter);
        assert!((value - 1.627_858_836_390_381).abs() < 1e-14, "{value}");
        assert!((slope + 0.4).abs() < 1e-14, "{slope}");
        assert!((p.log_density(0.05) - value).abs() < 1e-15);
        // The density of φ adds φ and 1.
        let (value_log, slope_log) = p.log_density_log_space(phi, PriorSpace::LogParameter);
        assert!((value_log - value - phi).abs() < 1e-14);
        assert!((slope_log - 0.6).abs() < 1e-14);
        // HC(1) at h = 3: ln(2/π) − ln 10; d/dφ = −2 · 9/10.
        let p = Prior::half_cauchy(1.0).unwrap();
        let (value, slope) = p.log_density_log_space(3f64.ln(), PriorSpace::Parameter);
        assert!((value + 2.754_167_798_283_501).abs() < 1e-14, "{value}");
        assert!((slope + 1.8).abs() < 1e-14, "{slope}");
        // Far in the tail (h² overflows): ln(2/π) − 2 ln h, slope −2.
        let (value, slope) = p.log_density_log_space(1e200f64.ln(), PriorSpace::Parameter);
        assert!((value + 921.485_619_902_907_7).abs() < 1e-10, "{value}");
        assert_eq!(slope, -2.0);
        // Near 0 the density of h is flat at ln(2/π) − ln s.
        let (value, slope) = p.log_density_log_space(-400.0, PriorSpace::Parameter);
        assert!((value - (2.0 / std::f64::consts::PI).ln()).abs() < 1e-15);
        assert_eq!(slope, 0.0);
        assert_eq!(p.log_density(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn half_cauchy_modes_and_bad_scales() {
        let p = Prior::half_cauchy(0.1).unwrap();
        assert_eq!(p.mode(PriorSpace::Parameter), None);
        assert_eq!(p.mode(PriorSpace::LogParameter), Some(0.1));
        for scale in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let error = Prior::half_cauchy(scale).unwrap_err().to_string();
            assert!(
                error.contains("half-Cauchy prior needs a positive finite scale"),
                "{error}"
            );
            assert!(Prior::HalfCauchy { scale }.validate().is_err());
        }
    }

    #[test]
    fn normal_mean_prior_density_and_slope() {
        // N(0, 1) at 0.3: −½ ln 2π − 0.045, slope −0.3; N(1, 2) at −1: −ln 2 − ½ ln 2π − ½.
        let p = NormalPrior::new(0.0, 1.0).unwrap();
        let (value, slope) = p.log_density(0.3);
        assert!((value + HALF_LN_2PI + 0.045).abs() < 1e-15);
        assert!((slope + 0.3).abs() < 1e-15);
        let (value, slope) = NormalPrior::new(1.0, 2.0).unwrap().log_density(-1.0);
        assert!((value + 2f64.ln() + HALF_LN_2PI + 0.5).abs() < 1e-15);
        assert!((slope - 0.5).abs() < 1e-15);
        assert!(NormalPrior::new(0.0, 0.0).is_err());
        assert!(NormalPrior::new(f64::NAN, 1.0).is_err());
    }

    #[test]
    fn gamma_density_integrates_like_the_closed_form() {
        // Gamma(2, 3) at h = 0.5: 9 · 0.5 · e^{−1.5}
        let p = Prior::gamma(2.0, 3.0).unwrap();
        let expect = (9.0 * 0.5 * (-1.5f64).exp()).ln();
        assert!((p.log_density(0.5) - expect).abs() < 1e-13);
    }
}
