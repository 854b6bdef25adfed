//! qLogNEI, the noisy batch LogEI of Ament et al. (NeurIPS 2023), as BoTorch's
//! `qLogNoisyExpectedImprovement` computes it: the joint posterior of the observed points, the
//! pending points and a candidate is sampled with fixed quasi-Monte Carlo base samples (so the
//! maximiser sees a deterministic function), each sample's improvement over its best observed
//! value is smoothed in log space, maximised smoothly over the candidate and the pending points,
//! and averaged over the samples in log space.
//!
//! The observed and pending points' part of the joint is drawn once per acquisition; a
//! candidate adds one row to its Cholesky factor. Over a grid, the kernel matrices and the
//! posterior come from the engine, the factor's new rows from dense products on the CPU.

use nalgebra::DMatrix;
use rayon::prelude::*;

use super::sobol::{Bounds, MAX_SOBOL_DIM, SobolGrid};
use super::{Acquisition, AnalyticGradient, ValueGradient};
use bosweep_core::stats::{
    fatmax, fatmax_first_slope, log_fatplus, log_fatplus_slope, log_mean_exp, log_mean_exp_weights,
    normal_quantile,
};
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::GpState;

use super::joint::{JointPosterior, JointScratch, JointSlopes, most_often, observed_posterior};

/// BoTorch's temperature of the smoothed improvement (`TAU_RELU`).
pub const TAU_RELU: f64 = 1e-6;
/// BoTorch's temperature of the smoothed maximum over a batch (`TAU_MAX`).
pub const TAU_MAX: f64 = 1e-2;
/// BoTorch's number of quasi-Monte Carlo samples of an MC acquisition.
pub const MC_SAMPLES: usize = 512;

/// Standard-normal base samples, one row per Monte Carlo sample and one column per jointly
/// sampled point (the observed points, the pending points, then the candidate).
#[derive(Clone, Debug, PartialEq)]
pub struct BaseSamples(DMatrix<f64>);

impl BaseSamples {
    /// `samples × dim` quasi-random normals: a scrambled Sobol sequence (of `seed`) through the
    /// normal quantile, as BoTorch's `SobolQMCNormalSampler` draws them (its own scrambling,
    /// so not its numbers). Dimensions beyond [`MAX_SOBOL_DIM`], where a Sobol grid is padded
    /// rather than one net, are refused: the callers prune the observed points to fit.
    pub fn sobol(samples: usize, dim: usize, seed: u64) -> Result<Self, EngineError> {
        if dim > MAX_SOBOL_DIM {
            return Err(EngineError::invalid(format!(
                "{dim} jointly sampled points exceed the {MAX_SOBOL_DIM} dimensions of the \
                 quasi-random base samples (prune the observed points)"
            )));
        }
        let grid = SobolGrid::new(Bounds::cube(0.0, 1.0, dim.max(1))?, samples, seed)?.all();
        let tiny = f64::EPSILON;
        Ok(Self(DMatrix::from_fn(samples, dim, |s, j| {
            normal_quantile(grid.row(s)[j].clamp(tiny, 1.0 - tiny))
        })))
    }

    /// Base samples given as a matrix (a test's fixed numbers).
    pub fn from_matrix(normals: DMatrix<f64>) -> Result<Self, EngineError> {
        if normals.iter().any(|z| !z.is_finite()) || normals.nrows() == 0 {
            return Err(EngineError::invalid(
                "base samples must be finite, with at least one sample",
            ));
        }
        Ok(Self(normals))
    }

    /// The normals, one row per sample.
    pub(crate) fn normals(&self) -> &DMatrix<f64> {
        &self.0
    }

    /// Number of Monte Carlo samples.
    pub fn samples(&self) -> usize {
        self.0.nrows()
    }

    /// Number of jointly sampled points.
    pub fn dim(&self) -> usize {
        self.0.ncols()
    }
}

/// How many observed points a joint sample may hold beside `pending` pending points and the
/// candidate: the base samples' dimensions are one unpadded net ([`BaseSamples::sobol`]), so
/// beyond this the observed points must be pruned.
pub fn observed_room(pending: usize) -> usize {
    MAX_SOBOL_DIM.saturating_sub(1 + pending)
}

/// qLogNEI of a single candidate joined to the pending points (BoTorch's sequential greedy
/// batch: each new point maximises the joint value with the earlier ones pending), for
/// **maximisation**, on a GP's posterior of the latent function.
pub struct QLogNoisyExpectedImprovement<'a> {
    /// The joint posterior of the observed points, then the pending points, and a candidate.
    joint: JointPosterior<'a>,
    /// Each sample's best observed value (the maximum over the observed points' draws).
    best: Vec<f64>,
    /// Each sample's smoothed log improvements of the pending points.
    pending_improvements: DMatrix<f64>,
    tau_relu: f64,
    tau_max: f64,
}

