//! Numerical optimisation shared by the layers that need it: the projected L-BFGS-B behind
//! acquisition maximisation, contextual refinement and problems' own inner searches, and the
//! parallel multi-start ascent their refinement stages share.

pub mod lbfgsb;
mod multistart;

pub use multistart::{Ascent, ascend_from_starts, best_ascent};
