//! qLogNParEGO (Daulton, Balandat and Bakshy, NeurIPS 2020's qNParEGO in the log-space form of
//! Ament et al., NeurIPS 2023), as BoTorch's `qLogNParEGO` computes it with its defaults: the
//! objectives' joint posterior samples scalarised by a random augmented Chebyshev function
//! (Knowles 2006's ParEGO), then qLogNEI on the scalar, the pending points joining the observed
//! ones (`incremental`).
//!
//! Each ask draws new weights `w` uniformly from the simplex; the objectives are normalised by the
//! range of the GPs' posterior means at the observed points, `n_j(y) = (u_j − y_j)/(u_j − l_j)`
//! (0 at the best mean, 1 at the worst), and the scalar `s(y) = −(max_j w_j n_j + α Σ_j w_j n_j)`
//! with `α = 0.05` is maximised. Everything is in **maximisation** form and in the objectives'
//! own units.

use rand::RngExt;

use super::joint_objectives::{JointObjectives, ObjectiveModel, ObjectiveSlopes, scratch};
use super::qlognei::BaseSamples;
use super::{
    Acquisition, AnalyticGradient, ValueGradient, log_fatplus, log_fatplus_slope, log_mean_exp,
};
use bosweep_core::stats::log_mean_exp_weights;
use bosweep_engine::{Engine, EngineError, Points};

/// BoTorch's weight of the augmented Chebyshev function's sum term (Knowles 2006).
pub const CHEBYSHEV_ALPHA: f64 = 0.05;

/// Uniform weights on the simplex (BoTorch's `sample_simplex`): the gaps between `m − 1` sorted
/// uniforms and the ends 0 and 1.
pub fn sample_simplex(m: usize, rng: &mut impl rand::Rng) -> Vec<f64> {
    let mut cuts: Vec<f64> = (1..m).map(|_| rng.random::<f64>()).collect();
    cuts.sort_by(f64::total_cmp);
    let mut points = vec![0.0];
    points.extend(cuts);
    points.push(1.0);
    points.windows(2).map(|w| w[1] - w[0]).collect()
}

/// BoTorch's augmented Chebyshev scalarisation (`get_chebyshev_scalarization`) of values in the
/// maximisation sense, normalised by the range of `reference_values`.
#[derive(Clone, Debug, PartialEq)]
pub struct ChebyshevScalarization {
    weights: Vec<f64>,
    /// The best reference value per objective (the normalisation's 0).
    upper: Vec<f64>,
    /// The reference values' range per objective (1 where they are all equal).
    range: Vec<f64>,
}

impl ChebyshevScalarization {
    /// The scalarisation with `weights` (non-negative, one per objective), normalised by the
    /// range of `reference_values` (row-major, one row per point, at least one).
    pub fn new(weights: Vec<f64>, reference_values: &[f64]) -> Result<Self, EngineError> {
        let m = weights.len();
        if m < 2
            || reference_values.is_empty()
            || !reference_values.len().is_multiple_of(m)
            || weights.iter().any(|w| !(w.is_finite() && *w >= 0.0))
            || reference_values.iter().any(|v| !v.is_finite())
        {
            return Err(EngineError::invalid(format!(
                "Chebyshev scalarisation: weights {weights:?} (non-negative, one per objective, \
                 at least 2) and {} finite reference values (whole rows)",
                reference_values.len()
            )));
        }
        let column = |j: usize| reference_values.iter().skip(j).step_by(m).copied();
        let upper: Vec<f64> = (0..m)
            .map(|j| column(j).fold(f64::NEG_INFINITY, f64::max))
            .collect();
        let range = (0..m)
            .map(|j| {
                let spread = upper[j] - column(j).fold(f64::INFINITY, f64::min);
                if spread > 0.0 { spread } else { 1.0 }
            })
            .collect();
        Ok(Self {
            weights,
            upper,
            range,
        })
    }

