//! How GP-UCB and EI choose a batch's later points while earlier ones are pending (asked, not
//! yet told): the Kriging believer or local penalisation, and the rule that no pending point is
//! proposed again.

use rand::RngExt;

use crate::acquisition::{
    Bounds, DEFAULT_MIN_VARIANCE, LocalPenalty, Maximum, PenaltyCentre, SobolGrid, mean_lipschitz,
};
use crate::algorithm::AlgorithmError;
use crate::algorithm::AskContext;
use crate::surrogate::GpModel;
use bosweep_engine::Points;

/// How a batch's later points account for the pending ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PendingStrategy {
    /// The Kriging believer (Ginsbourger, Le Riche and Carraro 2010): the model conditioned on
    /// every pending point as if it had returned its posterior mean, with the same
    /// hyperparameters; EI's incumbent counts those believed values as observations, and
    /// GP-UCB's β follows the GP-BUCB schedule (Desautels, Krause and Burdick 2014).
    #[default]
    KrigingBeliever,
    /// Local penalisation (González, Dai, Hennig and Lawrence 2016): the acquisition of the
    /// fitted model, multiplied by a penaliser around every pending point.
    LocalPenalization,
}

impl bosweep_core::params::Choice for PendingStrategy {
    const WORDS: &'static [&'static str] = &["believer", "penalize"];
    const VALUES: &'static [Self] = &[Self::KrigingBeliever, Self::LocalPenalization];
}

/// Sobol points of the unit cube at which the posterior mean's gradient is measured to
/// estimate its Lipschitz constant (besides the observed points).
const LIPSCHITZ_SAMPLE: usize = 1000;

/// Two points of the unit cube closer than this are the same point.
const SAME_POINT: f64 = 1e-9;

/// What one ask makes of the pending points.
pub enum PendingView {
    /// Nothing pending: the sequential step.
    Nothing,
    /// The Kriging believer: `model` conditioned on the pending points at `believed`, their
    /// posterior means (original units, maximisation sense).
    Believer {
        /// The fitted model conditioned on the pending points.
        model: Box<GpModel>,
        /// The values believed at the pending points.
        believed: Vec<f64>,
    },
    /// Local penalisers around the pending points, from the fitted model.
    Penalized(LocalPenalty),
}

impl PendingView {
    /// The view `strategy` takes of `ctx.pending`, given the step's fitted `model` and the
    /// largest observed value `best_observed` (original units, maximisation sense). Local
    /// penalisation takes `lipschitz`, the constant an earlier ask of the batch estimated on
    /// the same model, where there is one, instead of estimating it again.
    pub fn new(
        strategy: PendingStrategy,
        model: &GpModel,
        best_observed: f64,
        lipschitz: Option<f64>,
        ctx: &mut AskContext<'_>,
    ) -> Result<Self, AlgorithmError> {
        if ctx.pending.is_empty() {
            return Ok(Self::Nothing);
        }
        Ok(match strategy {
            PendingStrategy::KrigingBeliever => {
                let (model, believed) = believer(model, ctx)?;
                Self::Believer {
                    model: Box::new(model),
                    believed,
                }
            }
            PendingStrategy::LocalPenalization => {
                Self::Penalized(local_penalty(model, best_observed, lipschitz, ctx)?)
            }
        })
    }

    /// The model the acquisition reads: the believer's, else the fitted one.
    pub fn model<'a>(&'a self, fitted: &'a GpModel) -> &'a GpModel {
        match self {
            Self::Believer { model, .. } => model,
            _ => fitted,
        }
    }

    /// Whether the acquisition reads a model conditioned on hallucinated values, the setting
    /// of GP-BUCB's schedule.
    pub fn hallucinates(&self) -> bool {
        matches!(self, Self::Believer { .. })
    }

    /// EI's incumbent: the best observed value, and under the believer the best believed value
    /// too, since the Kriging believer treats its fantasies as observations (else a pending
    /// point whose mean beats the incumbent keeps a positive EI).
    pub fn incumbent(&self, best_observed: f64) -> f64 {
        match self {
            Self::Believer { believed, .. } => {
                believed.iter().copied().fold(best_observed, f64::max)
            }
            _ => best_observed,
        }
    }

    /// The penalisers, under local penalisation.
    pub fn penalty(&self) -> Option<&LocalPenalty> {
        match self {
            Self::Penalized(penalty) => Some(penalty),
            _ => None,
        }
    }
}

/// The Kriging believer: `model` conditioned on every pending point as if it had returned its
/// posterior mean, with the same hyperparameters, so that the posterior variance collapses
/// there and the acquisition looks elsewhere; and those believed values. The mean is the f64
/// reference engine's, so a batch does not depend on the grid's device.
pub fn believer(
    model: &GpModel,
    ctx: &AskContext<'_>,
) -> Result<(GpModel, Vec<f64>), AlgorithmError> {
    let mut believer = model.clone();
    let mut believed = Vec::with_capacity(ctx.pending.len());
    for x in ctx.pending {
        let point = Points::new(x.clone(), x.len())?;
        let mean = believer.predict(ctx.reference, &point)?.mean[0];
        believer.append(x, mean, None)?;
        believed.push(mean);
    }
    Ok((believer, believed))
}

