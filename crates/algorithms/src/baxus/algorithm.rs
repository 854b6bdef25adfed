//! BAxUS (`baxus`) behind the ask/tell interface.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use serde_json::json;

use super::embedding::Embedding;
use super::schedule::{SplitSchedule, initial_target_dim};
use super::settings::Baxus;
use crate::boke::latin_hypercube;
use crate::turbo::{
    Change, Draws, RegionSchedule, Sampling, TrustRegion, candidate_count, draws_memory_bytes,
    group_bests,
};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::Engine;
use bosweep_problems::Domain;
use bosweep_toolkit::surrogate::GpModel;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepCost, StepLog,
};

impl Baxus {
    /// The region's side-length schedule; its failure tolerance is the split schedule's.
    fn region_schedule(&self) -> RegionSchedule {
        RegionSchedule {
            length_init: self.length_init,
            length_min: self.length_min,
            length_max: self.length_max,
            success_tolerance: self.success_tolerance,
            failure_tolerance: 0,
        }
    }

    /// Thompson sampling over the candidates of a step in a `dim`-dimensional target space.
    fn sampling(&self, dim: usize) -> Sampling {
        Sampling {
            sampler: self.sampler,
            candidates: candidate_count(self.n_candidates, dim),
            features: self.n_features,
        }
    }
}

/// Who chose an asked point: a design or the trust region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Design,
    Region,
}

/// A point asked and not yet told: its image in the problem's coordinates (how its value is
/// told), its target point (unit cube of the target space, lifted through the splits since),
/// the restart it belongs to and the region (`epoch`) that proposed it.
#[derive(Clone, Debug)]
struct Asked {
    x: Vec<f64>,
    z: Vec<f64>,
    restart: usize,
    epoch: usize,
    role: Role,
}

/// The search from the first ask on, when the input dimension is known.
struct Search {
    embedding: Embedding,
    schedule: SplitSchedule,
    /// The target space's unit cube: the GP's and the region's domain.
    target: Domain,
    region: TrustRegion,
    /// The current restart's told points, in target coordinates: the GP's data and the
    /// region's centre.
    data: History,
    /// The latest design (target coordinates), how many were handed out, and its size.
    design: Vec<Vec<f64>>,
    design_next: usize,
    design_size: usize,
    splits: usize,
    restarts: usize,
    /// Counts the regions (a split or a restart starts a new one): only the current region's
    /// points move its counters.
    epoch: usize,
    /// Whether the region collapsed: the next ask splits the target space, or restarts at the
    /// input dimension.
    collapsed: bool,
    asked: Vec<Asked>,
    /// Indices in `data` of the region's points told since the counters last moved.
    group: Vec<usize>,
    /// The batch size: one more than the most points pending at any ask.
    batch: usize,
    draws: Option<Draws>,
    /// The region's latest fit, for the next fit's warm start.
    model: Option<GpModel>,
    /// The Cholesky jitter of the latest joint posterior.
    jitter: Option<f64>,
}

impl Search {
    /// The search in `dim` input dimensions planned for `budget` evaluations, `run_design` of
    /// them already told (the run's initial design): an embedding into the initial target
    /// dimension and its first design.
    fn start(
        settings: &Baxus,
        budget: usize,
        run_design: usize,
        dim: usize,
        rng: &mut ChaCha8Rng,
    ) -> Self {
        let initial = initial_target_dim(dim, settings.new_bins);
        let design_size = match settings.design {
            0 if run_design > 0 => run_design,
            0 => initial + 1,
            given => given,
        };
        let evaluations = budget as f64 - (run_design + design_size) as f64;
        let lengths = (settings.length_init, settings.length_min);
        let schedule = SplitSchedule::new(dim, initial, settings.new_bins, evaluations, lengths);
        let embedding = Embedding::new(dim, initial, rng);
        let (target, region) = Self::region(&embedding, &schedule, settings);
        let mut search = Self {
            embedding,
            schedule,
            target,
            region,
            data: History::default(),
            design: Vec::new(),
            design_next: 0,
            design_size,
            splits: 0,
            restarts: 0,
            epoch: 0,
            collapsed: false,
            asked: Vec::new(),
            group: Vec::new(),
            batch: 1,
            draws: None,
            model: None,
            jitter: None,
        };
        search.draw_design(rng);
        search
    }

