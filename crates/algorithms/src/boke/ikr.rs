//! BOKE (Algorithm 2 of Zhu et al. 2025), BOKE+ (Algorithm 3) and pure density-based
//! exploration (Eq. 3.10): one loop over the kernel-regression surrogate that differs only in
//! the score of each step.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, json};

use super::data::UnitHistory;
use super::family::FamilyState;
use super::schedules::{BetaRule, exploration_scale};
use super::search::{self, SearchConfig, Surface, farthest_unbounded, nearest_sq_dist};
use super::settings::{IkrSettings, KrSettings, Recommendation};
use super::surrogate::{KrSurrogate, Score};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::SmoothingKernel;
use bosweep_toolkit::{Algorithm, AlgorithmError, AskContext, Feedback, Proposal, StepLog};

/// Which step rule the loop follows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum StepRule {
    /// IKR-UCB with probability `p`, otherwise pure exploitation `argmax m_t`; `p = 1` is BOKE.
    /// `dedupe_exploit`: an exploitation step that lands within 1e-9 of an observation becomes
    /// an IKR-UCB step.
    Mixed { p: f64, dedupe_exploit: bool },
    /// `argmin W_t`: no objective information at all.
    DensityExploration,
}

/// BOKE, BOKE+ or density exploration, running.
pub(super) struct BokeRunner {
    state: FamilyState,
    surrogate: KrSettings,
    search: SearchConfig,
    beta: BetaRule,
    rule: StepRule,
    /// The dedicated Bernoulli stream of BOKE+ (seeded from the run's generator at the first
    /// ask, drawn at every step whatever `p`), so that `p = 1` reproduces BOKE exactly.
    coin: Option<ChaCha8Rng>,
}

impl BokeRunner {
    pub(super) fn new(params: Params, settings: IkrSettings, rule: StepRule) -> Self {
        Self {
            state: FamilyState::new(params, settings.search.lhs_init),
            beta: settings.beta_rule(),
            search: settings.search.config(),
            surrogate: settings.surrogate,
            rule,
            coin: None,
        }
    }

    /// Decides the step's score: IKR-UCB, exploitation or density.
    fn step_score(&mut self, sqrt_beta: f64, rng: &mut ChaCha8Rng) -> Score {
        let coin = self
            .coin
            .get_or_insert_with(|| ChaCha8Rng::seed_from_u64(rng.random()));
        let draw: f64 = coin.random();
        match self.rule {
            StepRule::DensityExploration => Score::Density,
            StepRule::Mixed { p, .. } if draw < p => Score::Ikr { sqrt_beta },
            StepRule::Mixed { .. } => Score::Mean,
        }
    }
}

/// The surrogate with the score a step maximises.
struct KrSurface<'a> {
    surrogate: KrSurrogate<'a>,
    score: Score,
}

impl Surface for KrSurface<'_> {
    fn values(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        Ok(self
            .surrogate
            .evaluate(engine, candidates, self.score)?
            .into_iter()
            .map(|e| e.score)
            .collect())
    }

    fn refinable(&self) -> bool {
        self.surrogate.kernel() == SmoothingKernel::Gaussian
    }

    fn value_gradient(&self, u: &[f64]) -> Result<(f64, Vec<f64>), EngineError> {
        Ok(self.surrogate.score_gradient(u, self.score))
    }
}

fn score_name(score: Score) -> &'static str {
    match score {
        Score::Ikr { .. } => "ikr-ucb",
        Score::Mean => "exploit",
        Score::Density => "density",
    }
}

impl Algorithm for BokeRunner {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let start = Instant::now();
        if let Some(proposal) = self.state.design_step(ctx) {
            return Ok(proposal);
        }
        let data = self.state.observed_units(ctx)?;
        let t = data.rows();
        let ys = self.state.history.ys().to_vec();
        let h = self.surrogate.schedule().bandwidth(&data);
        let varsigma = exploration_scale(&ys, self.surrogate.kappa);
        let beta = self.beta.beta(t, varsigma);
        let mut score = self.step_score(beta.sqrt(), ctx.rng);
        self.state.log.cost.model_seconds += start.elapsed().as_secs_f64();

