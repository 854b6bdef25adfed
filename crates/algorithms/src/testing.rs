//! What the settings tests of every family share: a settings value as the registry resolves it.

use crate::find;
use bosweep_core::params::Params;
use bosweep_toolkit::AlgorithmSettings;

/// The checked parameters the registry resolves `settings` to.
pub(crate) fn resolve(settings: &dyn AlgorithmSettings) -> Params {
    find(settings.name())
        .unwrap()
        .resolve(&settings.given())
        .unwrap()
}
