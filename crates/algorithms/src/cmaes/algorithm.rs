//! CMA-ES (`cmaes`) behind the ask/tell interface.

use super::settings::Cmaes;
use super::strategy::{Distribution, StrategyParameters};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::Engine;
use bosweep_problems::Domain;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, json};
use std::time::Instant;

/// One generation: the stream its λ members are drawn from (seeded from the run's stream at
/// the generation's start, so the members are fixed then, yet drawn only as they are asked,
/// however large λ grows), the members handed out in the problem's coordinates and in the unit
/// cube, and the values told so far (minimised: `−y`).
#[derive(Debug)]
struct Generation {
    stream: ChaCha8Rng,
    points: Vec<Vec<f64>>,
    unit: Vec<Vec<f64>>,
    values: Vec<Option<f64>>,
}

/// CMA-ES with restarts behind the ask/tell interface (see the module documentation).
#[derive(Debug)]
pub(super) struct CmaesAlgorithm {
    params: Params,
    settings: Cmaes,
    history: History,
    /// The running strategy; `None` before the first ask and after a stop, until the next ask
    /// starts a run (the restart's mean is drawn from the ask's random stream).
    pub(super) distribution: Option<Distribution>,
    generation: Option<Generation>,
    /// The population size of the next run.
    lambda: usize,
    restarts: usize,
    log: StepLog,
}

impl CmaesAlgorithm {
    pub(super) fn new(params: Params, settings: Cmaes) -> Self {
        Self {
            params,
            settings,
            history: History::default(),
            distribution: None,
            generation: None,
            lambda: 0,
            restarts: 0,
            log: StepLog::default(),
        }
    }

    /// A new run at `mean` (unit cube) with the current population size.
    fn start(&mut self, domain: &Domain, mean: &[f64]) {
        if self.lambda == 0 {
            self.lambda = match self.settings.popsize {
                0 => StrategyParameters::default_lambda(domain.dim()),
                given => given,
            };
        }
        let params = StrategyParameters::new(domain.dim(), self.lambda);
        self.distribution = Some(Distribution::new(mean, self.settings.sigma0, params));
    }

    /// The trace's `extra`: `sigma` and `generation` (generations updated) of the running
    /// strategy, `restarts` so far and the population size `lambda` of the current run (of the
    /// next one, between a stop and the ask that restarts). Empty before the first ask.
    fn record(&mut self) {
        if self.lambda == 0 {
            return;
        }
        let mut extra = Map::new();
        if let Some(d) = &self.distribution {
            extra.insert("sigma".into(), json!(d.sigma()));
            extra.insert("generation".into(), json!(d.generation()));
        }
        extra.insert("restarts".into(), json!(self.restarts));
        extra.insert("lambda".into(), json!(self.lambda));
        self.log.extra = extra;
    }

    /// Updates on a complete generation, then restarts (at the next ask) on a stop criterion.
    fn finish_generation(&mut self) {
        let generation = self.generation.take().expect("a complete generation");
        let told: Vec<(Vec<f64>, f64)> = generation
            .unit
            .into_iter()
            .zip(generation.values)
            .map(|(x, v)| (x, v.expect("every member told")))
            .collect();
        let distribution = self.distribution.as_mut().expect("a run has started");
        distribution.update(&told);
        let stopped = distribution
            .stop(self.settings.tol_x, self.settings.tol_fun)
            .is_some();
        if stopped && self.restarts < self.settings.max_restarts {
            self.restarts += 1;
            if self.settings.ipop {
                self.lambda = self.lambda.saturating_mul(2);
            }
            self.distribution = None;
        }
    }
}

/// One sample of `distribution` drawn from `rng`, mirrored into the cube, in the problem's
/// coordinates and in the cube.
fn draw(
    distribution: &Distribution,
    domain: &Domain,
    rng: &mut ChaCha8Rng,
) -> (Vec<f64>, Vec<f64>) {
    let unit: Vec<f64> = distribution.sample(rng).into_iter().map(mirror).collect();
    (domain.from_unit(&unit), unit)
}

/// `v` reflected at 0 and 1 until it lies in `[0, 1]`.
pub(super) fn mirror(v: f64) -> f64 {
    let t = v.rem_euclid(2.0);
    if t > 1.0 { 2.0 - t } else { t }
}

impl CmaesAlgorithm {
    /// The next point: the current generation's next member, starting a run where none is
    /// under way.
    fn propose(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.distribution.is_none() {
            let mean = if self.restarts > 0 {
                (0..ctx.domain.dim())
                    .map(|_| ctx.rng.random::<f64>())
                    .collect()
            } else if self.history.is_empty() {
                vec![0.5; ctx.domain.dim()]
            } else {
                ctx.domain.to_unit(&self.history.best_x())
            };
            self.start(ctx.domain, &mean);
        }
        let distribution = self.distribution.as_ref().expect("a run has started");
        let generation = self.generation.get_or_insert_with(|| Generation {
            stream: ChaCha8Rng::seed_from_u64(ctx.rng.random()),
            points: Vec::new(),
            unit: Vec::new(),
            values: Vec::new(),
        });
        let x = if generation.points.len() < self.lambda {
            let (x, unit) = draw(distribution, ctx.domain, &mut generation.stream);
            generation.points.push(x.clone());
            generation.unit.push(unit);
            generation.values.push(None);
            x
        } else {
            draw(distribution, ctx.domain, ctx.rng).0
        };
        self.record();
        Ok(Proposal { x, repeats: 1 })
    }

    /// Records a value; a generation whose members all have theirs updates the distribution.
    fn learn(&mut self, feedback: &Feedback<'_>) {
        self.history.push(feedback.x, feedback.y);
        if let Some(generation) = &mut self.generation {
            let member = (0..generation.points.len())
                .find(|&i| generation.values[i].is_none() && generation.points[i] == feedback.x);
            if let Some(i) = member {
                generation.values[i] = Some(-feedback.y);
                if generation.values.len() == self.lambda
                    && generation.values.iter().all(Option::is_some)
                {
                    self.finish_generation();
                }
            }
        }
        self.record();
    }
}

/// Sampling a member is the acquisition's seconds, updating the distribution the model's, so
/// that a report's seconds per iteration shows what CMA-ES spends rather than nothing.
impl Algorithm for CmaesAlgorithm {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let start = Instant::now();
        let proposal = self.propose(ctx);
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        proposal
    }

    /// Pending points are the current generation's members (or extras beyond them).
    fn accepts_pending(&self) -> bool {
        true
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        let start = Instant::now();
        self.learn(feedback);
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();
        Ok(())
    }

    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        Ok(self.history.best_x())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }

    /// The history, the generation's members handed out (in both coordinates; never more than
    /// the budget, since members are drawn as asked) and a few `d × d` matrices.
    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        let (n, d) = (budget as u64, dim as u64);
        (n.saturating_mul(3 * d + 2) + 6 * d * d).saturating_mul(8)
    }
}