/// The local penalisers of the pending points, in model units (unit-cube inputs, standardised
/// outputs): `μ` and `σ` at each pending point from the fitted model (not a believer), `M` the
/// largest observed value, and `L` the largest gradient norm of the posterior mean over
/// [`LIPSCHITZ_SAMPLE`] Sobol points (scrambled from `ctx.rng`) and the observed points, on the
/// f64 reference engine.
fn local_penalty(
    model: &GpModel,
    best_observed: f64,
    lipschitz: Option<f64>,
    ctx: &mut AskContext<'_>,
) -> Result<LocalPenalty, AlgorithmError> {
    let state = model.state();
    let lipschitz = match lipschitz {
        Some(known) => known,
        None => {
            let dim = ctx.domain.dim();
            let sobol = SobolGrid::new(
                Bounds::cube(0.0, 1.0, dim)?,
                LIPSCHITZ_SAMPLE,
                ctx.rng.random(),
            )?;
            let mut sample = sobol.all().as_slice().to_vec();
            sample.extend_from_slice(state.train().as_slice());
            mean_lipschitz(state, ctx.reference, &Points::new(sample, dim)?)?
        }
    };

    let pending = pending_in_model_units(model, ctx.pending)?;
    let posterior = ctx.reference.posterior(state, &pending)?;
    let centres = pending
        .iter()
        .zip(posterior.mean.iter().zip(&posterior.variance))
        .map(|(x, (mean, variance))| PenaltyCentre {
            x: x.to_vec(),
            mean: *mean,
            sd: variance.max(DEFAULT_MIN_VARIANCE).sqrt(),
        })
        .collect();
    let best = model.output_transform().forward(best_observed);
    Ok(LocalPenalty::new(centres, lipschitz, best)?)
}

/// The pending points in the model's unit-cube coordinates; none is an empty set of the
/// model's input columns.
pub fn pending_in_model_units(
    model: &GpModel,
    pending: &[Vec<f64>],
) -> Result<Points, AlgorithmError> {
    if pending.is_empty() {
        return Ok(Points::new(Vec::new(), model.state().kernel().input_dim())?);
    }
    Ok(model.to_model_inputs(&Points::from_rows(pending)?)?)
}

/// The maximiser's point, unless it coincides (unit-cube distance below 1e-9) with a pending
/// point: then the best refined start that does not, else the grid point of the best start
/// that does not (starts in their grid order, best first; without refinement, the best grid
/// point). Fails when every candidate coincides with a pending point.
pub fn away_from_pending(best: Maximum, pending: &Points) -> Result<Vec<f64>, AlgorithmError> {
    let is_pending = |x: &[f64]| {
        pending.iter().any(|p| {
            p.iter()
                .zip(x)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
                .sqrt()
                < SAME_POINT
        })
    };
    if !is_pending(&best.x) {
        return Ok(best.x);
    }
    let mut refined: Vec<_> = best.starts.iter().collect();
    refined.sort_by(|a, b| b.value.total_cmp(&a.value));
    refined
        .iter()
        .map(|s| &s.x)
        .chain(best.starts.iter().map(|s| &s.start_x))
        .chain(std::iter::once(&best.grid_x))
        .find(|x| !is_pending(x))
        .cloned()
        .ok_or_else(|| {
            AlgorithmError::Config(
                "the acquisition's maximiser and every refined start coincide with pending \
                 points: a batch cannot propose a point twice"
                    .into(),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::acquisition::{EvaluationCounts, RefinedStart, StageSeconds};
    use bosweep_core::optim::lbfgsb::Termination;

    fn start(start_x: [f64; 1], x: [f64; 1], value: f64) -> RefinedStart {
        RefinedStart {
            grid_index: 0,
            start_x: start_x.to_vec(),
            start_value: value,
            x: x.to_vec(),
            value,
            iterations: 1,
            evaluations: 1,
            termination: Termination::FunctionChange,
        }
    }

    fn maximum(starts: Vec<RefinedStart>) -> Maximum {
        Maximum {
            x: starts[0].x.clone(),
            value: starts[0].value,
            grid_index: 0,
            grid_x: starts[0].start_x.clone(),
            grid_value: starts[0].start_value,
            starts,
            counts: EvaluationCounts::default(),
            seconds: StageSeconds::default(),
        }
    }

    /// The maximiser at a pending point gives way to the best refined start elsewhere, then to
    /// the best start's grid point elsewhere; with nothing left, the ask fails.
    #[test]
    fn a_pending_point_gives_way_to_the_next_best_candidate() {
        let pending = Points::from_rows(&[[0.5], [0.7]]).unwrap();
        let starts = vec![
            start([0.4], [0.5], 3.0),
            start([0.9], [0.7], 2.0),
            start([0.1], [0.2], 1.0),
        ];
        assert_eq!(away_from_pending(maximum(starts), &pending).unwrap(), [0.2]);
        let starts = vec![start([0.4], [0.5], 3.0), start([0.9], [0.7 + 1e-12], 2.0)];
        assert_eq!(away_from_pending(maximum(starts), &pending).unwrap(), [0.4]);
        let starts = vec![start([0.5], [0.5], 3.0)];
        assert!(away_from_pending(maximum(starts), &pending).is_err());
        let starts = vec![start([0.5], [0.6], 3.0)];
        assert_eq!(away_from_pending(maximum(starts), &pending).unwrap(), [0.6]);
    }
}
