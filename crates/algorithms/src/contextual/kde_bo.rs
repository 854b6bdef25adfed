//! SBO-KDE and DRBO-KDE (Huang, Song, Xue and Qian, AAAI 2024), StableOpt (Bogunovic et al.
//! 2018) and DRBO-MMD-MinimaxApprox (Tay et al. 2022): one GP over the joint (decision, context)
//! space, refitted by MAP at every step, and an acquisition that
//! reduces the joint-space UCB over context points drawn once per step and held fixed while it
//! is maximised (so the acquisition is a deterministic function of x, fit for L-BFGS).

use std::time::Instant;

use rand::RngExt;
use serde_json::{Map, json};

use super::acquisition::{PairAcquisition, Reduction};
use super::mmd::{MmdBall, context_grid};
use super::schedules::{kde_bandwidths, kde_l1_radius, mmd_radius, theory_beta};
use super::settings::{ContextualSettings, UcbMultiplier};
use bosweep_core::params::{ParamValue, Params};
use bosweep_engine::{Engine, Points};
use bosweep_model::{
    BandwidthRule, FitMode, FitOptions, Kernel, KernelKind, NoiseSpec, sample_clipped,
};
use bosweep_problems::Domain;
use bosweep_toolkit::acquisition::{Acquisition as _, Bounds, MaximizeConfig, SobolGrid, maximize};
use bosweep_toolkit::surrogate::{GpModel, ModelOptions};
use bosweep_toolkit::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepLog,
};

/// Which method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Method {
    SboKde,
    DrboKde,
    StableOpt,
    MinimaxApprox,
}

/// What a method reads besides the shared settings; zero (Silverman's rule) where the method
/// has no such part.
#[derive(Clone, Copy, Debug)]
pub(super) struct MethodParts {
    /// KDE samples per step.
    pub samples: usize,
    /// The KDE's bandwidth rule.
    pub bandwidth: BandwidthRule,
    /// Sobol context points of the infimum.
    pub infimum_points: usize,
    /// DRBO-KDE's scale of the L1 radius.
    pub radius_scale: f64,
    /// Points of the context grid.
    pub grid_size: usize,
}

impl Default for MethodParts {
    fn default() -> Self {
        Self {
            samples: 0,
            bandwidth: BandwidthRule::Silverman,
            infimum_points: 0,
            radius_scale: 0.0,
            grid_size: 0,
        }
    }
}

/// What the last `ask` fitted and drew, kept for the recommendation.
struct StepModel {
    model: GpModel,
    reduction: Reduction,
    domain: Domain,
}

/// SBO-KDE, DRBO-KDE, StableOpt or DRBO-MMD-MinimaxApprox, running.
pub(super) struct KdeBo {
    params: Params,
    method: Method,
    kind: KernelKind,
    fit: FitOptions,
    kappa: UcbMultiplier,
    samples: usize,
    infimum_points: usize,
    radius_scale: f64,
    grid_size: usize,
    bandwidth_rule: BandwidthRule,
    raw_samples: usize,
    restarts: usize,
    pub(super) max_iters: usize,
    /// L-BFGS-B's relative decrease and projected-gradient tolerances.
    pub(super) tolerance: f64,
    pub(super) gradient_tolerance: f64,
    /// The initial lengthscale (every input) and signal variance of each fit.
    lengthscale: f64,
    signal_var: f64,
    context_lo: f64,
    context_hi: f64,
    history: History,
    contexts: Vec<f64>,
    context_dim: Option<usize>,
    last: Option<StepModel>,
    log: StepLog,
}

