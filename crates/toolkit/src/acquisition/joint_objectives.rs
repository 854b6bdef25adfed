//! Several objectives' joint posteriors, one independent GP each, at the same fixed points
//! (observed, then pending) and one candidate at a time, every draw mapped back to its
//! objective's own units: what qLogNEHVI and qLogNParEGO sample and differentiate alike.

use nalgebra::DVector;

use super::joint::{DrawsAt, JointPosterior, JointScratch, JointSlopes};
use super::qlognei::BaseSamples;
use crate::surrogate::{GpModel, OutputTransform};
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::GpState;

/// One objective's model: its GP (on standardised outputs, maximised) and the standardisation
/// that maps the GP's outputs back to the objective's units. A constraint's model has the same
/// two parts, on the constraint's values as observed (never negated).
#[derive(Clone, Copy)]
pub struct ObjectiveModel<'a> {
    /// The GP, in the common input units.
    pub gp: &'a GpState,
    /// The GP's output units to the objective's (maximisation sense).
    pub output: OutputTransform,
}

impl<'a> ObjectiveModel<'a> {
    /// A fitted model as the acquisitions read it: its GP and its standardisation.
    pub fn of(model: &'a GpModel) -> Self {
        Self {
            gp: model.state(),
            output: model.output_transform(),
        }
    }
}

/// The observed then the pending points, checked against the GP's input dimension (`what`
/// names the acquisition in errors).
pub(crate) fn fixed_points(
    what: &str,
    gp: &GpState,
    baseline: &Points,
    pending: &Points,
) -> Result<Points, EngineError> {
    let dim = gp.kernel().input_dim();
    let (n_base, n_pending) = (baseline.rows(), pending.rows());
    if baseline.dim() != dim || (n_pending > 0 && pending.dim() != dim) || n_base == 0 {
        return Err(EngineError::invalid(format!(
            "{what}: {n_base} observed points of {} columns and {n_pending} pending of {} for \
             GPs of {dim} inputs (at least one observed point)",
            baseline.dim(),
            pending.dim()
        )));
    }
    let mut rows: Vec<&[f64]> = (0..n_base).map(|i| baseline.row(i)).collect();
    rows.extend((0..n_pending).map(|i| pending.row(i)));
    Points::from_rows(&rows)
}

/// Every objective's joint posterior with the transform from its GP's output units to the
/// objective's.
pub(crate) struct JointObjectives<'a> {
    objectives: Vec<(JointPosterior<'a>, OutputTransform)>,
}

