//! The one algorithm of the family, [`UheBoRunner`], with the switches its members set
//! ([`Variant`]).

use super::hyper::{AveragedUcb, ProbabilityOfImprovement};
use super::pairs::{PairedExp3, pseudo_labels};
use super::settings::{Exp3PairSettings, PortfolioArms, RewardClip, UheGpSettings};
use std::time::Instant;

use rand::RngExt;
use serde_json::{Map, json};

use super::estimators::{Estimate, MapFit, Proposal as UnitProposal, Step, Theta, ThetaEstimator};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::{Engine, Points};
use bosweep_model::{GpSpec, GpState, Noise};
use bosweep_toolkit::acquisition::{
    Acquisition, Bounds as UnitBounds, GpAcquisition, LogExpectedImprovement, MaximizeConfig,
    UpperConfidenceBound, maximize,
};
use bosweep_toolkit::surrogate::OutputTransform;
use bosweep_toolkit::uniform_point;
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog, gp_memory_bytes,
};
use bosweep_toolkit::{Exp3, exp3_gamma};

/// How the arm of each iteration is chosen.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Arms {
    /// EXP3 over iteration pairs (UHE-BO, Random+EXP3).
    Pairs(Exp3PairSettings),
    /// Always arm 1: a uniform point at every odd t, the acquisition at every even t (RA-BO).
    AlwaysRandom,
    /// Always arm 2: the acquisition at every iteration (MAP-GP-UCB and the other baselines).
    AlwaysAcquisition,
    /// Portfolio: EXP3 at every iteration over {random point, GP-UCB point} (or GP-Hedge's
    /// {EI, PI, UCB}), rewarded with the posterior mean at the chosen point.
    Portfolio {
        /// The bandit's arms.
        arms: PortfolioArms,
        /// PI's margin ξ (standardised outputs), for [`PortfolioArms::EiPiUcb`].
        pi_xi: f64,
        /// Whether the scaled reward is clipped to [0, 1].
        reward_clip: RewardClip,
    },
}

/// What the hyperparameters are fitted on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum FitData {
    /// The nearest-neighbour pseudo-dataset of Eq. (2), `⌈m_factor · n⌉` uniform points.
    Pseudo { m_factor: f64 },
    /// The real (adaptively collected) data.
    Real,
}

/// One member of the family: the GP-UCB step and the three switches, as its typed settings
/// set them.
pub(super) struct Variant {
    pub(super) gp: UheGpSettings,
    pub(super) arms: Arms,
    pub(super) fit_data: FitData,
    /// How θ̂ (and so the GPs the acquisition sees) is obtained from the real data: one MAP
    /// (or ML-II) estimate, or a baseline's own ([`super::estimators`]).
    pub(super) estimator: Box<dyn ThetaEstimator>,
}

/// Which acquisition proposes a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    Ucb,
    Ei,
    Pi,
}

/// A Portfolio step waiting for its reward: the arm pulled, its probability, the γ of its
/// round, and the point it chose (unit cube).
#[derive(Clone, Debug)]
struct PortfolioPull {
    arm: usize,
    probability: f64,
    gamma: f64,
    x_unit: Vec<f64>,
}

/// The GP(s) fitted for one proposal: one per hyperparameter sample (one for point estimates),
/// in the unit cube and standardised outputs.
struct Fitted {
    states: Vec<GpState>,
    output: OutputTransform,
    best_z: f64,
}

/// UHE-BO and every member of its family (see the module docs), built from a member's typed
/// settings.
pub(super) struct UheBoRunner {
    /// The declared parameters, for the trace header.
    params: Params,
    gp: UheGpSettings,
    arms: Arms,
    fit_data: FitData,
    /// GPs the acquisition averages over (the kept MCMC samples), for the memory estimate.
    samples: usize,
    estimator: Box<dyn ThetaEstimator>,
    history: History,
    bandit: PairedExp3,
    /// Portfolio's per-step EXP3 and its pending pull.
    portfolio: Option<Exp3>,
    pending_pull: Option<PortfolioPull>,
    /// (min, max) of y over D_0, fixed at the first ask.
    y0: Option<(f64, f64)>,
    /// Algorithm 1's t of the step asked last (0 before the first ask).
    t: usize,
    /// Whether the last ask has not been told yet.
    pending: bool,
    /// Fitted θ̂ of the previous proposal (unit cube, standardised outputs): the warm start.
    previous: Option<Theta>,
    log: StepLog,
}