    /// The scalarisation with `weights`, normalised by the range of the `models`' posterior
    /// means (in the objectives' units) at `baseline`, as BoTorch's `qLogNParEGO` takes it.
    pub fn at_means(
        weights: Vec<f64>,
        models: &[ObjectiveModel<'_>],
        engine: &dyn Engine,
        baseline: &Points,
    ) -> Result<Self, EngineError> {
        let (m, n_base) = (models.len(), baseline.rows());
        let mut means = vec![0.0; n_base * m];
        for (j, model) in models.iter().enumerate() {
            let mean = engine.posterior(model.gp, baseline)?.mean;
            for (i, mu) in mean.iter().enumerate() {
                means[i * m + j] = model.output.inverse(*mu);
            }
        }
        Self::new(weights, &means)
    }

    /// The weights.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// `s(y) = −(max_j w_j n_j(y) + α Σ_j w_j n_j(y))`, to be maximised.
    pub fn value(&self, y: &[f64]) -> f64 {
        let (top, sum) = self.terms(y);
        -(top.1 + CHEBYSHEV_ALPHA * sum)
    }

    /// `∂s/∂y_j = (w_j / range_j) ([j is the maximum's] + α)`.
    pub(crate) fn slopes(&self, y: &[f64], out: &mut [f64]) {
        let (top, _) = self.terms(y);
        for (j, slot) in out.iter_mut().enumerate() {
            let at_max = if j == top.0 { 1.0 } else { 0.0 };
            *slot = self.weights[j] / self.range[j] * (at_max + CHEBYSHEV_ALPHA);
        }
    }

    /// The largest weighted term (its objective first, the lowest among ties) and their sum.
    fn terms(&self, y: &[f64]) -> ((usize, f64), f64) {
        let mut top = (0, f64::NEG_INFINITY);
        let mut sum = 0.0;
        for (j, v) in y.iter().enumerate() {
            let term = self.weights[j] * (self.upper[j] - v) / self.range[j];
            if term > top.1 {
                top = (j, term);
            }
            sum += term;
        }
        (top, sum)
    }
}

/// qLogNParEGO of a single candidate over the observed and pending points, for
/// **maximisation** of every objective, on independent GPs.
pub struct QLogNParEgo<'a> {
    objectives: JointObjectives<'a>,
    scalarization: ChebyshevScalarization,
    /// Each sample's best scalarised draw over the observed and pending points.
    best: Vec<f64>,
    tau_relu: f64,
}

impl<'a> QLogNParEgo<'a> {
    /// qLogNParEGO over `baseline` (observed points, at least one) and `pending`, in the models'
    /// input units, with `weights` (one per objective) and one set of base samples per objective
    /// (`baseline + pending + 1` columns each); the normalisation is the range of the models'
    /// posterior means at `baseline`.
    pub fn new(
        models: &[ObjectiveModel<'a>],
        engine: &dyn Engine,
        baseline: &Points,
        pending: &Points,
        weights: Vec<f64>,
        base: &[BaseSamples],
        tau_relu: f64,
    ) -> Result<Self, EngineError> {
        let objectives =
            JointObjectives::new("qLogNParEGO", models, engine, baseline, pending, base)?;
        let scalarization = ChebyshevScalarization::at_means(weights, models, engine, baseline)?;
        let m = objectives.m();
        let mut y = vec![0.0; m];
        let best = (0..objectives.samples())
            .map(|s| {
                (0..objectives.fixed_count())
                    .map(|i| {
                        objectives.fixed_draw(s, i, &mut y);
                        scalarization.value(&y)
                    })
                    .fold(f64::NEG_INFINITY, f64::max)
            })
            .collect();
        Ok(Self {
            objectives,
            scalarization,
            best,
            tau_relu,
        })
    }
}

impl Acquisition for QLogNParEgo<'_> {
    fn dim(&self) -> usize {
        self.objectives.dim()
    }

    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        let draws = self
            .objectives
            .candidate_draws("qLogNParEGO", engine, candidates)?;
        let (m, samples) = (self.objectives.m(), self.best.len());
        let mut per_sample = vec![0.0; samples];
        Ok(draws
            .chunks_exact(samples * m)
            .map(|candidate| {
                for ((value, y), best) in per_sample
                    .iter_mut()
                    .zip(candidate.chunks_exact(m))
                    .zip(&self.best)
                {
                    *value = log_fatplus(self.scalarization.value(y) - best, self.tau_relu);
                }
                log_mean_exp(&per_sample)
            })
            .collect())
    }

    /// Reparameterisation through each objective's joint posterior and the scalarisation (its
    /// maximum differentiated at its arg-max, as autograd does), on the CPU in f64.
    fn analytic_gradient(&self) -> Result<Option<Box<dyn AnalyticGradient + '_>>, EngineError> {
        Ok(self.objectives.slopes().map(|slopes| {
            Box::new(QLogNParEgoGradient {
                acquisition: self,
                slopes,
            }) as Box<dyn AnalyticGradient + '_>
        }))
    }
}

