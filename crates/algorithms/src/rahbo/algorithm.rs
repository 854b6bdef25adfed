//! The RAHBO family as one ask/tell [`Algorithm`]: RAHBO (Makarova et al., NeurIPS 2021,
//! Algorithm 1), RAHBO with known variance (Eq. 9), and the paper's baselines RAHBO-US and
//! heteroscedastic GP-UCB (Section 4).

use std::time::Instant;

use rand::RngExt;
use serde_json::{Map, json};

use super::models::{Data, Hyper, Models, build, fit_hyper};
use super::report::{ReportScores, reported_index};
use super::settings::{AlphaSource, ReportRule, RunSettings, Variant};
use super::stats::{SampleStats, bounds, mean_variance_bounds};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::{Engine, Points, Posterior};
use bosweep_problems::{Domain, NoiseVariance, Problem};
use bosweep_toolkit::acquisition::{Bounds, SobolGrid, default_grid_size};
use bosweep_toolkit::{Algorithm, AlgorithmError, AskContext, Feedback, Proposal, StepLog};

/// The candidate set of a run: the problem's allowed set, or a Sobol set in the unit cube fixed
/// for the run, with the oracle's `ρ²` there for the known-variance variant.
struct Candidates {
    unit: Points,
    /// The points in problem coordinates (proposals are taken from here exactly).
    original: Points,
    true_variance: Vec<f64>,
}

/// One method of the RAHBO family with its data and models.
pub(crate) struct RahboAlgorithm {
    params: Params,
    settings: RunSettings,
    oracle: Option<NoiseVariance>,
    /// The problem's box, known from the first ask: the models work in its unit cube.
    domain: Option<Domain>,
    data: Data,
    /// Points in problem coordinates, in arrival order.
    xs: Vec<Vec<f64>>,
    /// `lcb^MV_t(x_t)` of the round each point was chosen in (`None` for the initial design).
    lcb_at_choice: Vec<Option<f64>>,
    pending_lcb: Option<f64>,
    hyper: Option<Hyper>,
    models: Option<Models>,
    rounds: usize,
    candidates: Option<(Option<usize>, Candidates)>,
    log: StepLog,
}

