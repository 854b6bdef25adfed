//! How TuRBO's and BAxUS's Thompson samples are drawn (`sampler`): exactly, from the joint
//! posterior over the candidates (`thompson.rs`), or by pathwise conditioning
//! (`pathwise.rs`), whose cost grows linearly in the candidates instead of cubically.

use bosweep_toolkit::AlgorithmError;

bosweep_core::choices! {
    /// How a Thompson sample path over the candidates is drawn.
    pub enum ThompsonSampler {
        /// The joint posterior over the `m` candidates, its `m × m` covariance factorised on
        /// the CPU (`O(m³)`; the reference implementation's way; the default).
        Exact = "exact",
        /// Random Fourier features updated by Matheron's rule (Wilson et al., ICML 2020),
        /// evaluated and maximised by the engine (`O(m (F + n) d)` per path, no `m × m`
        /// matrix).
        Pathwise = "pathwise",
    }
}

/// The most candidates the exact sampler takes: its joint covariance and factor are two
/// `m × m` matrices (6.4 GB at this size).
pub(crate) const MAX_EXACT_CANDIDATES: usize = 20_000;

/// The most candidates either sampler takes: `2^20`, the size of the pathwise sampler's
/// large benchmark.
pub(crate) const MAX_CANDIDATES: usize = 1 << 20;

/// One step's Thompson sampling: the sampler, the candidates per step and (pathwise) the
/// random Fourier features per path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sampling {
    pub sampler: ThompsonSampler,
    pub candidates: usize,
    pub features: usize,
}

/// Refuses more candidates than the exact sampler can factorise, naming the algorithm.
pub(crate) fn check_sampling(
    algorithm: &str,
    sampler: ThompsonSampler,
    n_candidates: usize,
) -> Result<(), AlgorithmError> {
    if sampler == ThompsonSampler::Exact && n_candidates > MAX_EXACT_CANDIDATES {
        return Err(AlgorithmError::Config(format!(
            "algorithm {algorithm}: n_candidates = {n_candidates} with sampler = exact (a joint \
             posterior of {n_candidates}² entries); at most {MAX_EXACT_CANDIDATES}, or choose \
             sampler = pathwise"
        )));
    }
    Ok(())
}
