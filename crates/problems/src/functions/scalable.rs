//! Functions defined for any dimension `d`, on their standard domains.

use std::f64::consts::{E, PI};

use super::{Domain, Optimum, Sense, TestFunction};
use crate::ProblemError;

/// Ackley with `a = 20`, `b = 0.2`, `c = 2π`:
/// `−a exp(−b √(Σx²/d)) − exp(Σ cos(c x)/d) + a + e` on `[−32.768, 32.768]^d`, minimised;
/// minimum 0 at the origin.
#[derive(Debug)]
pub struct Ackley {
    domain: Domain,
}

impl Ackley {
    /// Ackley in `dim ≥ 1` dimensions; an error for `dim = 0`.
    pub fn new(dim: usize) -> Result<Self, ProblemError> {
        Ok(Self {
            domain: Domain::cube(-32.768, 32.768, dim)?,
        })
    }
}

impl TestFunction for Ackley {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let d = x.len() as f64;
        let squares = x.iter().map(|v| v * v).sum::<f64>() / d;
        let cosines = x.iter().map(|v| (2.0 * PI * v).cos()).sum::<f64>() / d;
        -20.0 * (-0.2 * squares.sqrt()).exp() - cosines.exp() + 20.0 + E
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: 0.0,
            locations: vec![vec![0.0; self.domain.dim()]],
        })
    }
}

/// Levy: with `w_i = 1 + (x_i − 1)/4`,
/// `sin²(πw₁) + Σ_{i<d} (w_i − 1)²(1 + 10 sin²(πw_i + 1)) + (w_d − 1)²(1 + sin²(2πw_d))` on
/// `[−10, 10]^d`, minimised; minimum 0 at `(1, …, 1)`.
#[derive(Debug)]
pub struct Levy {
    domain: Domain,
}

impl Levy {
    /// Levy in `dim ≥ 1` dimensions; an error for `dim = 0`.
    pub fn new(dim: usize) -> Result<Self, ProblemError> {
        Ok(Self {
            domain: Domain::cube(-10.0, 10.0, dim)?,
        })
    }
}

impl TestFunction for Levy {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let w: Vec<f64> = x.iter().map(|v| 1.0 + (v - 1.0) / 4.0).collect();
        let (last, inner) = w.split_last().expect("dimension ≥ 1");
        let middle: f64 = inner
            .iter()
            .map(|wi| (wi - 1.0).powi(2) * (1.0 + 10.0 * (PI * wi + 1.0).sin().powi(2)))
            .sum();
        (PI * w[0]).sin().powi(2)
            + middle
            + (last - 1.0).powi(2) * (1.0 + (2.0 * PI * last).sin().powi(2))
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: 0.0,
            locations: vec![vec![1.0; self.domain.dim()]],
        })
    }
}

/// Rosenbrock: `Σ_{i<d} 100(x_{i+1} − x_i²)² + (1 − x_i)²` on `[−5, 10]^d`, `d ≥ 2` (the sum is
/// empty for `d = 1`), minimised; minimum 0 at `(1, …, 1)`.
#[derive(Debug)]
pub struct Rosenbrock {
    domain: Domain,
}

impl Rosenbrock {
    /// Rosenbrock in `dim ≥ 2` dimensions; an error below 2.
    pub fn new(dim: usize) -> Result<Self, ProblemError> {
        if dim < 2 {
            return Err(ProblemError::config(format!(
                "rosenbrock needs dimension ≥ 2, got {dim}"
            )));
        }
        Ok(Self {
            domain: Domain::cube(-5.0, 10.0, dim)?,
        })
    }
}

impl TestFunction for Rosenbrock {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        x.windows(2)
            .map(|p| 100.0 * (p[1] - p[0] * p[0]).powi(2) + (1.0 - p[0]).powi(2))
            .sum()
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: 0.0,
            locations: vec![vec![1.0; self.domain.dim()]],
        })
    }
}

/// Griewank: `Σ x_i²/4000 − Π_i cos(x_i/√i) + 1` (`i` from 1) on `[−600, 600]^d`, minimised;
/// minimum 0 at the origin. Its many regular local minima sit on a bowl that, seen from far,
/// is a sphere: the high-dimensional studies use it to tell global structure from local detail.
#[derive(Debug)]
pub struct Griewank {
    domain: Domain,
}

impl Griewank {
    /// Griewank in `dim ≥ 1` dimensions; an error for `dim = 0`.
    pub fn new(dim: usize) -> Result<Self, ProblemError> {
        Ok(Self {
            domain: Domain::cube(-600.0, 600.0, dim)?,
        })
    }
}

impl TestFunction for Griewank {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        let squares = x.iter().map(|v| v * v).sum::<f64>() / 4000.0;
        let cosines: f64 = x
            .iter()
            .enumerate()
            .map(|(i, v)| (v / ((i + 1) as f64).sqrt()).cos())
            .product();
        squares - cosines + 1.0
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: 0.0,
            locations: vec![vec![0.0; self.domain.dim()]],
        })
    }
}

/// Sphere: `Σ x_i²` on `[−5.12, 5.12]^d`, minimised; minimum 0 at the origin.
#[derive(Debug)]
pub struct Sphere {
    domain: Domain,
}