/// Two proposals closer than this (unit cube) are duplicates: our choice, as is the whole
/// maximiser (the paper does not say how the acquisition is maximised).
const DUPLICATE_DISTANCE: f64 = 1e-9;

impl UheBoRunner {
    /// The member `variant` describes; `params` are the checked parameters it was read from.
    pub(super) fn new(params: Params, variant: Variant) -> Self {
        let Variant {
            gp,
            arms,
            fit_data,
            estimator,
        } = variant;
        let portfolio = match arms {
            Arms::Portfolio { arms, .. } => Some(Exp3::new(arms.count())),
            _ => None,
        };
        Self {
            params,
            gp,
            arms,
            fit_data,
            samples: estimator.samples(),
            estimator,
            history: History::default(),
            bandit: PairedExp3::new(),
            portfolio,
            pending_pull: None,
            y0: None,
            t: 0,
            pending: false,
            previous: None,
            log: StepLog::default(),
        }
    }

    /// Whether rewards are clipped to [0, 1] after scaling.
    fn clip_rewards(&self) -> bool {
        let clip = match &self.arms {
            Arms::Pairs(pairs) => pairs.scaling.reward_clip,
            Arms::Portfolio { reward_clip, .. } => *reward_clip,
            Arms::AlwaysRandom | Arms::AlwaysAcquisition => RewardClip::None,
        };
        clip == RewardClip::Unit
    }

    /// The reward scaled "using D_0" (Algorithm 1 line 20), read as min-max scaling:
    /// `(r − lo)/(hi − lo)`, or `r − lo` when D_0's values are all equal; optional clip.
    fn scale_reward(&self, r: f64) -> f64 {
        let (lo, hi) = self.y0.unwrap_or((0.0, 0.0));
        let s = if hi > lo {
            (r - lo) / (hi - lo)
        } else {
            r - lo
        };
        if self.clip_rewards() {
            s.clamp(0.0, 1.0)
        } else {
            s
        }
    }

