//! What the settings tests of every family share: a settings value as the registry resolves it.

use crate::{AlgorithmSettings, find};
use bosweep_core::params::Params;

/// The checked parameters the registry resolves `settings` to.
pub(crate) fn resolve(settings: &dyn AlgorithmSettings) -> Params {
    find(settings.name())
        .unwrap()
        .resolve(&settings.given())
        .unwrap()
}
