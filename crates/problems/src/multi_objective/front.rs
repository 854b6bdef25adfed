//! Points spread over fronts: evenly along an interval (the curves of two-objective fronts), and
//! over the two fronts that several DTLZ functions share, the simplex `Σ f_i = c, f ≥ 0` (DTLZ1)
//! and the positive orthant of the unit sphere (DTLZ2–DTLZ4).
//!
//! The points are the front's m extremes (where all objectives but one are zero), then points of
//! Roberts's R_d sequence (a Kronecker sequence on the generalised golden ratio) in the unit cube
//! of m − 1 dimensions, carried onto the simplex by stick-breaking, which maps the uniform
//! distribution on the cube to the uniform one on the simplex. Unlike Das and Dennis's simplex
//! lattice (BoTorch and pymoo's reference directions), this gives exactly `n` points for any `n`
//! and `m`, and distinct cube points give distinct simplex points, so no two samples coincide.
//! The extremes come first because the hypervolume of a sample lacking them falls short of the
//! front's by the slabs out to the reference point, which grow with it.

/// `n` evenly spaced values from `a` to `b`, both included exactly (`a` alone for `n = 1`): the
/// first half stepped from `a`, the second from `b`, as `torch.linspace` computes them.
pub(super) fn linspace(a: f64, b: f64, n: usize) -> Vec<f64> {
    let step = (b - a) / n.saturating_sub(1).max(1) as f64;
    (0..n)
        .map(|i| {
            if 2 * i < n {
                a + step * i as f64
            } else {
                b - step * (n - 1 - i) as f64
            }
        })
        .collect()
}

/// The first `n` points of Roberts's R_d sequence in `[0, 1)^d`: `frac(1/2 + k α)` for
/// `k = 0, …, n − 1`, with `α_j = φ_d^−j` (`j = 1, …, d`) and φ_d the positive root of
/// `x^(d+1) = x + 1` (the golden ratio for d = 1).
fn kronecker(n: usize, d: usize) -> Vec<Vec<f64>> {
    let phi = generalised_golden_ratio(d);
    let alpha: Vec<f64> = (1..=d).map(|j| phi.powf(-(j as f64))).collect();
    (0..n)
        .map(|k| alpha.iter().map(|a| (0.5 + k as f64 * a).fract()).collect())
        .collect()
}

/// φ_d by the fixed-point iteration `x ← (1 + x)^(1/(d+1))`, a contraction on `[1, 2]` that
/// settles to the last bit within a few dozen steps.
fn generalised_golden_ratio(d: usize) -> f64 {
    let exponent = 1.0 / (d as f64 + 1.0);
    let mut phi = 2.0_f64;
    for _ in 0..200 {
        let next = (1.0 + phi).powf(exponent);
        if next == phi {
            break;
        }
        phi = next;
    }
    phi
}

/// `n` points of the simplex `{w ∈ ℝ^m : w ≥ 0, Σ w = total}`, for `m ≥ 2`: its vertices
/// (as many as `n` allows), then R_d points.
///
/// Stick-breaking: coordinate i takes the share `1 − u_i^(1/(m−1−i))` of what the earlier ones
/// left, the inverse distribution function of the Beta(1, m − 1 − i) share that a uniform point
/// of the simplex gives it; the last coordinate takes the rest.
pub(super) fn simplex(n: usize, m: usize, total: f64) -> Vec<Vec<f64>> {
    let vertices = (0..m.min(n)).map(|i| {
        let mut w = vec![0.0; m];
        w[i] = total;
        w
    });
    let inner = kronecker(n.saturating_sub(m), m - 1).into_iter().map(|u| {
        let mut rest = 1.0;
        let mut w = Vec::with_capacity(m);
        for (i, ui) in u.iter().enumerate() {
            let kept = ui.powf(1.0 / (m - 1 - i) as f64);
            w.push(total * rest * (1.0 - kept));
            rest *= kept;
        }
        w.push(total * rest);
        w
    });
    vertices.chain(inner).collect()
}

