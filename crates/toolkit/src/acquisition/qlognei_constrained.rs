//! qLogNEI under black-box constraints, as BoTorch 0.18's `qLogNoisyExpectedImprovement`
//! computes it with `constraints` (Ament et al., NeurIPS 2023) and its default
//! `incremental=True`: one independent GP for the objective and one per constraint, their joint
//! posteriors at the observed points, the pending points and a candidate sampled with fixed base
//! samples, and the candidate's
//!
//! `ln fatplus(f − best_f) + Σ_j ln fatmoid(−c_j / η)`
//!
//! per sample, averaged over the samples in log space. `best_f` is, per sample, the best
//! objective draw among the observed and pending points whose constraint draws are all ≤ 0
//! (hard feasibility); where some sample has none, the infeasible points count at a lower bound
//! of the objective instead (BoTorch's `compute_best_feasible_objective`). Everything is in the
//! outcomes' own units (the objective in the maximisation sense), so that `η` means what it
//! means in BoTorch.
//!
//! The objective is one outcome's value or, for qLogNParEGO (BoTorch's `qLogNParEGO`, which is
//! this qLogNEI of a composite objective), a Chebyshev scalarisation of several
//! ([`ScalarObjective`]).

use nalgebra::DMatrix;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, StandardNormal};
use rayon::prelude::*;

use super::joint::{most_often, observed_posterior};
use super::joint_objectives::{JointObjectives, ObjectiveModel, ObjectiveSlopes, scratch};
use super::qlognei::{BaseSamples, TAU_RELU};
use super::qlognparego::ChebyshevScalarization;
use super::{Acquisition, AnalyticGradient, ValueGradient};
use bosweep_core::stats::{
    log_fatmoid, log_fatmoid_slope, log_fatplus, log_fatplus_slope, log_mean_exp,
    log_mean_exp_weights,
};
use bosweep_engine::{Engine, EngineError, Points};

/// BoTorch's temperature of the smoothed feasibility indicator of an MC acquisition (`eta`).
pub const CONSTRAINT_ETA: f64 = 1e-3;

/// The number of points at which BoTorch's `_estimate_objective_lower_bound` evaluates the
/// objective's posterior.
pub const LOWER_BOUND_POINTS: usize = 32;

/// The points of BoTorch's `_estimate_objective_lower_bound`: `uniforms` (one row per point,
/// one column per input, in [0, 1]) spread over the bounding box of `baseline` widened by a tenth
/// of its width on each side. An affine input transform maps this box onto the box of the
/// transformed points, so the points can be taken in the GP's input units.
pub fn lower_bound_points(
    baseline: &Points,
    uniforms: &DMatrix<f64>,
) -> Result<Points, EngineError> {
    let dim = baseline.dim();
    if baseline.is_empty() || uniforms.ncols() != dim || uniforms.nrows() == 0 {
        return Err(EngineError::invalid(format!(
            "objective lower bound: {}×{} uniforms for {} observed points of {dim} inputs",
            uniforms.nrows(),
            uniforms.ncols(),
            baseline.rows()
        )));
    }
    let column = |j: usize| baseline.iter().map(move |row| row[j]);
    let lower: Vec<f64> = (0..dim)
        .map(|j| column(j).fold(f64::INFINITY, f64::min))
        .collect();
    let width: Vec<f64> = (0..dim)
        .map(|j| column(j).fold(f64::NEG_INFINITY, f64::max) - lower[j])
        .collect();
    let (lower, width) = (&lower, &width);
    let data = uniforms
        .row_iter()
        .flat_map(|u| {
            (0..dim).map(move |j| lower[j] - 0.1 * width[j] + u[j] * (width[j] + 0.2 * width[j]))
        })
        .collect();
    Points::new(data, dim)
}

/// [`lower_bound_points`] of the points of every set in `sets` (the observed and the pending
/// points), with [`LOWER_BOUND_POINTS`] × d uniforms drawn from `rng` (BoTorch draws them from
/// torch's generator).
pub fn draw_lower_bound_points(
    sets: &[&Points],
    rng: &mut impl rand::Rng,
) -> Result<Points, EngineError> {
    let rows: Vec<&[f64]> = sets.iter().flat_map(|set| set.iter()).collect();
    let points = Points::from_rows(&rows)?;
    let uniforms = DMatrix::from_fn(LOWER_BOUND_POINTS, points.dim(), |_, _| rng.random());
    lower_bound_points(&points, &uniforms)
}