    /// The MAP fit of this step, warm-started from the previous θ̂.
    fn map_fit(&self) -> MapFit<'_> {
        MapFit {
            settings: &self.gp,
            previous: self.previous.as_ref(),
            lengthscale_cap: self.estimator.lengthscale_cap(),
        }
    }

    /// The GP(s) on the real data for this step, θ as the variant says (UHE_PROPOSE lines 1–7
    /// of Algorithm 1 for the pseudo-data variants).
    fn fit_model(&mut self, ctx: &mut AskContext<'_>) -> Result<Fitted, AlgorithmError> {
        let dim = ctx.domain.dim();
        let n = self.history.len();
        let unit_rows: Vec<Vec<f64>> = (0..n)
            .map(|i| ctx.domain.to_unit(self.history.x(i)))
            .collect();
        let real_x = Points::from_rows(&unit_rows)?;
        let ys = self.history.ys();
        let output = OutputTransform::standardize(ys);
        let real_z: Vec<f64> = ys.iter().map(|y| output.forward(*y)).collect();
        let best_z = real_z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let seed: u64 = ctx.rng.random();
        let estimate = match self.fit_data {
            FitData::Pseudo { m_factor } => {
                let m = ((m_factor * n as f64).ceil() as usize).max(1);
                let mut data = Vec::with_capacity(m * dim);
                for _ in 0..m * dim {
                    data.push(ctx.rng.random::<f64>());
                }
                let pseudo = Points::new(data, dim)?;
                let (_, labels) = pseudo_labels(ctx.engine, &real_x, &real_z, &pseudo)?;
                self.log.extra.insert("pseudo_points".into(), json!(m));
                let theta = self.map_fit().fit(&pseudo, &labels, dim, seed)?;
                Estimate {
                    thetas: vec![theta.clone()],
                    warm_start: theta,
                }
            }
            FitData::Real => {
                let fit = MapFit {
                    settings: &self.gp,
                    previous: self.previous.as_ref(),
                    lengthscale_cap: self.estimator.lengthscale_cap(),
                };
                let step = Step {
                    x: &real_x,
                    z: &real_z,
                    dim,
                    seed,
                    engine: ctx.engine,
                    rng: ctx.rng,
                    extra: &mut self.log.extra,
                };
                self.estimator.estimate(&fit, step)?
            }
        };
        self.previous = Some(estimate.warm_start);
        let thetas = estimate.thetas;
        let mean_ls: Vec<f64> = (0..dim)
            .map(|k| {
                thetas.iter().map(|t| t.0.lengthscales()[k]).sum::<f64>() / thetas.len() as f64
            })
            .collect();
        self.log.extra.insert("lengthscales".into(), json!(mean_ls));
        let (kernel, noise) = &thetas[0];
        self.log
            .extra
            .insert("signal_var".into(), json!(kernel.signal_variance()));
        self.log.extra.insert("noise_var".into(), json!(noise));
        let states = thetas
            .into_iter()
            .map(|(kernel, noise)| {
                GpState::fit(
                    real_x.clone(),
                    &real_z,
                    GpSpec::new(kernel, Noise::Homoscedastic(noise)),
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Fitted {
            states,
            output,
            best_z,
        })
    }

    /// [`maximize_unit`] with this run's parameters and history.
    fn maximize_over(
        &mut self,
        ctx: &mut AskContext<'_>,
        acquisition: &dyn Acquisition,
    ) -> Result<UnitProposal, AlgorithmError> {
        maximize_unit(ctx, acquisition, &self.gp, &self.history, &mut self.log)
    }

    /// The acquisition of `rule` on `fitted`, maximised.
    fn acquire(
        &mut self,
        ctx: &mut AskContext<'_>,
        fitted: &Fitted,
        rule: Rule,
    ) -> Result<UnitProposal, AlgorithmError> {
        let ucb = UpperConfidenceBound::with_beta(self.gp.ucb_beta)?;
        let state = &fitted.states[0];
        match rule {
            Rule::Ei => {
                let ei = LogExpectedImprovement::new(fitted.best_z)?;
                self.maximize_over(ctx, &GpAcquisition::new(state, ei))
            }
            Rule::Pi => {
                let Arms::Portfolio { pi_xi, .. } = self.arms else {
                    return Err(AlgorithmError::Config(
                        "PI is one of Portfolio's arms only (internal)".into(),
                    ));
                };
                let pi = ProbabilityOfImprovement::new(fitted.best_z, pi_xi)?;
                self.maximize_over(ctx, &GpAcquisition::new(state, pi))
            }
            Rule::Ucb => {
                self.log
                    .extra
                    .insert("ucb_multiplier".into(), json!(ucb.multiplier()));
                if fitted.states.len() > 1 {
                    let averaged = AveragedUcb::new(&fitted.states, ucb.multiplier())?;
                    return self.maximize_over(ctx, &averaged);
                }
                let proposal = self.maximize_over(ctx, &GpAcquisition::new(state, ucb))?;
                let (settings, history) = (&self.gp, &self.history);
                let mut notes = StepLog::default();
                let mut propose = |ctx: &mut AskContext<'_>, gp: &GpState| {
                    maximize_unit(
                        ctx,
                        &GpAcquisition::new(gp, ucb),
                        settings,
                        history,
                        &mut notes,
                    )
                };
                let revised = self.estimator.revise(
                    ctx,
                    state,
                    proposal,
                    &mut propose,
                    &mut self.log.extra,
                )?;
                self.log.extra.extend(notes.extra);
                self.log.cost = self.log.cost + notes.cost;
                Ok(revised)
            }
        }
    }

    /// Portfolio's step: reward the previous pull with the posterior mean (original units,
    /// D_0-scaled) at its point under the GP refitted on all data, then draw this step's arm
    /// from EXP3 with `γ_t = min(1, sqrt(K ln K / ((e − 1) t)))` and let it propose.
    fn portfolio_ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Vec<f64>, AlgorithmError> {
        let start = Instant::now();
        let fitted = self.fit_model(ctx)?;
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();
        if let Some(pull) = self.pending_pull.take() {
            let q = Points::from_rows(std::slice::from_ref(&pull.x_unit))?;
            let mean = ctx.engine.posterior(&fitted.states[0], &q)?.mean[0];
            let reward = self.scale_reward(fitted.output.inverse(mean));
            if let Some(exp3) = self.portfolio.as_mut() {
                exp3.update(pull.arm, pull.gamma, reward, pull.probability);
            }
            self.log.extra.insert("reward".into(), json!(reward));
        }
        let Some(exp3) = self.portfolio.as_ref() else {
            return Err(AlgorithmError::Config(
                "portfolio: no EXP3 state (internal)".into(),
            ));
        };
        let gamma = exp3_gamma(exp3.arms(), self.t as f64).min(1.0);
        let probabilities = exp3.probabilities(gamma);
        let arm = Exp3::draw(&probabilities, ctx.rng);
        let hedge = exp3.arms() == 3;
        self.log
            .extra
            .insert("portfolio_probabilities".into(), json!(probabilities));
        self.log
            .extra
            .insert("portfolio_log_weights".into(), json!(exp3.log_weights()));
        let name = match (hedge, arm) {
            (false, 0) => "random",
            (true, 0) => "ei",
            (true, 1) => "pi",
            _ => "ucb",
        };
        self.log.extra.insert("portfolio_arm".into(), json!(name));
        let start = Instant::now();
        let (x, u) = match name {
            "random" => {
                let x = uniform_point(ctx)?;
                let u = ctx.domain.to_unit(&x);
                (x, u)
            }
            "ei" => self.acquire(ctx, &fitted, Rule::Ei)?,
            "pi" => self.acquire(ctx, &fitted, Rule::Pi)?,
            _ => self.acquire(ctx, &fitted, Rule::Ucb)?,
        };
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        self.pending_pull = Some(PortfolioPull {
            arm,
            probability: probabilities[arm],
            gamma,
            x_unit: u,
        });
        Ok(x)
    }

    /// UHE_PROPOSE (Algorithm 1), or the variant's proposal when θ is fitted otherwise.
    fn propose(&mut self, ctx: &mut AskContext<'_>) -> Result<Vec<f64>, AlgorithmError> {
        let start = Instant::now();
        let fitted = self.fit_model(ctx)?;
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();
        let start = Instant::now();
        let (x, _) = self.acquire(ctx, &fitted, Rule::Ucb)?;
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        Ok(x)
    }
}

