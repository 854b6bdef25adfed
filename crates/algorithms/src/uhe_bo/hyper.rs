//! The hyperparameter treatments of UHE-BO's baselines (Ha, Nguyen, Zhang & van den Hengel 2023,
//! Sec. 7 and App. C) beyond a single MAP estimate: sampling θ by MCMC, the lengthscale schedules
//! of A-GP-UCB and of Wang & de Freitas, and the acquisitions the MCMC and Portfolio baselines
//! need.
//!
//! Everything works on the unit cube and standardised outputs with a zero-mean Matérn-5/2 ARD
//! GP, θ = (ℓ_1..ℓ_d, σ_f², σ_n²), as the rest of UHE-BO does.

use bosweep_core::stats::normal_cdf;
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::{GpSpec, GpState, Kernel, KernelKind, Noise, Priors, likelihood};
use bosweep_toolkit::acquisition::{Acquisition, PosteriorAcquisition};

/// `θ` in log space, `φ = (ln ℓ_1..ln ℓ_d, ln σ_f², ln σ_n²)`, and back.
pub fn theta_from_log(phi: &[f64]) -> Result<(Kernel, f64), EngineError> {
    let d = phi.len().saturating_sub(2);
    if d == 0 {
        return Err(EngineError::invalid(format!(
            "log-hyperparameter vector has {} entries (need d + 2 ≥ 3)",
            phi.len()
        )));
    }
    let lengthscales = phi[..d].iter().map(|p| p.exp()).collect();
    let kernel = Kernel::new(KernelKind::Matern52, lengthscales, phi[d].exp())?;
    Ok((kernel, phi[d + 1].exp()))
}

/// `(ln ℓ_1..ln ℓ_d, ln σ_f², ln σ_n²)` of a kernel and a noise variance.
pub fn log_theta(kernel: &Kernel, noise: f64) -> Vec<f64> {
    let mut phi: Vec<f64> = kernel.lengthscales().iter().map(|l| l.ln()).collect();
    phi.push(kernel.signal_variance().ln());
    phi.push(noise.ln());
    phi
}

/// The log posterior density of `φ = ln θ` on `(x, z)` (zero prior mean): the log marginal
/// likelihood (that of [`bosweep_model::log_marginal_likelihood`], the one every fit uses) plus
/// the priors as densities of `ln h` (Jacobian included, [`Priors::uhe_bo`]), `−∞` where
/// `K + σ_n² I` does not factorise without jitter. This is the target the MCMC baseline samples.
pub fn log_posterior(x: &Points, z: &[f64], phi: &[f64], priors: &Priors) -> f64 {
    let Ok((kernel, noise)) = theta_from_log(phi) else {
        return f64::NEG_INFINITY;
    };
    let noise = Noise::Homoscedastic(noise);
    let Some(lml) = likelihood::evaluate(x, z, &kernel, &noise, 0.0, 1.0, false) else {
        return f64::NEG_INFINITY;
    };
    let d = phi.len() - 2;
    let mut prior = 0.0;
    for &p in &phi[..d] {
        prior += Priors::term(&priors.lengthscale, p, priors.space).0;
    }
    prior += Priors::term(&priors.signal_variance, phi[d], priors.space).0;
    prior += Priors::term(&priors.noise_variance, phi[d + 1], priors.space).0;
    let total = lml.value + prior;
    if total.is_nan() {
        f64::NEG_INFINITY
    } else {
        total
    }
}

/// `kernel` with every lengthscale divided by `factor` (and floored at `floor`).
pub fn shrink_lengthscales(
    kernel: &Kernel,
    factor: f64,
    floor: f64,
) -> Result<Kernel, EngineError> {
    let ls = kernel
        .lengthscales()
        .iter()
        .map(|l| (l / factor).max(floor))
        .collect();
    Kernel::new(kernel.kind(), ls, kernel.signal_variance())
}

/// `kernel` with every lengthscale capped at `cap` (Wang & de Freitas' upper bound).
pub fn cap_lengthscales(kernel: &Kernel, cap: f64) -> Result<Kernel, EngineError> {
    let ls = kernel.lengthscales().iter().map(|l| l.min(cap)).collect();
    Kernel::new(kernel.kind(), ls, kernel.signal_variance())
}

