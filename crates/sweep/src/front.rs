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

    /// Adds step `iter`'s values (each in its objective's sense) and returns the indicators
    /// of everything told so far.
    pub(crate) fn push(
        &mut self,
        iter: usize,
        values: &[f64],
    ) -> Result<FrontIndicators, pareto::ParetoError> {
        self.values.extend(self.objectives.to_minimization(values));
        self.iters.push(iter);
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
