//! TuRBO-1 (`turbo`) behind the ask/tell interface.

use super::candidates::candidate_count;
use super::draws::{Draws, draws_memory_bytes};
use super::sampling::Sampling;
use super::sampling::ThompsonSampler;
use super::settings::Turbo;
use super::trust_region::{Change, RegionSchedule, TrustRegion, constrained_success, group_bests};
use crate::boke::latin_hypercube;
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::Engine;
use bosweep_problems::Problem;
use bosweep_toolkit::surrogate::GpModel;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog, fit_gp_model,
};
use std::time::Instant;

impl Turbo {
    fn schedule(&self) -> RegionSchedule {
        RegionSchedule {
            length_init: self.length_init,
            length_min: self.length_min,
            length_max: self.length_max,
            success_tolerance: self.success_tolerance,
            failure_tolerance: self.failure_tolerance,
        }
    }
}

/// How many candidates a step takes in `dim` dimensions when `n_candidates` is 0: TuRBO's
/// reference rule, or SCBO's (BoTorch's tutorial).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CandidateRule {
    /// `min(100·d, 5000)`.
    Turbo,
    /// `min(5000, max(2000, 200·d))`.
    Scbo,
}

impl CandidateRule {
    pub(super) fn count(self, given: usize, dim: usize) -> usize {
        match (self, given) {
            (Self::Scbo, 0) => (200 * dim).clamp(2000, 5000),
            _ => candidate_count(given, dim),
        }
    }
}

/// Who chose an asked point: a restart's design or the trust region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Design,
    Region,
}

/// A point asked and not yet told, with the restart it belongs to.
#[derive(Clone, Debug)]
struct Asked {
    x: Vec<f64>,
    restart: usize,
    role: Role,
}

/// TuRBO-1 behind the ask/tell interface (see the module documentation).
pub(super) struct TurboAlgorithm {
    params: Params,
    settings: Turbo,
    rule: CandidateRule,
    /// Every told point, with its constraint values' total violation: the recommendation's.
    history: History,
    /// The current restart's told points: the GP's data and the region's centre (the best
    /// feasible point first, as SCBO centres it).
    pub(super) data: History,
    /// The current restart's values of each black-box constraint, one history per constraint
    /// (none without constraints): SCBO's constraint models' data.
    constraint_data: Vec<History>,
    /// The constraint models of the latest fit, one per constraint (warm starts).
    constraint_models: Vec<GpModel>,
    /// The region; `None` before the first ask, when the dimension is learnt.
    region: Option<TrustRegion>,
    restarts: usize,
    /// The current restart's design (problem coordinates) and how many were handed out.
    design: Vec<Vec<f64>>,
    design_next: usize,
    /// Whether the next ask draws a new restart's design.
    restart_due: bool,
    /// Points of the run's initial design (told before the first ask).
    run_design: Option<usize>,
    asked: Vec<Asked>,
    /// Indices in `data` of the region's points told since the counters last moved.
    group: Vec<usize>,
    /// The batch size: one more than the most points pending at any ask.
    batch: usize,
    draws: Option<Draws>,
    /// The restart's latest fit (the draws'), for the next fit's warm start.
    model: Option<GpModel>,
    /// The Cholesky jitter of the latest joint posterior.
    jitter: Option<f64>,
    log: StepLog,
}

impl TurboAlgorithm {
    pub(super) fn new(params: Params, settings: Turbo, rule: CandidateRule) -> Self {
        Self {
            params,
            settings,
            rule,
            history: History::default(),
            data: History::default(),
            constraint_data: Vec::new(),
            constraint_models: Vec::new(),
            region: None,
            restarts: 0,
            design: Vec::new(),
            design_next: 0,
            restart_due: false,
            run_design: None,
            asked: Vec::new(),
            group: Vec::new(),
            batch: 1,
            draws: None,
            model: None,
            jitter: None,
            log: StepLog::default(),
        }
    }

    /// Thompson sampling over the candidates of a step in `dim` dimensions.
    fn sampling(&self, dim: usize) -> Sampling {
        Sampling {
            sampler: self.settings.sampler,
            candidates: self.rule.count(self.settings.n_candidates, dim),
            features: self.settings.n_features,
        }
    }

