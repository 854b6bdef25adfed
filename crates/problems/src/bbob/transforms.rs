//! The variable and objective transformations BBOB composes its functions from
//! (`transform_vars_*.c`, `transform_obj_*.c`), each computed in COCO's order of operations so
//! that values agree to the last bits rather than merely to the formula.

use super::rng::Matrix;

/// `i/(d − 1)`, the exponent that spreads a conditioning over the coordinates.
pub fn spread(i: usize, d: usize) -> f64 {
    i as f64 / (d as f64 - 1.0)
}

/// `x − shift` (`transform_vars_shift`).
pub fn shift(x: &[f64], offset: &[f64]) -> Vec<f64> {
    x.iter().zip(offset).map(|(x, o)| x - o).collect()
}

/// `M x + b` with `M` row-major (`transform_vars_affine`; `b = 0` where `None`).
pub fn affine(m: &Matrix, x: &[f64], b: Option<f64>) -> Vec<f64> {
    m.iter()
        .map(|row| {
            row.iter()
                .zip(x)
                .fold(b.unwrap_or(0.0), |acc, (m, x)| acc + x * m)
        })
        .collect()
}

/// `R₁ Λ R₂` with `Λ = diag(base^(k/(d−1)))`: the combined linear map of the rotated functions
/// (`base = √10` for Λ¹⁰), summed in COCO's order.
pub fn rotated_conditioning(r1: &Matrix, base: f64, r2: &Matrix) -> Matrix {
    let d = r1.len();
    (0..d)
        .map(|i| {
            (0..d)
                .map(|j| {
                    (0..d).fold(0.0, |acc, k| {
                        acc + r1[i][k] * base.powf(1.0 * k as f64 / (d as f64 - 1.0)) * r2[k][j]
                    })
                })
                .collect()
        })
        .collect()
}

/// T_osz of one value: the smooth oscillation BBOB adds around 0 (`transform_vars_oscillate`,
/// `transform_obj_oscillate`, and the last step of Gallagher's functions).
pub fn osz(x: f64) -> f64 {
    const ALPHA: f64 = 0.1;
    if x > 0.0 {
        let t = x.ln() / ALPHA;
        (t + 0.49 * (t.sin() + (0.79 * t).sin())).exp().powf(ALPHA)
    } else if x < 0.0 {
        let t = (-x).ln() / ALPHA;
        -(t + 0.49 * ((0.55 * t).sin() + (0.31 * t).sin()))
            .exp()
            .powf(ALPHA)
    } else {
        0.0
    }
}

/// T_osz coordinate-wise.
pub fn osz_all(x: &[f64]) -> Vec<f64> {
    x.iter().map(|&v| osz(v)).collect()
}

/// T_asy^β: `x_i^(1 + β i/(d−1) √x_i)` for positive coordinates (`transform_vars_asymmetric`).
pub fn asy(x: &[f64], beta: f64) -> Vec<f64> {
    let d = x.len() as f64;
    x.iter()
        .enumerate()
        .map(|(i, &v)| {
            if v > 0.0 {
                v.powf(1.0 + (beta * i as f64) / (d - 1.0) * v.sqrt())
            } else {
                v
            }
        })
        .collect()
}

/// `Σ max(0, |x_i| − 5)²`, the boundary penalty f_pen on COCO's `[−5, 5]^d`
/// (`transform_obj_penalize` and the monolithic functions' inline penalties).
pub fn penalty(x: &[f64]) -> f64 {
    x.iter()
        .map(|v| {
            let excess = v.abs() - 5.0;
            if excess > 0.0 { excess * excess } else { 0.0 }
        })
        .sum()
}

/// `floor(x + 0.5)` (`coco_double_round`), which rounds halves up, unlike [`f64::round`].
pub fn round(x: f64) -> f64 {
    (x + 0.5).floor()
}
