//! The closed-form worst case of a sample mean over a total-variation ball, shared by the CPU
//! backend and the tests of the GPU one.
//!
//! DRBO-KDE (Huang et al., AAAI 2024, Section 3.2) states the worst case as a dual over
//! `(α, β)` (Proposition 2) and solves it with a convex solver per decision. Substituting
//! `τ = α − β` leaves the concave, piecewise-linear `G(τ) = mean(min(u, τ)) − (δ/2)·max(0, τ − m)`
//! for the infimum `m`, whose maximiser is `τ* = max(m, u_(k+1))` with `u_(k+1)` the (k+1)-th
//! largest value and `k = ⌊δM/2⌋` (`τ* = m` when `k ≥ M`): one selection instead of a solver.

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
