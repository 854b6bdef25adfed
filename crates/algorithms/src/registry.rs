//! Every algorithm `bosweep` can build, by kebab-case name, with its declared parameters.
//!
//! Each paper's module exports its own `ENTRIES` slice; [`FAMILIES`] lists them in listing
//! order, so that adding a paper touches one line here.

use super::entry::AlgorithmEntry;
use super::gp_bo::{
    BOTORCH_GP_PARAMS, GP_PARAMS, GpBo, PENDING_PARAMS, QLOGNEI_PARAMS, UCB_PARAMS,
};
use super::{Algorithm, AlgorithmError, RandomSearch, Requirement, pe_gp_ucb, uhe_bo};
use crate::acquisition::MAXIMIZER_PARAMS;
use bosweep_core::params::{ParamTable, ParamValue};
use bosweep_core::registry::Registry;

/// Every family of algorithms, in listing order.
const FAMILIES: &[&[AlgorithmEntry]] = &[
    BASELINES,
    super::cmaes::ENTRIES,
    super::turbo::ENTRIES,
    uhe_bo::ENTRIES,
    super::rahbo::ENTRIES,
    pe_gp_ucb::ENTRIES,
    super::boke::ENTRIES,
    super::contextual::ENTRIES,
    super::command::ENTRIES,
    super::peers::ENTRIES,
];

static REGISTRY: Registry<AlgorithmEntry> = Registry::new("algorithm", FAMILIES);

/// All algorithms, in listing order.
pub fn registry() -> impl Iterator<Item = &'static AlgorithmEntry> + Clone {
    REGISTRY.entries()
}

/// The entry called `name`, or an error listing the known names.
pub fn find(name: &str) -> Result<&'static AlgorithmEntry, AlgorithmError> {
    REGISTRY.find(name).map_err(AlgorithmError::Config)
}

/// Algorithm `name` with the `given` parameters (see [`AlgorithmEntry::build`]).
pub fn build(
    name: &str,
    given: &[(&str, ParamValue)],
) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    find(name)?.build(given)
}

/// Algorithms every paper compares against.
const BASELINES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "random",
        requires: Requirement::Any,
        description: "uniform random search (uniform over the allowed set where there is one)",
        parameters: ParamTable(&[]),
        build: |_| Ok(Box::new(RandomSearch::new())),
    },
    AlgorithmEntry {
        name: "gp-ucb",
        requires: Requirement::Any,
        description: "GP upper confidence bound μ + κσ (constant κ = ucb_multiplier, or κ = √β_t of Srinivas et al.)",
        parameters: ParamTable(&[GP_PARAMS, MAXIMIZER_PARAMS, UCB_PARAMS, PENDING_PARAMS]),
        build: |p| Ok(Box::new(GpBo::ucb(p))),
    },
    AlgorithmEntry {
        name: "ei",
        requires: Requirement::Any,
        description: "GP expected improvement over the best observation (maximised as log EI)",
        parameters: ParamTable(&[GP_PARAMS, MAXIMIZER_PARAMS, PENDING_PARAMS]),
        build: |p| Ok(Box::new(GpBo::expected_improvement(p))),
    },
    AlgorithmEntry {
        name: "logei",
        requires: Requirement::Any,
        description: "LogEI (Ament et al. 2023): log expected improvement on BoTorch's default GP model (dimension-scaled priors, noise variance ≥ 1e-4)",
        parameters: ParamTable(&[BOTORCH_GP_PARAMS, MAXIMIZER_PARAMS, PENDING_PARAMS]),
        build: |p| Ok(Box::new(GpBo::expected_improvement(p))),
    },
    AlgorithmEntry {
        name: "qlognei",
        requires: Requirement::Any,
        description: "qLogNEI (Ament et al. 2023), BoTorch's default acquisition: the noisy batch LogEI over QMC samples of the joint posterior, on BoTorch's default GP model; batches point by point with the pending points sampled jointly",
        parameters: ParamTable(&[BOTORCH_GP_PARAMS, MAXIMIZER_PARAMS, QLOGNEI_PARAMS]),
        build: |p| Ok(Box::new(GpBo::qlognei(p))),
    },
];
