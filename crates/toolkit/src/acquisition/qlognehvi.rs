//! qLogNEHVI, the noisy expected hypervolume improvement of Daulton, Balandat and Bakshy
//! (NeurIPS 2021) in the log-space form of Ament et al. (NeurIPS 2023), as BoTorch's
//! `qLogNoisyExpectedHypervolumeImprovement` computes it with its defaults (`alpha = 0`: exact
//! box decompositions; `cache_pending` and `incremental_nehvi`: pending points join the
//! observed ones, so each new point's improvement is over the front they all make).
//!
//! Each objective has its own GP (independent outputs, as BoTorch's multi-output
//! `SingleTaskGP`). With quasi-Monte Carlo base samples fixed for the step, sample `s` draws
//! every objective at the observed and pending points jointly with a candidate; the observed
//! and pending points' draws make a front, cut once per sample into the cells of the region it
//! does not dominate; the candidate's draw improves that front's hypervolume by the part of
//! those cells it dominates, smoothed in log space (see
//! [`Engine::log_hypervolume_improvement`], where the candidates × samples × cells work runs),
//! and the value is the log of the mean over the samples.
//!
//! Everything is in **maximisation** form and in the objectives' own units (the models'
//! standardisation undone), as BoTorch evaluates its posterior samples against a reference
//! point given in outcome units.
//!
//! Under black-box constraints ([`QLogNoisyExpectedHypervolumeImprovement::with_constraints`],
//! BoTorch's `constraints`), each constraint has its own GP too, sampled jointly as the
//! objectives are: a sample's front is made of the observed and pending points whose constraint
//! draws are all ≤ 0 in that sample (BoTorch's `feasibility_mask`), and the candidate's log
//! improvement gains its smoothed log feasibility `Σ_j ln fatmoid(−c_j/η)`.

use nalgebra::DMatrix;

use super::joint::{most_often, observed_posterior};
use super::joint_objectives::{JointObjectives, ObjectiveModel, ObjectiveSlopes, scratch};
use super::qlognei::BaseSamples;
use super::{
    Acquisition, AnalyticGradient, ValueGradient, fatmin_pair, fatmin_pair_first_slope,
    log_fatplus, log_fatplus_slope, log_mean_exp,
};
use bosweep_core::pareto::{Front, non_dominated, partition};
use bosweep_core::stats::{log_fatmoid, log_fatmoid_slope, log_mean_exp_weights};
use bosweep_engine::{Engine, EngineError, ImprovementSmoothing, Points, SampleCells};

/// BoTorch's number of quasi-Monte Carlo samples of a multi-objective MC acquisition.
pub const MO_MC_SAMPLES: usize = 128;

/// qLogNEHVI of a single candidate over the front of the observed and pending points, for
/// **maximisation** of every objective, on independent GPs.
pub struct QLogNoisyExpectedHypervolumeImprovement<'a> {
    /// Each objective's joint posterior at the fixed points and a candidate.
    objectives: JointObjectives<'a>,
    /// Each constraint's joint posterior, with the smoothed indicator's temperature η (none
    /// without constraints).
    constraints: Option<(JointObjectives<'a>, f64)>,
    /// Each sample's cells of the region its front does not dominate.
    cells: SampleCells,
    smoothing: ImprovementSmoothing,
}