/// The scalar a constrained qLogNEI improves on, read off the objectives' outcomes (the first
/// [`ScalarObjective::outputs`] of a sample's outcomes; the constraints follow them).
#[derive(Clone, Debug, PartialEq)]
pub enum ScalarObjective {
    /// One objective's value (qLogNEI).
    Single,
    /// A Chebyshev scalarisation of several objectives' values (qLogNParEGO).
    Chebyshev(ChebyshevScalarization),
}

impl ScalarObjective {
    /// The number of objective outcomes it reads.
    pub fn outputs(&self) -> usize {
        match self {
            Self::Single => 1,
            Self::Chebyshev(scalarization) => scalarization.weights().len(),
        }
    }

    /// Its value at the objective outcomes `y`.
    pub fn value(&self, y: &[f64]) -> f64 {
        match self {
            Self::Single => y[0],
            Self::Chebyshev(scalarization) => scalarization.value(y),
        }
    }

    /// Its slopes in the objective outcomes at `y`, into `out`.
    fn slopes(&self, y: &[f64], out: &mut [f64]) {
        match self {
            Self::Single => out[0] = 1.0,
            Self::Chebyshev(scalarization) => scalarization.slopes(y, out),
        }
    }
}

/// BoTorch's lower bound of the objective (`−get_infeasible_cost`): over the `objectives`'
/// posteriors at `points` (in the GPs' input units; one model per objective outcome, in their
/// own units, maximisation sense), the least of `objective(μ − 6σ)` and `objective(μ + 6σ)`,
/// and 0 where that is positive. Infeasible observed points count at this value when some
/// sample has no feasible one.
pub fn objective_lower_bound(
    objective: &ScalarObjective,
    objectives: &[ObjectiveModel<'_>],
    engine: &dyn Engine,
    points: &Points,
) -> Result<f64, EngineError> {
    if objectives.len() != objective.outputs() {
        return Err(EngineError::invalid(format!(
            "objective lower bound: {} models for an objective of {} outcomes",
            objectives.len(),
            objective.outputs()
        )));
    }
    let posteriors = objectives
        .iter()
        .map(|model| engine.posterior(model.gp, points))
        .collect::<Result<Vec<_>, _>>()?;
    let (mut below, mut above) = (vec![0.0; objectives.len()], vec![0.0; objectives.len()]);
    let mut lowest = f64::INFINITY;
    for i in 0..points.rows() {
        for (j, (model, posterior)) in objectives.iter().zip(&posteriors).enumerate() {
            let mean = model.output.inverse(posterior.mean[i]);
            let sd = model
                .output
                .inverse_variance(posterior.variance[i].max(0.0))
                .sqrt();
            below[j] = mean - 6.0 * sd;
            above[j] = mean + 6.0 * sd;
        }
        lowest = lowest
            .min(objective.value(&below))
            .min(objective.value(&above));
    }
    if lowest.is_nan() {
        return Err(EngineError::invalid(
            "objective lower bound: the posterior is NaN",
        ));
    }
    Ok(lowest.min(0.0))
}

/// The smoothing of constrained qLogNEI: BoTorch's temperatures by default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstrainedSmoothing {
    /// Temperature of the smoothed improvement (`tau_relu`).
    pub tau_relu: f64,
    /// Temperature of each constraint's smoothed feasibility indicator (`eta`), in the
    /// constraint's units.
    pub eta: f64,
}

impl Default for ConstrainedSmoothing {
    fn default() -> Self {
        Self {
            tau_relu: TAU_RELU,
            eta: CONSTRAINT_ETA,
        }
    }
}

