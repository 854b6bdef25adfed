//! Coordinate-wise slice sampling (Neal 2003, "Slice sampling", §4: stepping out and
//! shrinkage) of a log density on a box, for sampling GP hyperparameters in log space
//! (the MCMC baseline of Ha et al. 2023, Section 7 and Appendix C, which used HMC with 200
//! burn-in and 10 kept samples).
//!
//! Why slice sampling: it needs no gradient and no step-size tuning beyond an initial width,
//! every update is accepted (the chain always moves within the slice), and it is robust to the
//! scale differences between log-lengthscales and log-variances. One *sweep* updates every
//! coordinate once, in order.
//!
//! For coordinate `k` with current point `x` and log density `L(x)`:
//!
//! 1. draw the slice level `ln u = L(x) − Exp(1)`;
//! 2. place an interval of width `w_k` at a uniform offset around `x_k` and step it out by `w_k`
//!    at each end while the end is inside the box and above the level (at most `max_steps`
//!    steps in all, split at random between the two ends);
//! 3. draw uniformly in the interval (clipped to the box), accept the first draw above the
//!    level, shrinking the interval towards `x_k` after each rejection.
//!
//! Points outside the box, and points where the log density is not finite, are below every
//! level. The chain is reproducible from the given RNG.

use rand::{Rng, RngExt};

use bosweep_core::data::EngineError;

/// Shrinkage rejections after which a coordinate update gives up and keeps its current value
/// (only reachable when the density is not finite almost everywhere near the current point).
const MAX_SHRINKS: usize = 200;

/// A coordinate-wise slice sampler on the box `[lower, upper]`.
#[derive(Clone, Debug, PartialEq)]
pub struct SliceSampler {
    widths: Vec<f64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
    max_steps: usize,
}

impl SliceSampler {
    /// One initial width per coordinate (positive), box bounds (`lower < upper`, infinite allowed)
    /// and the stepping-out budget per coordinate update.
    pub fn new(
        widths: Vec<f64>,
        lower: Vec<f64>,
        upper: Vec<f64>,
        max_steps: usize,
    ) -> Result<Self, EngineError> {
        let d = widths.len();
        if d == 0 || lower.len() != d || upper.len() != d {
            return Err(EngineError::invalid(format!(
                "slice sampler: {} widths, {} lower and {} upper bounds (need the same, ≥ 1)",
                d,
                lower.len(),
                upper.len()
            )));
        }
        for k in 0..d {
            if !(widths[k].is_finite() && widths[k] > 0.0) {
                return Err(EngineError::invalid(format!(
                    "slice sampler: width {k} is {} (must be positive and finite)",
                    widths[k]
                )));
            }
            if lower[k].is_nan() || upper[k].is_nan() || lower[k] >= upper[k] {
                return Err(EngineError::invalid(format!(
                    "slice sampler: bounds of coordinate {k} are [{}, {}]",
                    lower[k], upper[k]
                )));
            }
        }
        Ok(Self {
            widths,
            lower,
            upper,
            max_steps,
        })
    }

    /// The number of coordinates sampled.
    pub fn dim(&self) -> usize {
        self.widths.len()
    }

    fn inside(&self, k: usize, v: f64) -> bool {
        v >= self.lower[k] && v <= self.upper[k]
    }

    /// One sweep from `x` with log density `log_p = log_density(x)`: updates both in place and
    /// returns the number of density evaluations spent.
    pub fn sweep<R, F>(
        &self,
        x: &mut [f64],
        log_p: &mut f64,
        log_density: &mut F,
        rng: &mut R,
    ) -> usize
    where
        R: Rng + ?Sized,
        F: FnMut(&[f64]) -> f64,
    {
        let mut evaluations = 0;
        for k in 0..self.dim() {
            let level = *log_p - exp1(rng);
            let x0 = x[k];
            let mut eval_at = |v: f64, x: &mut [f64], evaluations: &mut usize| -> f64 {
                if !self.inside(k, v) {
                    return f64::NEG_INFINITY;
                }
                x[k] = v;
                *evaluations += 1;
                let l = log_density(x);
                x[k] = x0;
                if l.is_nan() { f64::NEG_INFINITY } else { l }
            };
            // Stepping out.
            let w = self.widths[k];
            let mut left = x0 - w * rng.random::<f64>();
            let mut right = left + w;
            let mut left_steps = (self.max_steps as f64 * rng.random::<f64>()) as usize;
            let mut right_steps = self.max_steps.saturating_sub(1).saturating_sub(left_steps);
            while left_steps > 0
                && self.inside(k, left)
                && eval_at(left, x, &mut evaluations) > level
            {
                left -= w;
                left_steps -= 1;
            }
            while right_steps > 0
                && self.inside(k, right)
                && eval_at(right, x, &mut evaluations) > level
            {
                right += w;
                right_steps -= 1;
            }
            left = left.max(self.lower[k]);
            right = right.min(self.upper[k]);
            // Shrinkage.
            for _ in 0..MAX_SHRINKS {
                let v = left + (right - left) * rng.random::<f64>();
                let l = eval_at(v, x, &mut evaluations);
                if l > level {
                    x[k] = v;
                    *log_p = l;
                    break;
                }
                if v < x0 {
                    left = v;
                } else {
                    right = v;
                }
            }
        }
        evaluations
    }

