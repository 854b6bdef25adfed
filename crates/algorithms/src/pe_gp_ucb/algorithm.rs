//! GP-UCB with a finite set of candidate priors, one struct for the four prior-selection rules
//! of Ziomek, Adachi and Osborne (AISTATS 2025: Algorithm 1, Appendix D's Algorithm 2, and the
//! MLE and fully Bayesian baselines of Section 7): they share the per-prior posteriors, the schedules and
//! the allowed-set handling, and differ only in how a step picks its prior and what it learns.

use std::sync::Arc;
use std::time::Instant;

use serde_json::{Map, Value, json};

use super::posterior::PriorPosteriors;
use super::schedules::{beta, xi};
use super::settings::{Rule, Settings};
use bosweep_engine::Engine;
use bosweep_model::CandidatePriors;
use bosweep_problems::{ParamValue, Problem};
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, Proposal, Requirement, StepLog,
};

/// What `ask` chose, kept for `tell`: the posterior at `(x_t, t)` **before** `y_t` is added.
#[derive(Clone, Copy, Debug)]
struct Pending {
    t: usize,
    candidate: usize,
    prior: usize,
    mean: f64,
    std: f64,
    beta: f64,
}

/// GP-UCB over a finite domain with candidate priors, under one [`Rule`].
pub struct UnknownPriorUcb {
    rule: Rule,
    settings: Settings,
    /// The one prior an oracle keeps (an index into the problem's set).
    keep: Option<usize>,
    /// Planned horizon T of `β_t`: the given one, or the prior set's once installed.
    horizon: usize,
    /// `None` until the candidate priors are installed: by [`UnknownPriorUcb::new`], or by
    /// `prepare` from the problem's [`Problem::candidate_priors`].
    posteriors: Option<PriorPosteriors>,
    alive: Vec<bool>,
    /// `n_p`: steps at which p was the selected prior.
    counts: Vec<usize>,
    /// `E_p = Σ η_i`, signed.
    error_sums: Vec<f64>,
    /// `G_p = Σ β_i σ_i`.
    width_sums: Vec<f64>,
    /// `Y_p = Σ y_i` (Regret Balancing).
    reward_sums: Vec<f64>,
    pending: Option<Pending>,
    last_x: Vec<f64>,
    log: StepLog,
    parameters: Vec<(String, ParamValue)>,
}

/// Whether PE-GP-UCB's test removes the selected prior: `|E_p| > √(ξ_t n_p) + G_p`.
pub fn elimination_fires(error_sum: f64, count: usize, width_sum: f64, xi_t: f64) -> bool {
    error_sum.abs() > elimination_threshold(count, width_sum, xi_t)
}

/// `√(ξ_t n_p) + G_p`.
pub fn elimination_threshold(count: usize, width_sum: f64, xi_t: f64) -> f64 {
    (xi_t * count as f64).sqrt() + width_sum
}

/// Regret Balancing's test (line 11 of Algorithm 2), once every surviving prior has a sample:
/// keep p iff `UpperStat(p) ≥ max_{p'} L(p')`, `L(p) = Y_p/n_p − √(ξ/n_p)`, with
/// `UpperStat = Y_p/n_p + √(ξ/n_p) + G_p/n_p` (optimistic, default) or `L(p) + G_p/n_p`
/// (`literal`). Returns the survivors; unchanged while some surviving prior is unsampled.
pub fn balancing_survivors(
    alive: &[bool],
    counts: &[usize],
    reward_sums: &[f64],
    width_sums: &[f64],
    xi_t: f64,
    literal: bool,
) -> Vec<bool> {
    let members: Vec<usize> = (0..alive.len()).filter(|&p| alive[p]).collect();
    if members.iter().any(|&p| counts[p] == 0) {
        return alive.to_vec();
    }
    let n = |p: usize| counts[p] as f64;
    let lower = |p: usize| reward_sums[p] / n(p) - (xi_t / n(p)).sqrt();
    let best = members
        .iter()
        .map(|&p| lower(p))
        .fold(f64::NEG_INFINITY, f64::max);
    let mut kept = alive.to_vec();
    for &p in &members {
        let upper = if literal {
            lower(p) + width_sums[p] / n(p)
        } else {
            reward_sums[p] / n(p) + (xi_t / n(p)).sqrt() + width_sums[p] / n(p)
        };
        kept[p] = upper >= best;
    }
    kept
}

