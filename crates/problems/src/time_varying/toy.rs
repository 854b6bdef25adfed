//! The toy problem of the PE-GP-UCB paper (Ziomek et al. 2025, §7), with our own choices for
//! everything the paper leaves unreported.
//!
//! Eleven candidate priors share one RBF kernel and differ only in their means: ten Gaussian
//! hills at `c_n = (n − 1)/9`; prior `n ≥ 1` has hill n tall (3) and the others short (1), prior 0
//! has all ten short. The function is one draw from prior 2 (tall hill at c_2 ≈ 0.111) and does
//! not change with t; the allowed set does: odd steps allow the whole 200-point grid, even steps
//! exclude the true tall hill (`|x − c_2| < (c_2 − c_1)/2`).

use std::sync::{Arc, OnceLock};

use nalgebra::{DMatrix, DVector};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

use crate::support::gaussian_repeats;
use crate::{Domain, Observation, Optimum, ParamValue, Params, Problem, ProblemError, Sense, Step};
use bosweep_engine::Points;
use bosweep_model::{CandidatePrior, CandidatePriors, KernelGroup};
use bosweep_model::{Kernel, KernelKind};

/// Points of the grid on [0, 1].
pub const GRID_SIZE: usize = 200;
/// Hills on the grid, one tall per prior except prior 0.
pub(crate) const NUM_HILLS: usize = 10;
/// Standard deviation `w` of each Gaussian hill.
pub const HILL_WIDTH: f64 = 0.03;
/// Height of a prior's tall hill.
pub(crate) const TALL_HEIGHT: f64 = 3.0;
/// Height of every other hill.
pub(crate) const SHORT_HEIGHT: f64 = 1.0;
/// RBF lengthscale ℓ (the paper's `l` divides the squared distance: `l = ℓ² = 0.01`).
pub const LENGTHSCALE: f64 = 0.1;
/// The prior the function is drawn from: its tall hill is hill 2.
pub(crate) const TRUE_PRIOR: usize = 2;
/// Steps the candidate priors' time kernels cover.
pub(crate) const HORIZON: usize = 100;
/// The first jitter tried when factorising the grid's Gram matrix to sample f.
const SAMPLE_JITTER: f64 = 1e-8;

/// The grid point `i`, `i / (GRID_SIZE − 1)`.
pub fn grid_point(i: usize) -> f64 {
    i as f64 / (GRID_SIZE - 1) as f64
}

/// Centre `c_n` of hill `n ∈ 1..=10`.
pub fn hill_centre(n: usize) -> f64 {
    (n - 1) as f64 / (NUM_HILLS - 1) as f64
}

/// Half the spacing of the hills, the radius of the region even steps exclude around `c_2`.
pub fn exclusion_radius() -> f64 {
    (hill_centre(2) - hill_centre(1)) / 2.0
}

/// `m^p(x) = Σ_n h^p_n exp(−(x − c_n)² / (2w²))`.
pub fn prior_mean(prior: usize, x: f64) -> f64 {
    (1..=NUM_HILLS)
        .map(|n| {
            let h = if n == prior {
                TALL_HEIGHT
            } else {
                SHORT_HEIGHT
            };
            let z = (x - hill_centre(n)) / HILL_WIDTH;
            h * (-0.5 * z * z).exp()
        })
        .sum()
}

/// Whether `x` is allowed at step `t`: everywhere on odd t, away from the true tall hill on even t.
pub fn allowed(x: f64, t: usize) -> bool {
    t % 2 == 1 || (x - hill_centre(2)).abs() >= exclusion_radius()
}

/// The unit-variance RBF kernel over x that every candidate prior shares.
pub(crate) fn spatial_kernel() -> Kernel {
    Kernel::new(KernelKind::SquaredExponential, vec![LENGTHSCALE], 1.0)
        .expect("valid constant hyperparameters")
}

fn grid_points() -> Points {
    Points::new((0..GRID_SIZE).map(grid_point).collect(), 1).expect("finite grid")
}

fn gram() -> DMatrix<f64> {
    let k = spatial_kernel();
    DMatrix::from_fn(GRID_SIZE, GRID_SIZE, |i, j| {
        k.eval(&[grid_point(i)], &[grid_point(j)])
    })
}

/// The toy's 11 priors over the grid: one kernel group (RBF, ε = 0), prior 2 true.
pub fn candidate_priors() -> Arc<CandidatePriors> {
    static SET: OnceLock<Arc<CandidatePriors>> = OnceLock::new();
    SET.get_or_init(|| {
        let group = KernelGroup {
            spatial: gram(),
            epsilon: 0.0,
            stationary: Some(spatial_kernel()),
        };
        let priors = (0..=NUM_HILLS)
            .map(|p| CandidatePrior {
                label: format!("prior {p}"),
                mean: (0..GRID_SIZE)
                    .map(|i| prior_mean(p, grid_point(i)))
                    .collect(),
                group: 0,
            })
            .collect();
        Arc::new(
            CandidatePriors::new(
                grid_points(),
                vec![group],
                priors,
                HORIZON,
                Some(TRUE_PRIOR),
            )
            .expect("the toy's prior set is well formed"),
        )
    })
    .clone()
}

