//! Multi-objective test functions with black-box constraints, and the wrapper that makes one an
//! observable [`Problem`] reporting its objectives and constraints.

use rand_chacha::ChaCha8Rng;

use super::ConstraintFunctions;
use crate::multi_objective::{MultiObjectiveFunction, NoisyObjectives};
use crate::{
    Constraints, Domain, Objectives, Observation, Optimum, ParamValue, Params, Problem,
    ProblemError, Sense, Step,
};

/// A [`MultiObjectiveFunction`] with [`ConstraintFunctions`] observed as [`NoisyObjectives`]
/// observes its
/// objectives (homoscedastic Gaussian noise of `noise_std` on each), its constraint values
/// observed noise-free beside them, as BoTorch's constrained test problems observe them by
/// default.
#[derive(Debug)]
pub struct ConstrainedObjectives<F> {
    objectives: NoisyObjectives<F>,
    constraints: Constraints,
}

impl<F: MultiObjectiveFunction + ConstraintFunctions> ConstrainedObjectives<F> {
    /// Wraps `function` with the `noise_std` of `params` (see [`NoisyObjectives::new`]).
    pub fn new(function: F, params: &Params) -> Result<Self, ProblemError> {
        let constraints = Constraints::named(function.constraint_names())?;
        Ok(Self {
            objectives: NoisyObjectives::new(function, params)?,
            constraints,
        })
    }

    /// The wrapped noise-free function.
    pub fn function(&self) -> &F {
        self.objectives.function()
    }
}

impl<F: MultiObjectiveFunction + ConstraintFunctions> Problem for ConstrainedObjectives<F> {
    fn name(&self) -> &str {
        self.objectives.name()
    }

    fn domain(&self) -> &Domain {
        self.objectives.domain()
    }

    fn sense(&self) -> Sense {
        self.objectives.sense()
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.objectives.parameters()
    }

    fn title(&self) -> Option<String> {
        self.objectives.title()
    }

    fn objectives(&self) -> Option<&Objectives> {
        self.objectives.objectives()
    }

    /// The objectives as [`NoisyObjectives`] draws them (nothing drawn with `noise_std = 0`),
    /// with the noise-free constraint values.
    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let observation = self.objectives.observe(x, step, rng)?;
        Ok(observation.with_constraints(self.function().constraint_values(x)))
    }

    fn objective_values(&self, x: &[f64], t: usize) -> Option<Vec<f64>> {
        self.objectives.objective_values(x, t)
    }

    /// One objective of interest does not exist on several: the indicators take its place.
    fn objective_of_interest(&self, _x: &[f64], _t: usize) -> Option<f64> {
        None
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        None
    }

    fn constraints(&self) -> Option<&Constraints> {
        Some(&self.constraints)
    }

    fn constraint_values(&self, x: &[f64], _t: usize) -> Option<Vec<f64>> {
        Some(self.function().constraint_values(x))
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    /// An evaluation through the registry carries both objectives and both constraint values,
    /// and the problem declares the constraints and the objectives' reference point.
    #[test]
    fn observations_carry_objectives_and_constraints() {
        let problem = crate::build("bnh", &[]).unwrap();
        assert_eq!(problem.constraint_count(), 2);
        assert_eq!(problem.objective_count(), 2);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let x = [1.0, 2.0];
        let observation = problem
            .evaluate(&x, &Step::new(1, 1).unwrap(), &mut rng)
            .unwrap();
        assert_eq!(observation.objectives, vec![20.0, 25.0]);
        assert_eq!(
            observation.constraints,
            vec![16.0 + 4.0 - 25.0, 7.7 - 49.0 - 25.0]
        );
        assert_eq!(
            problem.constraint_values(&x, 1),
            Some(observation.constraints)
        );
        assert_eq!(problem.objective_of_interest(&x, 1), None);
    }
}