impl RahboAlgorithm {
    /// The method `settings` give; `params` are the same settings, checked, for the trace
    /// header.
    pub(crate) fn boxed(
        settings: RunSettings,
        params: Params,
    ) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        Ok(Box::new(Self {
            params,
            settings,
            oracle: None,
            domain: None,
            data: Data::default(),
            xs: Vec::new(),
            lcb_at_choice: Vec::new(),
            pending_lcb: None,
            hyper: None,
            models: None,
            rounds: 0,
            candidates: None,
            log: StepLog::default(),
        }))
    }

    fn true_variance(&self, x: &[f64]) -> f64 {
        self.oracle.as_ref().map_or(0.0, |o| o(x))
    }

    /// The candidate set for this round (rebuilt only when the allowed set changes).
    fn refresh_candidates(&mut self, ctx: &mut AskContext<'_>) -> Result<(), AlgorithmError> {
        let key = ctx.allowed.map(Points::rows);
        let stale = match &self.candidates {
            Some((k, _)) => *k != key || ctx.allowed.is_some(),
            None => true,
        };
        if stale {
            let domain = ctx.domain;
            let (unit, original) = match ctx.allowed {
                Some(set) => {
                    let unit: Vec<Vec<f64>> = set.iter().map(|x| domain.to_unit(x)).collect();
                    (Points::from_rows(&unit)?, set.clone())
                }
                None => {
                    let size = match self.settings.models.grid_size {
                        0 => default_grid_size(domain.dim()),
                        given => given,
                    };
                    let grid = SobolGrid::new(
                        Bounds::cube(0.0, 1.0, domain.dim())?,
                        size,
                        ctx.rng.random(),
                    )?;
                    let unit = grid.all();
                    let original: Vec<Vec<f64>> = unit
                        .iter()
                        .map(|u| clamp_to(domain.from_unit(u), domain))
                        .collect();
                    (unit, Points::from_rows(&original)?)
                }
            };
            let true_variance = match self.settings.variant {
                Variant::KnownVariance => original.iter().map(|x| self.true_variance(x)).collect(),
                _ => Vec::new(),
            };
            self.candidates = Some((
                key,
                Candidates {
                    unit,
                    original,
                    true_variance,
                },
            ));
        }
        Ok(())
    }

    /// Refits the hyperparameters when due, then conditions both GPs on all data (in the unit
    /// cube of the domain seen at the first ask).
    fn update_models(&mut self, engine: &dyn Engine, seed: u64) -> Result<(), AlgorithmError> {
        let Some(domain) = self.domain.clone() else {
            return Ok(());
        };
        let converted = self.data.unit.len() / self.data.dim.max(1);
        for x in &self.xs[converted..] {
            self.data.unit.extend(domain.to_unit(x));
        }
        let due = match (&self.hyper, self.settings.models.refit_every) {
            (None, _) => true,
            (Some(_), 0) => false,
            (Some(_), every) => self.rounds.is_multiple_of(every),
        };
        if due {
            self.hyper = Some(fit_hyper(&self.settings, &self.data, engine, seed)?);
        }
        if let Some(hyper) = &self.hyper {
            self.models = Some(build(&self.settings, &self.data, hyper, engine)?);
        }
        Ok(())
    }

    /// Acquisition values over the candidates and, per candidate, `lcb^MV` for the Corollary
    /// rule. Both GPs' posteriors come from one batched engine call.
    fn acquisition(
        &self,
        models: &Models,
        candidates: &Candidates,
        engine: &dyn Engine,
    ) -> Result<(Vec<f64>, Vec<f64>), AlgorithmError> {
        let s = &self.settings;
        let us_phase =
            matches!(s.variant, Variant::UncertaintySampling { rounds } if self.rounds < rounds);
        let gps: Vec<_> = std::iter::once(&models.f)
            .chain(models.var.as_ref())
            .collect();
        let posts = engine.posterior_batch(&gps, &candidates.unit)?;
        let f = &posts[0];
        let var = posts.get(1);
        let m = f.mean.len();
        let mut acq = Vec::with_capacity(m);
        let mut lcb = Vec::with_capacity(m);
        for j in 0..m {
            let fb = bounds(f.mean[j], f.variance[j], models.beta_f);
            let (a, l) = match s.variant {
                Variant::GpUcb { .. } => (fb.1, fb.0),
                Variant::KnownVariance => {
                    let r = candidates.true_variance[j];
                    (fb.1 - s.risk.alpha * r, fb.0 - s.risk.alpha * r)
                }
                Variant::UncertaintySampling { .. } => {
                    let v = var_at(var)?;
                    let plug = v.mean[j].max(s.models.plugin_floor);
                    if us_phase {
                        (v.variance[j], fb.0 - s.risk.alpha * plug)
                    } else {
                        (fb.1 - s.risk.alpha * plug, fb.0 - s.risk.alpha * plug)
                    }
                }
                Variant::Rahbo { .. } => {
                    let v = var_at(var)?;
                    let mut vb = bounds(v.mean[j], v.variance[j], models.beta_var);
                    if s.models.clamp_lcb_var {
                        vb.0 = vb.0.max(self.data.rho2_min(&s.models));
                    }
                    let (l, u) = mean_variance_bounds(fb, vb, s.risk.alpha);
                    (u, l)
                }
            };
            acq.push(a);
            lcb.push(l);
        }
        Ok((acq, lcb))
    }

    /// Each method's pessimistic score at the evaluated points under the latest models: GP-UCB's
    /// `lcb^f`, RAHBO's `lcb^f − α·ucb^var`, RAHBO-US's `lcb^f − α·ρ̃²`, Eq. 9's `lcb^f − α·ρ²`.
    fn final_lcb(&self, models: &Models, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        let s = &self.settings;
        let gps: Vec<_> = std::iter::once(&models.f)
            .chain(models.var.as_ref())
            .collect();
        let posts = engine.posterior_batch(&gps, &self.data.points()?)?;
        let (f, var) = (&posts[0], posts.get(1));
        (0..self.data.len())
            .map(|i| {
                let lf = bounds(f.mean[i], f.variance[i], models.beta_f).0;
                Ok(match s.variant {
                    Variant::GpUcb { .. } => lf,
                    Variant::KnownVariance => lf - s.risk.alpha * self.data.true_variances[i],
                    Variant::UncertaintySampling { .. } => {
                        lf - s.risk.alpha * var_at(var)?.mean[i].max(s.models.plugin_floor)
                    }
                    Variant::Rahbo { .. } => {
                        let v = var_at(var)?;
                        lf - s.risk.alpha * bounds(v.mean[i], v.variance[i], models.beta_var).1
                    }
                })
            })
            .collect()
    }

    /// Index of the reported point under `rule` (lowest index among ties).
    fn report_index(
        &self,
        rule: ReportRule,
        engine: &dyn Engine,
    ) -> Result<Option<usize>, AlgorithmError> {
        let final_lcb = match (&self.models, rule) {
            (Some(models), ReportRule::FinalLcb) => Some(self.final_lcb(models, engine)?),
            _ => None,
        };
        Ok(reported_index(
            rule,
            &ReportScores {
                stored_lcb: &self.lcb_at_choice,
                final_lcb: final_lcb.as_deref(),
                means: &self.data.means,
                variances: &self.data.variances,
                alpha: self.settings.risk.alpha,
            },
        ))
    }
}

/// The variance GP's posterior, which the methods that use it always compute.
fn var_at(var: Option<&Posterior>) -> Result<&Posterior, AlgorithmError> {
    var.ok_or_else(|| AlgorithmError::Config("the variance GP is missing".into()))
}

fn clamp_to(mut x: Vec<f64>, domain: &Domain) -> Vec<f64> {
    for (d, v) in x.iter_mut().enumerate() {
        *v = v.clamp(domain.lower()[d], domain.upper()[d]);
    }
    x
}

