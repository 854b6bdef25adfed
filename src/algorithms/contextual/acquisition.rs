//! The acquisitions of SBO-KDE, DRBO-KDE and StableOpt: reductions of the joint-space UCB
//! `u(x, c) = μ(x, c) + κ σ(x, c)` over a fixed set of context points, through
//! [`Engine::pair_reduce`] so that (candidate × context) points are never built by the caller;
//! only the minimax approximation, which needs each candidate's arg-min, takes the pair values.

use super::mmd::{MmdBall, pair_values};
use crate::acquisition::Acquisition;
use crate::compute::{Engine, EngineError, PairReduction, Points};
use crate::model::GpState;

/// How the context points enter.
#[derive(Clone, Debug)]
pub enum Reduction {
    /// SBO-KDE: the sample average `(1/M) Σ_m u(x, ĉ_m)` over KDE samples.
    Mean { samples: Points },
    /// DRBO-KDE: the worst case of the sample average over the L1 ball of radius `delta`, the
    /// adversary's extra atom at `m(x) = min(min_j u(x, s_j), min_m u(x, ĉ_m))` (spec §2.8).
    WorstCaseTv {
        samples: Points,
        infimum_points: Points,
        delta: f64,
    },
    /// StableOpt: `min_j u(x, s_j)` over points of the confidence box of the context.
    Min { points: Points },
    /// DRBO-MMD-MinimaxApprox: the minimax approximation over an MMD ball on a context grid.
    Minimax { ball: MmdBall },
}

/// One of the three acquisitions for a GP whose inputs are (unit-cube decision, unit-cube
/// context); candidates are unit-cube decisions.
pub struct PairAcquisition<'a> {
    pub gp: &'a GpState,
    pub kappa: f64,
    pub reduction: &'a Reduction,
}

impl Acquisition for PairAcquisition<'_> {
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
                let values = pair_values(engine, gp, candidates, &ball.grid, kappa)?;
                Ok(values
                    .chunks(ball.grid.rows())
                    .map(|g| ball.minimax(g))
                    .collect())
            }
        }
    }
}
