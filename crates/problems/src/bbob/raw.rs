//! The untransformed ("raw") BBOB functions of `f_*.c`, each on its already transformed
//! argument `z`; [`super::functions`] composes them with the instance's transformations.

use std::f64::consts::PI;

use super::transforms::round;

pub fn sphere(z: &[f64]) -> f64 {
    z.iter().fold(0.0, |acc, v| acc + v * v)
}

/// Σ 10^(6 i/(d−1)) z_i².
pub fn ellipsoid(z: &[f64]) -> f64 {
    let d = z.len();
    (1..d).fold(z[0] * z[0], |acc, i| {
        acc + 1.0e6_f64.powf(1.0 * i as f64 / (d as f64 - 1.0)) * z[i] * z[i]
    })
}

/// 10 (d − Σ cos 2π z_i) + Σ z_i² (also the core of Büche–Rastrigin).
pub fn rastrigin(z: &[f64]) -> f64 {
    let (cosines, squares) = z.iter().fold((0.0, 0.0), |(c, s), v| {
        (c + (2.0 * PI * v).cos(), s + v * v)
    });
    10.0 * (z.len() as f64 - cosines) + squares
}

/// Σ 100 (z_i² − z_{i+1})² + (z_i − 1)².
pub fn rosenbrock(z: &[f64]) -> f64 {
    let (s1, s2) = z.windows(2).fold((0.0, 0.0), |(s1, s2), w| {
        let a = w[0] * w[0] - w[1];
        let b = w[0] - 1.0;
        (s1 + a * a, s2 + b * b)
    });
    100.0 * s1 + s2
}

/// The linear slope Σ (5 |s_i| − s_i z_i), flat beyond the corner `5 sign(s)` the slopes
/// point at, as COCO's boundary handling has it (`x_i · corner_i ≥ 25` takes the corner's
/// term, 0): inside `[−5, 5]^d` the plain sum.
pub fn linear_slope(slopes: &[f64], z: &[f64]) -> f64 {
    slopes.iter().zip(z).fold(0.0, |acc, (&s, &v)| {
        let corner = if s > 0.0 { 5.0 } else { -5.0 };
        let at = if v * corner < 25.0 { v } else { corner };
        acc + (5.0 * s.abs() - s * at)
    })
}

/// 10⁶ z₁² + Σ_{i>1} z_i².
pub fn discus(z: &[f64]) -> f64 {
    z[1..]
        .iter()
        .fold(1.0e6 * z[0] * z[0], |acc, v| acc + v * v)
}

/// z₁² + 10⁶ Σ_{i>1} z_i².
pub fn bent_cigar(z: &[f64]) -> f64 {
    z[1..]
        .iter()
        .fold(z[0] * z[0], |acc, v| acc + 1.0e6 * v * v)
}

/// z₁² + 100 √(Σ_{i>1} z_i²).
pub fn sharp_ridge(z: &[f64]) -> f64 {
    let rest = z[1..].iter().fold(0.0, |acc, v| acc + v * v);
    100.0 * rest.sqrt() + z[0] * z[0]
}

/// √(Σ |z_i|^(2 + 4 i/(d−1))).
pub fn different_powers(z: &[f64]) -> f64 {
    let d = z.len() as f64;
    z.iter()
        .enumerate()
        .fold(0.0, |acc, (i, v)| {
            acc + v.abs().powf(2.0 + (4.0 * i as f64) / (d - 1.0))
        })
        .sqrt()
}

/// Weierstrass with 12 terms a_k = 2^−k, b_k = 3^k: 10 (Σ_i Σ_k a_k cos(2π b_k (z_i + ½)) / d − f₀)³.
pub fn weierstrass(z: &[f64]) -> f64 {
    const TERMS: i32 = 12;
    let a = |k: i32| 0.5_f64.powf(k as f64);
    let b = |k: i32| 3.0_f64.powf(k as f64);
    let f0 = (0..TERMS).fold(0.0, |acc, k| acc + a(k) * (2.0 * PI * b(k) * 0.5).cos());
    let sum = z.iter().fold(0.0, |acc, v| {
        (0..TERMS).fold(acc, |acc, k| {
            acc + (2.0 * PI * (v + 0.5) * b(k)).cos() * a(k)
        })
    });
    10.0 * (sum / z.len() as f64 - f0).powf(3.0)
}

/// Schaffers F7: (Σ_{i<d} s_i^¼ (1 + sin²(50 s_i^⅒)) / (d − 1))², s_i = z_i² + z_{i+1}².
pub fn schaffers(z: &[f64]) -> f64 {
    let sum = z.windows(2).fold(0.0, |acc, w| {
        let s = w[0] * w[0] + w[1] * w[1];
        acc + s.powf(0.25) * (1.0 + (50.0 * s.powf(0.1)).sin().powf(2.0))
    });
    (sum / (z.len() as f64 - 1.0)).powf(2.0)
}

/// Griewank–Rosenbrock F8F2: 10 + 10 Σ_{i<d} (s_i/4000 − cos s_i) / (d − 1), s_i the Rosenbrock
/// term.
pub fn griewank_rosenbrock(z: &[f64]) -> f64 {
    const FACTOR: f64 = 10.0;
    let sum = z.windows(2).fold(0.0, |acc, w| {
        let c1 = w[0] * w[0] - w[1];
        let c2 = 1.0 - w[0];
        let s = 100.0 * c1 * c1 + c2 * c2;
        acc + (s / 4000.0 - s.cos())
    });
    FACTOR + FACTOR * sum / (z.len() as f64 - 1.0)
}

/// Schwefel x sin √|x| with its own boundary penalty at ±500:
/// 0.01 (Σ max(0, |z_i| − 500)² + 418.98… − Σ z_i sin √|z_i| / d).
pub fn schwefel(z: &[f64]) -> f64 {
    let penalty = z.iter().fold(0.0, |acc, v| {
        let excess = v.abs() - 500.0;
        if excess > 0.0 {
            acc + excess * excess
        } else {
            acc
        }
    });
    let sum = z.iter().fold(0.0, |acc, v| acc + v * v.abs().sqrt().sin());
    0.01 * (penalty + 418.9828872724339 - sum / z.len() as f64)
}

/// Katsuura: 10/d² (Π_i (1 + i Σ_{j=1}^{32} |2^j z_i − round(2^j z_i)| / 2^j)^(10/d^1.2) − 1).
pub fn katsuura(z: &[f64]) -> f64 {
    let d = z.len() as f64;
    let product = z.iter().enumerate().fold(1.0, |acc, (i, v)| {
        let sum = (1..33).fold(0.0, |acc, j| {
            let p = 2.0_f64.powf(j as f64);
            acc + (p * v - round(p * v)).abs() / p
        });
        acc * (1.0 + (i as f64 + 1.0) * sum)
    });
    10.0 / d / d * (-1.0 + product.powf(10.0 / d.powf(1.2)))
}