/// Normalised posterior weights `w_p ∝ exp(ln P(D | p))` under a uniform hyperprior, by a
/// max-shifted softmax.
pub fn posterior_weights(log_evidence: &[f64]) -> Vec<f64> {
    let top = log_evidence
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let raw: Vec<f64> = log_evidence.iter().map(|l| (l - top).exp()).collect();
    let total: f64 = raw.iter().sum();
    raw.iter().map(|r| r / total).collect()
}

fn not_installed() -> AlgorithmError {
    AlgorithmError::Config(
        "the unknown-prior algorithms take their candidate priors from the problem: call \
         prepare with a time-varying problem first"
            .into(),
    )
}

/// The installed posteriors, mutably (a free function, so that other fields stay borrowable).
fn installed(
    posteriors: &mut Option<PriorPosteriors>,
) -> Result<&mut PriorPosteriors, AlgorithmError> {
    posteriors.as_mut().ok_or_else(not_installed)
}

impl UnknownPriorUcb {
    /// The algorithm over the candidate priors `priors`.
    pub fn new(
        priors: Arc<CandidatePriors>,
        rule: Rule,
        settings: Settings,
        parameters: Vec<(String, ParamValue)>,
    ) -> Result<Self, AlgorithmError> {
        let mut algorithm = Self::awaiting_priors(rule, settings, None, parameters)?;
        algorithm.install(priors)?;
        Ok(algorithm)
    }

    /// The algorithm before it knows its candidate priors: `prepare` takes them from the
    /// problem (keeping only prior `keep` for an oracle).
    pub fn awaiting_priors(
        rule: Rule,
        settings: Settings,
        keep: Option<usize>,
        parameters: Vec<(String, ParamValue)>,
    ) -> Result<Self, AlgorithmError> {
        if !(settings.shared.delta > 0.0 && settings.shared.delta < 1.0) {
            return Err(AlgorithmError::Config(format!(
                "delta = {}: must lie in (0, 1)",
                settings.shared.delta
            )));
        }
        if !(settings.shared.beta_scale.is_finite() && settings.shared.beta_scale >= 0.0) {
            return Err(AlgorithmError::Config(format!(
                "beta_scale = {}: must be finite and non-negative",
                settings.shared.beta_scale
            )));
        }
        Ok(Self {
            rule,
            settings,
            keep,
            horizon: settings.shared.horizon,
            posteriors: None,
            alive: Vec::new(),
            counts: Vec::new(),
            error_sums: Vec::new(),
            width_sums: Vec::new(),
            reward_sums: Vec::new(),
            pending: None,
            last_x: Vec::new(),
            log: StepLog::default(),
            parameters,
        })
    }

    /// Takes `priors` (or the one prior `keep` of them) as the candidate set.
    fn install(&mut self, priors: Arc<CandidatePriors>) -> Result<(), AlgorithmError> {
        let priors = match self.keep {
            Some(p) => Arc::new(
                priors
                    .subset(&[p])
                    .map_err(|e| AlgorithmError::Config(format!("prior = {p}: {e}")))?,
            ),
            None => priors,
        };
        let p = priors.priors().len();
        self.horizon = match self.settings.shared.horizon {
            0 => priors.horizon(),
            given => given,
        };
        self.posteriors = Some(PriorPosteriors::new(
            priors,
            self.settings.shared.noise_std,
            self.settings.shared.posterior,
        )?);
        self.alive = vec![true; p];
        self.counts = vec![0; p];
        self.error_sums = vec![0.0; p];
        self.width_sums = vec![0.0; p];
        self.reward_sums = vec![0.0; p];
        Ok(())
    }

    /// Whether each candidate prior survives.
    pub fn alive(&self) -> &[bool] {
        &self.alive
    }

    /// `n_p`: the steps at which each prior was the selected one.
    pub fn counts(&self) -> &[usize] {
        &self.counts
    }

    /// `E_p`: each prior's signed sum of prediction errors.
    pub fn error_sums(&self) -> &[f64] {
        &self.error_sums
    }