    /// The target cube and a new region for `embedding`'s target dimension.
    fn region(
        embedding: &Embedding,
        schedule: &SplitSchedule,
        settings: &Baxus,
    ) -> (Domain, TrustRegion) {
        let dim = embedding.target_dim();
        let target = Domain::cube(0.0, 1.0, dim).expect("a target space has a dimension");
        let tolerance = schedule.failure_tolerance(dim);
        let region = TrustRegion::with_point_tolerance(settings.region_schedule(), tolerance);
        (target, region)
    }

    /// A Latin hypercube of the design's size in the target space.
    fn draw_design(&mut self, rng: &mut ChaCha8Rng) {
        self.design = latin_hypercube(self.design_size, self.target.dim(), rng);
        self.design_next = 0;
    }

    /// After a collapse: below the input dimension, every bin splits, the region's data and
    /// pending points move to the new target space (their images unchanged) and a new region
    /// starts on them; at the input dimension, a restart as TuRBO's, from a fresh design on the
    /// identity embedding (the reference's), the data forgotten.
    fn advance(&mut self, settings: &Baxus, rng: &mut ChaCha8Rng) {
        self.collapsed = false;
        let restart = self.embedding.target_dim() == self.embedding.input_dim();
        if restart {
            self.restarts += 1;
            self.data = History::default();
            let dim = self.embedding.input_dim();
            self.embedding = Embedding::new(dim, dim, rng);
        } else {
            let split = self.embedding.split(settings.new_bins, rng);
            let mut data = History::default();
            for (i, &y) in self.data.ys().iter().enumerate() {
                data.push(&split.lift(self.data.x(i)), y);
            }
            self.data = data;
            for asked in self.asked.iter_mut().filter(|a| a.restart == self.restarts) {
                asked.z = split.lift(&asked.z);
            }
            self.splits += 1;
        }
        (self.target, self.region) = Self::region(&self.embedding, &self.schedule, settings);
        if restart {
            self.draw_design(rng);
        }
    }

    /// The next design point, if any is left; while nothing of the restart is told yet and
    /// its design is all handed out (a batch larger than the design), a uniform point.
    fn design_point(&mut self, rng: &mut ChaCha8Rng) -> Option<Vec<f64>> {
        if self.design_next < self.design.len() {
            self.design_next += 1;
            return Some(self.design[self.design_next - 1].clone());
        }
        self.data.is_empty().then(|| self.target.sample(rng))
    }

    /// TuRBO's next point in the target space: a draw of the batch's Thompson draws when
    /// points are pending and nothing was told since (`told` values in all), else of a fresh
    /// fit to the region's data.
    fn region_point(
        &mut self,
        settings: &Baxus,
        told: usize,
        ctx: &mut AskContext<'_>,
        cost: &mut StepCost,
    ) -> Result<Vec<f64>, AlgorithmError> {
        let pending = !ctx.pending.is_empty();
        if !self.draws.as_ref().is_some_and(|d| d.serve(pending, told)) {
            let mut target = AskContext {
                engine: ctx.engine,
                reference: ctx.reference,
                domain: &self.target,
                allowed: None,
                t: ctx.t,
                pending: &[],
                rng: &mut *ctx.rng,
            };
            let (draws, model) = Draws::fit(
                &settings.gp,
                &self.data,
                self.model.as_ref(),
                &self.region,
                settings.sampling(self.target.dim()),
                told,
                &mut target,
                cost,
            )?;
            self.jitter = Some(draws.jitter());
            self.model = Some(model);
            self.draws = Some(draws);
        }
        let start = Instant::now();
        let draws = self.draws.as_mut().expect("set above");
        let z = draws.next(ctx.engine, ctx.rng)?.to_vec();
        cost.acq_seconds += start.elapsed().as_secs_f64();
        Ok(z)
    }

    /// A told value: a point of the current restart joins its data, and one the current region
    /// proposed joins the group its counters move on. The run's initial design (points of the
    /// whole box, not of the embedding), points of earlier restarts and points not asked count
    /// only for the best value.
    fn tell(&mut self, feedback: &Feedback<'_>) {
        let Some(i) = self.asked.iter().position(|a| a.x == feedback.x) else {
            return;
        };
        let asked = self.asked.remove(i);
        if asked.restart != self.restarts {
            return;
        }
        self.data.push(&asked.z, feedback.y);
        if asked.role == Role::Region && asked.epoch == self.epoch {
            self.group.push(self.data.len() - 1);
            self.count_group();
        }
    }

