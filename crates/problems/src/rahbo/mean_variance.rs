//! A [`HeteroFunction`] as a [`Problem`] whose objective of interest is `f − α·ρ²`.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;

use super::functions::HeteroFunction;
use super::optimum::maximize_on_box;
use crate::support::gaussian_repeats;
use crate::{
    NoiseVariance, Observation, Optimum, ParamValue, Params, Problem, ProblemError, Sense, Step,
};

/// Observes `f(x) + s(x)·ε` per repeat; the objective of interest is `MV(x) = f(x) − α·s(x)²`,
/// maximised, with its optimum located once at construction.
#[derive(Debug)]
pub struct MeanVariance<F> {
    name: &'static str,
    function: Arc<F>,
    alpha: f64,
    optimum: Optimum,
    parameters: Vec<(String, ParamValue)>,
}

impl<F: HeteroFunction> MeanVariance<F> {
    /// Wraps `function` with the risk coefficient `alpha` of `params`.
    pub fn new(function: F, params: &Params) -> Result<Self, ProblemError> {
        let alpha = super::ALPHA.of(params);
        let (value, location) = maximize_on_box(function.domain(), function.grid_per_dim(), |x| {
            function.mean(x) - alpha * function.noise_std(x).powi(2)
        });
        if !value.is_finite() {
            return Err(ProblemError::config(format!(
                "{}: the mean-variance optimum is {value} for alpha = {alpha}",
                params.name()
            )));
        }
        Ok(Self {
            name: params.name(),
            function: Arc::new(function),
            alpha,
            optimum: Optimum {
                value,
                locations: vec![location],
            },
            parameters: params.to_list(),
        })
    }

    /// The noise variance `ρ²(x) = s(x)²`.
    pub fn rho2(&self, x: &[f64]) -> f64 {
        self.function.noise_std(x).powi(2)
    }

    /// The noise-free mean `f(x)`.
    pub fn mean(&self, x: &[f64]) -> f64 {
        self.function.mean(x)
    }
}

impl<F: HeteroFunction> Problem for MeanVariance<F> {
    problem_accessors!(self, name: self.name, domain: self.function.domain(), sense: Sense::Maximize);

    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let (f, s) = (self.function.mean(x), self.function.noise_std(x));
        let values = gaussian_repeats(f, s, step.repeats(), rng);
        Ok(Observation::new(values, None))
    }

    fn objective_of_interest(&self, x: &[f64], _t: usize) -> Option<f64> {
        Some(self.function.mean(x) - self.alpha * self.rho2(x))
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        Some(self.optimum.clone())
    }

    fn noise_variance(&self) -> Option<NoiseVariance> {
        let function = Arc::clone(&self.function);
        Some(Arc::new(move |x: &[f64]| function.noise_std(x).powi(2)))
    }

    fn risk_aversion(&self) -> Option<f64> {
        Some(self.alpha)
    }

    fn point_metrics(&self, x: &[f64], _t: usize) -> Vec<(&'static str, f64)> {
        vec![("f", self.function.mean(x)), ("rho2", self.rho2(x))]
    }
}
