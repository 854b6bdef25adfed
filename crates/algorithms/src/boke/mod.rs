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
//! let mut opt = Optimizer::builder(Boke::default().ikr(|ikr| ikr.surrogate(|kr| kr.kappa(0.5))))
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
mod methods;
mod schedules;
mod search;
mod settings;
mod surrogate;
#[cfg(test)]
mod tests;

pub(crate) use data::latin_hypercube;
pub use schedules::{BetaRule, exploration_scale};
pub use search::{SearchConfig, farthest_unbounded};
pub use settings::{
    BandwidthConstant, BandwidthRule, BetaChoice, Boke, BokePlus, DensityExploration, GpUcbFixed,
    IkrSettings, KrSettings, KrUcb, Recommendation, SearchSettings, Widening,
};
pub use surrogate::{Evaluation, KrSurrogate, Score, exploration};

use bosweep_toolkit::AlgorithmEntry;

pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::of::<Boke>(),
    AlgorithmEntry::of::<BokePlus>(),
    AlgorithmEntry::of::<DensityExploration>(),
    AlgorithmEntry::of::<KrUcb>(),
    AlgorithmEntry::of::<GpUcbFixed>(),
];
