//! The true mean-variance optimum of a closed-form problem: a dense grid, then a compass search
//! from the best grid points.

use crate::Domain;

/// Grid points whose neighbourhoods are refined.
const STARTS: usize = 5;

/// The maximum of `value` over `domain` and a maximiser: the best of a grid with `per_dim`
/// points per dimension (corners included), refined by a compass search that halves its step
/// down to 1e-12 of the box width from the `STARTS` best grid points.
pub fn maximize_on_box(
    domain: &Domain,
    per_dim: usize,
    value: impl Fn(&[f64]) -> f64,
) -> (f64, Vec<f64>) {
    let dim = domain.dim();
    let per_dim = per_dim.max(2);
    let total = per_dim.pow(dim as u32);
    let mut best: Vec<(f64, Vec<f64>)> = Vec::with_capacity(STARTS + 1);
    let mut x = vec![0.0; dim];
    for index in 0..total {
        let mut rest = index;
        for (d, xd) in x.iter_mut().enumerate() {
            let step = rest % per_dim;
            rest /= per_dim;
            let (lo, hi) = (domain.lower()[d], domain.upper()[d]);
            *xd = lo + (hi - lo) * step as f64 / (per_dim - 1) as f64;
        }
        let v = value(&x);
        if best.len() < STARTS || v > best[best.len() - 1].0 {
            let at = best.iter().position(|(b, _)| v > *b).unwrap_or(best.len());
            best.insert(at, (v, x.clone()));
            best.truncate(STARTS);
        }
    }
    best.into_iter()
        .map(|(v, x)| compass_search(domain, per_dim, &value, v, x))
        .fold((f64::NEG_INFINITY, Vec::new()), |a, b| {
            if b.0 > a.0 { b } else { a }
        })
}

fn compass_search(
    domain: &Domain,
    per_dim: usize,
    value: &impl Fn(&[f64]) -> f64,
    mut best: f64,
    mut x: Vec<f64>,
) -> (f64, Vec<f64>) {
    let widths: Vec<f64> = (0..domain.dim())
        .map(|d| domain.upper()[d] - domain.lower()[d])
        .collect();
    let mut step = 1.0 / (per_dim - 1) as f64;
    while step > 1e-12 {
        let mut improved = false;
        for d in 0..x.len() {
            for sign in [1.0, -1.0] {
                let mut y = x.clone();
                y[d] = (y[d] + sign * step * widths[d]).clamp(domain.lower()[d], domain.upper()[d]);
                let v = value(&y);
                if v > best {
                    best = v;
                    x = y;
                    improved = true;
                }
            }
        }
        if !improved {
            step *= 0.5;
        }
    }
    (best, x)
}
