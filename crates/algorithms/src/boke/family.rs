//! What the BOKE family's algorithms (BOKE, BOKE+, density exploration, KR-UCB and the paper's
//! fixed GP-UCB) share: their checked parameters, the Latin-hypercube design that opens every
//! run, the observations in unit-cube coordinates, and the step log.

use serde_json::{Map, json};

use super::data::{LatinHypercube, UnitHistory};
use crate::{AlgorithmError, AskContext, Feedback, Proposal, StepLog};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::Points;

pub struct FamilyState {
    params: Params,
    design: LatinHypercube,
    pub history: UnitHistory,
    pub log: StepLog,
}

impl FamilyState {
    pub fn new(params: Params) -> Self {
        Self {
            design: LatinHypercube::new(super::LHS_INIT.of(&params)),
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

    pub fn tell(&mut self, feedback: &Feedback<'_>) {
        self.history.push(feedback.x, feedback.y);
    }

    pub fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }
}
