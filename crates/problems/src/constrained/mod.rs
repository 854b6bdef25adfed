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
//!
//! COCO's constrained suite `bbob-constrained` ([`BbobConstrained`]) follows COCO instead, and
//! declares COCO's optimum.

mod bbob_constrained;
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

pub use bbob_constrained::BbobConstrained;
pub use c2dtlz2::C2Dtlz2;
pub use classic_mo::{Bnh, Constr, Osy, Srn};
pub use engineering_mo::{DiscBrake, WeldedBeamMo};
pub(crate) use entries::ENTRIES;
pub use gramacy::ConstrainedGramacy;
pub use hartmann::{BallConstraint, ConstrainedHartmann};
pub use keane_bump::KeaneBump;
pub use multi::ConstrainedObjectives;
pub use pressure_vessel::PressureVessel;
pub use speed_reducer::SpeedReducer;
pub use tension_compression::TensionCompressionSpring;
pub use welded_beam::WeldedBeam;

use rand_chacha::ChaCha8Rng;

use crate::{
    Constraints, Noisy, Observation, Optimum, Params, Problem, ProblemError, Step, TestFunction,
};

/// The black-box constraints of a deterministic test function, of one objective (a
/// [`TestFunction`], whose [`TestFunction::optimum`] is then the best *feasible* value) or of
/// several (a [`MultiObjectiveFunction`](crate::multi_objective::MultiObjectiveFunction),
/// whose reference point and maximal hypervolume are then those of the feasible front):
/// feasible where every value is ≤ 0.
pub trait ConstraintFunctions {
    /// The constraints' names, in the order [`Self::constraint_values`] returns them.
    fn constraint_names(&self) -> Vec<String>;

    /// The k constraint values at `x` (feasible where every one is ≤ 0); `x` has the
    /// domain's dimension.
    fn constraint_values(&self, x: &[f64]) -> Vec<f64>;
}

/// A [`TestFunction`] with [`ConstraintFunctions`] observed as [`Noisy`] observes it (homoscedastic
/// Gaussian noise of `noise_std` on its objective), with its constraint values observed
/// noise-free, as BoTorch's constrained test problems observe them by default.
#[derive(Debug)]
pub struct Constrained<F> {
    noisy: Noisy<F>,
    constraints: Constraints,
}

impl<F: TestFunction + ConstraintFunctions> Constrained<F> {
    /// Wraps `function` with the `noise_std` of `params`, which also gives the name and the
    /// parameter list for trace headers.
    pub fn new(function: F, params: &Params) -> Result<Self, ProblemError> {
        Ok(Self {
            constraints: Constraints::named(function.constraint_names())?,
            noisy: Noisy::new(function, params),
        })
    }

    /// The wrapped noise-free function.
    pub fn function(&self) -> &F {
        self.noisy.function()
    }
}

impl<F: TestFunction + ConstraintFunctions> Problem for Constrained<F> {
    problem_accessors!(
        self,
        name: self.noisy.name(),
        domain: self.noisy.domain(),
        sense: self.noisy.sense(),
        parameters: self.noisy.parameters(),
    );

    fn title(&self) -> Option<String> {
        self.noisy.title()
    }

    /// The objective as [`Noisy`] draws it (nothing drawn with `noise_std = 0`), with the
    /// noise-free constraint values.
    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let observation = self.noisy.observe(x, step, rng)?;
        Ok(observation.with_constraints(self.function().constraint_values(x)))
    }

    fn objective_of_interest(&self, x: &[f64], t: usize) -> Option<f64> {
        self.noisy.objective_of_interest(x, t)
    }

    fn optimum(&self, t: usize) -> Option<Optimum> {
        self.noisy.optimum(t)
    }

    fn constraints(&self) -> Option<&Constraints> {
        Some(&self.constraints)
    }

    fn constraint_values(&self, x: &[f64], _t: usize) -> Option<Vec<f64>> {
        Some(self.function().constraint_values(x))
    }
}
