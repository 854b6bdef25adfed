//! One run's decisions as ask/tell: the initial design first, then the algorithm, from the run's
//! seed. A sweep's run drives it with a [`Problem`](bosweep_problems::Problem) that evaluates
//! the points; an [`Optimizer`](super::Optimizer), whose caller evaluates them, drives the same
//! session, so the same seed gives the same decisions either way.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::algorithm::{Algorithm, AlgorithmError, AskContext, Feedback, Proposal};
use bosweep_engine::{CpuEngine, Engine, Points};
use bosweep_problems::{Domain, Observation, Problem};

/// Where a proposal comes from: the initial design, or the algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A point of the initial space-filling design.
    Design,
    /// A point the algorithm chose.
    Algorithm,
}

/// The state between asks: the design still to evaluate, the step, the run's random stream
/// (shared by the algorithm's choices and the observation noise, as a run draws them).
pub struct Session {
    design: Vec<Vec<f64>>,
    step: usize,
    rng: ChaCha8Rng,
    /// The run's f64 reference engine ([`AskContext::reference`]), one for the whole run.
    reference: CpuEngine,
}

impl Session {
    /// A session that proposes `design` first, then asks the algorithm, drawing from a stream
    /// seeded with `seed`.
    pub fn new(design: Vec<Vec<f64>>, seed: u64) -> Self {
        Self {
            design,
            step: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            reference: CpuEngine::new(),
        }
    }

    /// The step of the last [`Session::ask`] (1-based; 0 before the first).
    pub fn step(&self) -> usize {
        self.step
    }

    /// Points of the initial design (its steps are `1..=design_size`).
    pub fn design_size(&self) -> usize {
        self.design.len()
    }

    /// Points of the initial design not asked yet.
    pub fn design_left(&self) -> usize {
        self.design.len().saturating_sub(self.step)
    }

    /// The run's random stream, for the observation noise of the step just asked.
    pub fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }

    /// The next point: the next design point (with the algorithm's initial repeats), else the
    /// algorithm's choice over `domain` (restricted to `allowed` where the problem says so),
    /// knowing the points asked and not yet told (`pending`).
    pub fn ask(
        &mut self,
        algorithm: &mut dyn Algorithm,
        engine: &dyn Engine,
        domain: &Domain,
        allowed: Option<&Points>,
        pending: &[Vec<f64>],
    ) -> Result<(Origin, Proposal), AlgorithmError> {
        self.step += 1;
        if let Some(x) = self.design.get(self.step - 1) {
            let proposal = Proposal {
                x: x.clone(),
                repeats: algorithm.initial_repeats(),
            };
            return Ok((Origin::Design, proposal));
        }
        let mut ctx = AskContext {
            engine,
            reference: &self.reference,
            domain,
            allowed,
            t: self.step,
            pending,
            rng: &mut self.rng,
        };
        Ok((Origin::Algorithm, algorithm.ask(&mut ctx)?))
    }

    /// Tells the algorithm what the point `x` asked at `step` gave on `problem`, in the
    /// problem's senses (the algorithm learns it in the maximisation sense).
    pub fn tell(
        &mut self,
        algorithm: &mut dyn Algorithm,
        problem: &dyn Problem,
        step: usize,
        x: &[f64],
        observation: &Observation,
    ) -> Result<(), AlgorithmError> {
        let sense = problem.sense();
        let internal: Vec<f64> = observation
            .repeats
            .iter()
            .map(|v| sense.to_maximization(*v))
            .collect();
        let objectives = problem
            .objectives()
            .map(|o| o.to_maximization(&observation.objectives))
            .unwrap_or_default();
        algorithm.tell(&Feedback {
            x,
            y: sense.to_maximization(observation.y),
            repeats: &internal,
            context: observation.context.as_deref(),
            t: step,
            objectives: &objectives,
            constraints: &observation.constraints,
        })
    }
}