impl KdeBo {
    /// The method from its typed settings; `params` are the checked parameters they came
    /// from, for the trace header and messages.
    pub(super) fn new(
        params: Params,
        method: Method,
        shared: &ContextualSettings,
        parts: MethodParts,
    ) -> Self {
        let fit = FitOptions {
            mode: shared.fit.mode(),
            noise: NoiseSpec::Fitted {
                initial: shared.noise_var,
            },
            noise_bounds: bosweep_model::Bounds::new(1e-4, 10.0),
            ..FitOptions::default()
        };
        // Huang et al.'s code gave DRBO-KDE (and DRBO-MMD) 32 raw samples and 5 restarts, the
        // others 1024 and 50; the `full` profile gives every method 1024 and 50.
        let (raw_samples, restarts) = shared.budget(method == Method::DrboKde);
        let (context_lo, context_hi) = (shared.context_lo, shared.context_hi);
        Self {
            method,
            kind: shared.kernel.kind(),
            fit,
            kappa: shared.ucb(),
            samples: parts.samples,
            infimum_points: parts.infimum_points,
            radius_scale: parts.radius_scale,
            grid_size: parts.grid_size,
            bandwidth_rule: parts.bandwidth,
            raw_samples,
            restarts,
            max_iters: shared.max_iters,
            tolerance: shared.tolerance,
            gradient_tolerance: shared.gradient_tolerance,
            lengthscale: shared.lengthscale,
            signal_var: shared.signal_var,
            context_lo,
            context_hi,
            params,
            history: History::default(),
            contexts: Vec::new(),
            context_dim: None,
            last: None,
            log: StepLog::default(),
        }
    }

    pub(super) fn kappa_at(&self, t: usize, decision_dim: usize) -> f64 {
        match self.kappa {
            UcbMultiplier::Constant(k) => k,
            UcbMultiplier::Theory { a, b, r } => {
                theory_beta(t, decision_dim, a, b, r).max(0.0).sqrt()
            }
        }
    }

    /// Context points in `[lo, hi]^Dc` mapped to the GP's unit cube.
    pub(super) fn to_unit(&self, points: Points) -> Result<Points, AlgorithmError> {
        let width = self.context_hi - self.context_lo;
        let data = points
            .as_slice()
            .iter()
            .map(|c| (c - self.context_lo) / width)
            .collect();
        Ok(Points::new(data, points.dim())?)
    }

    /// `count` scrambled-Sobol points in the box `[lo, hi]` (unit-cube GP coordinates).
    fn sobol_points(
        &self,
        lo: Vec<f64>,
        hi: Vec<f64>,
        count: usize,
        seed: u64,
    ) -> Result<Points, AlgorithmError> {
        let grid = SobolGrid::new(Bounds::new(lo, hi)?, count, seed)?;
        self.to_unit(grid.all())
    }

    /// The observed contexts, `n × Dc`.
    pub(super) fn context_points(&self) -> Result<Points, AlgorithmError> {
        let dim = self.context_dim.ok_or_else(|| {
            AlgorithmError::Config(format!(
                "{} needs a problem whose environment reports a context",
                self.params.name()
            ))
        })?;
        Ok(Points::new(self.contexts.clone(), dim)?)
    }

