//! Test problems with black-box constraints: a function to optimise and k ≥ 1 constraint
//! functions, feasible where every `c_j(x) ≤ 0` (docs/conventions.md, "Constraints"). Each
//! declares its best feasible value as its optimum, so that regret is measured against the
//! constrained optimum, not the unconstrained one.
//!
//! Definitions and bounds are those of the problems' sources as BoTorch 0.18.1
//! (`botorch.test_functions.synthetic` and `.multi_objective`) states them, with BoTorch's
//! slack (feasible where ≥ 0) negated into the `c_j ≤ 0` form; `tests.rs` holds them to
//! BoTorch's values (`benches/peers/constrained_problems_reference.py`). Where BoTorch departs
//! from the source by a bug (the welded beam's buckling load, SRN's objective and constraint,
//! the multi-objective welded beam's inverted constraints) the source wins, and where
//! BoTorch's optimal value is a value some method found rather than the optimum (pressure
//! vessel, welded beam, tension/compression spring) the optimum declared is a feasible point's
//! below it; each problem's documentation says so.

mod c2dtlz2;
mod classic_mo;
mod engineering_mo;
mod entries;
mod gramacy;
mod hartmann;
mod keane_bump;
mod multi;
mod pressure_vessel;
mod speed_reducer;
mod tension_compression;
mod welded_beam;

#[cfg(test)]
mod tests;

pub use c2dtlz2::C2Dtlz2;
pub use classic_mo::{Bnh, Constr, Osy, Srn};
pub use engineering_mo::{DiscBrake, WeldedBeamMo};
pub(crate) use entries::ENTRIES;
pub use gramacy::ConstrainedGramacy;
pub use hartmann::{BallConstraint, ConstrainedHartmann};
pub use keane_bump::KeaneBump;
pub use multi::{ConstrainedMultiObjectiveFunction, ConstrainedObjectives};
pub use pressure_vessel::PressureVessel;
pub use speed_reducer::SpeedReducer;
pub use tension_compression::TensionCompressionSpring;
pub use welded_beam::WeldedBeam;

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