impl Sphere {
    /// The sphere in `dim ≥ 1` dimensions; an error for `dim = 0`.
    pub fn new(dim: usize) -> Result<Self, ProblemError> {
        Ok(Self {
            domain: Domain::cube(-5.12, 5.12, dim)?,
        })
    }
}

impl TestFunction for Sphere {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        x.iter().map(|v| v * v).sum()
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: 0.0,
            locations: vec![vec![0.0; self.domain.dim()]],
        })
    }
}

/// Styblinski–Tang: `½ Σ (x_i⁴ − 16x_i² + 5x_i)` on `[−5, 5]^d`, minimised. Separable; each
/// coordinate is minimal at the root −2.903534… of `4x³ − 32x + 5`.
#[derive(Debug)]
pub struct StyblinskiTang {
    domain: Domain,
}

impl StyblinskiTang {
    /// The minimiser of one coordinate's term.
    const ARGMIN: f64 = -2.903_534_027_771_177;
    /// The minimum of one coordinate's term.
    const MIN: f64 = -39.166_165_703_771_41;

    /// Styblinski–Tang in `dim ≥ 1` dimensions; an error for `dim = 0`.
    pub fn new(dim: usize) -> Result<Self, ProblemError> {
        Ok(Self {
            domain: Domain::cube(-5.0, 5.0, dim)?,
        })
    }
}

impl TestFunction for StyblinskiTang {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        0.5 * x
            .iter()
            .map(|v| v.powi(4) - 16.0 * v * v + 5.0 * v)
            .sum::<f64>()
    }

    fn optimum(&self) -> Option<Optimum> {
        let d = self.domain.dim();
        Some(Optimum {
            value: Self::MIN * d as f64,
            locations: vec![vec![Self::ARGMIN; d]],
        })
    }
}

/// Michalewicz with steepness `m = 10`: `−Σ_i sin(x_i) sin^{2m}(i x_i²/π)` on `[0, π]^d`,
/// minimised.
///
/// The literature tabulates the minimum only for a few `d` (−1.8013 for 2, −4.687658 for 5,
/// −9.66015 for 10), but the function is separable, so the minimum for any `d` is the sum of
/// `d` one-dimensional minima. They are computed once, at construction.
#[derive(Debug)]
pub struct Michalewicz {
    domain: Domain,
    optimum: Optimum,
}

impl Michalewicz {
    const M: i32 = 10;

    /// Michalewicz in `dim ≥ 1` dimensions; an error for `dim = 0`.
    pub fn new(dim: usize) -> Result<Self, ProblemError> {
        let domain = Domain::cube(0.0, PI, dim)?;
        let (values, location): (Vec<f64>, Vec<f64>) = (1..=dim).map(Self::term_max).unzip();
        let optimum = Optimum {
            value: -values.iter().sum::<f64>(),
            locations: vec![location],
        };
        Ok(Self { domain, optimum })
    }

    /// Coordinate `i`'s term without its sign, `sin(x) sin^{2m}(i x²/π)`.
    fn term(i: usize, x: f64) -> f64 {
        x.sin() * (i as f64 * x * x / PI).sin().powi(2 * Self::M)
    }

    /// The maximum of [`Self::term`] over `[0, π]` and where it is attained.
    ///
    /// The zeros `π√(k/i)`, `k = 0..=i`, of the second factor cut `[0, π]` into `i` intervals
    /// with one narrow peak each. On interval `k` the term is at most the largest `sin x` there,
    /// a bound that falls away from the interval holding π/2 on either side; so the search
    /// starts there and walks outwards while a neighbour's bound can still beat the best peak.
    fn term_max(i: usize) -> (f64, f64) {
        let zero = |k: usize| PI * (k as f64 / i as f64).sqrt();
        let home = i / 4; // the k with π√(k/i) ≤ π/2 < π√((k+1)/i)
        let bound = |k: usize| match k.cmp(&home) {
            std::cmp::Ordering::Less => zero(k + 1).sin(),
            std::cmp::Ordering::Equal => 1.0,
            std::cmp::Ordering::Greater => zero(k).sin(),
        };
        let peak = |k: usize| {
            let x = golden_section_max(|x| Self::term(i, x), zero(k), zero(k + 1));
            (Self::term(i, x), x)
        };
        let mut best = peak(home);
        for step in 1..i {
            let left = home.checked_sub(step);
            let right = Some(home + step).filter(|&k| k < i);
            let mut open = false;
            for k in [left, right].into_iter().flatten() {
                if bound(k) > best.0 {
                    open = true;
                    let candidate = peak(k);
                    if candidate.0 > best.0 {
                        best = candidate;
                    }
                }
            }
            if !open {
                break;
            }
        }
        best
    }
}

impl TestFunction for Michalewicz {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        -x.iter()
            .enumerate()
            .map(|(k, &v)| Self::term(k + 1, v))
            .sum::<f64>()
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(self.optimum.clone())
    }
}

/// The maximiser of a unimodal `f` on `[a, b]`, by golden-section search to rounding level.
fn golden_section_max(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - r * (b - a);
    let mut d = a + r * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    // 0.618⁸⁰ ≈ 2e-17: the bracket shrinks below one ulp of π.
    for _ in 0..80 {
        if fc > fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = f(d);
        }
    }
    if fc > fd { c } else { d }
}