/// One draw of f on the grid: `m^2 + L z`, `L = chol(K + jitter·I)`, the jitter raised ×10 from
/// 1e-8 until the factorisation succeeds (the RBF Gram matrix of the grid is numerically singular).
pub fn sample_function(rng: &mut ChaCha8Rng) -> Vec<f64> {
    let k = gram();
    let z = DVector::from_iterator(
        GRID_SIZE,
        (0..GRID_SIZE).map(|_| StandardNormal.sample(rng)),
    );
    let mut jitter = SAMPLE_JITTER;
    let chol = loop {
        let mut jittered = k.clone();
        for i in 0..GRID_SIZE {
            jittered[(i, i)] += jitter;
        }
        if let Some(c) = jittered.cholesky() {
            break c.unpack();
        }
        jitter *= 10.0;
    };
    let draw = chol * z;
    (0..GRID_SIZE)
        .map(|i| prior_mean(TRUE_PRIOR, grid_point(i)) + draw[i])
        .collect()
}

/// The toy problem (maximised).
#[derive(Debug)]
pub struct PeToy {
    domain: Domain,
    grid: Points,
    /// The grid without the true tall hill, allowed on even steps.
    restricted: Points,
    noise_std: f64,
    function: OnceLock<Vec<f64>>,
    parameters: Vec<(String, ParamValue)>,
}

impl PeToy {
    /// The toy problem with the `noise_std` and `instance` of `params`.
    pub(crate) fn new(params: &Params) -> Result<Self, ProblemError> {
        let grid = grid_points();
        let restricted = Points::new(
            grid.iter()
                .map(|x| x[0])
                .filter(|x| allowed(*x, 2))
                .collect(),
            1,
        )
        .map_err(|e| ProblemError::config(e.to_string()))?;
        let function = OnceLock::new();
        if let n @ 1.. = super::INSTANCE.of(params) {
            let _ = function.set(sample_function(&mut ChaCha8Rng::seed_from_u64(n as u64)));
        }
        Ok(Self {
            domain: Domain::cube(0.0, 1.0, 1)?,
            grid,
            restricted,
            noise_std: super::NOISE_STD.of(params),
            function,
            parameters: params.to_list(),
        })
    }

    /// f on the grid, once it has been drawn (at construction for a fixed instance, else at the
    /// first observation).
    pub fn function(&self) -> Option<&[f64]> {
        self.function.get().map(Vec::as_slice)
    }

    fn index(x: f64) -> usize {
        ((x * (GRID_SIZE - 1) as f64).round() as usize).min(GRID_SIZE - 1)
    }
}

impl Problem for PeToy {
    problem_accessors!(self, name: "pe-toy", domain: &self.domain, sense: Sense::Maximize);

    /// With `instance = 0`, f is drawn here: from the run's design stream, which every
    /// algorithm of a sweep replicate shares, so that the seed drives the function and
    /// the algorithms of one replicate are compared on the same f.
    fn draw_instance(&self, rng: &mut ChaCha8Rng) {
        if self.function.get().is_none() {
            let _ = self.function.set(sample_function(rng));
        }
    }

    /// Where no instance was drawn before (an evaluation outside the runner), the first
    /// observation draws f from `rng`.
    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let f = self.function.get_or_init(|| sample_function(rng))[Self::index(x[0])];
        let values = gaussian_repeats(f, self.noise_std, step.repeats(), rng);
        Ok(Observation::new(values, None))
    }

    fn objective_of_interest(&self, x: &[f64], _t: usize) -> Option<f64> {
        self.function().map(|f| f[Self::index(x[0])])
    }

    /// The maximum over the allowed set of step t.
    fn optimum(&self, t: usize) -> Option<Optimum> {
        let f = self.function()?;
        let best = (0..GRID_SIZE)
            .filter(|&i| allowed(grid_point(i), t))
            .reduce(|b, i| if f[i] > f[b] { i } else { b })?;
        Some(Optimum {
            value: f[best],
            locations: vec![vec![grid_point(best)]],
        })
    }

    fn candidate_priors(&self) -> Option<Arc<CandidatePriors>> {
        Some(candidate_priors())
    }

    fn allowed_set(&self, t: usize) -> Option<&Points> {
        Some(if t % 2 == 1 {
            &self.grid
        } else {
            &self.restricted
        })
    }

    fn time_varying(&self) -> bool {
        true
    }
}
