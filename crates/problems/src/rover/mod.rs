//! The 60-D rover trajectory problem of Wang, Garrett, Kaelbling and Jegelka, "Batched
//! Large-scale Bayesian Optimization in High-dimensional Spaces" (AISTATS 2018), in its large
//! domain, as TuRBO (Eriksson et al. 2019) and later high-dimensional BO papers run it.
//!
//! The 60 inputs are 30 points `(x0, y0, x1, y1, …)` in `[−0.1, 1.1]²`. A smoothing cubic spline
//! curve is fitted through them (scipy's `splprep(points, k=3)`, ported in its `spline` module) and
//! sampled at 1000 equally spaced parameters; the path's cost is the trapezoidal integral of
//! the samples' costs (`forest`: 20 inside a tree or outside the unit square, plus 0.05
//! everywhere) plus `10·‖p₀ − start‖₁` and `10·‖p₉₉₉ − goal‖₁`, with start (0.05, 0.05) and goal
//! (0.95, 0.95). The value is `5 − cost`, maximised (the reference's `ConstantOffsetFn(domain,
//! 5)`); it stays below 5, and its maximum is unknown.
//!
//! Two departures from the reference code (zi-w/Ensemble-Bayesian-Optimization,
//! `test_functions/rover_function.py`), both to make the function deterministic:
//!
//! - The reference adds N(0, 10⁻⁴) noise to the parameters before each fit, from a random
//!   stream seeded by numpy's global state. It is left out: bosweep's problem is the noise-free
//!   function, and observation noise is the usual `noise_std` parameter.
//! - Without that jitter scipy refuses consecutive equal points (their chord length is zero),
//!   which an optimiser proposes whenever it puts neighbouring points on the same corner of the
//!   box. They are fitted with equal spline parameters, the limit of the jittered fit. Where
//!   the points form fewer than four runs of equal points, that limit does not exist (the
//!   jittered fit's shape is the jitter's); the path is then the curve of lowest degree through
//!   the runs' points: the single point (no path cost, only the start and goal misses), the
//!   segment, or the parabola.
//!
//! Inside the box, FITPACK's fit is always the least-squares cubic polynomial curve: its
//! residual is at most that of the constant curve at the points' mean, `30 · 2 · 0.6² = 21.6`,
//! below the smoothing target `s = 30 − √60 ≈ 22.25`. Points outside the box (which
//! [`TestFunction::value`] accepts) can take FITPACK's knot-adding branch, also ported; there
//! the value can be NaN where FITPACK's arithmetic fails (coordinates near 1e154, whose squares
//! overflow, or repeated points that make two knots coincide).

mod forest;
mod spline;

use crate::functions::TestFunction;
use crate::{Domain, Optimum, Sense};
use spline::{Curve, Point};

/// The number of points the 60 inputs describe.
const POINTS: usize = 30;

/// The parameters the curve is sampled at: `np.linspace(0, 1, 1000)`.
const SAMPLES: usize = 1000;

/// Where the rover starts and where it should end.
const START: Point = [0.05, 0.05];
const GOAL: Point = [0.95, 0.95];

/// The weight of the L1 distances from the path's ends to the start and the goal (the
/// literature's `l2cost`, an L1 norm despite its name).
const MISS_WEIGHT: f64 = 10.0;

/// The constant the cost is subtracted from (`ConstantOffsetFn(domain, 5.0)`).
const OFFSET: f64 = 5.0;

/// The rover trajectory problem on `[−0.1, 1.1]⁶⁰`, maximised; see the module documentation.
#[derive(Debug)]
pub struct Rover {
    domain: Domain,
}

impl Rover {
    /// The 60-D rover problem of the large domain.
    pub fn new() -> Self {
        Self {
            domain: Domain::cube(-0.1, 1.1, 2 * POINTS).expect("the rover's box is valid"),
        }
    }
}

impl Default for Rover {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for Rover {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Maximize
    }

    /// NaN where a coordinate is not finite, as arithmetic gives it in the other functions.
    fn value(&self, x: &[f64]) -> f64 {
        if x.iter().any(|v| !v.is_finite()) {
            return f64::NAN;
        }
        let points: Vec<Point> = x.chunks_exact(2).map(|p| [p[0], p[1]]).collect();
        OFFSET - path_cost(&Curve::smoothing(&points))
    }

    fn optimum(&self) -> Option<Optimum> {
        None
    }
}

/// The trapezoidal integral of the sample costs along the sampled curve, plus the costs of its
/// ends missing the start and the goal, added in the reference's order.
fn path_cost(curve: &Curve) -> f64 {
    let step = 1.0 / (SAMPLES - 1) as f64;
    let parameter = |i: usize| {
        if i == SAMPLES - 1 {
            1.0
        } else {
            i as f64 * step
        }
    };
    let first = curve.at(0.0);
    let (mut previous, mut previous_cost) = (first, forest::point_cost(first));
    let mut total = 0.0;
    for i in 1..SAMPLES {
        let point = curve.at(parameter(i));
        let cost = forest::point_cost(point);
        let (dx, dy) = (point[0] - previous[0], point[1] - previous[1]);
        total += (dx * dx + dy * dy).sqrt() * (0.5 * (previous_cost + cost));
        (previous, previous_cost) = (point, cost);
    }
    let l1 = |p: Point, q: Point| (p[0] - q[0]).abs() + (p[1] - q[1]).abs();
    total + MISS_WEIGHT * l1(first, START) + MISS_WEIGHT * l1(previous, GOAL)
}