    /// `G_p`: each prior's sum of confidence widths `β_i σ_i`.
    pub fn width_sums(&self) -> &[f64] {
        &self.width_sums
    }

    /// The candidate priors' posteriors; `None` before the priors are installed.
    pub fn posteriors(&self) -> Option<&PriorPosteriors> {
        self.posteriors.as_ref()
    }

    fn state(&self) -> Result<&PriorPosteriors, AlgorithmError> {
        self.posteriors.as_ref().ok_or_else(not_installed)
    }

    fn priors(&self) -> Result<&CandidatePriors, AlgorithmError> {
        Ok(self.state()?.priors())
    }

    fn surviving(&self) -> Vec<usize> {
        (0..self.alive.len()).filter(|&p| self.alive[p]).collect()
    }

    /// `allowed[c]` for every candidate: the step's allowed set matched to the domain's
    /// candidates through the engine's nearest-neighbour search, exactly.
    fn allowed_mask(&self, ctx: &AskContext<'_>) -> Result<Vec<bool>, AlgorithmError> {
        let candidates = self.priors()?.candidates();
        let Some(set) = ctx.allowed else {
            if let Some(c) = candidates.iter().find(|c| !ctx.domain.contains(c)) {
                return Err(AlgorithmError::Config(format!(
                    "the prior set's domain point {c:?} is outside the problem's domain: do \
                     the candidate priors belong to this problem?"
                )));
            }
            return Ok(vec![true; candidates.rows()]);
        };
        if set.is_empty() {
            return Err(AlgorithmError::Config(format!(
                "the allowed set at step {} is empty",
                ctx.t
            )));
        }
        let mut mask = vec![false; candidates.rows()];
        let nearest = ctx.engine.nearest(candidates, set)?;
        for (k, &c) in nearest.iter().enumerate() {
            if candidates.row(c) != set.row(k) {
                return Err(AlgorithmError::Config(format!(
                    "allowed point {:?} at step {} is not a point of the prior set's domain: do \
                     the candidate priors belong to this problem?",
                    set.row(k),
                    ctx.t
                )));
            }
            mask[c] = true;
        }
        Ok(mask)
    }

    /// The arg-max over allowed candidates of `values` (lowest index among ties).
    fn best_candidate(
        engine: &dyn Engine,
        values: &[f64],
        allowed: &[bool],
    ) -> Result<usize, AlgorithmError> {
        let masked: Vec<f64> = values
            .iter()
            .zip(allowed)
            .map(|(v, a)| if *a { *v } else { f64::NEG_INFINITY })
            .collect();
        Ok(engine.argmax(&masked)?)
    }