    /// Points of a restart's design in `dim` dimensions.
    fn design_size(&self, dim: usize) -> usize {
        match (self.settings.restart_design, self.run_design) {
            (0, Some(run)) if run > 0 => run,
            (0, _) => 2 * dim,
            (given, _) => given,
        }
    }

    /// The trace's `extra`, [`TrustRegion::record`]'s: the region's side `length`, its
    /// `successes` and `failures` counters, the `failure_tolerance` at the batch size `batch`
    /// learnt so far, `restarts` so far, the `phase` of the last ask (`design` or `region`) and
    /// the Cholesky `jitter` of the latest joint posterior. Empty before the first ask.
    fn record(&mut self, phase: Option<&str>) {
        let Some(region) = &self.region else {
            return;
        };
        self.log.extra = region.record(
            &self.log.extra,
            (self.batch, self.restarts),
            phase,
            self.jitter,
        );
    }

    /// The next design point of the restart, if any is left: a restart's Latin hypercube, or
    /// while nothing of the restart is told yet and its design is all handed out (a batch
    /// larger than the design), a uniform point of the box.
    fn design_point(&mut self, ctx: &mut AskContext<'_>) -> Option<Vec<f64>> {
        if self.restart_due {
            self.restart_due = false;
            let size = self.design_size(ctx.domain.dim());
            self.design = latin_hypercube(size, ctx.domain.dim(), ctx.rng)
                .iter()
                .map(|u| ctx.domain.from_unit(u))
                .collect();
            self.design_next = 0;
        }
        if self.design_next < self.design.len() {
            self.design_next += 1;
            return Some(self.design[self.design_next - 1].clone());
        }
        self.data.is_empty().then(|| ctx.domain.sample(ctx.rng))
    }

    /// The Thompson draws for this ask: the batch's, when points are pending and nothing was
    /// told since they were made and a candidate is left; otherwise a fresh fit on the
    /// restart's data, candidates in the region around its best point, and their joint
    /// posterior.
    fn step_draws(&mut self, ctx: &mut AskContext<'_>) -> Result<&mut Draws, AlgorithmError> {
        let told = self.history.len();
        let pending = !ctx.pending.is_empty();
        if !self.draws.as_ref().is_some_and(|d| d.serve(pending, told)) {
            let region = self.region.as_ref().expect("set at the first ask");
            let sampling = self.sampling(ctx.domain.dim());
            let (mut draws, model) = Draws::fit(
                &self.settings.gp,
                &self.data,
                self.model.as_ref(),
                region,
                sampling,
                told,
                ctx,
                &mut self.log.cost,
            )?;
            let start = Instant::now();
            let constraint_models = self
                .constraint_data
                .iter()
                .enumerate()
                .map(|(j, data)| {
                    fit_gp_model(&self.settings.gp, data, self.constraint_models.get(j), ctx)
                })
                .collect::<Result<Vec<_>, _>>()?;
            self.log.cost.model_seconds += start.elapsed().as_secs_f64();
            let start = Instant::now();
            draws.constrain(ctx.engine, &constraint_models)?;
            self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
            self.jitter = Some(draws.jitter());
            self.model = Some(model);
            self.constraint_models = constraint_models;
            self.draws = Some(draws);
        }
        Ok(self.draws.as_mut().expect("set above"))
    }

    /// A told point joins the restart's data, its constraint values each constraint's.
    fn push_data(&mut self, feedback: &Feedback<'_>) {
        self.data
            .push_constrained(feedback.x, feedback.y, feedback.constraints);
        for (data, value) in self.constraint_data.iter_mut().zip(feedback.constraints) {
            data.push(feedback.x, *value);
        }
    }

