//! COCO's legacy BBOB 2009 random numbers (`suite_bbob_legacy_code.c`): every instance's optimum,
//! offset and rotations come from these generators, so they are reproduced operation for
//! operation — a different generator would give different instances.

use std::f64::consts::PI;

/// `bbob2009_unif`: `n` uniform numbers in (0, 1) from `seed`, by a Park–Miller generator
/// (16807, Schrage's factorisation) shuffled through a 32-entry table.
pub fn unif(n: usize, seed: i64) -> Vec<f64> {
    let mut seed = seed.abs().max(1);
    let step = |s: i64| {
        let q = (s as f64 / 127_773.0).floor() as i64;
        let next = 16_807 * (s - q * 127_773) - 2_836 * q;
        if next < 0 { next + 2_147_483_647 } else { next }
    };
    let mut table = [0i64; 32];
    for i in (0..40).rev() {
        seed = step(seed);
        if i < 32 {
            table[i] = seed;
        }
    }
    let mut current = table[0];
    (0..n)
        .map(|_| {
            seed = step(seed);
            let slot = (current as f64 / 67_108_865.0).floor() as usize;
            current = table[slot];
            table[slot] = seed;
            let r = current as f64 / 2.147483647e9;
            if r == 0.0 { 1e-99 } else { r }
        })
        .collect()
}

/// `bbob2009_gauss`: `n` standard normal numbers from `seed` by Box–Muller on `2n` uniforms
/// (the first half gives the radii, the second the angles).
pub fn gauss(n: usize, seed: i64) -> Vec<f64> {
    let u = unif(2 * n, seed);
    (0..n)
        .map(|i| {
            let g = (-2.0 * u[i].ln()).sqrt() * (2.0 * PI * u[n + i]).cos();
            if g == 0.0 { 1e-99 } else { g }
        })
        .collect()
}

/// A dense `d × d` matrix, row-major (`m[i][j]`: row `i`, column `j`), as COCO's
/// `bbob2009_allocate_matrix` lays it out.
pub type Matrix = Vec<Vec<f64>>;

/// `bbob2009_compute_rotation`: a random orthogonal `d × d` matrix from `seed` — Gaussian entries
/// (column-major from [`gauss`]) orthonormalised column by column with classical Gram–Schmidt.
pub fn rotation(seed: i64, d: usize) -> Matrix {
    let g = gauss(d * d, seed);
    let mut b: Matrix = (0..d)
        .map(|i| (0..d).map(|j| g[j * d + i]).collect())
        .collect();
    for i in 0..d {
        for j in 0..i {
            let prod: f64 = (0..d).fold(0.0, |acc, k| acc + b[k][i] * b[k][j]);
            for row in b.iter_mut() {
                row[i] -= prod * row[j];
            }
        }
        let norm = (0..d).fold(0.0, |acc, k| acc + b[k][i] * b[k][i]).sqrt();
        for row in b.iter_mut() {
            row[i] /= norm;
        }
    }
    b
}

/// `bbob2009_compute_xopt`: the optimum's location, uniform on the grid of step 8·10⁻⁴ in
/// `[−4, 4)`, with an exact 0 moved to −10⁻⁵.
pub fn xopt(seed: i64, d: usize) -> Vec<f64> {
    unif(d, seed)
        .into_iter()
        .map(|u| {
            let x = 8.0 * (1e4 * u).floor() / 1e4 - 4.0;
            if x == 0.0 { -1e-5 } else { x }
        })
        .collect()
}

/// `bbob2009_compute_fopt`: the optimal value of `function` (1–24) on `instance`, a ratio of two
/// normal numbers rounded to 0.01 and clipped to `[−1000, 1000]`. f4 and f18 borrow the seeds of
/// f3 and f17, whose instances they share.
pub fn fopt(function: usize, instance: usize) -> f64 {
    let base = match function {
        4 => 3,
        18 => 17,
        f => f as i64,
    };
    let seed = base + 10_000 * instance as i64;
    let num = gauss(1, seed)[0];
    let den = gauss(1, seed + 1)[0];
    let rounded = (100.0 * 100.0 * num / den + 0.5).floor() / 100.0;
    rounded.clamp(-1000.0, 1000.0)
}
