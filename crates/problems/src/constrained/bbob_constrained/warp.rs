//! The nonlinear transformation bbob-constrained applies to the whole problem — objective and
//! constraints alike — after building both around the origin (step 6 of
//! `suite_cons_bbob_problems.c`): bbob's T_osz and T_asy^0.2, taken out of the objectives whose
//! bbob version has them. Both fix the origin and act coordinate-wise and monotonically, so the
//! constrained optimum stays where it was built; the linear constraints become nonlinear.

use crate::bbob::transforms::{asy, osz_all};

/// β of T_asy, as in bbob's Rastrigin and bent cigar.
const BETA: f64 = 0.2;

/// Which of bbob's coordinate-wise transformations the problem sees `x − x_opt` through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Warp {
    /// None (the sphere, the linear slope, different powers).
    Identity,
    /// T_osz (`transform_vars_oscillate`).
    Oscillate,
    /// T_asy^0.2 (`transform_vars_asymmetric`).
    Asymmetric,
    /// T_asy^0.2 ∘ T_osz: T_osz first, as in bbob's Rastrigin.
    OscillateThenAsymmetric,
}

impl Warp {
    /// `z` through the transformation.
    pub(super) fn apply(self, z: Vec<f64>) -> Vec<f64> {
        match self {
            Self::Identity => z,
            Self::Oscillate => osz_all(&z),
            Self::Asymmetric => asy(&z, BETA),
            Self::OscillateThenAsymmetric => asy(&osz_all(&z), BETA),
        }
    }
}