impl<'a> QLogNoisyExpectedImprovement<'a> {
    /// qLogNEI over `baseline` (observed points, at least one) with `pending` points, in `gp`'s
    /// input units, with `base` samples of `baseline + pending + 1` columns and BoTorch's
    /// temperatures.
    pub fn new(
        gp: &'a GpState,
        engine: &dyn Engine,
        baseline: &Points,
        pending: &Points,
        base: &BaseSamples,
    ) -> Result<Self, EngineError> {
        Self::with_temperatures(gp, engine, baseline, pending, base, TAU_RELU, TAU_MAX)
    }

    /// The same with explicit temperatures of the smoothed improvement and maximum.
    pub fn with_temperatures(
        gp: &'a GpState,
        engine: &dyn Engine,
        baseline: &Points,
        pending: &Points,
        base: &BaseSamples,
        tau_relu: f64,
        tau_max: f64,
    ) -> Result<Self, EngineError> {
        let dim = gp.kernel().input_dim();
        let (n_base, n_pending) = (baseline.rows(), pending.rows());
        if baseline.dim() != dim || (n_pending > 0 && pending.dim() != dim) || n_base == 0 {
            return Err(EngineError::invalid(format!(
                "qLogNEI: {n_base} observed points of {} columns and {n_pending} pending of {} \
                 for a GP of {dim} inputs (at least one observed point)",
                baseline.dim(),
                pending.dim()
            )));
        }
        let n_fixed = n_base + n_pending;
        if base.dim() != n_fixed + 1 {
            return Err(EngineError::invalid(format!(
                "qLogNEI: base samples have {} columns; {n_fixed} fixed points and the \
                 candidate need {}",
                base.dim(),
                n_fixed + 1
            )));
        }
        if !(tau_relu > 0.0 && tau_max > 0.0 && tau_relu.is_finite() && tau_max.is_finite()) {
            return Err(EngineError::invalid(format!(
                "qLogNEI: temperatures {tau_relu} and {tau_max} must be positive and finite"
            )));
        }
        let mut rows: Vec<&[f64]> = (0..n_base).map(|i| baseline.row(i)).collect();
        rows.extend((0..n_pending).map(|i| pending.row(i)));
        let fixed = Points::from_rows(&rows)?;

        let normals = &base.0;
        let joint = JointPosterior::new(
            gp,
            engine,
            fixed,
            normals.columns(0, n_fixed),
            normals.column(n_fixed).iter().copied().collect(),
            "qLogNEI",
        )?;
        let draws = &joint.fixed_draws;
        let best = draws
            .row_iter()
            .map(|row| {
                row.columns(0, n_base)
                    .iter()
                    .copied()
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .collect::<Vec<_>>();
        let pending_improvements = DMatrix::from_fn(normals.nrows(), n_pending, |s, j| {
            log_fatplus(draws[(s, n_base + j)] - best[s], tau_relu)
        });
        Ok(Self {
            joint,
            best,
            pending_improvements,
            tau_relu,
            tau_max,
        })
    }

    /// Sample `s`'s smoothed log improvements at a candidate whose draw is `draw`: the
    /// candidate's over the sample's best observed value first, then the pending points'.
    fn fill_improvements(&self, s: usize, draw: f64, improvements: &mut [f64]) {
        improvements[0] = log_fatplus(draw - self.best[s], self.tau_relu);
        for (slot, pending) in improvements[1..]
            .iter_mut()
            .zip(self.pending_improvements.row(s).iter())
        {
            *slot = *pending;
        }
    }

    /// The value of every candidate, each joined to the pending points.
    fn values(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        let draws = self.joint.candidate_draws(engine, candidates)?;
        Ok((0..candidates.rows())
            .into_par_iter()
            .map_init(
                || {
                    let improvements = vec![0.0; 1 + self.pending_improvements.ncols()];
                    (improvements, vec![0.0; self.joint.own.len()])
                },
                |(improvements, per_sample), i| {
                    for (s, value) in per_sample.iter_mut().enumerate() {
                        self.fill_improvements(s, draws[(i, s)], improvements);
                        *value = fatmax(improvements, self.tau_max);
                    }
                    log_mean_exp(per_sample)
                },
            )
            .collect())
    }
}

impl Acquisition for QLogNoisyExpectedImprovement<'_> {
    fn dim(&self) -> usize {
        self.joint.gp.kernel().input_dim()
    }

    /// Reparameterisation through the joint posterior's Cholesky factor, as BoTorch's autograd
    /// differentiates it (the base samples fixed), on the CPU in f64; `None` for a kernel
    /// without a gradient ([`bosweep_model::Kernel::differentiable`]).
    fn analytic_gradient(&self) -> Result<Option<Box<dyn AnalyticGradient + '_>>, EngineError> {
        Ok(JointSlopes::new(&self.joint).map(|slopes| {
            Box::new(QLogNeiGradient {
                acquisition: self,
                slopes,
            }) as Box<dyn AnalyticGradient + '_>
        }))
    }

    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        if candidates.dim() != self.dim() {
            return Err(EngineError::invalid(format!(
                "qLogNEI: candidates have {} columns but the GP takes {}",
                candidates.dim(),
                self.dim()
            )));
        }
        self.values(engine, candidates)
    }
}

