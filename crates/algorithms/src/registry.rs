//! Every algorithm `bosweep` can build, by kebab-case name, with its declared parameters.
//!
//! Each paper's module exports its own `ENTRIES` slice; [`FAMILIES`] lists them in listing
//! order, so that adding a paper touches one line here.

use super::{pe_gp_ucb, uhe_bo};
use bosweep_core::params::ParamValue;
use bosweep_core::registry::Registry;
use bosweep_problems::Problem;
use bosweep_toolkit::AlgorithmEntry;
use bosweep_toolkit::{Algorithm, AlgorithmError, RandomSearchSettings, check_fit};

/// Every family of algorithms, in listing order.
const FAMILIES: &[&[AlgorithmEntry]] = &[
    RANDOM,
    super::gp_bo::ENTRIES,
    super::saasbo::ENTRIES,
    super::constrained_bo::ENTRIES,
    super::cmaes::ENTRIES,
    super::mobo::ENTRIES,
    super::nsga2::ENTRIES,
    super::turbo::ENTRIES,
    super::baxus::ENTRIES,
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

/// Random search, the toolkit's own baseline, which every paper compares against.
const RANDOM: &[AlgorithmEntry] = &[AlgorithmEntry::of::<RandomSearchSettings>()];

/// Checks, before a run, that `algorithm`, registered as `name`, can run on `problem`
/// ([`check_fit`] with the entry's requirement).
pub fn check_pair(
    name: &str,
    algorithm: &mut dyn Algorithm,
    problem: &dyn Problem,
) -> Result<(), AlgorithmError> {
    check_fit(name, find(name)?.requires, algorithm, problem)
}
