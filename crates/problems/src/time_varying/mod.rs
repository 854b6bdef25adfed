//! Time-varying problems with a finite domain and a finite set of candidate GP priors
//! (Ziomek et al. 2025, §7): the toy problem with 11 hill-shaped prior means and an alternating
//! allowed set, and the Intel Berkeley temperature task with one prior per previous day.
//!
//! Each problem's candidate priors are part of its definition (the paper hands the same set to
//! every method): the problem hands them to the unknown-prior algorithms through
//! [`Problem::candidate_priors`](super::Problem::candidate_priors).

pub mod intel;
pub mod toy;

use super::entry::Entry;
use bosweep_core::params::{IntegerParam, RealParam};

/// The observation noise R, read by each problem's constructor.
const NOISE_STD: RealParam = RealParam::new(
    "noise_std",
    0.1,
    0.0,
    1e6,
    "standard deviation R of the Gaussian observation noise (default 0.1)",
);
/// The toy's fixed sample, read by [`toy::PeToy::new`].
const INSTANCE: IntegerParam = IntegerParam::new(
    "instance",
    0,
    0,
    u32::MAX as usize,
    "0: draw f from the run's design seed (shared by the algorithms of a sweep replicate); n ≥ 1: the fixed sample seeded by n",
);

/// The problems of the PE-GP-UCB paper.
pub(crate) static ENTRIES: &[Entry] = &[
    Entry {
        name: "pe-toy",
        description: "PE-GP-UCB toy: f ~ GP(prior-2 hill mean, RBF ℓ=0.1) on a 200-point grid of [0, 1]; even t exclude the true tall hill",
        parameters: &[NOISE_STD.spec(), INSTANCE.spec()],
        build: |p| Ok(Box::new(toy::PeToy::new(p)?)),
    },
    Entry {
        name: "intel-temp-synthetic",
        description: "synthetic stand-in of the Intel lab task: 50 sensors, 14 days × 144 ten-minute windows, pick the hottest sensor on day 14",
        parameters: &[NOISE_STD.spec()],
        build: |p| Ok(Box::new(intel::IntelTemp::new(intel::synthetic_task()?, p))),
    },
    Entry {
        name: "intel-temp",
        description: "Intel Berkeley lab temperatures (local data.txt named by $BOSWEEP_INTEL_DATA), 1–14 March 2004, hottest sensor on 14 March",
        parameters: &[NOISE_STD.spec()],
        build: |p| Ok(Box::new(intel::IntelTemp::new(intel::file_task()?, p))),
    },
];
