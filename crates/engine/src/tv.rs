//! The closed-form worst case of a sample mean over a total-variation ball
//! (`specs/sbo-drbo-kde.md` §2.8), shared by the CPU backend and the tests of the GPU one.

/// `min_{q ∈ B(p̂, δ)} E_q[u]` for the empirical distribution of `values`, with the adversary's
/// extra atom at `min(infimum, min u)`: remove mass δ/2 from the largest values (a fraction of the
/// pivot if needed) and put it on that infimum. `delta` is in L1 units (twice the usual TV).
///
/// Reorders `values` (a selection, O(M)). `values` must be non-empty.
pub fn worst_case_tv(values: &mut [f64], delta: f64, infimum: f64) -> f64 {
    let m = values.len();
    let floor = values.iter().copied().fold(infimum, f64::min);
    let k = (delta * m as f64 / 2.0).floor();
    let tau = if k >= m as f64 {
        floor
    } else {
        let k = k as usize;
        let (_, pivot, _) = values.select_nth_unstable_by(k, |a, b| b.total_cmp(a));
        pivot.max(floor)
    };
    let clipped: f64 = values.iter().map(|u| u.min(tau)).sum();
    clipped / m as f64 - 0.5 * delta * (tau - floor)
}

#[cfg(test)]
mod tests {
    use super::worst_case_tv;

    #[test]
    fn zero_radius_is_the_mean() {
        let mut u = vec![3.0, 1.0, 2.0, 6.0];
        assert_eq!(worst_case_tv(&mut u, 0.0, -10.0), 3.0);
    }

    #[test]
    fn moves_half_delta_of_mass_from_the_top_to_the_infimum() {
        // M = 4, δ = 0.5: k = ⌊δM/2⌋ = 1, pivot u_(2) = 3, fraction k + 1 − δM/2 = 1.
        // Value = (1/4)[u_(3) + u_(4) + 1·u_(2)] + (δ/2)·m = (2 + 1 + 3)/4 + 0.25·(−1) = 1.25.
        let mut u = vec![1.0, 6.0, 3.0, 2.0];
        assert!((worst_case_tv(&mut u, 0.5, -1.0) - 1.25).abs() < 1e-15);
    }

    #[test]
    fn radius_two_puts_all_mass_on_the_infimum() {
        let mut u = vec![1.0, 6.0, 3.0, 2.0];
        assert_eq!(worst_case_tv(&mut u, 2.0, -1.0), -1.0);
        // An infimum above the samples is lowered to the smallest sample.
        let mut u = vec![1.0, 6.0, 3.0, 2.0];
        assert_eq!(worst_case_tv(&mut u, 2.5, 5.0), 1.0);
    }
}
