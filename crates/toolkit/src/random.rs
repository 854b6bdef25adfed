//! Random search: uniform points in the box, or uniform members of the allowed set.

use std::time::Instant;

use rand::RngExt;

use crate::algorithm::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog,
};
use crate::pending_rows::rule_out_pending_rows;
use bosweep_engine::Engine;
use bosweep_problems::ParamValue;

/// Proposes independent uniform points; recommends the best observed one, feasible first.
#[derive(Debug, Default)]
pub struct RandomSearch {
    history: History,
    /// Drawing a point is its acquisition's seconds: small, but what it spends.
    log: StepLog,
}

impl RandomSearch {
    /// A search with nothing observed.
    pub fn new() -> Self {
        Self::default()
    }
}

/// A uniform point of the box, or a uniform member of the allowed set among the rows not
/// pending (so a batch never proposes one twice): random search's step, and a model-based
/// method's first one when nothing is observed yet.
pub fn uniform_point(ctx: &mut AskContext<'_>) -> Result<Vec<f64>, AlgorithmError> {
    Ok(match ctx.allowed {
        Some(set) if !set.is_empty() && ctx.pending.is_empty() => {
            set.row(ctx.rng.random_range(0..set.rows())).to_vec()
        }
        Some(set) if !set.is_empty() => {
            let mut weights = vec![0.0_f64; set.rows()];
            rule_out_pending_rows(&mut weights, set, ctx.pending)?;
            let free: Vec<usize> = (0..set.rows())
                .filter(|&i| weights[i].is_finite())
                .collect();
            set.row(free[ctx.rng.random_range(0..free.len())]).to_vec()
        }
        _ => ctx.domain.sample(ctx.rng),
    })
}

impl Algorithm for RandomSearch {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let start = Instant::now();
        let x = uniform_point(ctx);
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        Ok(Proposal { x: x?, repeats: 1 })
    }

    /// Independent draws over a box; over a finite allowed set, draws among the rows not
    /// pending.
    fn accepts_pending(&self) -> bool {
        true
    }

    /// Its draws ignore the values, so any number of objectives is fine; on several, the run
    /// recommends the non-dominated set of the points drawn.
    fn handles_several_objectives(&self) -> bool {
        true
    }

    /// Its draws ignore the constraints too; it recommends feasible first
    /// ([`History::best`]).
    fn handles_constraints(&self) -> bool {
        true
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        self.history
            .push_constrained(feedback.x, feedback.y, feedback.constraints);
        Ok(())
    }

    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        Ok(self.history.best_x())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        Vec::new()
    }

    /// The history only.
    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        (budget as u64)
            .saturating_mul(dim as u64 + 1)
            .saturating_mul(8)
    }
}
