//! The one wrapper that turns a noise-free multi-objective function into an observable
//! [`Problem`], as [`crate::Noisy`] does for one objective.

use rand_chacha::ChaCha8Rng;

use super::MultiObjectiveFunction;
use crate::support::noisy_repeats;
use crate::{Objectives, Observation, Optimum, ParamValue, Params, Problem, ProblemError, Step};

/// The number of points of a true front's sample that IGD+ is measured against.
pub const FRONT_SAMPLE: usize = 1000;

/// A [`MultiObjectiveFunction`] observed with homoscedastic Gaussian noise on every objective:
/// `y_k = f_k(x) + σ ε_k`, `ε_k ~ N(0, 1)` independently. Its indicators are measured on the
/// noise-free values, as regret is on the noise-free objective of one.
#[derive(Debug)]
pub struct NoisyObjectives<F> {
    name: &'static str,
    function: F,
    objectives: Objectives,
    noise_std: f64,
    parameters: Vec<(String, ParamValue)>,
}

impl<F: MultiObjectiveFunction> NoisyObjectives<F> {
    /// Wraps `function` with the noise level `noise_std` of `params`; its senses, reference
    /// point, maximum hypervolume and a [`FRONT_SAMPLE`]-point sample of its front come from the
    /// function.
    pub fn new(function: F, params: &Params) -> Result<Self, ProblemError> {
        let mut objectives =
            Objectives::new(function.senses())?.with_reference_point(function.reference_point())?;
        if let Some(hv) = function.max_hypervolume() {
            objectives = objectives.with_max_hypervolume(hv)?;
        }
        if let Some(front) = function.pareto_front(FRONT_SAMPLE) {
            objectives = objectives.with_front(front)?;
        }
        Ok(Self {
            name: params.name(),
            function,
            objectives,
            noise_std: crate::entry::NOISE_STD.of(params),
            parameters: params.to_list(),
        })
    }

    /// The wrapped noise-free function.
    pub fn function(&self) -> &F {
        &self.function
    }
}

impl<F: MultiObjectiveFunction> Problem for NoisyObjectives<F> {
    problem_accessors!(
        self,
        name: self.name,
        domain: self.function.domain(),
        sense: self.objectives.senses()[0],
    );

    fn title(&self) -> Option<String> {
        self.function.title()
    }

    fn objectives(&self) -> Option<&Objectives> {
        Some(&self.objectives)
    }

    /// With `noise_std = 0` nothing is drawn from `rng`.
    fn observe(
        &self,
        x: &[f64],
        _step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let values = self
            .function
            .values(x)
            .into_iter()
            .map(|f| noisy_repeats(f, self.noise_std, 1, rng)[0])
            .collect();
        Ok(Observation::of_objectives(values, None))
    }

    fn objective_values(&self, x: &[f64], _t: usize) -> Option<Vec<f64>> {
        Some(self.function.values(x))
    }

    /// One objective of interest does not exist on several: the indicators take its place.
    fn objective_of_interest(&self, _x: &[f64], _t: usize) -> Option<f64> {
        None
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        None
    }
}