    /// The context points of this step's acquisition: KDE samples (Huang et al. 2024, Eq. 2),
    /// the L1 ball's infimum points (their Algorithm 2), StableOpt's confidence box or the
    /// minimax approximation's grid. Draws, in this order
    /// and for every method, the KDE samples and then one seed for the Sobol points, so that
    /// DRBO-KDE with radius 0 sees the same random stream as SBO-KDE.
    fn draw_reduction(
        &mut self,
        ctx: &mut AskContext<'_>,
        model: &GpModel,
    ) -> Result<Reduction, AlgorithmError> {
        let contexts = self.context_points()?;
        let (n, dc) = (contexts.rows(), contexts.dim());
        let (lo, hi) = (vec![self.context_lo; dc], vec![self.context_hi; dc]);
        let samples = if matches!(self.method, Method::StableOpt | Method::MinimaxApprox) {
            Points::empty(dc)?
        } else {
            let h = kde_bandwidths(
                self.bandwidth_rule,
                &contexts,
                self.context_lo,
                self.context_hi,
            );
            self.log.extra.insert("bandwidths".into(), json!(h));
            sample_clipped(&contexts, &h, &lo, &hi, self.samples, ctx.rng)?
        };
        let sobol_seed: u64 = ctx.rng.random();
        Ok(match self.method {
            Method::SboKde => Reduction::Mean {
                samples: self.to_unit(samples)?,
            },
            Method::DrboKde => {
                let delta = self.radius_scale * kde_l1_radius(n, dc);
                self.log.extra.insert("l1_radius".into(), json!(delta));
                Reduction::WorstCaseTv {
                    samples: self.to_unit(samples)?,
                    infimum_points: self.sobol_points(lo, hi, self.infimum_points, sobol_seed)?,
                    delta,
                }
            }
            Method::StableOpt => {
                // The box μ̂ ± σ̂ (sample std, ddof = 1) of the observed contexts, within C.
                let mut box_lo = Vec::with_capacity(dc);
                let mut box_hi = Vec::with_capacity(dc);
                for d in 0..dc {
                    let mean = contexts.iter().map(|r| r[d]).sum::<f64>() / n as f64;
                    let ss = contexts.iter().map(|r| (r[d] - mean).powi(2)).sum::<f64>();
                    let std = if n > 1 {
                        (ss / (n - 1) as f64).sqrt()
                    } else {
                        0.0
                    };
                    box_lo.push((mean - std).clamp(self.context_lo, self.context_hi));
                    box_hi.push((mean + std).clamp(self.context_lo, self.context_hi));
                }
                self.log.extra.insert(
                    "context_box".into(),
                    json!([box_lo.clone(), box_hi.clone()]),
                );
                Reduction::Min {
                    points: self.sobol_points(box_lo, box_hi, self.infimum_points, sobol_seed)?,
                }
            }
            Method::MinimaxApprox => {
                let radius = mmd_radius(n);
                self.log.extra.insert("mmd_radius".into(), json!(radius));
                let grid = context_grid(self.grid_size, dc)?;
                let observed = self.to_unit(contexts)?;
                let ball = MmdBall::new(
                    ctx.engine,
                    model.state(),
                    ctx.domain.dim(),
                    grid,
                    &observed,
                    radius,
                )?;
                Reduction::Minimax { ball }
            }
        })
    }

    pub(super) fn fit_model(&self, ctx: &mut AskContext<'_>) -> Result<GpModel, AlgorithmError> {
        let contexts = self.context_points()?;
        let dx = ctx.domain.dim();
        let dc = contexts.dim();
        let mut joint = Vec::with_capacity(self.history.len() * (dx + dc));
        for (i, c) in contexts.iter().enumerate() {
            joint.extend_from_slice(self.history.x(i));
            joint.extend_from_slice(c);
        }
        let joint = Points::new(joint, dx + dc)?;
        let mut lower = ctx.domain.lower().to_vec();
        let mut upper = ctx.domain.upper().to_vec();
        lower.extend(std::iter::repeat_n(self.context_lo, dc));
        upper.extend(std::iter::repeat_n(self.context_hi, dc));
        let kernel = Kernel::new(self.kind, vec![self.lengthscale; dx + dc], self.signal_var)?;
        let ys = self.history.ys();
        let mut fit = self.fit.clone();
        fit.seed = ctx.rng.random();
        if ys.iter().all(|y| *y == ys[0]) {
            // Constant targets make the likelihood unbounded: keep the initial values.
            fit.mode = FitMode::Fixed;
        }
        let options = ModelOptions::for_box(&lower, &upper)?.with_fit(fit);
        Ok(GpModel::fit(&joint, ys, kernel, &options)?)
    }
}

impl Algorithm for KdeBo {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        self.log.extra = Map::new();
        let start = Instant::now();
        let model = self.fit_model(ctx)?;
        let reduction = self.draw_reduction(ctx, &model)?;
        self.log.cost.model_seconds += start.elapsed().as_secs_f64();