/// qLogNEI's value and gradient at one candidate: each sample's draw is the joint posterior's
/// ([`JointSlopes`]); the value's slopes in the draws chain through the smoothed improvement,
/// the smoothed maximum and the log-mean-exp.
struct QLogNeiGradient<'q, 'a> {
    acquisition: &'q QLogNoisyExpectedImprovement<'a>,
    slopes: JointSlopes<'q, 'a>,
}

impl AnalyticGradient for QLogNeiGradient<'_, '_> {
    fn objective(&self) -> ValueGradient<'_> {
        let q = self.acquisition;
        let samples = q.joint.own.len();
        let mut scratch = JointScratch::default();
        let mut improvements = vec![0.0; 1 + q.pending_improvements.ncols()];
        let mut per_sample = vec![0.0; samples];
        let mut chain = vec![0.0; samples];
        Box::new(move |x: &[f64]| {
            let at = self.slopes.draws_at(x, &mut scratch)?;
            for (s, &draw) in at.draws.iter().enumerate() {
                q.fill_improvements(s, draw, &mut improvements);
                per_sample[s] = fatmax(&improvements, q.tau_max);
                chain[s] = fatmax_first_slope(&improvements, q.tau_max)
                    * log_fatplus_slope(draw - q.best[s], q.tau_relu);
            }
            let value = log_mean_exp(&per_sample);
            // ∂ value / ∂ draw_s: the log-mean-exp's weights times the chain above.
            let weights = log_mean_exp_weights(&per_sample);
            let slopes = nalgebra::DVector::from_iterator(
                samples,
                weights.iter().zip(&chain).map(|(w, c)| w * c),
            );
            let gradient = at.chain(&q.joint, &slopes);
            if value.is_nan() || gradient.iter().any(|g| g.is_nan()) {
                return Err(EngineError::invalid(format!(
                    "qLogNEI: NaN value or gradient at {x:?}"
                )));
            }
            Ok((value, gradient))
        })
    }
}

/// BoTorch's number of posterior draws that decide which observed points may be the best.
pub const PRUNE_SAMPLES: usize = 2048;

/// The observed points that could be the best (BoTorch's `prune_inferior_points`): those that are
/// the largest of `samples` joint posterior draws at least once, the most often best first, at
/// most `max_points` of them (at least one). qLogNEI over these alone differs little from over
/// all of them, and its joint sample stays small as the data grow.
pub fn prune_baseline(
    gp: &GpState,
    engine: &dyn Engine,
    samples: usize,
    max_points: usize,
    seed: u64,
) -> Result<Points, EngineError> {
    prune_baseline_ensemble(&[gp], engine, samples, max_points, seed)
}

/// [`prune_baseline`] for an ensemble of GPs on the same observed points (a fully Bayesian
/// model's draws), as BoTorch prunes for one: each draw shares its normals across the models
/// and averages the models' values (`marginalize_dim`) before its best point is counted. With
/// one model it is [`prune_baseline`], number for number.
pub fn prune_baseline_ensemble(
    gps: &[&GpState],
    engine: &dyn Engine,
    samples: usize,
    max_points: usize,
    seed: u64,
) -> Result<Points, EngineError> {
    use rand::SeedableRng;
    use rand_distr::{Distribution, StandardNormal};

    let Some(first) = gps.first() else {
        return Err(EngineError::invalid("pruning the baseline needs a model"));
    };
    let observed = first.train();
    let n = observed.rows();
    if gps.iter().any(|gp| gp.train() != observed) {
        return Err(EngineError::invalid(
            "pruning the baseline: the ensemble's models hold different observed points",
        ));
    }
    if n == 0 {
        return Ok(observed.clone());
    }
    let posteriors = gps
        .iter()
        .map(|gp| observed_posterior(gp, engine, "qLogNEI"))
        .collect::<Result<Vec<_>, _>>()?;
    let models = gps.len() as f64;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut wins = vec![0usize; n];
    let mut normals = vec![0.0; n];
    let mut average = vec![0.0; n];
    for _ in 0..samples {
        normals
            .iter_mut()
            .for_each(|z| *z = StandardNormal.sample(&mut rng));
        let z = nalgebra::DVector::from_column_slice(&normals);
        average.iter_mut().for_each(|a| *a = 0.0);
        for (chol, mean) in &posteriors {
            let draw = chol * &z;
            for ((a, m), d) in average.iter_mut().zip(mean.iter()).zip(draw.iter()) {
                *a += m + d;
            }
        }
        average.iter_mut().for_each(|a| *a /= models);
        let best = (0..n)
            .max_by(|&a, &b| average[a].total_cmp(&average[b]))
            .unwrap_or(0);
        wins[best] += 1;
    }
    let rows: Vec<&[f64]> = most_often(&wins, max_points)
        .iter()
        .map(|&i| observed.row(i))
        .collect();
    Points::from_rows(&rows)
}