impl<'a> QLogNoisyExpectedHypervolumeImprovement<'a> {
    /// qLogNEHVI over the front of `baseline` (observed points, at least one) and `pending`
    /// points, all in the models' input units, against `reference` (one value per objective, in
    /// their units, maximisation), with one set of base samples per objective (each of
    /// `baseline + pending + 1` columns, the same number of samples).
    pub fn new(
        models: &[ObjectiveModel<'a>],
        engine: &dyn Engine,
        baseline: &Points,
        pending: &Points,
        reference: &[f64],
        base: &[BaseSamples],
        smoothing: ImprovementSmoothing,
    ) -> Result<Self, EngineError> {
        Self::with_constraints(
            models,
            &[],
            engine,
            (baseline, pending),
            reference,
            base,
            (smoothing, 0.0),
        )
    }

    /// The same under black-box constraints: `constraints` (each feasible where ≤ 0 in its own
    /// units) get their own base samples after the objectives' in `base`, and each constraint
    /// `c` adds `ln fatmoid(−c/η)` to a sample's log improvement, `η` the second of `smoothing`
    /// (BoTorch's default 1e-3; not read without constraints). The points are `(baseline,
    /// pending)`.
    pub fn with_constraints(
        models: &[ObjectiveModel<'a>],
        constraints: &[ObjectiveModel<'a>],
        engine: &dyn Engine,
        (baseline, pending): (&Points, &Points),
        reference: &[f64],
        base: &[BaseSamples],
        (smoothing, eta): (ImprovementSmoothing, f64),
    ) -> Result<Self, EngineError> {
        let (m, k) = (models.len(), constraints.len());
        if k > 0 && !(eta.is_finite() && eta > 0.0) {
            return Err(EngineError::invalid(format!(
                "qLogNEHVI: the feasibility indicator's temperature eta = {eta} must be positive \
                 and finite"
            )));
        }
        if base.len() != m + k {
            return Err(EngineError::invalid(format!(
                "qLogNEHVI: {} sets of base samples for {m} objectives and {k} constraints (one \
                 each)",
                base.len()
            )));
        }
        let (base, constraint_base) = base.split_at(m);
        if m < 2 || reference.len() != m || base.len() != m {
            return Err(EngineError::invalid(format!(
                "qLogNEHVI: {m} objective models, a reference point of {} values and {} sets of \
                 base samples (one each, at least 2 objectives)",
                reference.len(),
                base.len()
            )));
        }
        if let Some(bad) = reference.iter().find(|r| !r.is_finite()) {
            return Err(EngineError::invalid(format!(
                "qLogNEHVI: the reference point has {bad} (must be finite)"
            )));
        }
        let objectives =
            JointObjectives::new("qLogNEHVI", models, engine, baseline, pending, base)?;
        let constraints = if k == 0 {
            None
        } else {
            let joint = JointObjectives::new(
                "qLogNEHVI",
                constraints,
                engine,
                baseline,
                pending,
                constraint_base,
            )?;
            Some((joint, eta))
        };
        let (n_fixed, samples) = (objectives.fixed_count(), objectives.samples());
        let mut cells = SampleCells::new(m);
        let mut y = vec![0.0; m];
        let mut c = vec![0.0; k];
        let mut front = Vec::with_capacity(n_fixed * m);
        for s in 0..samples {
            front.clear();
            for i in 0..n_fixed {
                if let Some((joint, _)) = &constraints {
                    joint.fixed_draw(s, i, &mut c);
                    if c.iter().any(|v| *v > 0.0) {
                        continue;
                    }
                }
                objectives.fixed_draw(s, i, &mut y);
                front.extend_from_slice(&y);
            }
            push_non_dominated_cells(&mut cells, &front, reference)?;
        }
        Ok(Self {
            objectives,
            constraints,
            cells,
            smoothing,
        })
    }

    /// Each candidate's smoothed log feasibility per sample, `candidates × samples` row-major
    /// (zeros without constraints).
    fn log_feasibility(
        &self,
        engine: &dyn Engine,
        candidates: &Points,
    ) -> Result<Vec<f64>, EngineError> {
        let samples = self.cells.samples();
        let Some((joint, eta)) = &self.constraints else {
            return Ok(vec![0.0; candidates.rows() * samples]);
        };
        let draws = joint.candidate_draws("qLogNEHVI", engine, candidates)?;
        Ok(draws
            .chunks_exact(joint.m())
            .map(|c| c.iter().map(|v| log_fatmoid(-v / eta)).sum())
            .collect())
    }

    /// The number of cells over all samples (their fronts' sizes show in it).
    pub fn cell_count(&self) -> usize {
        self.cells.cells()
    }
}

/// Adds the cells of the region `front` (maximisation, row-major, `reference.len()` values per
/// point) does not dominate above `reference`. `bosweep_core::pareto` works in minimisation, so
/// the front and the reference point are negated and the cells flipped back: a minimisation
/// cell `[l, u]` is the maximisation cell `[−u, −l]`, its unbounded side now above.
pub fn push_non_dominated_cells(
    cells: &mut SampleCells,
    front: &[f64],
    reference: &[f64],
) -> Result<(), EngineError> {
    let m = reference.len();
    if front.is_empty() {
        // No point (none feasible): the whole region above the reference point is one cell.
        let unbounded = vec![f64::INFINITY; m];
        return cells.push_sample(std::iter::once((reference, unbounded.as_slice())));
    }
    let negated: Vec<f64> = front.iter().map(|v| -v).collect();
    let negated_reference: Vec<f64> = reference.iter().map(|v| -v).collect();
    let front = Front::new(&negated, m).map_err(|e| EngineError::invalid(e.to_string()))?;
    let part = partition(front, &negated_reference)
        .map_err(|e| EngineError::invalid(format!("qLogNEHVI: {e}")))?;
    let flipped: Vec<(Vec<f64>, Vec<f64>)> = part
        .non_dominated
        .iter()
        .map(|(lower, upper)| {
            (
                upper.iter().map(|v| -v).collect(),
                lower.iter().map(|v| -v).collect(),
            )
        })
        .collect();
    cells.push_sample(flipped.iter().map(|(l, u)| (l.as_slice(), u.as_slice())))
}

impl Acquisition for QLogNoisyExpectedHypervolumeImprovement<'_> {
    fn dim(&self) -> usize {
        self.objectives.dim()
    }

    /// Reparameterisation through each objective's joint posterior, as BoTorch's autograd
    /// differentiates it (the base samples fixed), on the CPU in f64; `None` where a kernel has
    /// no gradient.
    fn analytic_gradient(&self) -> Result<Option<Box<dyn AnalyticGradient + '_>>, EngineError> {
        let constraint_slopes = match &self.constraints {
            Some((joint, _)) => match joint.slopes() {
                Some(slopes) => Some(slopes),
                None => return Ok(None),
            },
            None => None,
        };
        Ok(self.objectives.slopes().map(|slopes| {
            Box::new(QLogNehviGradient {
                acquisition: self,
                slopes,
                constraint_slopes,
            }) as Box<dyn AnalyticGradient + '_>
        }))
    }

    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        let draws = self
            .objectives
            .candidate_draws("qLogNEHVI", engine, candidates)?;
        let mut values = engine.log_hypervolume_improvement(&self.cells, &draws, self.smoothing)?;
        if self.constraints.is_some() {
            let feasibility = self.log_feasibility(engine, candidates)?;
            values
                .iter_mut()
                .zip(feasibility)
                .for_each(|(v, f)| *v += f);
        }
        Ok(values
            .chunks_exact(self.cells.samples())
            .map(log_mean_exp)
            .collect())
    }
}