/// The maximiser of `acquisition` (problem coordinates, then unit cube): over the allowed
/// set when there is one, else grid + L-BFGS-B (our choice), skipping candidates that duplicate
/// an observed point (the best non-duplicate refined start, then the best grid point, then
/// a uniform point). Notes a fallback to a uniform point in the log's `extra`, and the grid's
/// and the refinement's seconds in its cost.
fn maximize_unit(
    ctx: &mut AskContext<'_>,
    acquisition: &dyn Acquisition,
    settings: &UheGpSettings,
    history: &History,
    log: &mut StepLog,
) -> Result<UnitProposal, AlgorithmError> {
    let dim = ctx.domain.dim();
    if let Some(set) = ctx.allowed {
        let start = Instant::now();
        let unit: Vec<Vec<f64>> = set.iter().map(|r| ctx.domain.to_unit(r)).collect();
        let values = acquisition.evaluate(ctx.engine, &Points::from_rows(&unit)?)?;
        let i = ctx.engine.argmax(&values)?;
        log.cost.grid_seconds += start.elapsed().as_secs_f64();
        return Ok((set.row(i).to_vec(), unit[i].clone()));
    }
    let config = MaximizeConfig {
        grid_size: Some(settings.grid_size(dim)),
        seed: ctx.rng.random(),
        top_k: settings.maximizer.top_k,
        refine: settings.maximizer.refine,
        max_iters: settings.maximizer.max_iters,
        gradient: settings.maximizer.gradient,
        ..MaximizeConfig::default()
    };
    let unit = UnitBounds::cube(0.0, 1.0, dim)?;
    let best = maximize(acquisition, ctx.engine, ctx.reference, &unit, &config)?;
    log.cost.grid_seconds += best.seconds.grid;
    log.cost.refine_seconds += best.seconds.refine;
    let mut candidates: Vec<(f64, &Vec<f64>)> =
        best.starts.iter().map(|s| (s.value, &s.x)).collect();
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
    let observed: Vec<Vec<f64>> = (0..history.len())
        .map(|i| ctx.domain.to_unit(history.x(i)))
        .collect();
    let fresh = |x: &[f64]| {
        observed.iter().all(|o| {
            o.iter()
                .zip(x)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
                .sqrt()
                >= DUPLICATE_DISTANCE
        })
    };
    let chosen = std::iter::once(&best.x)
        .chain(candidates.iter().map(|c| c.1))
        .chain(std::iter::once(&best.grid_x))
        .find(|x| fresh(x))
        .cloned();
    let u = match chosen {
        Some(u) => u,
        None => {
            log.extra.insert("duplicate_fallback".into(), json!(true));
            (0..dim).map(|_| ctx.rng.random::<f64>()).collect()
        }
    };
    Ok((ctx.domain.from_unit(&u), u))
}

