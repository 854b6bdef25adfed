//! CMA-ES with IPOP restarts as a model-free baseline (`cmaes`): Hansen's (μ/μ_w, λ)-CMA-ES
//! ("The CMA Evolution Strategy: A Tutorial", arXiv:1604.00772, Appendix A, Table 1 defaults)
//! restarted with a doubled population on a stop criterion (Auger and Hansen 2005,
//! "A Restart CMA Evolution Strategy With Increasing Population Size").
//!
//! The strategy works in the unit cube (the problem's box mapped to `[0, 1]^d`, like the GP
//! methods) and minimises `−y`. How it maps to ask/tell:
//! - the first generation's mean is the best told point (the initial design's best; the box
//!   centre if nothing was told) and its step size `sigma0`, in unit-cube units; a restart's
//!   mean is uniform in the cube;
//! - a generation's λ members are fixed when its first member is asked (drawn from a stream
//!   seeded then from the run's random stream, so runs repeat from their seed) and handed out
//!   one per ask; the distribution updates once all λ are told, in any order;
//! - with every member handed out and some untold (batches, asynchronous workers), further
//!   asks draw extra points from the current distribution: they are evaluated and count for
//!   the best value, not for the update;
//! - infeasible samples are repaired by mirroring at the cube's faces (reflection, repeated
//!   until inside), and the repaired point, the one evaluated, enters the update (the
//!   tutorial's repair with the repaired solution used for the update);
//! - problems with a finite allowed set are refused up front ([`Requirement::Continuous`]).

mod strategy;
#[cfg(test)]
mod tests;

use std::time::Instant;

use serde_json::{Map, json};

use strategy::{Distribution, StrategyParameters};

use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::Engine;
use bosweep_problems::Domain;
use bosweep_toolkit::AlgorithmEntry;
use bosweep_toolkit::Requirement;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

bosweep_core::settings! {
    /// Typed settings of CMA-ES with IPOP restarts (`cmaes`).
    ///
    /// ```
    /// use bosweep_algorithms::{AlgorithmSettings, Cmaes};
    ///
    /// let settings = Cmaes::default().sigma0(0.2).popsize(12);
    /// assert_eq!((settings.sigma0, settings.popsize, settings.ipop), (0.2, 12, true));
    /// assert_eq!(settings.name(), "cmaes");
    /// assert!(settings.build().is_ok());
    /// ```
    pub struct Cmaes {
        sigma0: f64 = 0.3 => (
            "initial step size σ0, in unit-cube units (the box mapped to [0, 1]^d)",
            1e-12,
            10.0
        ),
        popsize: usize = 0 => (
            "population size λ of the first run (0: the default 4 + ⌊3 ln n⌋; at least 2)",
            0,
            1_000_000
        ),
        ipop: bool = true => (
            "restart with the population size doubled (IPOP); false: restarts keep the population size"
        ),
        max_restarts: usize = 9 => ("restarts at most; past them a stopped run carries on", 0, 1000),
        tol_x: f64 = 1e-11 => (
            "stop (and restart) when σ·p_c and σ·√C_ii are below this in every coordinate",
            0.0,
            1.0
        ),
        tol_fun: f64 = 1e-11 => (
            "stop (and restart) when the recent generations' best values and the last generation's values lie within this range",
            0.0,
            1e300
        ),
    }
}

impl Method for Cmaes {
    const NAME: &'static str = "cmaes";
    const DESCRIPTION: &'static str = "CMA-ES (Hansen's tutorial, 2016) with IPOP restarts (Auger and Hansen 2005) in the unit cube, mirrored at the bounds; model-free";
    const REQUIRES: Requirement = Requirement::Continuous;

    /// A population of one has no spread to adapt.
    fn check(&self) -> Result<(), AlgorithmError> {
        if self.popsize == 1 {
            return Err(AlgorithmError::Config(
                "algorithm cmaes: parameter popsize = 1 is invalid (must be 0 or at least 2)"
                    .into(),
            ));
        }
        Ok(())
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(CmaesAlgorithm::new(params, self)))
    }
}

/// The `cmaes` registry entry.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[AlgorithmEntry::of::<Cmaes>()];

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
struct CmaesAlgorithm {
    params: Params,
    settings: Cmaes,
    history: History,
    /// The running strategy; `None` before the first ask and after a stop, until the next ask
    /// starts a run (the restart's mean is drawn from the ask's random stream).
    distribution: Option<Distribution>,
    generation: Option<Generation>,
    /// The population size of the next run.
    lambda: usize,
    restarts: usize,
    log: StepLog,
}

impl CmaesAlgorithm {
    fn new(params: Params, settings: Cmaes) -> Self {
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
fn mirror(v: f64) -> f64 {
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