    /// Runs `burn_in` sweeps from `start`, then keeps the point after every `thin`-th of the next
    /// `samples · thin` sweeps. Fails when the density is not finite at `start` or `start` is
    /// outside the box.
    pub fn sample<R, F>(
        &self,
        start: &[f64],
        mut log_density: F,
        burn_in: usize,
        samples: usize,
        thin: usize,
        rng: &mut R,
    ) -> Result<Vec<Vec<f64>>, EngineError>
    where
        R: Rng + ?Sized,
        F: FnMut(&[f64]) -> f64,
    {
        if start.len() != self.dim() || (0..self.dim()).any(|k| !self.inside(k, start[k])) {
            return Err(EngineError::invalid(format!(
                "slice sampler: start {start:?} is not a point of the {}-dimensional box",
                self.dim()
            )));
        }
        let mut x = start.to_vec();
        let mut log_p = log_density(&x);
        if !log_p.is_finite() {
            return Err(EngineError::invalid(format!(
                "slice sampler: log density at the start {start:?} is {log_p}"
            )));
        }
        let thin = thin.max(1);
        for _ in 0..burn_in {
            self.sweep(&mut x, &mut log_p, &mut log_density, rng);
        }
        let mut kept = Vec::with_capacity(samples);
        for _ in 0..samples {
            for _ in 0..thin {
                self.sweep(&mut x, &mut log_p, &mut log_density, rng);
            }
            kept.push(x.clone());
        }
        Ok(kept)
    }
}

/// A standard exponential draw (`−ln U`, `U ∈ (0, 1]`).
fn exp1<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    -(1.0 - rng.random::<f64>()).ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn moments(xs: &[f64]) -> (f64, f64) {
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        (m, xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / n)
    }

    #[test]
    fn samples_a_correlated_gaussian() {
        // ρ = 0.8, variances (1, 4), mean (1, −2).
        let (s1, s2, rho) = (1.0f64, 2.0f64, 0.8f64);
        let log_p = |x: &[f64]| {
            let (a, b) = ((x[0] - 1.0) / s1, (x[1] + 2.0) / s2);
            -(a * a - 2.0 * rho * a * b + b * b) / (2.0 * (1.0 - rho * rho))
        };
        let inf = f64::INFINITY;
        let s = SliceSampler::new(vec![1.0, 1.0], vec![-inf; 2], vec![inf; 2], 50).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let draws = s
            .sample(&[0.0, 0.0], log_p, 100, 20_000, 1, &mut rng)
            .unwrap();
        let a: Vec<f64> = draws.iter().map(|x| x[0]).collect();
        let b: Vec<f64> = draws.iter().map(|x| x[1]).collect();
        let (ma, va) = moments(&a);
        let (mb, vb) = moments(&b);
        assert!((ma - 1.0).abs() < 0.05, "mean 0: {ma}");
        assert!((mb + 2.0).abs() < 0.1, "mean 1: {mb}");
        assert!((va - 1.0).abs() < 0.08, "var 0: {va}");
        assert!((vb - 4.0).abs() < 0.3, "var 1: {vb}");
        let cov = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - ma) * (y - mb))
            .sum::<f64>()
            / a.len() as f64;
        assert!(
            (cov / (va * vb).sqrt() - rho).abs() < 0.03,
            "ρ: {}",
            cov / (va * vb).sqrt()
        );
    }

    #[test]
    fn respects_the_box() {
        // A flat density on [0, 2]: uniform draws, mean 1, variance 1/3, never outside.
        let s = SliceSampler::new(vec![5.0], vec![0.0], vec![2.0], 10).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let draws = s.sample(&[0.5], |_| 0.0, 10, 20_000, 1, &mut rng).unwrap();
        let xs: Vec<f64> = draws.iter().map(|x| x[0]).collect();
        assert!(xs.iter().all(|x| (0.0..=2.0).contains(x)));
        let (m, v) = moments(&xs);
        assert!(
            (m - 1.0).abs() < 0.03 && (v - 1.0 / 3.0).abs() < 0.02,
            "{m} {v}"
        );
    }

    #[test]
    fn reproducible_and_rejects_bad_input() {
        let s = SliceSampler::new(vec![1.0], vec![-10.0], vec![10.0], 20).unwrap();
        let f = |x: &[f64]| -0.5 * x[0] * x[0];
        let a = s
            .sample(&[0.0], f, 5, 10, 2, &mut ChaCha8Rng::seed_from_u64(9))
            .unwrap();
        let b = s
            .sample(&[0.0], f, 5, 10, 2, &mut ChaCha8Rng::seed_from_u64(9))
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 10);
        assert!(
            s.sample(&[11.0], f, 1, 1, 1, &mut ChaCha8Rng::seed_from_u64(0))
                .is_err()
        );
        assert!(
            s.sample(
                &[0.0],
                |_| f64::NEG_INFINITY,
                1,
                1,
                1,
                &mut ChaCha8Rng::seed_from_u64(0)
            )
            .is_err()
        );
        assert!(SliceSampler::new(vec![0.0], vec![0.0], vec![1.0], 1).is_err());
        assert!(SliceSampler::new(vec![1.0], vec![1.0], vec![1.0], 1).is_err());
    }
}
