//! BOKE and its baselines (Zhu, Zhou, Jin, Xu, Yuan and Ji, "Bayesian Optimization by Kernel
//! Regression and Density-based Exploration", 2025): a Nadaraya–Watson mean replaces the GP and
//! the inverse square root of an unnormalised KDE replaces its posterior sd, so no matrix is
//! factorised and the work per iteration grows linearly in t. All kernels and bandwidths live in
//! the unit cube.
//!
//! Each algorithm has typed settings ([`Boke`], [`BokePlus`], [`DensityExploration`],
//! [`KrUcb`], [`GpUcbFixed`]) that an [`Optimizer`](crate::Optimizer) is built from:
//!
//! ```
//! use bosweep_algorithms::{Boke, Optimizer};
//!
//! let mut opt = Optimizer::builder(Boke::default().kappa(0.5))
//!     .bounds(&[(0.0, 1.0); 2])
//!     .seed(7)
//!     .init(4)
//!     .minimize()
//!     .build()?;
//! for _ in 0..6 {
//!     for x in opt.ask(1)? {
//!         opt.tell(&x, (x[0] - 0.3).powi(2) + (x[1] - 0.6).powi(2))?;
//!     }
//! }
//! assert_eq!(opt.steps(), 6);
//! # Ok::<(), bosweep_algorithms::OptimizerError>(())
//! ```

mod data;
mod family;
mod gp_ucb_fixed;
mod ikr;
mod kr_ucb;
mod schedules;
mod search;
mod settings;
mod surrogate;
#[cfg(test)]
mod tests;

pub(crate) use data::latin_hypercube;
pub use gp_ucb_fixed::GpUcbFixed;
pub use ikr::{Boke, BokePlus, DensityExploration};
pub use kr_ucb::{KrUcb, Widening};
pub use schedules::{BetaRule, exploration_scale};
pub use search::{SearchConfig, farthest_unbounded};
pub use settings::{IkrSettings, KrSettings, Recommendation, SearchSettings};
pub use surrogate::{Evaluation, KrSurrogate, Score, exploration};

use super::entry::AlgorithmEntry;
use super::requirement::Requirement;
use settings::{BOKE_PLUS_TABLE, BOKE_TABLE, GP_UCB_FIXED_TABLE, KR_UCB_TABLE};

pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::declared(
        "boke",
        "BOKE (Zhu et al.): maximise NW mean + √β_t·W_t^(−1/2) (IKR-UCB), Scott bandwidth, no GP",
        Requirement::Any,
        BOKE_TABLE,
        |p| Ok(Box::new(Boke::from_params(&p).into_algorithm(p))),
    ),
    AlgorithmEntry::declared(
        "boke-plus",
        "BOKE+: IKR-UCB step with probability p, else pure exploitation argmax of the NW mean",
        Requirement::Any,
        BOKE_PLUS_TABLE,
        |p| Ok(Box::new(BokePlus::from_params(&p).into_algorithm(p))),
    ),
    AlgorithmEntry::declared(
        "density-exploration",
        "pure density-based exploration: argmin of the unnormalised KDE W_t (Eq. 3.10)",
        Requirement::Any,
        BOKE_TABLE,
        |p| {
            Ok(Box::new(
                DensityExploration::from_params(&p).into_algorithm(p),
            ))
        },
    ),
    AlgorithmEntry::declared(
        "kr-ucb",
        "KR-UCB (Yee et al. 2016): UCB over sampled points with NW mean and KDE counts, progressive widening",
        Requirement::Continuous,
        KR_UCB_TABLE,
        |p| Ok(Box::new(KrUcb::from_params(&p).into_algorithm(p))),
    ),
    AlgorithmEntry::declared(
        "gp-ucb-fixed",
        "the BOKE paper's GP-UCB: RBF GP, fixed β, length scale by ML-II on the initial design then frozen",
        Requirement::Continuous,
        GP_UCB_FIXED_TABLE,
        |p| Ok(Box::new(GpUcbFixed::from_params(&p).into_algorithm(p))),
    ),
];