    /// Counts the group of the region's told points once it holds a batch: its best against
    /// the restart's best before it; a collapse of the region starts a new restart.
    fn count_group(&mut self) {
        if self.group.len() < self.batch {
            return;
        }
        let region = self.region.as_mut().expect("the region asked these points");
        let outcome = if self.constraint_data.is_empty() {
            let (batch_best, best) = group_bests(self.data.ys(), &self.group);
            region.update(batch_best, best, self.batch)
        } else {
            region.count(constrained_success(&self.data, &self.group), self.batch)
        };
        self.group.clear();
        if outcome.change == Change::Restart {
            self.restarts += 1;
            self.data = History::default();
            self.constraint_data
                .iter_mut()
                .for_each(|data| *data = History::default());
            self.draws = None;
            self.model = None;
            self.constraint_models.clear();
            self.restart_due = true;
        }
    }
}

impl Algorithm for TurboAlgorithm {
    /// Keeps one history per black-box constraint of the problem (SCBO), which needs the exact
    /// sampler.
    fn prepare(&mut self, problem: &dyn Problem) -> Result<(), AlgorithmError> {
        let k = problem.constraint_count();
        if k > 0 && self.settings.sampler == ThompsonSampler::Pathwise {
            return Err(AlgorithmError::Config(format!(
                "sampler = pathwise does not take black-box constraints (problem \"{}\" has {k}): \
                 the engine keeps each path's maximum, not its values at every candidate, which \
                 the constrained Thompson draw needs; use sampler = exact",
                problem.name()
            )));
        }
        self.constraint_data = vec![History::default(); k];
        Ok(())
    }

    /// On a constrained problem it is SCBO: a GP per constraint, constrained Thompson draws, the
    /// region centred at the best feasible point and counted by SCBO's success rule.
    fn handles_constraints(&self) -> bool {
        true
    }

    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.region.is_none() {
            self.run_design = Some(self.history.len());
            self.region = Some(TrustRegion::new(self.settings.schedule(), ctx.domain.dim()));
            self.restart_due = self.history.is_empty();
        }
        if let Some(x) = self.design_point(ctx) {
            self.asked.push(Asked {
                x: x.clone(),
                restart: self.restarts,
                role: Role::Design,
            });
            self.record(Some("design"));
            return Ok(Proposal { x, repeats: 1 });
        }
        self.batch = self.batch.max(ctx.pending.len() + 1);
        let draws = self.step_draws(ctx)?;
        let start = Instant::now();
        let x = ctx.domain.from_unit(draws.next(ctx.engine, ctx.rng)?);
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        self.asked.push(Asked {
            x: x.clone(),
            restart: self.restarts,
            role: Role::Region,
        });
        self.record(Some("region"));
        Ok(Proposal { x, repeats: 1 })
    }

    /// A batch's points are independent sample paths' maxima over one candidate set, never the
    /// same candidate twice.
    fn accepts_pending(&self) -> bool {
        true
    }

    /// Records the value; a point of the current restart joins its data, and one the region
    /// proposed joins the group the counters move on. Values told before the first ask (the
    /// run's design) or of points not asked are data of the current restart too.
    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        if feedback.constraints.len() != self.constraint_data.len() {
            return Err(AlgorithmError::Config(format!(
                "TuRBO was told {} constraint values; it keeps {} (was it prepared for its \
                 problem?)",
                feedback.constraints.len(),
                self.constraint_data.len()
            )));
        }
        self.history
            .push_constrained(feedback.x, feedback.y, feedback.constraints);
        let asked = self
            .asked
            .iter()
            .position(|a| a.x == feedback.x)
            .map(|i| self.asked.remove(i));
        match asked {
            Some(a) if a.restart != self.restarts => {}
            Some(Asked {
                role: Role::Region, ..
            }) => {
                self.push_data(feedback);
                self.group.push(self.data.len() - 1);
                self.count_group();
            }
            _ => self.push_data(feedback),
        }
        self.record(None);
        Ok(())
    }

    /// The best observed point of the run, feasible first.
    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        Ok(self.history.best_x())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }

    /// A GP's (with no grid) plus its sampler's draws over the candidates of a step
    /// ([`draws_memory_bytes`]).
    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        let outcomes = 1 + self.constraint_data.len() as u64;
        outcomes.saturating_mul(draws_memory_bytes(self.sampling(dim), budget, dim))
    }
}