/// A-GP-UCB's lengthscale divisor (Berkenkamp, Schoellig & Krause 2019, as UHE-BO's paper
/// runs it: p(t) = t^exponent, `h(t)` by grid search on a one-step-prediction criterion,
/// `g = h`; neither paper fixes the criterion, so the one below is our choice).
///
/// * `h(t)`: the smallest factor `h = ratio^k` (`k = 0, 1, …`) under which the GP on all data but
///   the newest point, with lengthscales `ℓ̂/h`, predicts the newest observation within its UCB
///   band: `|z_new − μ(x_new)| ≤ κ σ(x_new)`. Shorter lengthscales widen the band, so a model
///   surprised by its last observation shrinks its lengthscales.
/// * The returned `g(t) = min(max(g(t−1), h(t)), (p(t)/√t)^{1/d})`: monotone, and capped where the
///   GP-UCB regret bound under lengthscales `ℓ̂/g` (which grows like `g^d √t`, Berkenkamp et al.
///   2019) reaches the reference `p(t)`. `t` is the number of observations.
///
/// `x`, `z` are all observations in arrival order (the newest last); the one-point posteriors go
/// through `engine`.
#[allow(clippy::too_many_arguments)]
pub fn adaptive_scale(
    engine: &dyn Engine,
    x: &Points,
    z: &[f64],
    kernel: &Kernel,
    noise: f64,
    multiplier: f64,
    previous: f64,
    exponent: f64,
    ratio: f64,
) -> Result<(f64, f64), EngineError> {
    let n = x.rows();
    let d = kernel.lengthscales().len() as f64;
    let t = n.max(1) as f64;
    let cap = t.powf(exponent - 0.5).powf(1.0 / d).max(1.0);
    if n < 2 {
        return Ok((1.0, previous.min(cap).max(1.0)));
    }
    let rows: Vec<Vec<f64>> = (0..n - 1).map(|i| x.row(i).to_vec()).collect();
    let older = Points::from_rows(&rows)?;
    let newest = Points::from_rows(&[x.row(n - 1).to_vec()])?;
    let mut h = 1.0;
    while h < cap {
        let shrunk = shrink_lengthscales(kernel, h, 1e-300)?;
        let state = GpState::fit(
            older.clone(),
            &z[..n - 1],
            GpSpec::new(shrunk, Noise::Homoscedastic(noise)),
        )?;
        let p = engine.posterior(&state, &newest)?;
        if (z[n - 1] - p.mean[0]).abs() <= multiplier * p.variance[0].max(0.0).sqrt() {
            break;
        }
        h *= ratio;
    }
    Ok((h, previous.max(h).min(cap)))
}

/// The UCB `μ + κσ` averaged over several GPs (one per hyperparameter sample), evaluated with one
/// [`Engine::posterior_batch`] call per candidate batch (the MCMC baseline; averaging the UCB over
/// the samples is our reading, the paper does not say how the samples are combined).
pub struct AveragedUcb<'a> {
    states: &'a [GpState],
    multiplier: f64,
}

impl<'a> AveragedUcb<'a> {
    /// Fails on an empty sample set, differing input dimensions, or a non-finite multiplier.
    pub fn new(states: &'a [GpState], multiplier: f64) -> Result<Self, EngineError> {
        let Some(first) = states.first() else {
            return Err(EngineError::invalid("averaged UCB needs at least one GP"));
        };
        let dim = first.kernel().input_dim();
        if states.iter().any(|s| s.kernel().input_dim() != dim) || !multiplier.is_finite() {
            return Err(EngineError::invalid(format!(
                "averaged UCB: GPs of different input dimensions or multiplier {multiplier}"
            )));
        }
        Ok(Self { states, multiplier })
    }
}

impl Acquisition for AveragedUcb<'_> {
    fn dim(&self) -> usize {
        self.states[0].kernel().input_dim()
    }

    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        let refs: Vec<&GpState> = self.states.iter().collect();
        let posteriors = engine.posterior_batch(&refs, candidates)?;
        let s = posteriors.len() as f64;
        let mut total = vec![0.0; candidates.rows()];
        for p in &posteriors {
            for ((acc, m), v) in total.iter_mut().zip(&p.mean).zip(&p.variance) {
                *acc += m + self.multiplier * v.max(0.0).sqrt();
            }
        }
        Ok(total.into_iter().map(|v| v / s).collect())
    }
}

/// Probability of improvement `Φ((μ − best − ξ)/σ)` (maximisation), one of GP-Hedge's arms.
/// `σ` is floored at 1e-12 so that a zero variance gives a step function, never NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbabilityOfImprovement {
    best: f64,
    xi: f64,
}

impl ProbabilityOfImprovement {
    /// PI over the incumbent `best` by a margin `xi ≥ 0` (standardised units); an error for a
    /// non-finite `best` or a negative or non-finite `xi`.
    pub fn new(best: f64, xi: f64) -> Result<Self, EngineError> {
        if !(best.is_finite() && xi.is_finite() && xi >= 0.0) {
            return Err(EngineError::invalid(format!(
                "probability of improvement: incumbent {best}, margin ξ {xi} (need finite, ξ ≥ 0)"
            )));
        }
        Ok(Self { best, xi })
    }
}