impl Algorithm for UheBoRunner {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.y0.is_none() {
            let ys = self.history.ys();
            self.y0 = Some(if ys.is_empty() {
                (0.0, 0.0)
            } else {
                let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                (lo, hi)
            });
        }
        self.t += 1;
        self.pending = true;
        let t = self.t;
        let odd = t % 2 == 1;
        self.log.extra = Map::new();
        self.log.extra.insert("uhe_t".into(), json!(t));
        if let Arms::Portfolio { .. } = self.arms {
            let x = if self.history.is_empty() {
                uniform_point(ctx)?
            } else {
                self.portfolio_ask(ctx)?
            };
            return Ok(Proposal { x, repeats: 1 });
        }
        let arm = match &self.arms {
            Arms::Pairs(pairs) => {
                if odd {
                    let gamma = pairs.gamma_at(t);
                    self.bandit.start_pair(gamma, ctx.rng, None);
                    self.log.extra.insert("gamma".into(), json!(gamma));
                }
                self.log.extra.insert(
                    "exp3_probabilities".into(),
                    json!(self.bandit.probabilities()),
                );
                self.bandit.arm()
            }
            Arms::AlwaysRandom => 1,
            Arms::AlwaysAcquisition | Arms::Portfolio { .. } => 2,
        };
        self.log.extra.insert("arm".into(), json!(arm));
        let random = arm == 1 && odd;
        self.log.extra.insert("random_point".into(), json!(random));
        let x = if random || self.history.is_empty() {
            uniform_point(ctx)?
        } else {
            self.propose(ctx)?
        };
        Ok(Proposal { x, repeats: 1 })
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        let previous = self.history.ys().last().copied();
        self.history.push(feedback.x, feedback.y);
        if !std::mem::take(&mut self.pending) {
            return Ok(());
        }
        let Arms::Pairs(pairs) = &self.arms else {
            return Ok(());
        };
        if self.t.is_multiple_of(2) {
            let r = previous.map_or(feedback.y, |p| p.max(feedback.y));
            let scaled = self.scale_reward(r);
            let gamma = pairs.gamma_at(self.t);
            self.bandit.end_pair(gamma, scaled);
            self.log.extra.insert("reward".into(), json!(scaled));
        }
        self.log
            .extra
            .insert("exp3_log_weights".into(), json!(self.bandit.log_weights()));
        Ok(())
    }

    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        Ok(self.history.best_x())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    /// A GP's estimate at the largest data set it is fitted on: the pseudo-data of `M = ⌈m_factor ·
    /// n⌉` points for the pseudo-data variants (up to 1000 times the budget), plus one `n × n`
    /// factor per kept MCMC sample.
    fn memory_bytes(&self, budget: usize, dim: usize) -> u64 {
        let points = match self.fit_data {
            FitData::Pseudo { m_factor } => {
                ((m_factor * budget as f64).ceil() as usize).max(budget)
            }
            FitData::Real => budget,
        };
        let samples = self.samples as u64;
        let grid = self.gp.grid_size(dim);
        let factors = samples
            .saturating_sub(1)
            .saturating_mul(points as u64)
            .saturating_mul(points as u64);
        gp_memory_bytes(points, dim, grid).saturating_add(factors.saturating_mul(8))
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }
}