/// qLogNEI of a single candidate over the observed and pending points, under constraints, for
/// **maximisation** of the objective (see the module's documentation).
pub struct ConstrainedQLogNoisyExpectedImprovement<'a> {
    /// The scalar improved on, read off the objective outcomes.
    objective: ScalarObjective,
    /// The objective outcomes' joint posteriors first, then each constraint's.
    outcomes: JointObjectives<'a>,
    /// Each sample's best feasible objective draw over the observed and pending points (or the
    /// lower bound, see the module).
    best: Vec<f64>,
    /// The value infeasible observed points counted at (`−∞` where every sample has a feasible
    /// one).
    infeasible_value: f64,
    smoothing: ConstrainedSmoothing,
}

impl<'a> ConstrainedQLogNoisyExpectedImprovement<'a> {
    /// Constrained qLogNEI of `objective` over `baseline` (observed points, at least one) with
    /// `pending` points, in the models' input units. `outcomes` are the objective outcomes'
    /// models (maximisation sense; [`ScalarObjective::outputs`] of them), then one model per
    /// constraint (at least one, feasible where ≤ 0), each drawn with its own `base` samples
    /// (`baseline + pending + 1` columns), in the same order. `lower_bound` is asked only where
    /// some sample has no feasible observed or pending point ([`objective_lower_bound`]).
    pub fn new(
        objective: ScalarObjective,
        outcomes: &[ObjectiveModel<'a>],
        engine: &dyn Engine,
        (baseline, pending): (&Points, &Points),
        base: &[BaseSamples],
        smoothing: ConstrainedSmoothing,
        lower_bound: impl FnOnce() -> Result<f64, EngineError>,
    ) -> Result<Self, EngineError> {
        const WHAT: &str = "constrained qLogNEI";
        let ConstrainedSmoothing { tau_relu, eta } = smoothing;
        let n_objective = objective.outputs();
        if outcomes.len() <= n_objective {
            return Err(EngineError::invalid(format!(
                "{WHAT}: {} outcome models; the objective's {n_objective} and at least one \
                 constraint's are needed (qLogNEI without constraints is \
                 QLogNoisyExpectedImprovement)",
                outcomes.len()
            )));
        }
        if [tau_relu, eta].iter().any(|t| !(t.is_finite() && *t > 0.0)) {
            return Err(EngineError::invalid(format!(
                "{WHAT}: temperatures tau_relu = {tau_relu} and eta = {eta} must be positive and \
                 finite"
            )));
        }
        let outcomes = JointObjectives::new(WHAT, outcomes, engine, baseline, pending, base)?;
        let (m, n_base, samples) = (outcomes.m(), outcomes.fixed_count(), outcomes.samples());

        // Per sample and observed or pending point: the objective draw, and whether every
        // constraint's draw is ≤ 0.
        let mut y = vec![0.0; m];
        let mut observed = vec![(0.0, false); samples * n_base];
        for s in 0..samples {
            for i in 0..n_base {
                outcomes.fixed_draw(s, i, &mut y);
                observed[s * n_base + i] = (
                    objective.value(&y[..n_objective]),
                    y[n_objective..].iter().all(|c| *c <= 0.0),
                );
            }
        }
        let every_sample_feasible = observed
            .chunks_exact(n_base)
            .all(|row| row.iter().any(|(_, feasible)| *feasible));
        let infeasible_value = if every_sample_feasible {
            f64::NEG_INFINITY
        } else {
            lower_bound()?
        };
        let best: Vec<f64> = observed
            .chunks_exact(n_base)
            .map(|row| {
                row.iter()
                    .map(|&(value, feasible)| if feasible { value } else { infeasible_value })
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .collect();
        Ok(Self {
            objective,
            outcomes,
            best,
            infeasible_value,
            smoothing,
        })
    }

    /// The value infeasible observed and pending points counted at in `best_f`: `−∞` where
    /// every sample had a feasible one, else the objective's lower bound.
    pub fn infeasible_value(&self) -> f64 {
        self.infeasible_value
    }
}

impl ConstrainedQLogNoisyExpectedImprovement<'_> {
    /// `ln fatplus(objective(y) − best) + Σ_j ln fatmoid(−c_j / η)` for a sample's outcomes `y`
    /// (the objective outcomes, then the constraints `c`).
    fn term(&self, y: &[f64], best: f64) -> f64 {
        let n = self.objective.outputs();
        let feasibility: f64 = y[n..]
            .iter()
            .map(|c| log_fatmoid(-c / self.smoothing.eta))
            .sum();
        log_fatplus(
            self.objective.value(&y[..n]) - best,
            self.smoothing.tau_relu,
        ) + feasibility
    }
}

impl Acquisition for ConstrainedQLogNoisyExpectedImprovement<'_> {
    fn dim(&self) -> usize {
        self.outcomes.dim()
    }

    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        let draws = self
            .outcomes
            .candidate_draws("constrained qLogNEI", engine, candidates)?;
        let (m, samples) = (self.outcomes.m(), self.best.len());
        Ok(draws
            .par_chunks_exact(samples * m)
            .map_init(
                || vec![0.0; samples],
                |per_sample, candidate| {
                    for ((value, y), best) in per_sample
                        .iter_mut()
                        .zip(candidate.chunks_exact(m))
                        .zip(&self.best)
                    {
                        *value = self.term(y, *best);
                    }
                    log_mean_exp(per_sample)
                },
            )
            .collect())
    }

