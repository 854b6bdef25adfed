//! The registry entries of UHE-BO, its ablations and its baselines: each builds the family's
//! algorithm from its typed settings (`variants.rs`), whose parameters it declares.

use super::variants::{
    AGpUcb, MapGpUcb, McmcGpUcb, Portfolio, RaBo, RandomExp3, UheBo, WangDeFreitas,
};
use super::{UheBoRunner, Variant};
use crate::entry::AlgorithmEntry;
use crate::requirement::Requirement;
use crate::{Algorithm, AlgorithmError};
use bosweep_core::params::Params;

/// The family's algorithm with `variant`'s switches; `params` (which `variant` was read from)
/// go to the trace header.
fn runner(variant: Variant, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    Ok(Box::new(UheBoRunner::new(params, variant)))
}

/// UHE-BO, its ablations and its baselines, as `bosweep` builds them by name.
pub(crate) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::declared(
        UheBo::NAME,
        "UHE-BO (Ha et al. 2023, arXiv:2306.06844): EXP3 over pairs {random+UCB, UCB+UCB}, θ by MAP on nearest-neighbour pseudo-data, GP-UCB μ + √β σ",
        Requirement::Any,
        UheBo::PARAMETERS,
        |p| runner(UheBo::from_params(&p).variant(), p),
    ),
    AlgorithmEntry::declared(
        RaBo::NAME,
        "RA-BO (UHE-BO ablation): random point at every odd step, GP-UCB at every even step, θ on pseudo-data",
        Requirement::Any,
        RaBo::PARAMETERS,
        |p| runner(RaBo::from_params(&p).variant(), p),
    ),
    AlgorithmEntry::declared(
        RandomExp3::NAME,
        "Random+EXP3 (UHE-BO ablation): UHE-BO's EXP3 arm schedule, θ by MAP on the real data",
        Requirement::Any,
        RandomExp3::PARAMETERS,
        |p| runner(RandomExp3::from_params(&p).variant(), p),
    ),
    AlgorithmEntry::declared(
        MapGpUcb::NAME,
        "MAP-GP-UCB (UHE-BO's baseline): GP-UCB μ + √β σ every step, θ by MAP with Gamma(1e-3, 10) priors, best observed y recommended",
        Requirement::Any,
        MapGpUcb::PARAMETERS,
        |p| runner(MapGpUcb::from_params(&p).variant(), p),
    ),
    AlgorithmEntry::declared(
        McmcGpUcb::NAME,
        "MCMC-GP-UCB (UHE-BO's baseline): θ slice-sampled from its posterior (200 burn-in sweeps, 10 samples), UCB averaged over the samples",
        Requirement::Any,
        McmcGpUcb::PARAMETERS,
        |p| runner(McmcGpUcb::from_params(&p).variant(), p),
    ),
    AlgorithmEntry::declared(
        AGpUcb::NAME,
        "A-GP-UCB (Berkenkamp et al. 2019, UHE-BO's baseline): MAP lengthscales divided by a growing g(t), p(t) = t^0.9",
        Requirement::Any,
        AGpUcb::PARAMETERS,
        |p| runner(AGpUcb::from_params(&p).variant(), p),
    ),
    AlgorithmEntry::declared(
        WangDeFreitas::NAME,
        "Wang & de Freitas 2014 (UHE-BO's baseline): MAP under a lengthscale bound shrunk until σ(x_next) ≥ κ = 0.1",
        Requirement::Any,
        WangDeFreitas::PARAMETERS,
        |p| runner(WangDeFreitas::from_params(&p).variant(), p),
    ),
    AlgorithmEntry::declared(
        Portfolio::NAME,
        "Portfolio (Hoffman et al. 2011, UHE-BO's baseline): EXP3 each step over {random, GP-UCB} (or GP-Hedge's {EI, PI, UCB}), reward the posterior mean at the chosen point",
        Requirement::Any,
        Portfolio::PARAMETERS,
        |p| runner(Portfolio::from_params(&p).variant(), p),
    ),
];
