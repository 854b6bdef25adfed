//! The acquisitions of SBO-KDE, DRBO-KDE and StableOpt: reductions of the joint-space UCB
//! `u(x, c) = μ(x, c) + κ σ(x, c)` over a fixed set of context points, through
//! [`Engine::pair_reduce`] so that (candidate × context) points are never built by the caller;
//! only the minimax approximation, which needs each candidate's arg-min, takes the pair values.

use super::mmd::MmdBall;
use bosweep_engine::{
    Engine, EngineError, PairGradient, PairReduction, PairScratch, Points, worst_case_tv,
};
use bosweep_model::GpState;
use bosweep_toolkit::acquisition::{Acquisition, AnalyticGradient, ValueGradient};

/// How the context points enter.
#[derive(Clone, Debug)]
pub enum Reduction {
    /// SBO-KDE: the sample average `(1/M) Σ_m u(x, ĉ_m)` over KDE samples.
    Mean {
        /// The KDE samples `ĉ_m` (unit cube).
        samples: Points,
    },
    /// DRBO-KDE: the worst case of the sample average over the L1 ball of radius `delta`, the
    /// adversary's extra atom at `m(x) = min(min_j u(x, s_j), min_m u(x, ĉ_m))` (Huang et al.
    /// 2024, Algorithm 2).
    WorstCaseTv {
        /// The KDE samples (unit cube).
        samples: Points,
        /// Context points `s_j` of the infimum over the box (unit cube).
        infimum_points: Points,
        /// The L1 radius δ.
        delta: f64,
    },
    /// StableOpt: `min_j u(x, s_j)` over points of the confidence box of the context.
    Min {
        /// Points of the confidence box (unit cube).
        points: Points,
    },
    /// DRBO-MMD-MinimaxApprox: the minimax approximation over an MMD ball on a context grid.
    Minimax {
        /// The ball and its grid.
        ball: MmdBall,
    },
}

/// One of the three acquisitions for a GP whose inputs are (unit-cube decision, unit-cube
/// context); candidates are unit-cube decisions.
pub struct PairAcquisition<'a> {
    /// The joint GP.
    pub gp: &'a GpState,
    /// The UCB multiplier κ.
    pub kappa: f64,
    /// How the context points enter.
    pub reduction: &'a Reduction,
}

impl Acquisition for PairAcquisition<'_> {
    /// The analytic gradient in the decision, on the CPU in f64.
    fn analytic_gradient(&self) -> Result<Option<Box<dyn AnalyticGradient + '_>>, EngineError> {
        Ok(Some(Box::new(self.differentiable()?)))
    }

    fn dim(&self) -> usize {
        let context_dim = match self.reduction {
            Reduction::Mean { samples } | Reduction::WorstCaseTv { samples, .. } => samples.dim(),
            Reduction::Min { points } => points.dim(),
            Reduction::Minimax { ball } => ball.grid.dim(),
        };
        self.gp.train().dim() - context_dim
    }

    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        let (gp, kappa) = (self.gp, self.kappa);
        match self.reduction {
            Reduction::Mean { samples } => {
                engine.pair_reduce(gp, candidates, samples, kappa, PairReduction::Mean)
            }
            Reduction::WorstCaseTv {
                samples,
                infimum_points,
                delta,
            } => {
                let infimum = engine.pair_reduce(
                    gp,
                    candidates,
                    infimum_points,
                    kappa,
                    PairReduction::Min,
                )?;
                engine.pair_reduce(
                    gp,
                    candidates,
                    samples,
                    kappa,
                    PairReduction::WorstCaseTv {
                        delta: *delta,
                        infimum: &infimum,
                    },
                )
            }
            Reduction::Min { points } => {
                engine.pair_reduce(gp, candidates, points, kappa, PairReduction::Min)
            }
            Reduction::Minimax { ball } => {
                let values = engine.pair_values(gp, candidates, &ball.grid, kappa)?;
                Ok(values
                    .chunks(ball.grid.rows())
                    .map(|g| ball.minimax(g))
                    .collect())
            }
        }
    }
}

impl AnalyticGradient for DifferentiableAcquisition<'_> {
    fn objective(&self) -> ValueGradient<'_> {
        let mut scratch = PairScratch::default();
        Box::new(move |x: &[f64]| {
            let (value, gradient) = self.value_gradient(x, &mut scratch);
            if value.is_nan() || gradient.iter().any(|g| g.is_nan()) {
                return Err(EngineError::invalid(format!(
                    "contextual acquisition: NaN value or gradient at {x:?}"
                )));
            }
            Ok((value, gradient))
        })
    }
}

/// What a [`DifferentiableAcquisition`] reduces, by context-point index.
enum GradientReduction<'a> {
    Mean,
    /// The first `samples` context points are the KDE samples, the rest the infimum points.
    WorstCaseTv {
        samples: usize,
        delta: f64,
    },
    Min,
    Minimax {
        ball: &'a MmdBall,
    },
}

