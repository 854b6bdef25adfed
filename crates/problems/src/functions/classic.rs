//! Low-dimensional classics: Forrester, Branin, Goldstein–Price, six-hump camel.

use std::f64::consts::PI;

use super::{Domain, Optimum, Sense, TestFunction, fixed_box};

/// Forrester et al. (2008): `f(x) = (6x − 2)² sin(12x − 4)` on `[0, 1]`, minimised.
#[derive(Debug)]
pub struct Forrester {
    domain: Domain,
}

impl Forrester {
    /// Forrester's function on `[0, 1]`.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(&[0.0], &[1.0]),
        }
    }
}

impl Default for Forrester {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for Forrester {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let x = x[0];
        (6.0 * x - 2.0).powi(2) * (12.0 * x - 4.0).sin()
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: -6.020740055767083,
            locations: vec![vec![0.757_248_757_841_855_9]],
        })
    }
}

/// Branin–Hoo: `a(x₂ − b x₁² + c x₁ − r)² + s(1 − t) cos x₁ + s` with `a = 1`,
/// `b = 5.1/(4π²)`, `c = 5/π`, `r = 6`, `s = 10`, `t = 1/(8π)` on `[−5, 10] × [0, 15]`,
/// minimised. Minimum `5/(4π)` at `(−π, 12.275)`, `(π, 2.275)` and `(3π, 2.475)`.
#[derive(Debug)]
pub struct Branin {
    domain: Domain,
}

impl Branin {
    /// Branin on its usual box `[−5, 10] × [0, 15]`.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(&[-5.0, 0.0], &[10.0, 15.0]),
        }
    }
}

impl Default for Branin {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for Branin {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let (x1, x2) = (x[0], x[1]);
        let b = 5.1 / (4.0 * PI * PI);
        let c = 5.0 / PI;
        let t = 1.0 / (8.0 * PI);
        (x2 - b * x1 * x1 + c * x1 - 6.0).powi(2) + 10.0 * (1.0 - t) * x1.cos() + 10.0
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: 5.0 / (4.0 * PI),
            locations: vec![vec![-PI, 12.275], vec![PI, 2.275], vec![3.0 * PI, 2.475]],
        })
    }
}

/// Goldstein–Price on `[−2, 2]²`, minimised; minimum 3 at `(0, −1)`.
#[derive(Debug)]
pub struct GoldsteinPrice {
    domain: Domain,
}

impl GoldsteinPrice {
    /// Goldstein–Price on `[−2, 2]²`.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(&[-2.0, -2.0], &[2.0, 2.0]),
        }
    }
}

impl Default for GoldsteinPrice {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for GoldsteinPrice {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let (x1, x2) = (x[0], x[1]);
        let a = 1.0
            + (x1 + x2 + 1.0).powi(2)
                * (19.0 - 14.0 * x1 + 3.0 * x1 * x1 - 14.0 * x2 + 6.0 * x1 * x2 + 3.0 * x2 * x2);
        let b = 30.0
            + (2.0 * x1 - 3.0 * x2).powi(2)
                * (18.0 - 32.0 * x1 + 12.0 * x1 * x1 + 48.0 * x2 - 36.0 * x1 * x2 + 27.0 * x2 * x2);
        a * b
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: 3.0,
            locations: vec![vec![0.0, -1.0]],
        })
    }
}

/// Six-hump camel: `(4 − 2.1x₁² + x₁⁴/3)x₁² + x₁x₂ + (−4 + 4x₂²)x₂²` on `[−3, 3] × [−2, 2]`,
/// minimised; two global minima, symmetric through the origin.
#[derive(Debug)]
pub struct SixHumpCamel {
    domain: Domain,
}

impl SixHumpCamel {
    /// The six-hump camel on `[−3, 3] × [−2, 2]`.
    pub fn new() -> Self {
        Self {
            domain: fixed_box(&[-3.0, -2.0], &[3.0, 2.0]),
        }
    }
}

impl Default for SixHumpCamel {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for SixHumpCamel {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let (x1, x2) = (x[0], x[1]);
        let x1s = x1 * x1;
        (4.0 - 2.1 * x1s + x1s * x1s / 3.0) * x1s + x1 * x2 + (-4.0 + 4.0 * x2 * x2) * x2 * x2
    }

    fn optimum(&self) -> Option<Optimum> {
        let (a, b) = (0.089_842_013_100_318_06, -0.712_656_403_020_739_6);
        Some(Optimum {
            value: -1.031_628_453_489_877_4,
            locations: vec![vec![a, b], vec![-a, -b]],
        })
    }
}
