//! LassoBench's synthetic benchmarks (Šehić, Gramfort, Salmon and Nardi, "LassoBench: A
//! High-Dimensional Hyperparameter Optimization Benchmark Suite for Lasso", AutoML 2022): tune
//! one penalty per feature of a weighted Lasso, in 60 to 1000 dimensions of which only 3 to 50
//! matter.
//!
//! A point `x ∈ [−1, 1]^d` sets the penalties `w_j = exp(x_j (ln α_max − ln α_min) / 2 + (ln
//! α_max + ln α_min) / 2)`, with `α_max = max_j |X_jᵀ y| / n` over the training rows and `α_min
//! = α_max / 100`. The value is the 5-fold cross-validation error of the weighted Lasso
//! `min_β ‖y − Xβ‖² / (2n) + Σ_j w_j |β_j|` (the mean over the folds of the validation rows'
//! mean squared error) divided by the true coefficients' training error, minimised; LassoBench
//! calls a value near 1 good. Its minimum is unknown.
//!
//! The data are LassoBench's, drawn from its seed as it draws them (numpy's legacy generator
//! ported): bosweep's design matrix and targets equal LassoBench's to rounding. One departure:
//! LassoBench stops celer's solver at a duality gap of 10⁻⁴ (relative), so its value carries
//! the solver's error; bosweep's is that of the Lasso's exact solution (coordinate descent,
//! then the optimality conditions on its support), equal to the exact solution's value the
//! reference script computes to 10⁻¹³. LassoBench's own values differ from it by up to 10⁻⁴
//! (relative) at penalties low on the true support and high elsewhere, and by up to 4 % at
//! poor penalties (`benches/peers/lassobench_reference.py`).

mod data;
mod numpy_random;
mod solver;

use rayon::prelude::*;

use crate::functions::TestFunction;
use crate::{Domain, Optimum, ProblemError, Sense};
use data::Synthetic;

/// LassoBench's four synthetic benchmarks, `synt_simple` to `synt_hard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bench {
    /// 60 features, 3 of them in the true model, 30 samples.
    Simple,
    /// 100 features, 5 in the model, 50 samples.
    Medium,
    /// 300 features, 15 in the model, 150 samples.
    High,
    /// 1000 features, 50 in the model, 500 samples.
    Hard,
}

impl Bench {
    /// (features, features in the true model, samples).
    fn shape(self) -> (usize, usize, usize) {
        match self {
            Self::Simple => (60, 3, 30),
            Self::Medium => (100, 5, 50),
            Self::High => (300, 15, 150),
            Self::Hard => (1000, 50, 500),
        }
    }

    /// LassoBench's name of the benchmark.
    fn name(self) -> &'static str {
        match self {
            Self::Simple => "synt_simple",
            Self::Medium => "synt_medium",
            Self::High => "synt_high",
            Self::Hard => "synt_hard",
        }
    }
}

/// One of LassoBench's synthetic benchmarks on `[−1, 1]^d`, minimised; see the module
/// documentation.
#[derive(Debug)]
pub struct LassoBench {
    domain: Domain,
    bench: Bench,
    data: Synthetic,
    log_alpha_min: f64,
    log_alpha_max: f64,
}

impl LassoBench {
    /// `bench` with LassoBench's data: signal-to-noise ratio 10, or 3 where `noisy_data`
    /// (LassoBench's `noise=True`), drawn from `seed` (LassoBench's default is 42).
    pub fn new(bench: Bench, noisy_data: bool, seed: u32) -> Result<Self, ProblemError> {
        let (features, support, samples) = bench.shape();
        let snr = if noisy_data { 3.0 } else { 10.0 };
        let data = Synthetic::new(samples, features, support, snr, seed);
        let alpha_min = data.alpha_max / 1e2;
        Ok(Self {
            domain: Domain::cube(-1.0, 1.0, features)?,
            bench,
            log_alpha_min: alpha_min.ln(),
            log_alpha_max: data.alpha_max.ln(),
            data,
        })
    }

    /// The penalties `w_j` the point `x` sets (LassoBench's `scale_domain`, exponentiated).
    /// Coordinates outside `[−1, 1]`, which LassoBench refuses, count as the nearest bound: far
    /// outside, a penalty of 0 or ∞ would leave the Lasso without a unique solution.
    fn penalties(&self, x: &[f64]) -> Vec<f64> {
        let (low, high) = (self.log_alpha_min, self.log_alpha_max);
        x.iter()
            .map(|v| (v.clamp(-1.0, 1.0) * (high - low) / 2.0 + (high + low) / 2.0).exp())
            .collect()
    }
}

impl TestFunction for LassoBench {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    /// NaN where a coordinate is not finite; outside the box, the value at the nearest point of
    /// the box.
    fn value(&self, x: &[f64]) -> f64 {
        if x.iter().any(|v| !v.is_finite()) {
            return f64::NAN;
        }
        let weights = self.penalties(x);
        let errors: Vec<f64> = self
            .data
            .folds
            .par_iter()
            .map(|fold| {
                let beta = solver::weighted_lasso(&fold.train, &fold.train_y, &weights);
                let fitted = fold.validation.times(&beta);
                let squares: f64 = fold
                    .validation_y
                    .iter()
                    .zip(&fitted)
                    .map(|(y, f)| (y - f) * (y - f))
                    .sum();
                squares / fold.validation_y.len() as f64
            })
            .collect();
        errors.iter().sum::<f64>() / errors.len() as f64 / self.data.loss_oracle
    }

    fn optimum(&self) -> Option<Optimum> {
        None
    }

    fn title(&self) -> Option<String> {
        Some(format!("LassoBench {}", self.bench.name()))
    }
}

#[cfg(test)]
mod tests;