        let start = Instant::now();
        let kappa = self.kappa_at(ctx.t, ctx.domain.dim());
        self.log.extra.insert("ucb_multiplier".into(), json!(kappa));
        self.log
            .extra
            .insert("lengthscales".into(), json!(model.lengthscales_original()));
        let acquisition = PairAcquisition {
            gp: model.state(),
            kappa,
            reduction: &reduction,
        };
        // As the papers' code, BoTorch's optimize_acqf (raw_samples, num_restarts, scipy's
        // L-BFGS-B tolerances), here on the acquisition's analytic gradient.
        let config = MaximizeConfig {
            grid_size: Some(self.raw_samples),
            seed: ctx.rng.random(),
            top_k: self.restarts.min(self.raw_samples),
            max_iters: self.max_iters,
            tolerance: self.tolerance,
            gradient_tolerance: Some(self.gradient_tolerance),
            ..MaximizeConfig::default()
        };
        let unit = Bounds::cube(0.0, 1.0, acquisition.dim())?;
        let best = maximize(&acquisition, ctx.engine, ctx.reference, &unit, &config)?;
        let refine_evaluations: usize = best.starts.iter().map(|s| s.evaluations).sum();
        self.log
            .extra
            .insert("acquisition".into(), json!(best.value));
        self.log
            .extra
            .insert("refine_evaluations".into(), json!(refine_evaluations));
        self.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        self.last = Some(StepModel {
            model,
            reduction,
            domain: ctx.domain.clone(),
        });
        Ok(Proposal {
            x: ctx.domain.from_unit(&best.x),
            repeats: 1,
        })
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        let context = feedback.context.ok_or_else(|| {
            AlgorithmError::Config(format!(
                "{} needs a problem whose environment reports a context (got none at step {})",
                self.params.name(),
                feedback.t
            ))
        })?;
        if self.context_dim.is_some_and(|d| d != context.len()) || context.is_empty() {
            return Err(AlgorithmError::Config(format!(
                "{}: context {context:?} changes dimension",
                self.params.name()
            )));
        }
        self.context_dim = Some(context.len());
        self.history.push(feedback.x, feedback.y);
        self.contexts.extend_from_slice(context);
        if let Some(last) = &mut self.last {
            condition_on(&mut last.model, feedback.x, context, feedback.y)?;
        }
        Ok(())
    }

    /// The papers define no recommendation (their metric is cumulative regret): the evaluated
    /// point maximising the method's acquisition with κ = 0 (the
    /// posterior-mean analogue) under the last step's context points, with the last fit's
    /// hyperparameters conditioned on every observation; the best observation before any model
    /// exists.
    fn recommend(&mut self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        let Some(last) = &self.last else {
            return Ok(self.history.best_x());
        };
        let observed = evaluated_in_unit_box(&self.history, &last.domain)?;
        let values = PairAcquisition {
            gp: last.model.state(),
            kappa: 0.0,
            reduction: &last.reduction,
        }
        .evaluate(engine, &observed)?;
        Ok(self.history.x(engine.argmax(&values)?).to_vec())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.params.to_list()
    }
}

/// Conditions a joint (decision, context) model on one more observation in O(n²), keeping its
/// hyperparameters: what `tell` does so that the recommendation never scores the newest point by
/// its pre-observation mean.
pub(super) fn condition_on(
    model: &mut GpModel,
    x: &[f64],
    context: &[f64],
    y: f64,
) -> Result<(), AlgorithmError> {
    let joint: Vec<f64> = x.iter().chain(context).copied().collect();
    model.append(&joint, y, None)?;
    Ok(())
}

/// The evaluated decisions mapped into the unit box: the candidates of the recommendation rule
/// for every method of this module.
pub(super) fn evaluated_in_unit_box(
    history: &History,
    domain: &Domain,
) -> Result<Points, AlgorithmError> {
    let unit: Vec<f64> = (0..history.len())
        .flat_map(|i| domain.to_unit(history.x(i)))
        .collect();
    Ok(Points::new(unit, domain.dim())?)
}
