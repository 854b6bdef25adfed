//! Test problems with black-box constraints: a function to optimise and k ≥ 1 constraint
//! functions, feasible where every `c_j(x) ≤ 0` (docs/conventions.md, "Constraints"). Each
//! declares its best feasible value as its optimum, so that regret is measured against the
//! constrained optimum, not the unconstrained one.
//!
//! Definitions, bounds and optima are those of the problems' sources as BoTorch 0.18.1
//! (`botorch.test_functions.synthetic`) states them, with BoTorch's slack (feasible where
//! ≥ 0) negated into the `c_j ≤ 0` form.

mod entries;
mod gramacy;

pub(crate) use entries::ENTRIES;
pub use gramacy::ConstrainedGramacy;

use rand_chacha::ChaCha8Rng;

use crate::support::noisy_repeats;
use crate::{
    Constraints, Observation, Optimum, ParamValue, Params, Problem, ProblemError, Step,
    TestFunction,
};

/// A deterministic test function with black-box constraints: its objective is the
/// [`TestFunction`]'s value (whose [`TestFunction::optimum`] is the best *feasible* value),
/// and its constraints are feasible where every value is ≤ 0.
pub trait ConstrainedFunction: TestFunction {
    /// The constraints' names, in the order [`Self::constraint_values`] returns them.
    fn constraint_names(&self) -> Vec<String>;

    /// The k constraint values at `x` (feasible where every one is ≤ 0); `x` has the
    /// domain's dimension.
    fn constraint_values(&self, x: &[f64]) -> Vec<f64>;
}

/// A [`ConstrainedFunction`] observed with homoscedastic Gaussian noise on its objective
/// (`noise_std`); the constraint values are observed noise-free, as BoTorch's constrained test
/// problems observe them by default.
#[derive(Debug)]
pub struct Constrained<F> {
    name: &'static str,
    function: F,
    constraints: Constraints,
    noise_std: f64,
    parameters: Vec<(String, ParamValue)>,
}

impl<F: ConstrainedFunction> Constrained<F> {
    /// Wraps `function` with the `noise_std` of `params`, which also gives the name and the
    /// parameter list for trace headers.
    pub fn new(function: F, params: &Params) -> Result<Self, ProblemError> {
        Ok(Self {
            name: params.name(),
            constraints: Constraints::named(function.constraint_names())?,
            function,
            noise_std: crate::entry::NOISE_STD.of(params),
            parameters: params.to_list(),
        })
    }

    /// The wrapped noise-free function.
    pub fn function(&self) -> &F {
        &self.function
    }
}

impl<F: ConstrainedFunction> Problem for Constrained<F> {
    problem_accessors!(
        self,
        name: self.name,
        domain: self.function.domain(),
        sense: self.function.sense(),
    );

    fn title(&self) -> Option<String> {
        self.function.title()
    }

    /// With `noise_std = 0` nothing is drawn from `rng`.
    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let values = noisy_repeats(self.function.value(x), self.noise_std, step.repeats(), rng);
        Ok(Observation::new(values, None).with_constraints(self.function.constraint_values(x)))
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

    fn constraints(&self) -> Option<&Constraints> {
        Some(&self.constraints)
    }

    fn constraint_values(&self, x: &[f64], _t: usize) -> Option<Vec<f64>> {
        Some(self.function.constraint_values(x))
    }
}
