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
use super::settings::{
    BOKE_PLUS_TABLE, BOKE_TABLE, DEDUPE_EXPLOIT, IkrSettings, KrSettings, P, Recommendation,
    defaults,
};
use super::surrogate::{KrSurrogate, Score};
use crate::optimizer::AlgorithmSettings;
use crate::{Algorithm, AlgorithmError, AskContext, Feedback, Proposal, StepLog};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::SmoothingKernel;

/// Typed settings of BOKE (`boke`): every step maximises the IKR-UCB score
/// `m_t(x) + √β_t · W_t(x)^(−1/2)`, the Nadaraya–Watson mean plus the inverse square root of the
/// unnormalised KDE of the sampled points (Zhu et al. 2025, Algorithm 2).
///
/// ```
/// use bosweep_algorithms::boke::Recommendation;
/// use bosweep_algorithms::{AlgorithmSettings, Boke};
///
/// let mut boke = Boke::default().kappa(1.0).lhs_init(5);
/// boke.ikr.surrogate.recommendation = Recommendation::BestMean;
/// assert_eq!(boke.name(), "boke");
/// assert!(boke.build().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Boke {
    /// The search, surrogate and β schedule.
    pub ikr: IkrSettings,
}

impl Default for Boke {
    fn default() -> Self {
        Self::from_params(&defaults("boke", BOKE_TABLE))
    }
}

impl Boke {
    /// κ of the noise scale `ς_t = κ · sd(y)`, which multiplies the exploration bonus (default
    /// 0.3; 1 is the theory's scale).
    pub fn kappa(mut self, kappa: f64) -> Self {
        self.ikr.surrogate.kappa = kappa;
        self
    }

    /// Latin-hypercube points the algorithm proposes first (the paper's initial design).
    pub fn lhs_init(mut self, points: usize) -> Self {
        self.ikr.search.lhs_init = points;
        self
    }

    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            ikr: IkrSettings::from_params(params),
        }
    }

    pub(super) fn into_algorithm(self, params: Params) -> BokeRunner {
        let rule = StepRule::Mixed {
            p: 1.0,
            dedupe_exploit: false,
        };
        BokeRunner::new(params, self.ikr, rule)
    }
}

impl AlgorithmSettings for Boke {
    fn name(&self) -> &str {
        "boke"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        self.ikr.given()
    }
}

/// Typed settings of BOKE+ (`boke-plus`): an IKR-UCB step with probability `p`, otherwise a
/// pure exploitation step `argmax m_t` (Zhu et al. 2025, Algorithm 3).
#[derive(Clone, Debug, PartialEq)]
pub struct BokePlus {
    /// The search, surrogate and β schedule, as BOKE's.
    pub ikr: IkrSettings,
    /// Probability of an IKR-UCB step (default 0.8; 1 is BOKE).
    pub p: f64,
    /// Replace an exploitation step that lands within 1e-9 of an observation by an IKR-UCB
    /// step (for noise-free runs, where re-sampling teaches nothing; default `false`, the
    /// paper's rule).
    pub dedupe_exploit: bool,
}

impl Default for BokePlus {
    fn default() -> Self {
        Self::from_params(&defaults("boke-plus", BOKE_PLUS_TABLE))
    }
}

impl BokePlus {
    /// Probability of an IKR-UCB step rather than an exploitation step.
    pub fn p(mut self, p: f64) -> Self {
        self.p = p;
        self
    }

    /// κ of the noise scale `ς_t = κ · sd(y)` (default 0.3).
    pub fn kappa(mut self, kappa: f64) -> Self {
        self.ikr.surrogate.kappa = kappa;
        self
    }

    /// Latin-hypercube points the algorithm proposes first (the paper's initial design).
    pub fn lhs_init(mut self, points: usize) -> Self {
        self.ikr.search.lhs_init = points;
        self
    }

    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            ikr: IkrSettings::from_params(params),
            p: P.of(params),
            dedupe_exploit: DEDUPE_EXPLOIT.of(params),
        }
    }

    pub(super) fn into_algorithm(self, params: Params) -> BokeRunner {
        let rule = StepRule::Mixed {
            p: self.p,
            dedupe_exploit: self.dedupe_exploit,
        };
        BokeRunner::new(params, self.ikr, rule)
    }
}

impl AlgorithmSettings for BokePlus {
    fn name(&self) -> &str {
        "boke-plus"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        let mut given = self.ikr.given();
        given.extend([P.given(self.p), DEDUPE_EXPLOIT.given(self.dedupe_exploit)]);
        given
    }
}

/// Typed settings of pure density-based exploration (`density-exploration`): every step is
/// `argmin W_t`, the least sampled region, with no objective information at all (Zhu et al.
/// 2025, Eq. 3.10).
#[derive(Clone, Debug, PartialEq)]
pub struct DensityExploration {
    /// The search and surrogate (only its kernel and bandwidth act on the steps); β_t is
    /// reported in the step log.
    pub ikr: IkrSettings,
}

impl Default for DensityExploration {
    fn default() -> Self {
        Self::from_params(&defaults("density-exploration", BOKE_TABLE))
    }
}

impl DensityExploration {
    /// Latin-hypercube points the algorithm proposes first (the paper's initial design).
    pub fn lhs_init(mut self, points: usize) -> Self {
        self.ikr.search.lhs_init = points;
        self
    }

    pub(super) fn from_params(params: &Params) -> Self {
        Self {
            ikr: IkrSettings::from_params(params),
        }
    }

    pub(super) fn into_algorithm(self, params: Params) -> BokeRunner {
        BokeRunner::new(params, self.ikr, StepRule::DensityExploration)
    }
}

impl AlgorithmSettings for DensityExploration {
    fn name(&self) -> &str {
        "density-exploration"
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        self.ikr.given()
    }
}

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
    fn new(params: Params, settings: IkrSettings, rule: StepRule) -> Self {
        Self {
            state: FamilyState::new(params, settings.search.lhs_init),
            surrogate: settings.surrogate,
            search: settings.search.config(),
            beta: settings.beta,
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
        let h = self.surrogate.bandwidth.bandwidth(&data);
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
    let domain = match (settings.recommendation, history.domain().cloned()) {
        (Recommendation::BestMean, Some(domain)) if history.len() > 0 => domain,
        _ => return Ok(history.raw().best_x()),
    };
    history.sync(&domain);
    let data = history.units()?;
    let h = settings.bandwidth.bandwidth(&data);
    let kr = engine.kernel_regression(&data, history.ys(), settings.kernel, h, &data)?;
    Ok(history.raw().x(engine.argmax(&kr.mean)?).to_vec())
}
