//! The BOKE paper's GP-UCB baseline (Zhu et al. 2025, Appendix A.1, Algorithm 4): an RBF GP
//! with a **fixed**
//! β and a **fixed** length scale (chosen once, by marginal likelihood on the initial design),
//! refactorised from scratch at every step as the paper's cost analysis assumes, and maximised
//! by the same multi-start search as BOKE.

use std::time::Instant;

use serde_json::{Map, json};

use super::family::FamilyState;
use super::search::{self, SearchConfig, Surface};
use bosweep_core::params::ParamValue;
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::{BandwidthSchedule, GpSpec, GpState, Kernel, KernelKind, Noise};
use bosweep_toolkit::{Algorithm, AlgorithmError, AskContext, Feedback, Proposal, StepLog};

/// Central-difference step of the refinement gradients (unit-cube units).
const FD_STEP: f64 = 1e-6;
/// Length scales tried on the initial design.
const LENGTHSCALE_GRID: usize = 50;

/// The fixed GP-UCB, running.
pub(super) struct GpUcbFixedRunner {
    pub(super) state: FamilyState,
    pub(super) search: SearchConfig,
    pub(super) beta: f64,
    pub(super) noise_var: f64,
    /// The given length scale, or the one chosen at the first model step.
    pub(super) lengthscale: Option<f64>,
}

impl GpUcbFixedRunner {
    fn fit(
        &self,
        data: &Points,
        targets: &[f64],
        lengthscale: f64,
    ) -> Result<GpState, EngineError> {
        let kernel = Kernel::new(
            KernelKind::SquaredExponential,
            vec![lengthscale; data.dim()],
            1.0,
        )?;
        GpState::fit(
            data.clone(),
            targets,
            GpSpec::new(kernel, Noise::Homoscedastic(self.noise_var)),
        )
    }

    /// The length scale of largest log marginal likelihood on a log grid over `[0.01, 2√d]`
    /// (fallback `0.2√d` when no grid value gives a finite likelihood).
    fn select_lengthscale(&self, data: &Points, targets: &[f64]) -> f64 {
        let upper = 2.0 * (data.dim() as f64).sqrt();
        let (lo, hi) = (0.01f64.ln(), upper.ln());
        (0..LENGTHSCALE_GRID)
            .map(|i| (lo + (hi - lo) * i as f64 / (LENGTHSCALE_GRID - 1) as f64).exp())
            .filter_map(|l| {
                let lml = self.fit(data, targets, l).ok()?.log_marginal_likelihood();
                lml.is_finite().then_some((l, lml))
            })
            .fold(None, |best: Option<(f64, f64)>, (l, lml)| match best {
                Some((_, b)) if b >= lml => best,
                _ => Some((l, lml)),
            })
            .map_or(0.2 * (data.dim() as f64).sqrt(), |(l, _)| l)
    }
}

/// `(y − mean) / sd` (population sd; 1 when it is 0).
fn standardise(ys: &[f64]) -> Vec<f64> {
    let n = ys.len() as f64;
    let mean = ys.iter().sum::<f64>() / n;
    let sd = (ys.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / n).sqrt();
    let sd = if sd > 0.0 { sd } else { 1.0 };
    ys.iter().map(|y| (y - mean) / sd).collect()
}

struct UcbSurface<'a> {
    gp: &'a GpState,
    sqrt_beta: f64,
    /// The run's f64 CPU engine, for the refinement's gradients.
    reference: &'a dyn Engine,
}

impl UcbSurface<'_> {
    fn ucb(&self, engine: &dyn Engine, points: &Points) -> Result<Vec<f64>, EngineError> {
        let post = engine.posterior(self.gp, points)?;
        Ok(post
            .mean
            .iter()
            .zip(post.std())
            .map(|(m, s)| m + self.sqrt_beta * s)
            .collect())
    }
}

impl Surface for UcbSurface<'_> {
    fn values(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        self.ucb(engine, candidates)
    }

    fn refinable(&self) -> bool {
        true
    }

    /// Central differences in f64 on the CPU (one-sided at the cube's faces).
    fn value_gradient(&self, u: &[f64]) -> Result<(f64, Vec<f64>), EngineError> {
        let dim = u.len();
        let mut rows = u.to_vec();
        let mut spans = Vec::with_capacity(dim);
        for i in 0..dim {
            let (a, b) = ((u[i] - FD_STEP).max(0.0), (u[i] + FD_STEP).min(1.0));
            spans.push(b - a);
            for v in [a, b] {
                let mut p = u.to_vec();
                p[i] = v;
                rows.extend(p);
            }
        }
        let values = self.ucb(self.reference, &Points::new(rows, dim)?)?;
        let gradient = (0..dim)
            .map(|i| (values[2 * i + 2] - values[2 * i + 1]) / spans[i])
            .collect();
        Ok((values[0], gradient))
    }
}

impl Algorithm for GpUcbFixedRunner {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let start = Instant::now();
        if let Some(proposal) = self.state.design_step(ctx) {
            return Ok(proposal);
        }
        let data = self.state.observed_units(ctx)?;
        let t = data.rows();
        let targets = standardise(self.state.history.ys());
        let lengthscale = match self.lengthscale {
            Some(l) => l,
            None => {
                let l = self.select_lengthscale(&data, &targets);
                self.lengthscale = Some(l);
                l
            }
        };
        let gp = self.fit(&data, &targets, lengthscale)?;
        self.state.log.cost.model_seconds += start.elapsed().as_secs_f64();

        let start = Instant::now();
        let surface = UcbSurface {
            gp: &gp,
            sqrt_beta: self.beta.sqrt(),
            reference: ctx.reference,
        };
        // Local candidates spread as BOKE's would (Scott's bandwidth), for a like-for-like search.
        let spread = BandwidthSchedule::default_scott().bandwidth(&data);
        let best = self.state.history.best_units(self.search.local_centres);
        let centres: Vec<&[f64]> = best.iter().map(Vec::as_slice).collect();
        let found = search::maximize(
            &surface,
            ctx.engine,
            &data,
            &centres,
            spread,
            &self.search,
            ctx.rng,
        )?;
        // Work the paper's Table 1 counts: the kernel matrix and its Cholesky factor, then per
        // evaluated point a kernel row and a triangular solve for the variance.
        let points = found.evaluated_points() + 2 * data.dim() * found.refine_evaluations;
        let t3 = (t * t * t) as f64 / 3.0;
        self.state.log.extra = Map::new();
        self.state
            .log
            .extra
            .insert("lengthscale".into(), json!(lengthscale));
        self.state
            .log
            .extra
            .insert("candidates".into(), json!(found.candidates));
        self.state
            .log
            .extra
            .insert("kernel_evaluations".into(), json!(t * t + points * t));
        self.state
            .log
            .extra
            .insert("cholesky_flops".into(), json!(t3));
        self.state
            .log
            .extra
            .insert("variance_flops".into(), json!((points * t * t) as f64));
        self.state.log.cost.acq_seconds += start.elapsed().as_secs_f64();
        Ok(Proposal {
            x: ctx.domain.from_unit(&found.u),
            repeats: 1,
        })
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        self.state.tell(feedback);
        Ok(())
    }

    fn recommend(&mut self, _engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        Ok(self.state.history.raw().best_x())
    }

    fn step_log(&mut self) -> Option<&mut StepLog> {
        Some(&mut self.state.log)
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.state.parameters()
    }
}