/// A [`PairAcquisition`] with its analytic gradient in the decision, on the CPU in
/// f64, for the L-BFGS refinement: the context part of every distance and `(K + λΣ)⁻¹` are
/// computed once per step, then one call gives the value and the gradient at one decision.
pub struct DifferentiableAcquisition<'a> {
    pairs: PairGradient<'a>,
    kappa: f64,
    reduction: GradientReduction<'a>,
}

impl<'a> PairAcquisition<'a> {
    /// The same acquisition, differentiable (same values up to rounding).
    pub fn differentiable(&self) -> Result<DifferentiableAcquisition<'a>, EngineError> {
        let (contexts, reduction) = match self.reduction {
            Reduction::Mean { samples } => (samples.clone(), GradientReduction::Mean),
            Reduction::WorstCaseTv {
                samples,
                infimum_points,
                delta,
            } => {
                // Ctx = [Ĉ; S]: one pass over both point sets.
                let mut data = samples.as_slice().to_vec();
                data.extend_from_slice(infimum_points.as_slice());
                (
                    Points::new(data, samples.dim())?,
                    GradientReduction::WorstCaseTv {
                        samples: samples.rows(),
                        delta: *delta,
                    },
                )
            }
            Reduction::Min { points } => (points.clone(), GradientReduction::Min),
            Reduction::Minimax { ball } => (ball.grid.clone(), GradientReduction::Minimax { ball }),
        };
        Ok(DifferentiableAcquisition {
            pairs: PairGradient::new(self.gp, &contexts)?,
            kappa: self.kappa,
            reduction,
        })
    }
}

impl DifferentiableAcquisition<'_> {
    /// Number of decision columns.
    pub fn dim(&self) -> usize {
        self.pairs.pairs().decision_dim()
    }

    /// The acquisition at the unit-cube decision `x` and its gradient (`scratch` holds the
    /// buffers between calls).
    pub fn value_gradient(&self, x: &[f64], scratch: &mut PairScratch) -> (f64, Vec<f64>) {
        let sparse = matches!(
            self.reduction,
            GradientReduction::Min | GradientReduction::Minimax { .. }
        );
        self.pairs
            .reduce_with_gradient(x, self.kappa, sparse, scratch, |u| match self.reduction {
                GradientReduction::Mean => {
                    let m = u.len() as f64;
                    (u.iter().sum::<f64>() / m, vec![1.0 / m; u.len()])
                }
                GradientReduction::Min => {
                    let j = arg_min(u);
                    let mut weights = vec![0.0; u.len()];
                    weights[j] = 1.0;
                    (u[j], weights)
                }
                GradientReduction::WorstCaseTv { samples, delta } => {
                    worst_case_tv_with_weights(u, samples, delta)
                }
                GradientReduction::Minimax { ball } => ball.minimax_with_weights(u),
            })
    }
}

/// Index of the smallest value (the first among ties).
fn arg_min(u: &[f64]) -> usize {
    u.iter()
        .enumerate()
        .fold(0, |b, (i, v)| if *v < u[b] { i } else { b })
}

/// DRBO-KDE's closed form (Huang et al. 2024, Algorithm 2) over `u = [samples; infimum points]`
/// (the value of [`worst_case_tv`]) and its weights: with `k = ⌊δM/2⌋` and the pivot `u_(k+1)`
/// (descending order) above the floor `m = min u`, weight 1/M below the pivot,
/// `(k + 1 − δM/2)/M` on it, 0 above, and `δ/2` on the floor's arg-min; one-hot on the floor's
/// arg-min when the floor binds. Ties at the pivot are broken by the selection (a subgradient).
fn worst_case_tv_with_weights(u: &[f64], samples: usize, delta: f64) -> (f64, Vec<f64>) {
    let floor_at = arg_min(u);
    let floor = u[floor_at];
    let infimum = u[samples..].iter().copied().fold(f64::INFINITY, f64::min);
    let value = worst_case_tv(&mut u[..samples].to_vec(), delta, infimum);
    let mut weights = vec![0.0; u.len()];
    let m = samples as f64;
    let k = (delta * m / 2.0).floor();
    if k < m {
        let k = k as usize;
        let mut order: Vec<usize> = (0..samples).collect();
        order.select_nth_unstable_by(k, |a, b| u[*b].total_cmp(&u[*a]));
        let pivot = order[k];
        if u[pivot] > floor {
            for &j in &order[k + 1..] {
                weights[j] = 1.0 / m;
            }
            weights[pivot] = (k as f64 + 1.0 - delta * m / 2.0) / m;
            weights[floor_at] += delta / 2.0;
            return (value, weights);
        }
    }
    weights[floor_at] = 1.0;
    (value, weights)
}