    /// Counts the group once it holds a batch: its best against the region's data before it;
    /// a collapse ends the region (the next ask splits or restarts).
    fn count_group(&mut self) {
        if self.group.len() < self.batch {
            return;
        }
        let (batch_best, best) = group_bests(self.data.ys(), &self.group);
        self.group.clear();
        if self.region.update(batch_best, best, self.batch).change == Change::Restart {
            self.collapsed = true;
            self.epoch += 1;
            self.draws = None;
            self.model = None;
        }
    }
}

/// BAxUS behind the ask/tell interface (see the module documentation).
pub(super) struct BaxusAlgorithm {
    params: Params,
    settings: Baxus,
    /// The run's budget ([`Algorithm::plan_budget`]), when a run told it.
    run_budget: Option<usize>,
    /// Every told point: the recommendation's.
    history: History,
    /// `None` before the first ask.
    search: Option<Search>,
    log: StepLog,
}

impl BaxusAlgorithm {
    pub(super) fn new(params: Params, settings: Baxus) -> Self {
        Self {
            params,
            settings,
            run_budget: None,
            history: History::default(),
            search: None,
            log: StepLog::default(),
        }
    }

    /// The evaluations the split schedule plans for: the `budget` setting, else the run's.
    fn budget(&self) -> Result<usize, AlgorithmError> {
        match (self.settings.budget, self.run_budget) {
            (0, Some(run)) => Ok(run),
            (0, None) => Err(AlgorithmError::Config(
                "algorithm baxus: parameter budget = 0 and no run's budget to plan the splits \
                 for: set budget to the evaluations the search will make"
                    .into(),
            )),
            (given, _) => Ok(given),
        }
    }

    /// The trace's `extra`: the `target_dim`, the region's side `length`, its `successes` and
    /// `failures` counters, the `failure_tolerance` at the batch size `batch` learnt so far,
    /// `splits` and `restarts` so far, the `phase` of the last ask (`design` or `region`) and
    /// the Cholesky `jitter` of the latest joint posterior. Empty before the first ask.
    fn record(&mut self, phase: Option<&str>) {
        let Some(search) = &self.search else {
            return;
        };
        let mut extra = search.region.record(
            &self.log.extra,
            (search.batch, search.restarts),
            phase,
            search.jitter,
        );
        extra.insert("target_dim".into(), json!(search.embedding.target_dim()));
        extra.insert("splits".into(), json!(search.splits));
        self.log.extra = extra;
    }
}

#[cfg(test)]
impl BaxusAlgorithm {
    /// The region's data mapped up to the problem's unit cube, with their values.
    pub(super) fn data_images(&self) -> Vec<(Vec<f64>, f64)> {
        let search = self.search.as_ref().expect("asked at least once");
        let data = &search.data;
        (0..data.len())
            .map(|i| (search.embedding.up(data.x(i)), data.ys()[i]))
            .collect()
    }
}

impl Algorithm for BaxusAlgorithm {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.search.is_none() {
            let budget = self.budget()?;
            let dim = ctx.domain.dim();
            let run_design = self.history.len();
            self.search = Some(Search::start(
                &self.settings,
                budget,
                run_design,
                dim,
                ctx.rng,
            ));
        }
        let search = self.search.as_mut().expect("set above");
        if search.collapsed {
            search.advance(&self.settings, ctx.rng);
        }
        let (z, role) = match search.design_point(ctx.rng) {
            Some(z) => (z, Role::Design),
            None => {
                search.batch = search.batch.max(ctx.pending.len() + 1);
                let told = self.history.len();
                let z = search.region_point(&self.settings, told, ctx, &mut self.log.cost)?;
                (z, Role::Region)
            }
        };
        let x = ctx.domain.from_unit(&search.embedding.up(&z));
        search.asked.push(Asked {
            x: x.clone(),
            z,
            restart: search.restarts,
            epoch: search.epoch,
            role,
        });
        self.record(Some(match role {
            Role::Design => "design",
            Role::Region => "region",
        }));
        Ok(Proposal { x, repeats: 1 })
    }

    /// A batch's points are independent sample paths' maxima over one candidate set, never the
    /// same candidate twice.
    fn accepts_pending(&self) -> bool {
        true
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        self.history.push(feedback.x, feedback.y);
        if let Some(search) = &mut self.search {
            search.tell(feedback);
        }
        self.record(None);
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

    /// The split schedule is planned for the run's evaluations.
    fn plan_budget(&mut self, budget: usize) {
        self.run_budget = Some(budget);
    }

    /// TuRBO's at the largest target space, the input dimension: a GP and its sampler's draws
    /// over a step's candidates.
    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        draws_memory_bytes(self.settings.sampling(dim), budget, dim)
    }
}
