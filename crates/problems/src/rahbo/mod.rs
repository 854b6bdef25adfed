//! The problems of RAHBO (Makarova et al. 2021, §4, App. A.6–A.7): heteroscedastic objectives
//! observed as `y = f(x) + s(x)·ε`, `ε ~ N(0, 1)`, whose objective of interest is the mean-variance
//! value `MV(x) = f(x) − α·ρ²(x)` with `ρ²(x) = s(x)²` (the true variance of the simulated noise).

mod functions;
mod mean_variance;
mod optimum;
mod rf;

pub use functions::{BraninHetero, FelLike, HeteroFunction, SineHetero};
pub use mean_variance::MeanVariance;
pub use optimum::maximize_on_box;
pub use rf::{RandomForestTuning, balanced_accuracy};

use super::entry::Entry;
use super::{Params, Problem, ProblemError};
use bosweep_core::params::RealParam;

const SIGMA_N: RealParam = RealParam::new(
    "sigma_n",
    1.0,
    0.0,
    1e6,
    "noise level σ_n of the sigmoid-shaped noise standard deviation s(x)",
);
/// The FEL-like stand-in's quieter default.
const FEL_SIGMA_N: RealParam = RealParam::new(
    "sigma_n",
    0.5,
    0.0,
    1e6,
    "noise level σ_n of the sigmoid-shaped noise standard deviation s(x)",
);
/// The risk coefficient, read by [`MeanVariance::new`].
pub(super) const ALPHA: RealParam = RealParam::new(
    "alpha",
    1.0,
    0.0,
    1e12,
    "risk coefficient α of the objective of interest f − α·ρ²",
);

fn mean_variance<F: HeteroFunction>(
    function: F,
    params: &Params,
) -> Result<Box<dyn Problem>, ProblemError> {
    Ok(Box::new(MeanVariance::new(function, params)?))
}

/// RAHBO's problems, in listing order.
pub(crate) static ENTRIES: &[Entry] = &[
    Entry {
        name: "sine-hetero",
        description: "sin(2πx) on [0, 2] with noise std 0.1 + σ_n·sigmoid(30(x − 1)), maximised as f − α·ρ²; x* = 0.25",
        parameters: &[SIGMA_N.spec(), ALPHA.spec()],
        build: |p| mean_variance(SineHetero::new(SIGMA_N.of(p)), p),
    },
    Entry {
        name: "branin-hetero",
        description: "negated Branin on [−5, 10] × [0, 15] with noise std (0.2 + σ_n·sigmoid(2(x₁ − 3.2)))·(0.2 + σ_n·sigmoid(2x₂)), maximised as f − α·ρ²; x* = (−π, 12.275)",
        parameters: &[SIGMA_N.spec(), ALPHA.spec()],
        build: |p| mean_variance(BraninHetero::new(SIGMA_N.of(p)), p),
    },
    Entry {
        name: "swissfel-standin",
        description: "FEL-like 4-D stand-in on [−0.3, 0.3]⁴ (not the SwissFEL surrogate): a noisy high peak and a quiet lower one, maximised as f − α·ρ²",
        parameters: &[FEL_SIGMA_N.spec(), ALPHA.spec()],
        build: |p| mean_variance(FelLike::new(FEL_SIGMA_N.of(p)), p),
    },
    Entry {
        name: "rf-tuning",
        description: "random-forest tuning (n_estimators, max_features, max_depth) on a shipped synthetic fraud data set: balanced accuracy − 1 on 5 time-ordered folds, one fold per repeat",
        parameters: &[],
        build: |p| Ok(Box::new(RandomForestTuning::new(p)?)),
    },
];