    /// Reparameterisation through every outcome's joint posterior (the base samples fixed), as
    /// BoTorch's autograd differentiates it, on the CPU in f64; `None` where a kernel has no
    /// gradient.
    fn analytic_gradient(&self) -> Result<Option<Box<dyn AnalyticGradient + '_>>, EngineError> {
        Ok(self.outcomes.slopes().map(|slopes| {
            Box::new(ConstrainedGradient {
                acquisition: self,
                slopes,
            }) as Box<dyn AnalyticGradient + '_>
        }))
    }
}

struct ConstrainedGradient<'q, 'a> {
    acquisition: &'q ConstrainedQLogNoisyExpectedImprovement<'a>,
    slopes: ObjectiveSlopes<'q, 'a>,
}

impl AnalyticGradient for ConstrainedGradient<'_, '_> {
    fn objective(&self) -> ValueGradient<'_> {
        let q = self.acquisition;
        let (m, samples) = (q.outcomes.m(), q.best.len());
        let smoothing = q.smoothing;
        let mut scratch = scratch(m);
        let n = q.objective.outputs();
        let mut y = vec![0.0; m];
        let mut scalar_slopes = vec![0.0; n];
        let mut per_sample = vec![0.0; samples];
        // ∂ per_sample_s / ∂ y_sj, row-major samples × outcomes.
        let mut draw_slopes = vec![0.0; samples * m];
        Box::new(move |x: &[f64]| {
            let at = self.slopes.draws_at(x, &mut scratch)?;
            for s in 0..samples {
                at.sample(&q.outcomes, s, &mut y);
                per_sample[s] = q.term(&y, q.best[s]);
                let improvement = q.objective.value(&y[..n]) - q.best[s];
                let slope = log_fatplus_slope(improvement, smoothing.tau_relu);
                q.objective.slopes(&y[..n], &mut scalar_slopes);
                for (out, scalar) in draw_slopes[s * m..s * m + n].iter_mut().zip(&scalar_slopes) {
                    *out = slope * scalar;
                }
                for j in n..m {
                    draw_slopes[s * m + j] =
                        -log_fatmoid_slope(-y[j] / smoothing.eta) / smoothing.eta;
                }
            }
            let value = log_mean_exp(&per_sample);
            let weights = log_mean_exp_weights(&per_sample);
            let gradient = self.slopes.chain(&at, &weights, &draw_slopes, x.len());
            if value.is_nan() || gradient.iter().any(|g| g.is_nan()) {
                return Err(EngineError::invalid(format!(
                    "constrained qLogNEI: NaN value or gradient at {x:?}"
                )));
            }
            Ok((value, gradient))
        })
    }
}

