//! Numerical optimisation shared by the layers that need it: the projected L-BFGS-B behind
//! acquisition maximisation, contextual refinement and problems' own inner searches.

pub mod lbfgsb;
