//! What the BOKE family's algorithms (BOKE, BOKE+, density exploration, KR-UCB and the paper's
//! fixed GP-UCB) share: their checked parameters, the Latin-hypercube design that opens every
//! run, the observations in unit-cube coordinates, and the step log.

use serde_json::{Map, json};

use super::data::{LatinHypercube, UnitHistory};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::Points;
use bosweep_toolkit::{AlgorithmError, AskContext, Feedback, Proposal, StepLog};

/// The state every algorithm of the family keeps besides its own.
pub(super) struct FamilyState {
    params: Params,
    design: LatinHypercube,
    /// The observations, raw and in unit-cube coordinates.
    pub history: UnitHistory,
    /// This step's log.
    pub log: StepLog,
}

impl FamilyState {
    /// The state of a run from the checked `params` (for the trace header and messages) that
    /// opens with `lhs_init` Latin-hypercube points.
    pub fn new(params: Params, lhs_init: usize) -> Self {
        Self {
            design: LatinHypercube::new(lhs_init),
            params,
            history: UnitHistory::default(),
            log: StepLog::default(),
        }
    }

    /// The design's next point while any remain, logged as a design step.
    pub fn design_step(&mut self, ctx: &mut AskContext<'_>) -> Option<Proposal> {
        let x = self.design.next(ctx.domain, ctx.rng)?;
        self.log.extra = Map::new();
        self.log.extra.insert("design".into(), json!("lhs"));
        Some(Proposal { x, repeats: 1 })
    }

    /// The observations in unit-cube coordinates; an error naming the algorithm when there is
    /// none to model.
    pub fn observed_units(&mut self, ctx: &AskContext<'_>) -> Result<Points, AlgorithmError> {
        self.history.sync(ctx.domain);
        let data = self.history.units()?;
        if data.rows() == 0 {
            return Err(AlgorithmError::Config(format!(
                "{} needs at least one initial-design point (init ≥ 1 or lhs_init ≥ 1)",
                self.params.name()
            )));
        }
        Ok(data)
    }

    /// Records an observation.
    pub fn tell(&mut self, feedback: &Feedback<'_>) {
        self.history.push(feedback.x, feedback.y);
    }

    /// The checked parameters, for the trace header.
    pub fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }
}