        let start = Instant::now();
        let best = self.state.history.best_units(self.search.local_centres);
        let x = if let Some(set) = ctx.allowed {
            let units: Vec<Vec<f64>> = set.iter().map(|x| ctx.domain.to_unit(x)).collect();
            let points = Points::from_rows(&units)?;
            let surrogate = KrSurrogate::new(&data, &ys, self.surrogate.kernel, h);
            let values = KrSurface { surrogate, score }.values(ctx.engine, &points)?;
            let best = match farthest_unbounded(ctx.engine, &data, &points, &values)? {
                Some(i) => i,
                None => ctx.engine.argmax(&values)?,
            };
            self.state.log.extra = Map::new();
            self.state
                .log
                .extra
                .insert("kernel_evaluations".into(), json!(set.rows() * t));
            set.row(best).to_vec()
        } else {
            let mut found = self.search(ctx, &data, &ys, h, score, &best)?;
            let mut evaluated = found.evaluated_points();
            if let StepRule::Mixed {
                dedupe_exploit: true,
                ..
            } = self.rule
                && score == Score::Mean
                && nearest_sq_dist(&data, &found.u) <= 1e-18
            {
                score = Score::Ikr {
                    sqrt_beta: beta.sqrt(),
                };
                found = self.search(ctx, &data, &ys, h, score, &best)?;
                evaluated += found.evaluated_points();
            }
            self.state.log.extra = Map::new();
            self.state
                .log
                .extra
                .insert("candidates".into(), json!(found.candidates));
            self.state
                .log
                .extra
                .insert("kernel_evaluations".into(), json!(evaluated * t));
            ctx.domain.from_unit(&found.u)
        };
        self.state
            .log
            .extra
            .insert("step".into(), json!(score_name(score)));
        self.state.log.extra.insert("bandwidth".into(), json!(h));
        self.state.log.extra.insert("beta".into(), json!(beta));
        self.state.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        Ok(Proposal { x, repeats: 1 })
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        self.state.tell(feedback);
        Ok(())
    }

    fn recommend(&mut self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        recommend(&mut self.state.history, &self.surrogate, engine)
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.state.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.state.parameters()
    }

    /// No GP: the history and one batch of candidates with their scores, linear in the budget.
    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        let config = &self.search;
        let global = config.global.unwrap_or(1000 * dim) as f64;
        let candidates = (global * (1.0 + config.local_fraction)).ceil() as u64;
        let (budget, dim) = (budget as u64, dim as u64);
        (budget * (dim + 1) + candidates * (dim + 4)).saturating_mul(8)
    }
}

impl BokeRunner {
    fn search(
        &self,
        ctx: &mut AskContext<'_>,
        data: &Points,
        ys: &[f64],
        h: f64,
        score: Score,
        best: &[Vec<f64>],
    ) -> Result<search::Found, AlgorithmError> {
        let surrogate = KrSurrogate::new(data, ys, self.surrogate.kernel, h);
        let centres: Vec<&[f64]> = match score {
            Score::Density => Vec::new(),
            _ => best.iter().map(Vec::as_slice).collect(),
        };
        Ok(search::maximize(
            &KrSurface { surrogate, score },
            ctx.engine,
            data,
            &centres,
            h,
            &self.search,
            ctx.rng,
        )?)
    }
}

/// The reported point of the kernel-regression algorithms: the best observation, or the
/// observed point of largest NW mean under the final bandwidth.
pub(super) fn recommend(
    history: &mut UnitHistory,
    settings: &KrSettings,
    engine: &dyn Engine,
) -> Result<Vec<f64>, AlgorithmError> {
    let domain = match (settings.recommend, history.domain().cloned()) {
        (Recommendation::BestMean, Some(domain)) if history.len() > 0 => domain,
        _ => return Ok(history.raw().best_x()),
    };
    history.sync(&domain);
    let data = history.units()?;
    let h = settings.schedule().bandwidth(&data);
    let kr = engine.kernel_regression(&data, history.ys(), settings.kernel, h, &data)?;
    Ok(history.raw().x(engine.argmax(&kr.mean)?).to_vec())
}