impl PosteriorAcquisition for ProbabilityOfImprovement {
    fn value(&self, mean: f64, variance: f64) -> f64 {
        let sigma = variance.max(1e-24).sqrt();
        normal_cdf((mean - self.best - self.xi) / sigma)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep_engine::CpuEngine;
    use bosweep_model::log_marginal_likelihood;

    fn data() -> (Points, Vec<f64>) {
        let x = Points::from_rows(&[
            vec![0.1, 0.2],
            vec![0.5, 0.9],
            vec![0.8, 0.4],
            vec![0.3, 0.6],
        ])
        .unwrap();
        (x, vec![0.5, -1.0, 1.2, -0.3])
    }

    #[test]
    fn log_posterior_is_lml_plus_log_space_priors() {
        let (x, z) = data();
        let phi = [0.3f64.ln(), 0.5f64.ln(), 1.3f64.ln(), 0.05f64.ln()];
        let (kernel, noise) = theta_from_log(&phi).unwrap();
        let lml = log_marginal_likelihood(&x, &z, &kernel, &Noise::Homoscedastic(noise), 0.0, 1.0)
            .unwrap()
            .value;
        let priors = Priors::uhe_bo();
        // Gamma(a, b) as a density of φ = ln h: a ln b − lnΓ(a) + a φ − b h.
        let (a, b) = (1e-3f64, 10.0f64);
        let term = |h: f64| a * b.ln() - bosweep_model::ln_gamma(a) + a * h.ln() - b * h;
        let expect = lml + term(0.3) + term(0.5) + term(1.3) + term(0.05);
        assert!((log_posterior(&x, &z, &phi, &priors) - expect).abs() < 1e-10);
        assert_eq!(log_theta(&kernel, noise).len(), 4);
        for (p, q) in log_theta(&kernel, noise).iter().zip(&phi) {
            assert!((p - q).abs() < 1e-14);
        }
    }

    #[test]
    fn adaptive_scale_shrinks_until_the_newest_point_is_predicted() {
        let (x, mut z) = data();
        let kernel = Kernel::new(KernelKind::Matern52, vec![2.0, 2.0], 1.0).unwrap();
        let cap = 4f64.powf(0.4).sqrt();
        // A newest value the long-lengthscale GP cannot explain: h grows (capped).
        z[3] = 5.0;
        let (h, g) =
            adaptive_scale(&CpuEngine::new(), &x, &z, &kernel, 1e-4, 1.4, 1.0, 0.9, 1.1).unwrap();
        assert!(h > 1.0);
        assert!((g - h.min(cap)).abs() < 1e-12, "{g} {h} {cap}");
        // The grid stops at the first covered factor: the previous factor did not cover.
        let covered = |h: f64| {
            let rows: Vec<Vec<f64>> = (0..3).map(|i| x.row(i).to_vec()).collect();
            let s = GpState::fit(
                Points::from_rows(&rows).unwrap(),
                &z[..3],
                GpSpec::new(
                    shrink_lengthscales(&kernel, h, 1e-300).unwrap(),
                    Noise::Homoscedastic(1e-4),
                ),
            )
            .unwrap();
            let p = CpuEngine::new()
                .posterior(&s, &Points::from_rows(&[x.row(3).to_vec()]).unwrap())
                .unwrap();
            (z[3] - p.mean[0]).abs() <= 1.4 * p.variance[0].sqrt()
        };
        assert!(!covered(h / 1.1));
        assert!(h >= cap || covered(h));
        // g never decreases, and never exceeds the cap (p(t)/√t)^{1/d}.
        let (_, g2) = adaptive_scale(
            &CpuEngine::new(),
            &x,
            &z,
            &kernel,
            1e-4,
            1.4,
            1.05,
            0.9,
            1.1,
        )
        .unwrap();
        assert!(g2 >= 1.05 && g2 <= cap + 1e-12);
        let (_, g3) = adaptive_scale(
            &CpuEngine::new(),
            &x,
            &z,
            &kernel,
            1e-4,
            1.4,
            50.0,
            0.9,
            1.1,
        )
        .unwrap();
        assert!((g3 - cap).abs() < 1e-12);
    }

    #[test]
    fn averaged_ucb_is_the_mean_of_the_per_sample_ucbs() {
        let (x, z) = data();
        let states: Vec<GpState> = [0.2, 0.6]
            .iter()
            .map(|l| {
                let k = Kernel::new(KernelKind::Matern52, vec![*l, *l], 1.0).unwrap();
                GpState::fit(x.clone(), &z, GpSpec::new(k, Noise::Homoscedastic(1e-3))).unwrap()
            })
            .collect();
        let q = Points::from_rows(&[vec![0.4, 0.4], vec![0.9, 0.1]]).unwrap();
        let engine = CpuEngine::new();
        let avg = AveragedUcb::new(&states, 1.4)
            .unwrap()
            .evaluate(&engine, &q)
            .unwrap();
        for (j, v) in avg.iter().enumerate() {
            let mut e = 0.0;
            for s in &states {
                let p = engine.posterior(s, &q).unwrap();
                e += p.mean[j] + 1.4 * p.variance[j].sqrt();
            }
            assert!((v - e / 2.0).abs() < 1e-12);
        }
        assert!(AveragedUcb::new(&[], 1.0).is_err());
    }

    #[test]
    fn probability_of_improvement() {
        let pi = ProbabilityOfImprovement::new(1.0, 0.0).unwrap();
        assert!((pi.value(1.0, 4.0) - 0.5).abs() < 1e-15);
        // Φ(1) with μ − best = 2, σ = 2
        assert!((pi.value(3.0, 4.0) - 0.841_344_746_068_542_9).abs() < 1e-9);
        assert_eq!(pi.value(0.5, 0.0), 0.0);
        assert!(ProbabilityOfImprovement::new(f64::NAN, 0.0).is_err());
    }
}
