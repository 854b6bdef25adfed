//! SAASBO (`saasbo`): Bayesian optimisation with the fully Bayesian SAAS model (Eriksson and
//! Jankowiak, "High-Dimensional Bayesian Optimization with Sparse Axis-Aligned Subspaces", UAI
//! 2021), as BoTorch's SAASBO runs it (BoTorch 0.18.1): at every step the hyperparameters of
//! `SaasFullyBayesianSingleTaskGP` are drawn by NUTS (`fit_fully_bayesian_model_nuts`: 512
//! warmup steps, 256 draws, every 16th kept, trees at most 6 deep), and qLogNEI is averaged
//! over the kept models in log space and maximised as `qlognei` maximises it.
//!
//! - The model (`bosweep_model::SaasPosterior`): Matérn-5/2 with outputscale ~ Gamma(2, 0.15),
//!   mean ~ N(0, 1), noise variance 1e-4 + Gamma(0.9, 10), `τ ~ HalfCauchy(0.1)` and
//!   `1/ℓ_d² = τ z_d` with `z_d ~ HalfCauchy(1)`, on unit-cube inputs and standardised outputs.
//! - The sampler is nuts-rs's NUTS with a diagonal mass matrix where BoTorch runs NumPyro's
//!   with a dense one: the same posterior, other draws (`bosweep_model::sample_saas_posterior`).
//! - The acquisition (`LogMeanExpEnsemble` of `QLogNoisyExpectedImprovement`s): every model
//!   samples the joint posterior with the same quasi-Monte Carlo base samples, and the values
//!   are averaged over the models in log space, BoTorch's reduction for an ensemble. The
//!   observed points are pruned as BoTorch prunes them for an ensemble: each of 2048 draws
//!   averages the models' values before its best point is counted.
//! - A batch's later points reuse the batch's first ensemble and sample the pending points
//!   jointly, as `qlognei` does; the recommendation is the observed point of largest mean over
//!   the models (the mixture's posterior mean).
//!
//! The folder has every family's shape: `settings.rs` declares what a user sets, `methods.rs`
//! turns it into the algorithm of `algorithm.rs`, and this module lists the registry's entry.

mod algorithm;
mod methods;
mod settings;
#[cfg(test)]
mod tests;

use bosweep_toolkit::AlgorithmEntry;

pub use settings::Saasbo;

/// The `saasbo` registry entry.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[AlgorithmEntry::of::<Saasbo>()];
