//! Standard synthetic test functions: noise-free, each in its standard definition, domain and
//! sense, with the optimum where it is known.
//!
//! Optimum values and locations were refined to f64 precision (Newton's method in 40-digit
//! arithmetic from the literature's rounded optimisers), so that regret at the optimiser is zero
//! to rounding rather than to the literature's 5–6 digits.

mod classic;
pub(crate) mod hartmann;
mod scalable;
mod uhe;

pub use classic::{Branin, Forrester, GoldsteinPrice, SixHumpCamel};
pub use hartmann::{Hartmann3, Hartmann6, Hartmann6Embedded};
pub use scalable::{Ackley, Griewank, Levy, Michalewicz, Rosenbrock, Sphere, StyblinskiTang};
pub use uhe::{Deceptive, H1, H1Form};

use super::{Domain, Optimum, Sense};

/// A deterministic objective on a box. [`super::Noisy`] makes it a [`super::Problem`].
pub trait TestFunction: Send + Sync + std::fmt::Debug + 'static {
    /// The box the function is defined on.
    fn domain(&self) -> &Domain;

    /// Whether the function's standard form is minimised or maximised.
    fn sense(&self) -> Sense;

    /// The value at `x`, which has the domain's dimension (it need not lie in the box).
    fn value(&self, x: &[f64]) -> f64;

    /// The global optimum where it is known, in the function's own sense.
    fn optimum(&self) -> Option<Optimum>;

    /// The name of the family member this is, where the parameters pick one from a numbered
    /// family (`f8 Rosenbrock` of `bbob`): see [`crate::Problem::title`].
    fn title(&self) -> Option<String> {
        None
    }
}

/// The box of a fixed-dimension function, from bounds written in its source.
pub(crate) fn fixed_box(lower: &[f64], upper: &[f64]) -> Domain {
    Domain::new(lower.to_vec(), upper.to_vec()).expect("a function's own bounds are valid")
}
