//! The Hartmann family: `−Σ_{i=1..4} α_i exp(−Σ_j A_ij (x_j − P_ij)²)` on the unit cube,
//! minimised, with the standard constants.

use super::{Domain, Optimum, Sense, TestFunction};
use crate::ProblemError;

/// The weights `α_i` of the four terms (shared with the contextual Hartmann objective).
pub(crate) const ALPHA: [f64; 4] = [1.0, 1.2, 3.0, 3.2];

const A3: [[f64; 3]; 4] = [
    [3.0, 10.0, 30.0],
    [0.1, 10.0, 35.0],
    [3.0, 10.0, 30.0],
    [0.1, 10.0, 35.0],
];

/// `P`, which the literature prints in units of 10⁻⁴.
const P3: [[f64; 3]; 4] = [
    [0.3689, 0.1170, 0.2673],
    [0.4699, 0.4387, 0.7470],
    [0.1091, 0.8732, 0.5547],
    [0.0381, 0.5743, 0.8828],
];

/// Hartmann-6's `A` (shared with the contextual Hartmann objective).
pub(crate) const A6: [[f64; 6]; 4] = [
    [10.0, 3.0, 17.0, 3.5, 1.7, 8.0],
    [0.05, 10.0, 17.0, 0.1, 8.0, 14.0],
    [3.0, 3.5, 1.7, 10.0, 17.0, 8.0],
    [17.0, 8.0, 0.05, 10.0, 0.1, 14.0],
];

/// Hartmann-6's `P` (shared with the contextual Hartmann objective).
pub(crate) const P6: [[f64; 6]; 4] = [
    [0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886],
    [0.2329, 0.4135, 0.8307, 0.3736, 0.1004, 0.9991],
    [0.2348, 0.1451, 0.3522, 0.2883, 0.3047, 0.6650],
    [0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381],
];

fn hartmann<const D: usize>(a: &[[f64; D]; 4], p: &[[f64; D]; 4], x: &[f64]) -> f64 {
    -(0..4)
        .map(|i| {
            let r: f64 = (0..D).map(|j| a[i][j] * (x[j] - p[i][j]).powi(2)).sum();
            ALPHA[i] * (-r).exp()
        })
        .sum::<f64>()
}

/// Hartmann-3 on `[0, 1]³`. Its minimiser is customarily printed `(0.114614, 0.555649,
/// 0.852547)`; the refined one below has the same value to 9 digits.
#[derive(Debug)]
pub struct Hartmann3 {
    domain: Domain,
}

impl Hartmann3 {
    /// Hartmann-3 on the unit cube.
    pub fn new() -> Self {
        Self {
            domain: Domain::cube(0.0, 1.0, 3).expect("unit cube"),
        }
    }
}

impl Default for Hartmann3 {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for Hartmann3 {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        hartmann(&A3, &P3, x)
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: -3.862_779_787_332_662_5,
            locations: vec![vec![
                0.114_588_876_655_068_97,
                0.555_648_894_616_93,
                0.852_546_984_686_677_4,
            ]],
        })
    }
}

/// Hartmann-6 on `[0, 1]⁶`; minimum ≈ −3.32237 near `(0.20169, 0.150011, 0.476874, 0.275332,
/// 0.311652, 0.6573)`.
#[derive(Debug)]
pub struct Hartmann6 {
    domain: Domain,
}

impl Hartmann6 {
    /// Hartmann-6 on the unit cube.
    pub fn new() -> Self {
        Self {
            domain: Domain::cube(0.0, 1.0, 6).expect("unit cube"),
        }
    }
}

impl Default for Hartmann6 {
    fn default() -> Self {
        Self::new()
    }
}

impl TestFunction for Hartmann6 {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        hartmann(&A6, &P6, x)
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: -3.322_368_011_415_514_8,
            locations: vec![vec![
                0.201_689_511_006_705_4,
                0.150_010_691_823_457_97,
                0.476_873_974_221_897,
                0.275_332_430_494_056_1,
                0.311_651_616_600_113_24,
                0.657_300_534_065_620_3,
            ]],
        })
    }
}

/// Hartmann-6 embedded in `[0, 1]^D`, `D ≥ 6`: the value of [`Hartmann6`] at the first six
/// coordinates, the other `D − 6` inert. SAASBO (Eriksson & Jankowiak 2021) and BAxUS
/// (Papenmeier et al. 2022) test whether a method finds the few dimensions that matter on it.
#[derive(Debug)]
pub struct Hartmann6Embedded {
    domain: Domain,
}

impl Hartmann6Embedded {
    /// Hartmann-6 in the first six of `dim ≥ 6` coordinates; an error below 6.
    pub fn new(dim: usize) -> Result<Self, ProblemError> {
        if dim < 6 {
            return Err(ProblemError::config(format!(
                "hartmann6-embedded needs dimension ≥ 6, got {dim}"
            )));
        }
        Ok(Self {
            domain: Domain::cube(0.0, 1.0, dim)?,
        })
    }
}

impl TestFunction for Hartmann6Embedded {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        hartmann(&A6, &P6, &x[..6])
    }

    /// Hartmann-6's optimum; every point with those first six coordinates attains it, and the
    /// location given puts the inert coordinates at the centre of the cube.
    fn optimum(&self) -> Option<Optimum> {
        let mut optimum = Hartmann6::new().optimum()?;
        for location in &mut optimum.locations {
            location.resize(self.domain.dim(), 0.5);
        }
        Some(optimum)
    }
}
