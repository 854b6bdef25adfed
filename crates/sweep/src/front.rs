//! A multi-objective run's indicators step by step (docs/conventions.md, "Several
//! objectives"): the non-dominated set of the values so far, its hypervolume, the log
//! hypervolume difference and IGD+, all computed in minimisation form.

use bosweep_core::pareto;
use bosweep_problems::Objectives;

/// The floor of `HV_max − HV`, relative to `HV_max`: a published maximum known to a few digits
/// can be beaten by rounding, and the logarithm of 0 is not a number.
const DIFFERENCE_FLOOR: f64 = 1e-12;

/// What a trace step records of the front after it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrontIndicators {
    /// The `iter`s of the non-dominated steps so far (the run's recommendation).
    pub front: Vec<usize>,
    /// Their hypervolume, where a reference point is known.
    pub hypervolume: Option<f64>,
    /// `log10(HV_max − HV)`, floored, where the maximum hypervolume is known.
    pub log_hv_difference: Option<f64>,
    /// IGD+ against the true front's sample, where it is known.
    pub igd_plus: Option<f64>,
}

/// The values told so far, in minimisation form, with the indicators' fixed inputs.
pub(crate) struct FrontTracker<'a> {
    objectives: &'a Objectives,
    values: Vec<f64>,
    iters: Vec<usize>,
    reference: Option<Vec<f64>>,
    true_front: Option<Vec<f64>>,
}

impl<'a> FrontTracker<'a> {
    pub(crate) fn new(objectives: &'a Objectives) -> Self {
        Self {
            objectives,
            values: Vec::new(),
            iters: Vec::new(),
            reference: objectives
                .reference_point()
                .map(|r| objectives.to_minimization(r)),
            true_front: objectives.front().map(|front| {
                front
                    .iter()
                    .flat_map(|z| objectives.to_minimization(z))
                    .collect()
            }),
        }
    }

    /// Adds step `iter`'s values (each in its objective's sense) where the point is
    /// `feasible` (an infeasible point joins no front: docs/conventions.md, "Constraints"), and
    /// returns the indicators of the feasible points told so far. Before the first feasible
    /// point the front is empty: hypervolume 0 and no IGD+.
    pub(crate) fn push(
        &mut self,
        iter: usize,
        values: &[f64],
        feasible: bool,
    ) -> Result<FrontIndicators, pareto::ParetoError> {
        if feasible {
            self.values.extend(self.objectives.to_minimization(values));
            self.iters.push(iter);
        }
        if self.iters.is_empty() {
            let hypervolume = self.reference.as_ref().map(|_| 0.0);
            return Ok(FrontIndicators {
                front: Vec::new(),
                hypervolume,
                log_hv_difference: hypervolume
                    .zip(self.objectives.max_hypervolume())
                    .map(|(_, max)| max.log10()),
                igd_plus: None,
            });
        }
        let m = self.objectives.count();
        let kept = pareto::non_dominated(pareto::Front::new(&self.values, m)?);
        let front: Vec<f64> = kept
            .iter()
            .flat_map(|&i| self.values[i * m..(i + 1) * m].iter().copied())
            .collect();
        let hypervolume = match &self.reference {
            Some(r) => Some(pareto::hypervolume(pareto::Front::new(&front, m)?, r)?),
            None => None,
        };
        let log_hv_difference = hypervolume
            .zip(self.objectives.max_hypervolume())
            .map(|(hv, max)| (max - hv).max(DIFFERENCE_FLOOR * max).log10());
        let igd_plus = match &self.true_front {
            Some(z) => Some(pareto::igd_plus(
                pareto::Front::new(&front, m)?,
                pareto::Front::new(z, m)?,
            )?),
            None => None,
        };
        Ok(FrontIndicators {
            front: kept.iter().map(|&i| self.iters[i]).collect(),
            hypervolume,
            log_hv_difference,
            igd_plus,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep_problems::Sense;

    /// Only feasible points join the front: before the first one it is empty, with hypervolume
    /// 0 and `log10 HV_max` as the difference; an infeasible point that would dominate
    /// everything changes nothing.
    #[test]
    fn infeasible_points_join_no_front() {
        let objectives = Objectives::new(vec![Sense::Minimize, Sense::Minimize])
            .unwrap()
            .with_reference_point(vec![4.0, 4.0])
            .unwrap()
            .with_max_hypervolume(16.0)
            .unwrap();
        let mut tracker = FrontTracker::new(&objectives);
        let none = tracker.push(1, &[0.0, 0.0], false).unwrap();
        assert_eq!(none.front, Vec::<usize>::new());
        assert_eq!(none.hypervolume, Some(0.0));
        assert_eq!(none.log_hv_difference, Some(16f64.log10()));
        assert_eq!(none.igd_plus, None);
        let one = tracker.push(2, &[2.0, 2.0], true).unwrap();
        assert_eq!((one.front, one.hypervolume), (vec![2], Some(4.0)));
        let still = tracker.push(3, &[1.0, 1.0], false).unwrap();
        assert_eq!((still.front, still.hypervolume), (vec![2], Some(4.0)));
        let two = tracker.push(4, &[1.0, 3.0], true).unwrap();
        assert_eq!((two.front, two.hypervolume), (vec![2, 4], Some(5.0)));
    }
}