/// `n` points of the unit sphere's positive orthant `{f ≥ 0 : Σ f_i² = 1}`: the simplex points
/// scaled to unit length (pymoo's `generic_sphere` on its reference directions), denser towards
/// the orthant's edges than at its centre, which the projection stretches most.
pub(super) fn sphere_orthant(n: usize, m: usize) -> Vec<Vec<f64>> {
    simplex(n, m, 1.0)
        .into_iter()
        .map(|w| {
            let norm = w.iter().map(|v| v * v).sum::<f64>().sqrt();
            w.into_iter().map(|v| v / norm).collect()
        })
        .collect()
}

/// The hypervolume, from the reference point `(r, …, r)` with `r ≥ 1`, of the unit sphere's
/// positive orthant in m objectives: the cube `r^m` less the orthant's share `V_m / 2^m` of the
/// unit ball (BoTorch's `DTLZ2._max_hv`), with `V_m = V_{m−2} · 2π/m` from `V_0 = 1`, `V_1 = 2`
/// (no Gamma function needed for whole m).
pub(super) fn sphere_orthant_hypervolume(r: f64, m: usize) -> f64 {
    let (first, start) = if m.is_multiple_of(2) {
        (0, 1.0)
    } else {
        (1, 2.0)
    };
    let ball = (first + 2..=m)
        .step_by(2)
        .fold(start, |v, k| v * 2.0 * std::f64::consts::PI / k as f64);
    r.powi(m as i32) - ball / 2f64.powi(m as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_includes_both_ends() {
        assert_eq!(linspace(0.0, 1.0, 5), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(linspace(0.2, 0.4, 1), vec![0.2]);
        assert!(linspace(0.0, 1.0, 0).is_empty());
    }

    #[test]
    fn the_golden_ratio_is_phi_1() {
        let golden = (1.0 + 5f64.sqrt()) / 2.0;
        assert!((generalised_golden_ratio(1) - golden).abs() < 1e-15);
        // φ_2 is the plastic number, the real root of x³ = x + 1.
        let plastic = generalised_golden_ratio(2);
        assert!((plastic.powi(3) - plastic - 1.0).abs() < 1e-14);
    }

    #[test]
    fn simplex_points_are_distinct_nonnegative_and_sum_to_the_total() {
        for m in 2..=5 {
            let points = simplex(200, m, 0.5);
            assert_eq!(points.len(), 200);
            for w in &points {
                assert_eq!(w.len(), m);
                assert!(w.iter().all(|&v| v >= 0.0), "{w:?}");
                assert!((w.iter().sum::<f64>() - 0.5).abs() < 1e-15, "{w:?}");
            }
            for (i, a) in points.iter().enumerate() {
                assert!(points[..i].iter().all(|b| b != a), "m = {m}: {a:?} twice");
            }
        }
    }

    /// The stick-breaking map is uniform: each coordinate's mean over the simplex is `total/m`.
    #[test]
    fn simplex_points_spread_evenly() {
        let m = 4;
        let points = simplex(20_000, m, 1.0);
        for i in 0..m {
            let mean = points.iter().map(|w| w[i]).sum::<f64>() / points.len() as f64;
            assert!((mean - 0.25).abs() < 2e-3, "coordinate {i}: mean {mean}");
        }
    }

    #[test]
    fn sphere_points_have_unit_length() {
        for w in sphere_orthant(100, 3) {
            assert!((w.iter().map(|v| v * v).sum::<f64>() - 1.0).abs() < 1e-15);
        }
    }

    /// The orthant's volumes for m = 1, 2, 3, 4: 1, π/4, π/6, π²/32.
    #[test]
    fn the_orthant_volumes_are_the_unit_balls_shares() {
        let pi = std::f64::consts::PI;
        for (m, volume) in [(1, 1.0), (2, pi / 4.0), (3, pi / 6.0), (4, pi * pi / 32.0)] {
            let got = 2f64.powi(m as i32) - sphere_orthant_hypervolume(2.0, m);
            assert!((got - volume).abs() < 1e-15, "m = {m}: {got} vs {volume}");
        }
    }
}
