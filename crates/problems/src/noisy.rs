//! The one wrapper that turns a noise-free test function into an observable [`Problem`].

use rand_chacha::ChaCha8Rng;

use super::{Observation, Optimum, ParamValue, Params, Problem, ProblemError, Step, TestFunction};
use crate::support::noisy_repeats;

/// A [`TestFunction`] observed with homoscedastic Gaussian noise: `y = f(x) + σ ε`,
/// `ε ~ N(0, 1)` independently per repeat. The objective of interest is the noise-free `f`.
#[derive(Debug)]
pub struct Noisy<F> {
    name: &'static str,
    function: F,
    noise_std: f64,
    parameters: Vec<(String, ParamValue)>,
}

impl<F: TestFunction> Noisy<F> {
    /// Wraps `function` with the noise level `noise_std` of `params` (a declared, checked
    /// parameter); the name and the parameter list for trace headers come from `params` too.
    pub fn new(function: F, params: &Params) -> Self {
        Self {
            name: params.name(),
            function,
            noise_std: crate::entry::NOISE_STD.of(params),
            parameters: params.to_list(),
        }
    }

    /// The wrapped noise-free function.
    pub fn function(&self) -> &F {
        &self.function
    }

    /// The standard deviation of the added Gaussian noise, in the function's units (0: none).
    pub fn noise_std(&self) -> f64 {
        self.noise_std
    }
}

impl<F: TestFunction> Problem for Noisy<F> {
    problem_accessors!(
        self,
        name: self.name,
        domain: self.function.domain(),
        sense: self.function.sense(),
    );

    fn title(&self) -> Option<String> {
        self.function.title()
    }

    /// With `noise_std = 0` nothing is drawn from `rng`: a noise-free problem leaves the random
    /// stream it shares with the algorithm untouched.
    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let f = self.function.value(x);
        let values = noisy_repeats(f, self.noise_std, step.repeats(), rng);
        Ok(Observation::new(values, None))
    }

    fn objective_of_interest(&self, x: &[f64], _t: usize) -> Option<f64> {
        assert_eq!(
            x.len(),
            self.dim(),
            "point dimension must match the problem"
        );
        Some(self.function.value(x))
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        self.function.optimum()
    }
}