/// qLogNEHVI's value and gradient at one candidate: each objective's draws are its joint
/// posterior's ([`JointSlopes`]), mapped to the objective's units; each sample's log
/// improvement is a log-sum-exp over its cells of sums of smoothed log sides, whose slopes in the
/// draws chain through the fat minimum and the fat softplus; the samples' log-mean-exp weighs
/// them.
struct QLogNehviGradient<'q, 'a> {
    acquisition: &'q QLogNoisyExpectedHypervolumeImprovement<'a>,
    slopes: ObjectiveSlopes<'q, 'a>,
    /// The constraints' chain rule, where there are constraints.
    constraint_slopes: Option<ObjectiveSlopes<'q, 'a>>,
}

impl AnalyticGradient for QLogNehviGradient<'_, '_> {
    fn objective(&self) -> ValueGradient<'_> {
        let q = self.acquisition;
        let (m, samples) = (q.objectives.m(), q.cells.samples());
        let smoothing = q.smoothing;
        let k = q.constraints.as_ref().map_or(0, |(joint, _)| joint.m());
        let mut constraint_scratch = scratch(k);
        let mut scratch = scratch(m);
        let mut y = vec![0.0; m];
        let mut per_sample = vec![0.0; samples];
        // ∂ log HVI_s / ∂ y_sj, row-major samples × objectives.
        let mut sample_slopes = vec![0.0; samples * m];
        let mut areas = Vec::new();
        let mut c = vec![0.0; k];
        // ∂ log feasibility_s / ∂ c_sj, row-major samples × constraints.
        let mut constraint_sample_slopes = vec![0.0; samples * k];
        Box::new(move |x: &[f64]| {
            let at = self.slopes.draws_at(x, &mut scratch)?;
            let constraint_at = match (&self.constraint_slopes, &q.constraints) {
                (Some(slopes), Some((joint, eta))) => {
                    let at = slopes.draws_at(x, &mut constraint_scratch)?;
                    for s in 0..samples {
                        at.sample(joint, s, &mut c);
                        let row = &mut constraint_sample_slopes[s * k..(s + 1) * k];
                        for (slope, v) in row.iter_mut().zip(&c) {
                            *slope = -log_fatmoid_slope(-v / eta) / eta;
                        }
                        per_sample[s] = c.iter().map(|v| log_fatmoid(-v / eta)).sum();
                    }
                    Some(at)
                }
                _ => {
                    per_sample.fill(0.0);
                    None
                }
            };
            for s in 0..samples {
                at.sample(&q.objectives, s, &mut y);
                areas.clear();
                areas.extend(q.cells.sample(s).map(|(lower, log_length)| {
                    (0..m)
                        .map(|j| {
                            let side = log_fatplus(y[j] - lower[j], smoothing.tau_relu);
                            fatmin_pair(side, log_length[j], smoothing.tau_max)
                        })
                        .sum::<f64>()
                }));
                let top = areas.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let total: f64 = areas.iter().map(|a| (a - top).exp()).sum();
                // The log improvement, after the sample's log feasibility (0 without
                // constraints).
                per_sample[s] += top + total.ln();
                let slopes = &mut sample_slopes[s * m..(s + 1) * m];
                slopes.fill(0.0);
                for ((lower, log_length), area) in q.cells.sample(s).zip(&areas) {
                    let weight = (area - top).exp() / total;
                    for j in 0..m {
                        let gap = y[j] - lower[j];
                        let side = log_fatplus(gap, smoothing.tau_relu);
                        slopes[j] += weight
                            * fatmin_pair_first_slope(side, log_length[j], smoothing.tau_max)
                            * log_fatplus_slope(gap, smoothing.tau_relu);
                    }
                }
            }
            let value = log_mean_exp(&per_sample);
            let weights = log_mean_exp_weights(&per_sample);
            let mut gradient = self.slopes.chain(&at, &weights, &sample_slopes, x.len());
            if let (Some(slopes), Some(at)) = (&self.constraint_slopes, &constraint_at) {
                let through = slopes.chain(at, &weights, &constraint_sample_slopes, x.len());
                gradient.iter_mut().zip(through).for_each(|(g, t)| *g += t);
            }
            if value.is_nan() || gradient.iter().any(|g| g.is_nan()) {
                return Err(EngineError::invalid(format!(
                    "qLogNEHVI: NaN value or gradient at {x:?}"
                )));
            }
            Ok((value, gradient))
        })
    }
}

