//! Standard multi-objective test functions: noise-free, each in its source's minimised form, with
//! the hypervolume reference point that BoTorch publishes for it, the hypervolume of its true
//! Pareto front where that is known, and points on that front where it has a closed form.
//!
//! The definitions, bounds, reference points and published hypervolumes are BoTorch 0.18.1's
//! (`botorch.test_functions.multi_objective`), so that a hypervolume measured here is comparable
//! with one measured on BoTorch's problems; `tests/library/multi_objective_problems.rs` holds the
//! values to BoTorch's (`benches/peers/multi_objective_problems_reference.py`). Where BoTorch
//! departs from the function's paper, the paper wins and the function's documentation says how
//! BoTorch differs: ZDT3's second objective (BoTorch leaves out the factor `g`), DTLZ4 (BoTorch
//! never applies its exponent α, so its DTLZ4 is DTLZ2) and DTLZ1's maximal hypervolume
//! (BoTorch's formula leaves out the `1/m!` of the simplex's volume).
//!
//! COCO's bi-objective suite `bbob-biobj` ([`BbobBiobj`]) follows COCO instead, and declares
//! COCO's nadir point and best-known hypervolumes.

mod bbob_biobj;
mod branin_currin;
mod dtlz;
mod entries;
mod front;
mod observed;
mod re_suite;
mod zdt;

#[cfg(test)]
pub(crate) mod test_support;

pub use bbob_biobj::BbobBiobj;
pub use branin_currin::BraninCurrin;
pub use dtlz::{Dtlz1, Dtlz2, Dtlz3, Dtlz4, Dtlz5, Dtlz7};
pub(crate) use entries::ENTRIES;
pub use observed::{FRONT_SAMPLE, NoisyObjectives};
pub use re_suite::{CarSideImpact, VehicleSafety};
pub use zdt::{Zdt1, Zdt2, Zdt3};

use crate::{Domain, Sense};

/// A deterministic function of m ≥ 2 objectives on a box, each in its source's sense.
///
/// The multi-objective counterpart of [`crate::TestFunction`]: what a hypervolume-based
/// benchmark needs besides the values is the reference point the hypervolume is measured from
/// and, for regret, the hypervolume of the true Pareto front.
pub trait MultiObjectiveFunction: Send + Sync + std::fmt::Debug + 'static {
    /// The box the function is defined on.
    fn domain(&self) -> &Domain;

    /// The number of objectives m.
    fn objectives(&self) -> usize;

    /// Each objective's sense in the function's standard form (all minimised for every function
    /// of this module).
    fn senses(&self) -> Vec<Sense> {
        vec![Sense::Minimize; self.objectives()]
    }

    /// The m values at `x`, which has the domain's dimension (it need not lie in the box).
    fn values(&self, x: &[f64]) -> Vec<f64>;

    /// The hypervolume reference point the function's source publishes, in the objectives' own
    /// units and senses.
    fn reference_point(&self) -> Vec<f64>;

    /// The hypervolume of the true Pareto front with respect to [`Self::reference_point`], where
    /// it is known (exactly, or as published); `None` otherwise.
    fn max_hypervolume(&self) -> Option<f64>;

    /// `n` points spread over the true Pareto front where the front is known in closed form
    /// (mutually non-dominated, each on the front to rounding); `None` otherwise.
    fn pareto_front(&self, n: usize) -> Option<Vec<Vec<f64>>>;

    /// The name of the family member this is (`"DTLZ2"`), for listings where one entry stands for
    /// a numbered family.
    fn title(&self) -> Option<String> {
        None
    }
}

/// `value` where it is finite: a closed-form hypervolume `R^m − …` overflows for many objectives
/// with a large reference value, and an infinite maximum is no maximum to measure regret from.
fn finite(value: f64) -> Option<f64> {
    value.is_finite().then_some(value)
}
