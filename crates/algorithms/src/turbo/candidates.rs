//! TuRBO's candidate set (Eriksson et al., NeurIPS 2019, Section 2 and the supplement's
//! perturbation strategy): scrambled Sobol points in the trust region, of which each coordinate
//! replaces the centre's with probability `min(20/d, 1)`, so that in many dimensions the
//! candidates move only a few coordinates away from the best point.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use bosweep_engine::{EngineError, Points};
use bosweep_toolkit::acquisition::{Bounds, SobolGrid};

/// Candidates per step in `dim` dimensions: `given`, or the reference's `min(100·d, 5000)` when
/// it is 0 (BAxUS's reference keeps the rule, `d` its target dimension).
pub(crate) fn candidate_count(given: usize, dim: usize) -> usize {
    match given {
        0 => (100 * dim).min(5000),
        given => given,
    }
}

/// The probability `min(20/d, 1)` that a candidate's coordinate is perturbed.
pub(super) fn perturbation_probability(dim: usize) -> f64 {
    (20.0 / dim as f64).min(1.0)
}

/// `count` candidates in the box `(lower, upper)` around `centre` (unit cube): point `i` of a
/// Sobol grid scrambled with a seed drawn from `rng`, with each coordinate kept at the centre's
/// value unless perturbed (probability [`perturbation_probability`], drawn from `rng`); a
/// candidate with no coordinate perturbed gets one, chosen uniformly (the reference draws among
/// the first `d − 1` only, `randint(0, d − 1)`; here every coordinate may be chosen).
pub(super) fn perturbed_candidates(
    centre: &[f64],
    (lower, upper): (Vec<f64>, Vec<f64>),
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Points, EngineError> {
    let dim = centre.len();
    let grid = SobolGrid::new(Bounds::new(lower, upper)?, count, rng.random())?;
    let probability = perturbation_probability(dim);
    let mut values = Vec::with_capacity(count * dim);
    for i in 0..count {
        let sobol = grid.point(i);
        let mut mask: Vec<bool> = (0..dim)
            .map(|_| rng.random::<f64>() < probability)
            .collect();
        if !mask.contains(&true) {
            mask[rng.random_range(0..dim)] = true;
        }
        values.extend((0..dim).map(|j| if mask[j] { sobol[j] } else { centre[j] }));
    }
    Points::new(values, dim)
}