/// The observed points that could be the best feasible one, as BoTorch 0.18's
/// `prune_inferior_points` picks them with constraints: in each of `samples` joint posterior
/// draws of the objective outcomes (`objectives`' GPs, read by `objective`) and of every
/// constraint, the best objective among
/// the points whose constraint draws are all ≤ 0 wins (the first point where none is), and the
/// points that win at least once are kept, the most often first, at most `max_points`. Where
/// no point is feasible in any draw, new draws rank the points by their smoothed log
/// feasibility `Σ_j ln sigmoid(−c_j/η)` (η = 1e-3) instead: the points nearest to feasible.
pub fn prune_baseline_constrained(
    objective: &ScalarObjective,
    objectives: &[ObjectiveModel<'_>],
    constraints: &[ObjectiveModel<'_>],
    engine: &dyn Engine,
    samples: usize,
    max_points: usize,
    seed: u64,
) -> Result<Points, EngineError> {
    const WHAT: &str = "constrained qLogNEI";
    let n_objective = objective.outputs();
    let Some(observed) = objectives.first().map(|model| model.gp.train()) else {
        return Err(EngineError::invalid(format!(
            "{WHAT}: no objective model to prune with"
        )));
    };
    let n = observed.rows();
    if n == 0 {
        return Ok(observed.clone());
    }
    if objectives.len() != n_objective {
        return Err(EngineError::invalid(format!(
            "{WHAT}: {} objective models for an objective of {n_objective} outcomes",
            objectives.len()
        )));
    }
    let mut factors = Vec::new();
    for model in objectives.iter().chain(constraints) {
        if model.gp.train().rows() != n {
            return Err(EngineError::invalid(format!(
                "{WHAT}: an outcome's GP has {} observed points, the first objective's {n}",
                model.gp.train().rows()
            )));
        }
        factors.push(observed_posterior(model.gp, engine, WHAT)?);
    }
    // A constraint is ≤ 0 in its own units where its GP's draw is ≤ this.
    let thresholds: Vec<f64> = constraints.iter().map(|c| c.output.forward(0.0)).collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut draw_all = || -> Vec<Vec<f64>> {
        let mut normals = nalgebra::DVector::zeros(n);
        factors
            .iter()
            .map(|(chol, mean)| {
                normals
                    .iter_mut()
                    .for_each(|z| *z = StandardNormal.sample(&mut rng));
                (chol * &normals)
                    .iter()
                    .zip(mean)
                    .map(|(d, m)| d + m)
                    .collect()
            })
            .collect()
    };
    let draws: Vec<Vec<Vec<f64>>> = (0..samples).map(|_| draw_all()).collect();
    // The draws are in the GPs' units: the objective reads the objectives' own.
    let value = |draw: &[Vec<f64>], i: usize| {
        let y: Vec<f64> = objectives
            .iter()
            .zip(draw)
            .map(|(model, d)| model.output.inverse(d[i]))
            .collect();
        objective.value(&y)
    };
    let feasible = |draw: &[Vec<f64>], i: usize| {
        draw[n_objective..]
            .iter()
            .zip(&thresholds)
            .all(|(c, threshold)| c[i] <= *threshold)
    };
    let any_feasible = draws.iter().any(|draw| (0..n).any(|i| feasible(draw, i)));
    let mut wins = vec![0usize; n];
    if any_feasible {
        for draw in &draws {
            let winner = first_argmax((0..n).map(|i| {
                if feasible(draw, i) {
                    value(draw, i)
                } else {
                    f64::NEG_INFINITY
                }
            }));
            wins[winner] += 1;
        }
    } else {
        for _ in 0..samples {
            let draw = draw_all();
            let winner = first_argmax((0..n).map(|i| {
                constraints
                    .iter()
                    .zip(&draw[n_objective..])
                    .map(|(model, c)| log_sigmoid(-model.output.inverse(c[i]) / CONSTRAINT_ETA))
                    .sum()
            }));
            wins[winner] += 1;
        }
    }
    let rows: Vec<&[f64]> = most_often(&wins, max_points)
        .iter()
        .map(|&i| observed.row(i))
        .collect();
    Points::from_rows(&rows)
}

/// The index of the first largest value (as `torch.argmax` picks among ties); 0 for none.
fn first_argmax(values: impl Iterator<Item = f64>) -> usize {
    values
        .enumerate()
        .fold((0, f64::NEG_INFINITY), |(best_i, best), (i, v)| {
            if v > best { (i, v) } else { (best_i, best) }
        })
        .0
}

/// `ln sigmoid(x) = −ln(1 + e^{−x})`, without overflow (BoTorch's `logexpit`).
fn log_sigmoid(x: f64) -> f64 {
    -((-x).max(0.0) + (-x.abs()).exp().ln_1p())
}