/// BoTorch's number of posterior draws that decide which observed points may be on the front.
pub const PRUNE_FRONT_SAMPLES: usize = 2048;

/// The observed points that could be on the front (BoTorch's
/// `prune_inferior_points_multi_objective`): those non-dominated, and better than `reference`
/// in every objective, in at least one of `samples` joint posterior draws, the most often such
/// first, at most `max_points` (at least one: the most often, or the first observed point when
/// none ever is). qLogNEHVI over these alone keeps its joint sample within the quasi-random
/// sequence's dimensions as the data grow. Under `constraints` (drawn after the objectives), a
/// point whose constraint draws are not all ≤ 0 counts at the reference point in that draw, as
/// BoTorch sets it: it is never kept for that draw.
pub fn prune_baseline_front(
    models: &[ObjectiveModel<'_>],
    constraints: &[ObjectiveModel<'_>],
    engine: &dyn Engine,
    reference: &[f64],
    samples: usize,
    max_points: usize,
    seed: u64,
) -> Result<Points, EngineError> {
    use rand::SeedableRng;
    use rand_distr::{Distribution, StandardNormal};

    let observed = models
        .first()
        .map(|model| model.gp.train())
        .ok_or_else(|| EngineError::invalid("qLogNEHVI: no objective models to prune with"))?;
    let (n, m) = (observed.rows(), models.len());
    if n <= max_points.max(1) {
        return Ok(observed.clone());
    }
    let mut factors = Vec::with_capacity(m + constraints.len());
    for model in models.iter().chain(constraints) {
        let (chol, mean) = observed_posterior(model.gp, engine, "qLogNEHVI")?;
        factors.push((chol, mean, model.output));
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut wins = vec![0usize; n];
    let mut normals = DMatrix::zeros(n, 1);
    let mut front = vec![0.0; n * m];
    let mut feasible = vec![true; n];
    for _ in 0..samples {
        feasible.fill(true);
        for (j, (chol, mean, output)) in factors.iter().enumerate() {
            normals
                .iter_mut()
                .for_each(|z: &mut f64| *z = StandardNormal.sample(&mut rng));
            let draw = chol * &normals;
            for i in 0..n {
                let value = output.inverse(mean[i] + draw[i]);
                if j < m {
                    // Negated: the front is found in minimisation form.
                    front[i * m + j] = -value;
                } else if value > 0.0 {
                    feasible[i] = false;
                }
            }
        }
        let better: Vec<usize> = (0..n)
            .filter(|&i| feasible[i] && (0..m).all(|j| -front[i * m + j] > reference[j]))
            .collect();
        let values: Vec<f64> = better
            .iter()
            .flat_map(|&i| front[i * m..(i + 1) * m].iter().copied())
            .collect();
        let kept = Front::new(&values, m).map_err(|e| EngineError::invalid(e.to_string()))?;
        for k in non_dominated(kept) {
            wins[better[k]] += 1;
        }
    }
    let mut order = most_often(&wins, max_points);
    if order.is_empty() {
        order.push(0);
    }
    let rows: Vec<&[f64]> = order.iter().map(|&i| observed.row(i)).collect();
    Points::from_rows(&rows)
}