impl<'a> JointObjectives<'a> {
    /// The joint posteriors of `models` (at least one: several objectives, or a problem's
    /// constraints) at `baseline` (at least one point) and `pending`, in the models' input
    /// units, each drawn with its own `base` samples (`baseline + pending + 1` columns, the same
    /// number of samples); `what` names the acquisition in errors.
    pub fn new(
        what: &str,
        models: &[ObjectiveModel<'a>],
        engine: &dyn Engine,
        baseline: &Points,
        pending: &Points,
        base: &[BaseSamples],
    ) -> Result<Self, EngineError> {
        let m = models.len();
        if m == 0 || base.len() != m {
            return Err(EngineError::invalid(format!(
                "{what}: {m} outcome models and {} sets of base samples (one each, at least one \
                 model)",
                base.len()
            )));
        }
        let fixed = fixed_points(what, models[0].gp, baseline, pending)?;
        let (n_fixed, samples) = (fixed.rows(), base[0].samples());
        if let Some(j) = base
            .iter()
            .position(|b| b.dim() != n_fixed + 1 || b.samples() != samples)
        {
            return Err(EngineError::invalid(format!(
                "{what}: objective {j}'s base samples are {}×{}; {samples} samples of {n_fixed} \
                 fixed points and the candidate need {samples}×{}",
                base[j].samples(),
                base[j].dim(),
                n_fixed + 1
            )));
        }
        let objectives = models
            .iter()
            .zip(base)
            .map(|(model, base)| {
                let normals = base.normals();
                let joint = JointPosterior::new(
                    model.gp,
                    engine,
                    fixed.clone(),
                    normals.columns(0, n_fixed),
                    normals.column(n_fixed).iter().copied().collect(),
                    what,
                )?;
                Ok((joint, model.output))
            })
            .collect::<Result<Vec<_>, EngineError>>()?;
        Ok(Self { objectives })
    }

    /// The number of objectives m.
    pub fn m(&self) -> usize {
        self.objectives.len()
    }

    /// The number of Monte Carlo samples.
    pub fn samples(&self) -> usize {
        self.objectives[0].0.own.len()
    }

    /// The number of fixed points (observed, then pending).
    pub fn fixed_count(&self) -> usize {
        self.objectives[0].0.fixed.rows()
    }

    /// The GPs' input dimension.
    pub fn dim(&self) -> usize {
        self.objectives[0].0.gp.kernel().input_dim()
    }

    /// Sample `s`'s draw of every objective at fixed point `i`, in the objectives' units.
    pub fn fixed_draw(&self, s: usize, i: usize, y: &mut [f64]) {
        for (slot, (joint, output)) in y.iter_mut().zip(&self.objectives) {
            *slot = output.inverse(joint.fixed_draws[(s, i)]);
        }
    }

    /// Every candidate's draws, row-major `candidates × samples × m`, in the objectives' units,
    /// each joint with the fixed points' draws. `what` names the acquisition in errors.
    pub fn candidate_draws(
        &self,
        what: &str,
        engine: &dyn Engine,
        candidates: &Points,
    ) -> Result<Vec<f64>, EngineError> {
        if candidates.dim() != self.dim() {
            return Err(EngineError::invalid(format!(
                "{what}: candidates have {} columns but the GPs take {}",
                candidates.dim(),
                self.dim()
            )));
        }
        let (rows, m, samples) = (candidates.rows(), self.m(), self.samples());
        let mut draws = vec![0.0; rows * samples * m];
        for (j, (joint, output)) in self.objectives.iter().enumerate() {
            let own = joint.candidate_draws(engine, candidates)?;
            for i in 0..rows {
                for s in 0..samples {
                    draws[(i * samples + s) * m + j] = output.inverse(own[(i, s)]);
                }
            }
        }
        Ok(draws)
    }

    /// The chain rule from the draws back to a candidate (see [`JointSlopes`]); `None` where a
    /// kernel has no gradient.
    pub fn slopes(&self) -> Option<ObjectiveSlopes<'_, 'a>> {
        let slopes = self
            .objectives
            .iter()
            .map(|(joint, _)| JointSlopes::new(joint))
            .collect::<Option<Vec<_>>>()?;
        Some(ObjectiveSlopes {
            objectives: self,
            slopes,
        })
    }
}

/// Every objective's [`JointSlopes`].
pub(crate) struct ObjectiveSlopes<'j, 'a> {
    objectives: &'j JointObjectives<'a>,
    slopes: Vec<JointSlopes<'j, 'a>>,
}

/// Buffers of [`ObjectiveSlopes::draws_at`], one per objective, reused across the points of one
/// ascent.
pub(crate) fn scratch(m: usize) -> Vec<JointScratch> {
    (0..m).map(|_| JointScratch::default()).collect()
}

impl ObjectiveSlopes<'_, '_> {
    /// Every objective's draws at `x`.
    pub fn draws_at(
        &self,
        x: &[f64],
        scratch: &mut [JointScratch],
    ) -> Result<ObjectiveDrawsAt, EngineError> {
        let at = self
            .slopes
            .iter()
            .zip(scratch.iter_mut())
            .map(|(slopes, scratch)| slopes.draws_at(x, scratch))
            .collect::<Result<_, _>>()?;
        Ok(ObjectiveDrawsAt { at })
    }

    /// The gradient in the candidate of `Σ_s weights_s Σ_j draw_slopes[s, j] · y_sj`, with
    /// `draw_slopes` row-major samples × objectives, in the objectives' units.
    pub fn chain(
        &self,
        at: &ObjectiveDrawsAt,
        weights: &[f64],
        draw_slopes: &[f64],
        dim: usize,
    ) -> Vec<f64> {
        let (m, samples) = (self.objectives.m(), weights.len());
        let mut gradient = vec![0.0; dim];
        for (j, ((joint, output), at)) in self.objectives.objectives.iter().zip(&at.at).enumerate()
        {
            // ∂ value / ∂ draw_sj: the sample's weight, its slope in y_sj, and y's scale.
            let slopes = DVector::from_iterator(
                samples,
                (0..samples).map(|s| weights[s] * draw_slopes[s * m + j] * output.std),
            );
            for (g, d) in gradient.iter_mut().zip(at.chain(joint, &slopes)) {
                *g += d;
            }
        }
        gradient
    }
}

/// Every objective's draws at one candidate.
pub(crate) struct ObjectiveDrawsAt {
    at: Vec<DrawsAt>,
}

impl ObjectiveDrawsAt {
    /// Sample `s`'s draw of every objective, in the objectives' units.
    pub fn sample(&self, objectives: &JointObjectives<'_>, s: usize, y: &mut [f64]) {
        for (slot, ((_, output), at)) in
            y.iter_mut().zip(objectives.objectives.iter().zip(&self.at))
        {
            *slot = output.inverse(at.draws[s]);
        }
    }
}