impl Algorithm for RahboAlgorithm {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        if self.data.len() == 0 {
            return Err(AlgorithmError::Config(
                "RAHBO needs an initial design of at least one point (init ≥ 1)".into(),
            ));
        }
        let start = Instant::now();
        if self.domain.is_none() {
            self.domain = Some(ctx.domain.clone());
        }
        if self.hyper.is_none() {
            let seed = ctx.rng.random();
            self.update_models(ctx.engine, seed)?;
        }
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();
        let start = Instant::now();
        let engine = ctx.engine;
        self.refresh_candidates(ctx)?;
        let (Some(models), Some((_, candidates))) = (&self.models, &self.candidates) else {
            return Err(AlgorithmError::Config(
                "RAHBO: the models could not be built from the initial design".into(),
            ));
        };
        let (acq, lcb) = self.acquisition(models, candidates, engine)?;
        let best = engine.argmax(&acq)?;
        let x = candidates.original.row(best).to_vec();
        self.pending_lcb = Some(lcb[best]);
        self.log.extra = Map::new();
        self.log
            .extra
            .insert("alpha".into(), json!(self.settings.risk.alpha));
        self.log
            .extra
            .insert("acquisition".into(), json!(acq[best]));
        self.log.extra.insert("lcb_mv".into(), json!(lcb[best]));
        self.log.extra.insert("beta_f".into(), json!(models.beta_f));
        if models.var.is_some() {
            self.log
                .extra
                .insert("beta_var".into(), json!(models.beta_var));
        }
        if let Variant::UncertaintySampling { rounds } = self.settings.variant {
            let phase = if self.rounds < rounds { "us" } else { "ucb" };
            self.log.extra.insert("us_phase".into(), json!(phase));
        }
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        Ok(Proposal {
            x,
            repeats: self.settings.risk.k,
        })
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        let chosen = self.pending_lcb.take();
        if feedback.x.is_empty() {
            return Err(AlgorithmError::Config("a point with no coordinates".into()));
        }
        let stats = SampleStats::of(feedback.repeats);
        if chosen.is_none() && self.hyper.is_none() {
            self.log.extra = Map::new();
        }
        let (mean, variance) = match (stats, self.settings.variant) {
            (Some(s), _) => (s.mean, s.variance),
            (None, Variant::KnownVariance) => (feedback.y, 0.0),
            (None, _) => {
                // Fewer than two repeats (the budget's tail): no sample variance, so the point
                // cannot enter the models.
                self.log.extra.insert("skipped".into(), json!(true));
                return Ok(());
            }
        };
        self.data.dim = feedback.x.len();
        self.data.means.push(mean);
        self.data.variances.push(variance);
        self.data.repeats.push(feedback.repeats.len());
        let rho2 = self.true_variance(feedback.x);
        self.data.true_variances.push(rho2);
        self.xs.push(feedback.x.to_vec());
        self.lcb_at_choice.push(chosen);
        self.log.extra.insert("m".into(), json!(mean));
        self.log.extra.insert("s2".into(), json!(variance));
        if chosen.is_some() {
            self.rounds += 1;
        }
        Ok(())
    }

    fn recommend(&mut self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        if self.hyper.is_some() {
            let start = Instant::now();
            let seed = self.rounds as u64;
            self.update_models(engine, seed)?;
            self.log.cost.model_seconds += start.elapsed().as_secs_f64();
        }
        let Some(index) = self.report_index(self.settings.models.report, engine)? else {
            return Ok(Vec::new());
        };
        self.log
            .extra
            .insert("reported_m".into(), json!(self.data.means[index]));
        self.log
            .extra
            .insert("reported_s2".into(), json!(self.data.variances[index]));
        if self.settings.models.report != ReportRule::Corollary
            && let Some(i) = self.report_index(ReportRule::Corollary, engine)?
        {
            self.log
                .extra
                .insert("corollary_x".into(), json!(self.xs[i]));
        }
        if let Some(hyper) = &self.hyper {
            self.log.extra.insert(
                "f_lengthscales".into(),
                json!(hyper.f_kernel.lengthscales()),
            );
            if let Some((k, _, noise)) = &hyper.var {
                self.log
                    .extra
                    .insert("var_lengthscales".into(), json!(k.lengthscales()));
                self.log.extra.insert("var_noise".into(), json!(noise));
            }
        }
        Ok(self.xs[index].clone())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }

    fn initial_repeats(&self) -> usize {
        self.settings.risk.k
    }

    fn prepare(&mut self, problem: &dyn Problem) -> Result<(), AlgorithmError> {
        if self.settings.risk.alpha_source == AlphaSource::Problem
            && let Some(alpha) = problem.risk_aversion()
        {
            self.settings.risk.alpha = alpha;
        }
        if self.settings.variant == Variant::KnownVariance {
            self.oracle = Some(problem.noise_variance().ok_or_else(|| {
                AlgorithmError::Config(format!(
                    "rahbo-known-var needs the true noise variance, which problem \"{}\" does not know",
                    problem.name()
                ))
            })?);
        }
        Ok(())
    }
}