    fn choose(
        &mut self,
        ctx: &AskContext<'_>,
        allowed: &[bool],
        beta_t: f64,
    ) -> Result<Pending, AlgorithmError> {
        let n = self.priors()?.candidates().rows();
        let n_priors = self.alive.len();
        let t = ctx.t;
        let ucb = |mean: &[f64], std: &[f64]| -> Vec<f64> {
            mean.iter().zip(std).map(|(m, s)| m + beta_t * s).collect()
        };
        let single = |this: &mut Self, p: usize| -> Result<Pending, AlgorithmError> {
            let mut wanted = vec![false; n_priors];
            wanted[p] = true;
            let post = installed(&mut this.posteriors)?.posterior(ctx.engine, t, &wanted)?;
            let c = Self::best_candidate(ctx.engine, &ucb(&post.mean[p], &post.std[p]), allowed)?;
            Ok(Pending {
                t,
                candidate: c,
                prior: p,
                mean: post.mean[p][c],
                std: post.std[p][c],
                beta: beta_t,
            })
        };
        match self.rule {
            Rule::PriorElimination { .. } => {
                if !self.alive.contains(&true) {
                    return Err(AlgorithmError::Config(
                        "every candidate prior has been eliminated: the prior set or the noise \
                         std R is misspecified (guard = true keeps the last prior)"
                            .into(),
                    ));
                }
                let post =
                    installed(&mut self.posteriors)?.posterior(ctx.engine, t, &self.alive)?;
                let mut values = vec![f64::NEG_INFINITY; n_priors * n];
                for p in (0..n_priors).filter(|&p| self.alive[p]) {
                    let u = ucb(&post.mean[p], &post.std[p]);
                    for c in (0..n).filter(|&c| allowed[c]) {
                        values[p * n + c] = u[c];
                    }
                }
                let best = ctx.engine.argmax(&values)?;
                let (p, c) = (best / n, best % n);
                Ok(Pending {
                    t,
                    candidate: c,
                    prior: p,
                    mean: post.mean[p][c],
                    std: post.std[p][c],
                    beta: beta_t,
                })
            }
            Rule::RegretBalancing { .. } => {
                let u = (0..n_priors)
                    .filter(|&p| self.alive[p])
                    .min_by_key(|&p| self.counts[p])
                    .expect("Regret Balancing always keeps a prior");
                single(self, u)
            }
            Rule::MaximumLikelihood => {
                let evidence = self.state()?.log_evidence(ctx.engine)?;
                self.log
                    .extra
                    .insert("log_evidence".into(), json!(evidence));
                let p = ctx.engine.argmax(&evidence)?;
                single(self, p)
            }
            Rule::FullyBayesian => {
                let evidence = self.state()?.log_evidence(ctx.engine)?;
                let weights = posterior_weights(&evidence);
                let all = vec![true; n_priors];
                let post = installed(&mut self.posteriors)?.posterior(ctx.engine, t, &all)?;
                let mut acquisition = vec![0.0; n];
                for (p, w) in weights.iter().enumerate() {
                    for (a, u) in acquisition.iter_mut().zip(ucb(&post.mean[p], &post.std[p])) {
                        *a += w * u;
                    }
                }
                let c = Self::best_candidate(ctx.engine, &acquisition, allowed)?;
                let p = ctx.engine.argmax(&weights)?;
                self.log.extra.insert("weights".into(), json!(weights));
                self.log
                    .extra
                    .insert("acquisition".into(), json!(acquisition[c]));
                Ok(Pending {
                    t,
                    candidate: c,
                    prior: p,
                    mean: post.mean[p][c],
                    std: post.std[p][c],
                    beta: beta_t,
                })
            }
        }
    }

    fn candidate_of(&self, x: &[f64]) -> Result<usize, AlgorithmError> {
        if let Some(p) = self.pending
            && self.priors()?.candidates().row(p.candidate) == x
        {
            return Ok(p.candidate);
        }
        self.priors()?
            .candidates()
            .iter()
            .position(|c| c == x)
            .ok_or_else(|| {
                AlgorithmError::Config(format!(
                    "evaluated point {x:?} is not a point of the prior set's domain"
                ))
            })
    }

    /// The bookkeeping of the rule after `y_t` for the step chosen as `pending`.
    fn learn(&mut self, pending: Pending, y: f64) {
        let p = pending.prior;
        let n_initial = self.alive.len();
        let s = self.settings;
        let xi_t = xi(
            n_initial,
            s.shared.noise_std,
            s.shared.delta,
            pending.t,
            s.xi_strict,
        );
        self.log.extra.insert("xi".into(), json!(xi_t));
        match self.rule {
            Rule::PriorElimination { guard } => {
                let eta = y - pending.mean;
                self.counts[p] += 1;
                self.error_sums[p] += eta;
                self.width_sums[p] += pending.beta * pending.std;
                let threshold = elimination_threshold(self.counts[p], self.width_sums[p], xi_t);
                let fires =
                    elimination_fires(self.error_sums[p], self.counts[p], self.width_sums[p], xi_t);
                let last = self.alive.iter().filter(|a| **a).count() == 1;
                let misspecification = fires && last && guard;
                let eliminated = fires && !misspecification;
                if eliminated {
                    self.alive[p] = false;
                }
                self.log.extra.insert("eta".into(), json!(eta));
                self.log
                    .extra
                    .insert("statistic".into(), json!(self.error_sums[p].abs()));
                self.log.extra.insert("threshold".into(), json!(threshold));
                self.log.extra.insert("n_p".into(), json!(self.counts[p]));
                self.log
                    .extra
                    .insert("e_p".into(), json!(self.error_sums[p]));
                self.log
                    .extra
                    .insert("g_p".into(), json!(self.width_sums[p]));
                self.log.extra.insert(
                    "eliminated_prior".into(),
                    if eliminated { json!(p) } else { Value::Null },
                );
                self.log
                    .extra
                    .insert("misspecification".into(), json!(misspecification));
            }
            Rule::RegretBalancing { literal } => {
                self.counts[p] += 1;
                self.reward_sums[p] += y;
                self.width_sums[p] += pending.beta * pending.std;
                let kept = balancing_survivors(
                    &self.alive,
                    &self.counts,
                    &self.reward_sums,
                    &self.width_sums,
                    xi_t,
                    literal,
                );
                let eliminated: Vec<usize> = (0..n_initial)
                    .filter(|&q| self.alive[q] && !kept[q])
                    .collect();
                self.alive = kept;
                self.log
                    .extra
                    .insert("eliminated_priors".into(), json!(eliminated));
            }
            Rule::MaximumLikelihood | Rule::FullyBayesian => {
                self.counts[p] += 1;
            }
        }
    }
}