struct QLogNParEgoGradient<'q, 'a> {
    acquisition: &'q QLogNParEgo<'a>,
    slopes: ObjectiveSlopes<'q, 'a>,
}

impl AnalyticGradient for QLogNParEgoGradient<'_, '_> {
    fn objective(&self) -> ValueGradient<'_> {
        let q = self.acquisition;
        let (m, samples) = (q.objectives.m(), q.best.len());
        let mut scratch = scratch(m);
        let mut y = vec![0.0; m];
        let mut scalar_slopes = vec![0.0; m];
        let mut per_sample = vec![0.0; samples];
        // ∂ per_sample_s / ∂ y_sj, row-major samples × objectives.
        let mut draw_slopes = vec![0.0; samples * m];
        Box::new(move |x: &[f64]| {
            let at = self.slopes.draws_at(x, &mut scratch)?;
            for s in 0..samples {
                at.sample(&q.objectives, s, &mut y);
                let improvement = q.scalarization.value(&y) - q.best[s];
                per_sample[s] = log_fatplus(improvement, q.tau_relu);
                q.scalarization.slopes(&y, &mut scalar_slopes);
                let slope = log_fatplus_slope(improvement, q.tau_relu);
                for j in 0..m {
                    draw_slopes[s * m + j] = slope * scalar_slopes[j];
                }
            }
            let value = log_mean_exp(&per_sample);
            let weights = log_mean_exp_weights(&per_sample);
            let gradient = self.slopes.chain(&at, &weights, &draw_slopes, x.len());
            if value.is_nan() || gradient.iter().any(|g| g.is_nan()) {
                return Err(EngineError::invalid(format!(
                    "qLogNParEGO: NaN value or gradient at {x:?}"
                )));
            }
            Ok((value, gradient))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Simplex weights are non-negative and sum to 1; their mean over many draws is uniform.
    #[test]
    fn simplex_weights_sum_to_one_and_are_uniform_on_average() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut mean = [0.0; 3];
        for _ in 0..20_000 {
            let w = sample_simplex(3, &mut rng);
            assert!(w.iter().all(|v| *v >= 0.0));
            assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-15);
            for (m, v) in mean.iter_mut().zip(&w) {
                *m += v / 20_000.0;
            }
        }
        assert!(
            mean.iter().all(|m| (m - 1.0 / 3.0).abs() < 0.01),
            "{mean:?}"
        );
    }

    /// By hand: reference values (0, 0) and (2, 4) give ranges (2, 4) and best (2, 4); y = (1, 0)
    /// normalises to (0.5, 1), so with w = (0.5, 0.5) the terms are (0.25, 0.5):
    /// s = −(0.5 + 0.05 · 0.75), and its slopes are (0.5/2 · 0.05, 0.5/4 · 1.05).
    #[test]
    fn augmented_chebyshev_by_hand() {
        let scalarization =
            ChebyshevScalarization::new(vec![0.5, 0.5], &[0.0, 0.0, 2.0, 4.0]).unwrap();
        assert!((scalarization.value(&[1.0, 0.0]) + 0.5375).abs() < 1e-15);
        let mut slopes = [0.0; 2];
        scalarization.slopes(&[1.0, 0.0], &mut slopes);
        assert!((slopes[0] - 0.0125).abs() < 1e-15 && (slopes[1] - 0.13125).abs() < 1e-15);
        assert!(ChebyshevScalarization::new(vec![0.5, -0.5], &[0.0, 0.0]).is_err());
    }
}
