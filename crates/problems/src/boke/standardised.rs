//! The standardised benchmark variants of Picheny et al. (2013), as DiceOptim defines them (used by
//! Zhu et al. 2025, BOKE, §5.1): affine rescalings that give each function unit-order values, so
//! that one noise level and one exploration scale suit them all.

use crate::functions::{GoldsteinPrice, Rosenbrock, TestFunction};
use crate::{Domain, Optimum, ProblemError, Sense};

/// `(ln GP(x) − 8.6928) / 2.4269` on `[−2, 2]²`, minimised; minimum at `(0, −1)`.
#[derive(Debug)]
pub struct GoldsteinPriceLog {
    raw: GoldsteinPrice,
}

impl GoldsteinPriceLog {
    const SHIFT: f64 = 8.6928;
    const SCALE: f64 = 2.4269;

    /// The standardised log Goldstein–Price on its usual box `[−2, 2]²`.
    pub fn new() -> Self {
        Self {
            raw: GoldsteinPrice::new(),
        }
    }
}

impl Default for GoldsteinPriceLog {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for GoldsteinPriceLog {
    fn domain(&self) -> &Domain {
        self.raw.domain()
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        (self.raw.value(x).ln() - Self::SHIFT) / Self::SCALE
    }

    fn optimum(&self) -> Option<Optimum> {
        let at = vec![0.0, -1.0];
        Some(Optimum {
            value: self.value(&at),
            locations: vec![at],
        })
    }
}

/// `(Rosen(x) − 382658.057227524) / 375264.858362295` on `[−5, 10]⁴`, minimised; minimum at
/// `(1, 1, 1, 1)`.
#[derive(Debug)]
pub struct Rosenbrock4Standardised {
    raw: Rosenbrock,
}

impl Rosenbrock4Standardised {
    const SHIFT: f64 = 382_658.057_227_524;
    const SCALE: f64 = 375_264.858_362_295;

    /// The standardised Rosenbrock in 4 dimensions on `[−5, 10]⁴`.
    pub fn new() -> Result<Self, ProblemError> {
        Ok(Self {
            raw: Rosenbrock::new(4)?,
        })
    }
}

impl TestFunction for Rosenbrock4Standardised {
    fn domain(&self) -> &Domain {
        self.raw.domain()
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        (self.raw.value(x) - Self::SHIFT) / Self::SCALE
    }

    fn optimum(&self) -> Option<Optimum> {
        let at = vec![1.0; 4];
        Some(Optimum {
            value: self.value(&at),
            locations: vec![at],
        })
    }
}

/// DiceOptim's `sphere6` on `u ∈ [0, 1]⁶`: `z = 10u − 5 + s`, `s = (−5, −3, −1, 1, 3, 5)`, then
/// Givens rotations by 22.5° of every pair `(z_i, z_j)`, `i < j`, in place and in row order, and
/// `(Σ_i 2^i z_i² − 1745.3796) / 899.0367`, minimised. The minimum is where `z = 0`:
/// `u = (1, 0.8, 0.6, 0.4, 0.2, 0)`, a corner-adjacent optimum that uniform exploration rarely hits.
#[derive(Debug)]
pub struct Sphere6Standardised {
    domain: Domain,
}

impl Sphere6Standardised {
    const SHIFT: f64 = 1745.3796;
    const SCALE: f64 = 899.0367;
    const OFFSETS: [f64; 6] = [-5.0, -3.0, -1.0, 1.0, 3.0, 5.0];

    /// The standardised, rotated 6-D sphere on the unit cube.
    pub fn new() -> Result<Self, ProblemError> {
        Ok(Self {
            domain: Domain::cube(0.0, 1.0, 6)?,
        })
    }
}

impl TestFunction for Sphere6Standardised {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, u: &[f64]) -> f64 {
        let mut z: Vec<f64> = u
            .iter()
            .zip(Self::OFFSETS)
            .map(|(u, s)| 10.0 * u - 5.0 + s)
            .collect();
        let (s0, c) = 22.5f64.to_radians().sin_cos();
        for i in 0..5 {
            for j in i + 1..6 {
                let (a, b) = (z[i], z[j]);
                z[i] = c * a + s0 * b;
                z[j] = -s0 * a + c * b;
            }
        }
        let weighted: f64 = z
            .iter()
            .enumerate()
            .map(|(i, z)| 2f64.powi(i as i32 + 1) * z * z)
            .sum();
        (weighted - Self::SHIFT) / Self::SCALE
    }

    fn optimum(&self) -> Option<Optimum> {
        let at = vec![1.0, 0.8, 0.6, 0.4, 0.2, 0.0];
        Some(Optimum {
            value: -Self::SHIFT / Self::SCALE,
            locations: vec![at],
        })
    }
}