impl Algorithm for UnknownPriorUcb {
    /// Takes the candidate priors from the problem ([`Problem::candidate_priors`]) unless they
    /// were given, and refuses, before the run, a problem whose first allowed set is not drawn
    /// from their domain, which `ask` would only find after the initial design.
    fn prepare(&mut self, problem: &dyn Problem) -> Result<(), AlgorithmError> {
        if self.posteriors.is_none() {
            let priors = problem.candidate_priors().ok_or_else(|| {
                AlgorithmError::Config(format!(
                    "problem \"{}\" defines no candidate priors (the unknown-prior algorithms \
                     run on {})",
                    problem.name(),
                    Requirement::CandidatePriors.accepted_problems().join(", ")
                ))
            })?;
            self.install(priors)?;
        }
        let candidates = self.priors()?.candidates();
        if let Some(point) = problem
            .allowed_set(1)
            .and_then(|set| set.iter().find(|p| !candidates.iter().any(|c| c == *p)))
        {
            return Err(AlgorithmError::Config(format!(
                "allowed point {point:?} at t = 1 is not a point of the candidate priors' \
                 domain (problem \"{}\")",
                problem.name()
            )));
        }
        Ok(())
    }

    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let start = Instant::now();
        self.log.extra = Map::new();
        let allowed = self.allowed_mask(ctx)?;
        let s = self.settings.shared;
        let beta_t = s.beta_scale * beta(self.horizon, allowed.len(), s.delta, ctx.t);
        let pending = self.choose(ctx, &allowed, beta_t)?;
        self.log
            .extra
            .insert("selected_prior".into(), json!(pending.prior));
        self.log.extra.insert(
            "selected_label".into(),
            json!(self.priors()?.priors()[pending.prior].label),
        );
        self.log.extra.insert("beta".into(), json!(beta_t));
        self.log
            .extra
            .insert("ucb".into(), json!(pending.mean + beta_t * pending.std));
        self.pending = Some(pending);
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        Ok(Proposal {
            x: self.priors()?.candidates().row(pending.candidate).to_vec(),
            repeats: 1,
        })
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        let start = Instant::now();
        let candidate = self.candidate_of(feedback.x)?;
        if let Some(pending) = self.pending.take() {
            if pending.candidate != candidate || pending.t != feedback.t {
                return Err(AlgorithmError::Config(format!(
                    "told step {} at {:?}, but step {} asked for candidate {}",
                    feedback.t, feedback.x, pending.t, pending.candidate
                )));
            }
            self.learn(pending, feedback.y);
        }
        installed(&mut self.posteriors)?.observe(candidate, feedback.t, feedback.y)?;
        self.log
            .extra
            .insert("surviving_priors".into(), json!(self.surviving()));
        self.log.extra.insert("counts".into(), json!(self.counts));
        self.last_x = feedback.x.to_vec();
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();
        Ok(())
    }

    /// The last evaluated point: the paper has no recommendation step, and for a function that
    /// changes with t the latest optimistic choice is the algorithm's current best guess.
    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        Ok(self.last_x.clone())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.parameters.clone()
    }
}
