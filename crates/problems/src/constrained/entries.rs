//! The registry's entries of the constrained test problems.

use super::{Constrained, ConstrainedGramacy};
use crate::entry::{Entry, NOISE_STD};
use bosweep_core::params::ParamSpec;

const NOISE_ONLY: &[ParamSpec] = &[NOISE_STD.spec()];

/// The constrained test problems, their objectives observed with optional homoscedastic noise.
pub(crate) static ENTRIES: &[Entry] = &[Entry {
    name: "constrained-gramacy",
    description: "Gramacy et al. (2016): min x1 + x2 on [0, 1]² s.t. 2 constraints; min 0.5998 at (0.1954, 0.4044)",
    parameters: NOISE_ONLY,
    build: |p| Ok(Box::new(Constrained::new(ConstrainedGramacy::new(), p)?)),
}];
