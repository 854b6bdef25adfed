//! The CPU reference engine against values computed by hand from the formulas in `crates/model/src/`
//! and the test values of the papers' specifications.
use crate::common;

use bosweep::compute::{
    CpuEngine, Engine, EngineError, PairReduction, Points, Posterior, worst_case_tv,
};
use bosweep::model::{BandwidthRule, GpSpec, GpState, Kernel, KernelKind, Noise, SmoothingKernel};
use common::*;
use rand::RngExt;

fn pts(rows: &[&[f64]]) -> Points {
    Points::from_rows(rows).unwrap()
}

/// `|a − b| ≤ tol · max(1, |b|)`.
#[track_caller]
fn assert_close(a: f64, b: f64, tol: f64) {
    assert!(
        (a - b).abs() <= tol * b.abs().max(1.0),
        "{a} vs expected {b} (tol {tol:e})"
    );
}

#[track_caller]
fn assert_all_close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_close(*x, *y, tol);
    }
}

fn is_invalid<T: std::fmt::Debug>(r: Result<T, EngineError>) -> bool {
    matches!(r, Err(EngineError::InvalidInput(_)))
}

// ---------------------------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------------------------

/// Lengthscales ℓ = (0.5, 2.0) and signal variance s² = 2 throughout. The point pairs are chosen
/// so that the scaled squared distance r² = Σ_d ((a_d − b_d)/ℓ_d)² is a round number, and the
/// expected values are k = s² ψ(r²):
///
/// ```text
/// A: a = (0.1, 1.0), b = (0.4, −0.6): Δ/ℓ = (−0.3/0.5, 1.6/2) = (−0.6, 0.8), r² = 0.36 + 0.64 = 1
/// B: a = (0, 0),     b = (0.6, 3.2):  Δ/ℓ = (−1.2, −1.6),                  r² = 1.44 + 2.56 = 4
///
///                                   A (r = 1)                          B (r = 2)
/// SE  exp(−r²/2)                    2e^{−1/2} = 1.2130613194252668     2e^{−2} = 0.2706705664732254
/// M12 exp(−r)                       2e^{−1}   = 0.7357588823428847     2e^{−2} = 0.2706705664732254
/// M32 (1 + √3 r) e^{−√3 r}          2(1+√3)e^{−√3}                     2(1+2√3)e^{−2√3}
///                                             = 0.9667154491930154               = 0.27946270038462934
/// M52 (1 + √5 r + 5r²/3) e^{−√5 r}  2(1+√5+5/3)e^{−√5}                 2(1+2√5+20/3)e^{−2√5}
///                                             = 1.0479882176636406               = 0.27732043827700853
/// RQ α = 1/2: (1 + r²)^{−1/2}       2/√2 = √2 = 1.4142135623730951     2/√5 = 0.8944271909999159
/// RQ α = 2:   (1 + r²/4)^{−2}       2/1.25² = 1.28                     2/2² = 0.5
/// ```
#[test]
fn kernels_at_hand_computed_pairs() {
    let cpu = CpuEngine::new();
    let cases = [
        (
            KernelKind::SquaredExponential,
            1.2130613194252668,
            0.2706705664732254,
        ),
        (KernelKind::Matern12, 0.7357588823428847, 0.2706705664732254),
        (
            KernelKind::Matern32,
            0.9667154491930154,
            0.27946270038462934,
        ),
        (
            KernelKind::Matern52,
            1.0479882176636406,
            0.27732043827700853,
        ),
        (
            KernelKind::RationalQuadratic { alpha: 0.5 },
            std::f64::consts::SQRT_2,
            0.8944271909999159,
        ),
        (KernelKind::RationalQuadratic { alpha: 2.0 }, 1.28, 0.5),
    ];
    // Rows of a: A's a, B's a. Columns of b: A's b, B's b, A's a (so K[0, 2] has r² = 0: k = s²).
    let a = pts(&[&[0.1, 1.0], &[0.0, 0.0]]);
    let b = pts(&[&[0.4, -0.6], &[0.6, 3.2], &[0.1, 1.0]]);
    for (kind, k_a, k_b) in cases {
        let kernel = Kernel::new(kind, vec![0.5, 2.0], 2.0).unwrap();
        let k = cpu.cross_covariance(&kernel, &a, &b).unwrap();
        assert_eq!(k.shape(), (2, 3));
        // Round-off in Δ/ℓ makes r² = 1 + O(1e-16): relative 1e-14 leaves room for that only.
        assert_close(k[(0, 0)], k_a, 1e-14);
        assert_close(k[(1, 1)], k_b, 1e-14);
        assert_eq!(k[(0, 2)], 2.0, "{kind:?}: k(x, x) = s²");
        // The engine agrees with the model's own scalar evaluation everywhere, including the
        // off-diagonal entries: K[0,1]: Δ/ℓ = (−1, −1.1), r² = 2.21; K[1,0]: (−0.8, 0.3), 0.73.
        for i in 0..2 {
            for j in 0..3 {
                assert_close(k[(i, j)], kernel.eval(a.row(i), b.row(j)), 1e-14);
            }
        }
        let r2_01 = 1.0 + 1.1 * 1.1;
        assert_close(k[(0, 1)], 2.0 * kind.profile(r2_01), 1e-14);
        assert_eq!(kernel.diag(), 2.0);
    }
}

/// Time decay multiplies by (1 − ε)^{|Δt|/2}, the time being the last column. With the spatial
/// part of pair A (SE: 2e^{−1/2} = 1.2130613194252668) and ε = 0.19 (1 − ε = 0.81 = 0.9²):
/// Δt = 0 → 1, |Δt| = 1 → 0.9, |Δt| = 2 → 0.81, |Δt| = 4 → 0.81² = 0.6561, |Δt| = 0.5 → 0.9^{1/2}.
/// ε = 1 gives 0⁰ = 1 at Δt = 0 and 0 otherwise; ε = 0 gives 1 everywhere.
#[test]
fn time_decay_factor() {
    let cpu = CpuEngine::new();
    let spatial = 1.2130613194252668;
    let a = pts(&[&[0.1, 1.0, 3.0]]);
    let b = pts(&[
        &[0.4, -0.6, 3.0],
        &[0.4, -0.6, 2.0],
        &[0.4, -0.6, 5.0],
        &[0.4, -0.6, 7.0],
        &[0.4, -0.6, 3.5],
    ]);
    let cases: [(f64, [f64; 5]); 3] = [
        (0.19, [1.0, 0.9, 0.81, 0.6561, 0.9f64.sqrt()]),
        (1.0, [1.0, 0.0, 0.0, 0.0, 0.0]),
        (0.0, [1.0; 5]),
    ];
    for (eps, factors) in cases {
        let kernel = Kernel::new(KernelKind::SquaredExponential, vec![0.5, 2.0], 2.0)
            .unwrap()
            .with_time_decay(eps)
            .unwrap();
        assert_eq!(kernel.input_dim(), 3);
        assert_eq!(kernel.spatial_dim(), 2);
        let k = cpu.cross_covariance(&kernel, &a, &b).unwrap();
        for (j, f) in factors.iter().enumerate() {
            assert_close(k[(0, j)], spatial * f, 1e-14);
        }
        // The factor is symmetric in Δt.
        let kt = cpu.cross_covariance(&kernel, &b, &a).unwrap();
        assert_eq!(kt.transpose(), k);
    }
}

// ---------------------------------------------------------------------------------------------
// GP posterior
// ---------------------------------------------------------------------------------------------

/// One training point x₁ = 0, y₁ = 1.5, prior mean m = 0.5, SE with ℓ = 0.5, s² = 2, noise
/// σ² = 0.1:
///
/// ```text
/// K + λΣ = 2 + 0.1λ,  α = (y₁ − m)/(2 + 0.1λ) = 1/(2 + 0.1λ)
/// at x = 0.5: r² = 1, k = 2e^{−1/2} = 1.2130613194252668, k² = 4e^{−1} = 1.4715177646857693
///   λ = 1: μ = 0.5 + k/2.1 = 1.077648247345365,   σ² = 2 − k²/2.1     = 1.2992772549115386
///   λ = 2: μ = 0.5 + k/2.2 = 1.0513915088296666,  σ² = (2 − k²/2.2)/2 = 0.6655641443895979
/// at the training point (k = 2): μ = 0.5 + 2/(2 + 0.1λ),
///   σ² = (2 − 4/(2 + 0.1λ))/λ = 0.2/(2 + 0.1λ) = σ²s²/(s² + λσ²) ≤ σ²
///      = 0.09523809523809523 (λ = 1), 0.0909090909090909 (λ = 2)
/// ```
#[test]
fn posterior_one_point_by_hand() {
    let cpu = CpuEngine::new();
    let kernel = Kernel::new(KernelKind::SquaredExponential, vec![0.5], 2.0).unwrap();
    let cand = pts(&[&[0.5], &[0.0], &[-0.5]]);
    for (lambda, mu, var, mu0, var0) in [
        (
            1.0,
            1.077648247345365,
            1.2992772549115386,
            1.4523809523809523,
            0.09523809523809523,
        ),
        (
            2.0,
            1.0513915088296666,
            0.6655641443895979,
            1.4090909090909092,
            0.0909090909090909,
        ),
    ] {
        let gp = GpState::fit(
            pts(&[&[0.0]]),
            &[1.5],
            GpSpec::new(kernel.clone(), Noise::Homoscedastic(0.1))
                .mean(0.5)
                .lambda(lambda),
        )
        .unwrap();
        assert_eq!(gp.jitter(), 0.0);
        let post = cpu.posterior(&gp, &cand).unwrap();
        assert_all_close(&post.mean, &[mu, mu0, mu], 1e-14);
        assert_all_close(&post.variance, &[var, var0, var], 1e-14);
        assert!(post.variance[1] <= 0.1);
        let sd: Vec<f64> = post.std().collect();
        assert_close(sd[0], var.sqrt(), 1e-15);
    }
}

/// Two points x = (0, 1), y = (1, −1), m = 0, SE ℓ = 1, s² = 1, per-point noise (0.1, 0.3),
/// λ = 1.5. With c = e^{−1/2}: A = K + λΣ = [[1.15, c], [c, 1.45]], det = 1.6675 − c²,
/// A⁻¹ = [[1.45, −c], [−c, 1.15]]/det, α = A⁻¹y = ((1.45 + c), −(c + 1.15))/det.
/// For a query with k = (k₁, k₂): μ = k₁α₁ + k₂α₂ and
/// σ² = (1 − (1.45k₁² − 2ck₁k₂ + 1.15k₂²)/det)/λ.
/// - x = 0.5: k = (e^{−1/8}, e^{−1/8}): μ = 0.3e^{−1/8}/det = 0.203712590553366,
///   σ² = (1 − e^{−1/4}(2.6 − 2c)/det)/1.5 = 0.11258241329698045
/// - x = 2:   k = (e^{−2}, e^{−1/2}):   μ = −0.6056141041916309, σ² = 0.4871040527318136
#[test]
fn posterior_two_points_heteroscedastic_by_hand() {
    let cpu = CpuEngine::new();
    let kernel = Kernel::new(KernelKind::SquaredExponential, vec![1.0], 1.0).unwrap();
    let gp = GpState::fit(
        pts(&[&[0.0], &[1.0]]),
        &[1.0, -1.0],
        GpSpec::new(kernel, Noise::PerPoint(vec![0.1, 0.3])).lambda(1.5),
    )
    .unwrap();
    // The closed form, evaluated here independently of the literals above.
    let c = (-0.5f64).exp();
    let det = 1.15 * 1.45 - c * c;
    let alpha = [(1.45 + c) / det, -(c + 1.15) / det];
    let by_hand = |k1: f64, k2: f64| {
        let mu = k1 * alpha[0] + k2 * alpha[1];
        let var = (1.0 - (1.45 * k1 * k1 - 2.0 * c * k1 * k2 + 1.15 * k2 * k2) / det) / 1.5;
        (mu, var)
    };
    let (mu_a, var_a) = by_hand((-0.125f64).exp(), (-0.125f64).exp());
    let (mu_b, var_b) = by_hand((-2.0f64).exp(), c);
    assert_close(mu_a, 0.203712590553366, 1e-14);
    assert_close(var_a, 0.11258241329698045, 1e-14);
    assert_close(mu_b, -0.6056141041916309, 1e-14);
    assert_close(var_b, 0.4871040527318136, 1e-14);
    assert_close(gp.alpha()[0], alpha[0], 1e-14);
    assert_close(gp.alpha()[1], alpha[1], 1e-14);

    let post = cpu.posterior(&gp, &pts(&[&[0.5], &[2.0]])).unwrap();
    assert_all_close(&post.mean, &[mu_a, mu_b], 1e-14);
    assert_all_close(&post.variance, &[var_a, var_b], 1e-14);
}

/// With no data the posterior is the prior: μ = m, σ² = s²/λ (s² = 1.7, λ = 0.5: 3.4).
#[test]
fn posterior_without_data_is_the_prior() {
    let cpu = CpuEngine::new();
    let kernel = Kernel::new(KernelKind::Matern32, vec![0.3, 0.3], 1.7).unwrap();
    let gp = prior_gp(kernel, 2, -0.4, 0.5);
    let cand = uniform_points(&mut rng(1), 300, 2, -1.0, 1.0);
    let post = cpu.posterior(&gp, &cand).unwrap();
    assert!(post.mean.iter().all(|&m| m == -0.4));
    assert!(post.variance.iter().all(|&v| (v - 3.4).abs() < 1e-15));
    // No candidates: empty results.
    let none = cpu.posterior(&gp, &Points::empty(2).unwrap()).unwrap();
    assert!(none.mean.is_empty() && none.variance.is_empty());
}

/// With small noise σ² = 1e-8, at each training point the
/// variance lies in [0, σ²] (it is at most the one-point value σ²s²/(s² + λσ²) < σ², up to
/// round-off), and the mean satisfies μ(X) = m + Kα = y − (λΣ + jitter)α, since
/// (K + λΣ + jitter)α = y − m.
#[test]
fn posterior_at_training_points_with_small_noise() {
    let cpu = CpuEngine::new();
    let mut r = rng(2);
    for kind in kinds() {
        let x = uniform_points(&mut r, 30, 2, 0.0, 1.0);
        let y = smooth_targets(&mut r, &x);
        let kernel = Kernel::new(kind, vec![0.4, 0.6], 1.3).unwrap();
        let gp = GpState::fit(
            x.clone(),
            &y,
            GpSpec::new(kernel, Noise::Homoscedastic(1e-8)).mean(0.2),
        )
        .unwrap();
        let post = cpu.posterior(&gp, &x).unwrap();
        let alpha = gp.alpha();
        // Round-off in m + Σ_j K_ij α_j is relative to Σ_j |K_ij α_j| ≤ s² ‖α‖₁.
        let scale = 1.3 * alpha.iter().map(|a| a.abs()).sum::<f64>();
        for (i, (&v, &m)) in post.variance.iter().zip(&post.mean).enumerate() {
            assert!(
                (0.0..=1.01e-8).contains(&v),
                "{kind:?} point {i}: variance {v:e}"
            );
            let want = y[i] - (1e-8 + gp.jitter()) * alpha[i];
            assert!(
                (m - want).abs() <= 1e-13 * scale,
                "{kind:?} point {i}: mean {m} vs {want}"
            );
        }
    }
}

#[test]
fn posterior_batch_equals_single_calls() {
    let cpu = CpuEngine::new();
    let mut r = rng(3);
    let x1 = uniform_points(&mut r, 40, 3, 0.0, 1.0);
    let y1 = smooth_targets(&mut r, &x1);
    let gp1 = GpState::fit(
        x1,
        &y1,
        GpSpec::new(
            Kernel::new(KernelKind::Matern52, vec![0.3, 0.5, 0.7], 1.2).unwrap(),
            Noise::Homoscedastic(1e-3),
        ),
    )
    .unwrap();
    let x2 = uniform_points(&mut r, 7, 3, 0.0, 1.0);
    let y2 = smooth_targets(&mut r, &x2);
    let gp2 = GpState::fit(
        x2,
        &y2,
        GpSpec::new(
            Kernel::new(
                KernelKind::RationalQuadratic { alpha: 1.5 },
                vec![0.2, 0.2, 0.9],
                0.6,
            )
            .unwrap(),
            Noise::PerPoint(vec![0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07]),
        )
        .mean(1.0)
        .lambda(2.0),
    )
    .unwrap();
    let cand = uniform_points(&mut r, 700, 3, 0.0, 1.0);
    let batch = cpu.posterior_batch(&[&gp1, &gp2], &cand).unwrap();
    assert_eq!(
        batch,
        vec![
            cpu.posterior(&gp1, &cand).unwrap(),
            cpu.posterior(&gp2, &cand).unwrap()
        ]
    );
    assert_ne!(batch[0], batch[1]);
    assert!(cpu.posterior_batch(&[], &cand).unwrap().is_empty());
}

// ---------------------------------------------------------------------------------------------
// Pair reductions and the TV worst case
// ---------------------------------------------------------------------------------------------

/// A GP on (decision, context) = 2 + 1 columns, the decisions and the contexts.
fn pair_setup(seed: u64, rows: usize, samples: usize) -> (GpState, Points, Points) {
    let mut r = rng(seed);
    let x = uniform_points(&mut r, 20, 3, 0.0, 1.0);
    let y = smooth_targets(&mut r, &x);
    let kernel = Kernel::new(KernelKind::SquaredExponential, vec![0.4, 0.5, 0.3], 1.1).unwrap();
    let gp = GpState::fit(
        x,
        &y,
        GpSpec::new(kernel, Noise::Homoscedastic(1e-2))
            .mean(0.1)
            .lambda(1.2),
    )
    .unwrap();
    (
        gp,
        uniform_points(&mut r, rows, 2, 0.0, 1.0),
        uniform_points(&mut r, samples, 1, 0.0, 1.0),
    )
}

/// `u_j = μ(x, c_j) + β σ(x, c_j)` for every decision, via `posterior` on the joint points.
fn ucb_rows(gp: &GpState, dec: &Points, ctx: &Points, beta: f64) -> Vec<Vec<f64>> {
    let joint: Vec<Vec<f64>> = dec
        .iter()
        .flat_map(|x| ctx.iter().map(move |c| [x, c].concat()))
        .collect();
    let Posterior { mean, variance } = CpuEngine::new()
        .posterior(gp, &Points::from_rows(&joint).unwrap())
        .unwrap();
    let u: Vec<f64> = mean
        .iter()
        .zip(&variance)
        .map(|(m, v)| m + beta * v.sqrt())
        .collect();
    u.chunks(ctx.rows()).map(<[f64]>::to_vec).collect()
}

#[test]
fn pair_values_equal_explicit_joint_points() {
    let cpu = CpuEngine::new();
    let beta = 1.7;
    for (rows, samples) in [(5, 7), (1, 1), (3, 300)] {
        let (gp, dec, ctx) = pair_setup(9, rows, samples);
        let want: Vec<f64> = ucb_rows(&gp, &dec, &ctx, beta).concat();
        let got = cpu.pair_values(&gp, &dec, &ctx, beta).unwrap();
        assert_all_close(&got, &want, 1e-13);
    }
    let (gp, dec, _) = pair_setup(9, 2, 1);
    let none = Points::new(Vec::new(), 1).unwrap();
    let err = cpu.pair_values(&gp, &dec, &none, beta).unwrap_err();
    assert!(
        err.to_string().contains("at least one context sample"),
        "{err}"
    );
    let wide = uniform_points(&mut rng(1), 2, 2, 0.0, 1.0);
    let err = cpu.pair_values(&gp, &dec, &wide, beta).unwrap_err();
    assert!(err.to_string().contains("columns"), "{err}");
}

#[test]
fn pair_reduce_equals_explicit_joint_points() {
    let cpu = CpuEngine::new();
    let beta = 1.7;
    for (rows, samples) in [(5, 7), (1, 1), (3, 300)] {
        let (gp, dec, ctx) = pair_setup(4, rows, samples);
        let u = ucb_rows(&gp, &dec, &ctx, beta);
        let mean: Vec<f64> = u
            .iter()
            .map(|r| r.iter().sum::<f64>() / samples as f64)
            .collect();
        let min: Vec<f64> = u
            .iter()
            .map(|r| r.iter().copied().fold(f64::INFINITY, f64::min))
            .collect();
        assert_all_close(
            &cpu.pair_reduce(&gp, &dec, &ctx, beta, PairReduction::Mean)
                .unwrap(),
            &mean,
            1e-13,
        );
        assert_all_close(
            &cpu.pair_reduce(&gp, &dec, &ctx, beta, PairReduction::Min)
                .unwrap(),
            &min,
            1e-13,
        );

        // Infima below every sample, and above every sample (then the floor is min u).
        let lowest = min.iter().copied().fold(f64::INFINITY, f64::min);
        let highest = u
            .iter()
            .flatten()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let below = vec![lowest - 1.0; rows];
        let above = vec![highest + 1.0; rows];
        for infimum in [&below, &above] {
            let tv = |delta| {
                cpu.pair_reduce(
                    &gp,
                    &dec,
                    &ctx,
                    beta,
                    PairReduction::WorstCaseTv { delta, infimum },
                )
                .unwrap()
            };
            let deltas: Vec<f64> = (0..=60).map(|i| i as f64 * 0.05).collect();
            let values: Vec<Vec<f64>> = deltas.iter().map(|&d| tv(d)).collect();
            for (d, got) in deltas.iter().zip(&values) {
                let want: Vec<f64> = u
                    .iter()
                    .zip(infimum)
                    .map(|(r, &inf)| worst_case_tv(&mut r.clone(), *d, inf))
                    .collect();
                assert_all_close(got, &want, 1e-13);
            }
            // Properties of the closed form: δ = 0 is the mean; non-increasing in δ; ≤ the mean;
            // δ ≥ 2 puts all mass on the floor min(infimum, min u).
            assert_all_close(&values[0], &mean, 1e-14);
            for i in 0..rows {
                let floor = infimum[i].min(min[i]);
                for w in values.windows(2) {
                    assert!(w[1][i] <= w[0][i] + 1e-14, "not non-increasing in δ");
                }
                for (d, v) in deltas.iter().zip(&values) {
                    assert!(v[i] <= mean[i] + 1e-14);
                    if *d >= 2.0 {
                        assert_close(v[i], floor, 1e-14);
                    }
                }
            }
        }
    }
}

/// An independent, LP-free evaluation of min over the L1 ball: start from the empirical
/// distribution, then move mass from the atoms with the largest values, in decreasing order
/// and at most 1/M each, onto an extra atom at floor = min(infimum, min u), until δ/2 of mass
/// (all of it when δ ≥ 2) has moved.
fn brute_worst_case(values: &[f64], delta: f64, infimum: f64) -> f64 {
    let m = values.len() as f64;
    let floor = values.iter().copied().fold(infimum, f64::min);
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| b.partial_cmp(a).unwrap());
    let mut budget = (delta / 2.0).min(1.0);
    let mut value = values.iter().sum::<f64>() / m;
    for u in sorted {
        let take = budget.min(1.0 / m);
        value += take * (floor - u);
        budget -= take;
    }
    value
}

/// The closed form's table for u = (1, …, 10), M = 10 (mean 5.5): mass δ/2 leaves the largest
/// values, at most 1/M = 0.1 from each, for the floor min(m, min u).
///
/// ```text
///   m    δ    moved                          value
///   0  0.2  0.1 from 10                    5.5 − 1.0 + 0.1·0               =  4.5
///   0  0.5  0.1 from 10 and 9, 0.05 from 8 5.5 − 1.0 − 0.9 − 0.4 + 0.25·0  =  3.2
///   1  0.2  0.1 from 10                    5.5 − 1.0 + 0.1·1               =  4.6
///  −5  1.0  0.1 from each of 10, …, 6      5.5 − 4.0 + 0.5·(−5)            = −1.0
///   0  2.0  all of it                      0                               =  0.0
///   0  0    nothing                        5.5                             =  5.5
///  12  0.2  0.1 from 10, onto min(12, 1)   5.5 − 1.0 + 0.1·1               =  4.6
///  12  2.5  all of it, onto min(12, 1)     1                               =  1.0
/// ```
#[test]
fn worst_case_tv_table() {
    let u: Vec<f64> = (1..=10).map(f64::from).collect();
    for (m, delta, want) in [
        (0.0, 0.2, 4.5),
        (0.0, 0.5, 3.2),
        (1.0, 0.2, 4.6),
        (-5.0, 1.0, -1.0),
        (0.0, 2.0, 0.0),
        (0.0, 0.0, 5.5),
        (12.0, 0.2, 4.6),
        (12.0, 2.5, 1.0),
    ] {
        assert_close(worst_case_tv(&mut u.clone(), delta, m), want, 1e-14);
        // The brute-force evaluation the randomised test below trusts gives the same table.
        assert_close(brute_worst_case(&u, delta, m), want, 1e-14);
    }
}

#[test]
fn worst_case_tv_matches_brute_force() {
    let mut r = rng(5);
    for instance in 0..3000 {
        let m = r.random_range(1..=40usize);
        // Every third instance draws from five values only, so ties are frequent.
        let values: Vec<f64> = if instance % 3 == 0 {
            (0..m)
                .map(|_| f64::from(r.random_range(0..5u32)) * 0.5 - 1.0)
                .collect()
        } else {
            uniform_values(&mut r, m, -20.0, 20.0)
        };
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let infimum = match instance % 4 {
            0 => lo - r.random_range(0.0..5.0),
            1 => lo,
            2 => r.random_range(lo..=hi),
            _ => hi + 1.0,
        };
        // Random radii, and the breakpoints δ = 2j/M where the pivot changes.
        let delta = if instance % 2 == 0 {
            r.random_range(0.0..3.0)
        } else {
            2.0 * r.random_range(0..=m + 1) as f64 / m as f64
        };
        let got = worst_case_tv(&mut values.clone(), delta, infimum);
        let want = brute_worst_case(&values, delta, infimum);
        let scale = values.iter().fold(infimum.abs(), |a, v| a.max(v.abs()));
        assert!(
            (got - want).abs() <= 1e-13 * scale.max(1.0),
            "instance {instance}: {got} vs {want} (M = {m}, δ = {delta}, infimum = {infimum})"
        );
        // Positive-affine equivariance: V(a·u + b, a·m + b) = a·V + b.
        let moved: Vec<f64> = values.iter().map(|v| 2.5 * v - 3.0).collect();
        let v2 = worst_case_tv(&mut moved.clone(), delta, 2.5 * infimum - 3.0);
        assert!((v2 - (2.5 * got - 3.0)).abs() <= 1e-12 * scale.max(1.0));
    }
}

// ---------------------------------------------------------------------------------------------
// KDE
// ---------------------------------------------------------------------------------------------

fn phi(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// p̂(q) = (1/Σw) Σ_i w_i Π_d φ((q_d − c_id)/h_d)/h_d, with φ(0) = 0.3989422804014327,
/// φ(1) = 0.24197072451914337, φ(2) = 0.05399096651318806.
/// - 1-D, data {0, 1}, h = 0.5: q = 0: z = (0, −2), p̂ = (φ(0) + φ(2))/(2·0.5) = 0.4529332469146208;
///   weights (1, 3): p̂ = (φ(0) + 3φ(2))/(4·0.5) = 0.2804575899704984;
///   q = 0.5: z = (1, −1), p̂ = 2φ(1)/(2·0.5) = 0.48394144903828673.
/// - 2-D, data {(0,0), (1,2)}, h = (0.5, 1): q = (0.5, 1): z = ±(1, 1), p̂ = φ(1)²/0.5
///   = 0.11709966304863834; weights (1, 3), q = (0, 0): z = (0,0), (−2,−2),
///   p̂ = (φ(0)²/0.5 + 3φ(2)²/0.5)/4 = 0.08395000824348997.
#[test]
fn kde_hand_values() {
    let cpu = CpuEngine::new();
    let data = pts(&[&[0.0], &[1.0]]);
    let q = pts(&[&[0.0], &[0.5]]);
    let p = cpu.kde_density(&data, &[0.5], None, &q).unwrap();
    assert_all_close(&p, &[0.4529332469146208, 0.48394144903828673], 1e-14);
    assert_close(p[0], phi(0.0) + phi(2.0), 1e-14);
    let pw = cpu
        .kde_density(&data, &[0.5], Some(&[1.0, 3.0]), &q)
        .unwrap();
    assert_close(pw[0], 0.2804575899704984, 1e-14);
    assert_close(pw[1], 0.48394144903828673, 1e-14);
    // Scaling all weights changes nothing; a zero weight removes a point.
    assert_all_close(
        &cpu.kde_density(&data, &[0.5], Some(&[2.0, 6.0]), &q)
            .unwrap(),
        &pw,
        1e-15,
    );
    let p0 = cpu
        .kde_density(&data, &[0.5], Some(&[1.0, 0.0]), &q)
        .unwrap();
    assert_all_close(&p0, &[2.0 * phi(0.0), 2.0 * phi(1.0)], 1e-14);

    let data2 = pts(&[&[0.0, 0.0], &[1.0, 2.0]]);
    let q2 = pts(&[&[0.5, 1.0], &[0.0, 0.0]]);
    let p2 = cpu.kde_density(&data2, &[0.5, 1.0], None, &q2).unwrap();
    assert_close(p2[0], 0.11709966304863834, 1e-14);
    let p2w = cpu
        .kde_density(&data2, &[0.5, 1.0], Some(&[1.0, 3.0]), &q2)
        .unwrap();
    assert_close(p2w[1], 0.08395000824348997, 1e-14);
    let lp = cpu
        .kde_log_density(&data2, &[0.5, 1.0], Some(&[1.0, 3.0]), &q2)
        .unwrap();
    assert_close(lp[1], 0.08395000824348997f64.ln(), 1e-14);
}

/// Silverman bandwidths and densities of SBO-KDE's KDE (Huang et al., AAAI 2024, Eq. 2) on a
/// 1-D and a 2-D context set, against independently computed values to six decimals.
#[test]
fn kde_hand_computed_values() {
    let cpu = CpuEngine::new();
    let c1 = pts(&[&[0.2], &[0.4], &[0.6], &[0.8]]);
    let h1 = BandwidthRule::Silverman.bandwidths(&c1).unwrap();
    assert!((h1[0] - 0.179498).abs() < 5e-7);
    let p1 = cpu
        .kde_density(&c1, &h1, None, &pts(&[&[0.5], &[0.0]]))
        .unwrap();
    assert!(
        (p1[0] - 1.226484).abs() < 5e-7 && (p1[1] - 0.347183).abs() < 5e-7,
        "{p1:?}"
    );

    let c2 = pts(&[
        &[0.1, 0.9],
        &[0.3, 0.5],
        &[0.5, 0.5],
        &[0.7, 0.1],
        &[0.9, 0.5],
    ]);
    let h2 = BandwidthRule::Silverman.bandwidths(&c2).unwrap();
    assert!(
        (h2[0] - 0.216297).abs() < 5e-7 && (h2[1] - 0.193462).abs() < 5e-7,
        "{h2:?}"
    );
    let p2 = cpu
        .kde_density(&c2, &h2, None, &pts(&[&[0.5, 0.5]]))
        .unwrap();
    assert!((p2[0] - 1.469087).abs() < 5e-7, "{p2:?}");
}

/// In d = 200 with h = 0.05 every exp(−½Σz²) underflows (Σz² is in the thousands), yet the
/// log density is exact: compare with a log-sum-exp written out here.
#[test]
fn kde_high_dimension_log_density() {
    let cpu = CpuEngine::new();
    let mut r = rng(6);
    let d = 200;
    let data = uniform_points(&mut r, 5, d, 0.0, 1.0);
    let q = uniform_points(&mut r, 3, d, 0.0, 1.0);
    let h: Vec<f64> = (0..d).map(|i| 0.05 + 0.0001 * i as f64).collect();
    let w = [1.0, 0.5, 2.0, 0.0, 3.0];
    let got = cpu.kde_log_density(&data, &h, Some(&w), &q).unwrap();
    let dens = cpu.kde_density(&data, &h, Some(&w), &q).unwrap();
    for (qi, x) in q.iter().enumerate() {
        // e_i = ln w_i − ½ Σ_d ((q_d − c_id)/h_d)²
        let e: Vec<f64> = data
            .iter()
            .zip(&w)
            .map(|(c, wi)| {
                let s: f64 = x
                    .iter()
                    .zip(c)
                    .zip(&h)
                    .map(|((a, b), h)| ((a - b) / h).powi(2))
                    .sum();
                wi.ln() - 0.5 * s
            })
            .collect();
        assert!(
            e.iter().all(|e| e.exp() == 0.0),
            "naive exp should underflow here"
        );
        let top = e.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lse = top + e.iter().map(|v| (v - top).exp()).sum::<f64>().ln();
        let log_norm = w.iter().sum::<f64>().ln()
            + h.iter().map(|h| h.ln()).sum::<f64>()
            + 0.5 * d as f64 * (2.0 * std::f64::consts::PI).ln();
        let want = lse - log_norm;
        assert!(want.is_finite() && want < -1000.0);
        assert_close(got[qi], want, 1e-13);
        assert_eq!(dens[qi], 0.0);
    }
}

// ---------------------------------------------------------------------------------------------
// Kernel regression (BOKE's Nadaraya–Watson mean and unnormalised KDE W, Zhu et al., Eqs. 3.1
// and 3.9): reference cases T1–T4 with hand-computed values
// ---------------------------------------------------------------------------------------------

const BOKE_U: [f64; 4] = [0.1, 0.4, 0.5, 0.9];
const BOKE_Y: [f64; 4] = [1.0, 3.0, 2.0, 0.0];

fn boke_data() -> Points {
    Points::new(BOKE_U.to_vec(), 1).unwrap()
}

#[test]
fn kernel_regression_gaussian_hand_computed_values() {
    let cpu = CpuEngine::new();
    // T1: h = 0.2. Table columns u, W, m.
    let table = [
        (0.45, 2.2342911445, 2.2657885709),
        (0.0, 1.0618091847, 1.2962560876),
        (0.3, 2.1066672185, 2.1204500870),
        (0.7, 1.5488227833, 1.4192248085),
        (1.0, 0.9375828980, 0.1293122159),
    ];
    let q = Points::new(table.iter().map(|t| t.0).collect(), 1).unwrap();
    let kr = cpu
        .kernel_regression(&boke_data(), &BOKE_Y, SmoothingKernel::Gaussian, 0.2, &q)
        .unwrap();
    for (i, (_, w, m)) in table.iter().enumerate() {
        assert!((kr.mean[i] - m).abs() < 1e-9, "m: {} vs {m}", kr.mean[i]);
        assert!(
            (kr.log_weight_sum[i].exp() - w).abs() < 1e-9,
            "W: {} vs {w}",
            kr.log_weight_sum[i].exp()
        );
    }
    // At u = 0.45 by hand: k_i = exp(−(u − u_i)²/(2·0.04)) and Σ k_i y_i = 5.0624313392.
    let k: Vec<f64> = BOKE_U
        .iter()
        .map(|x| (-(0.45f64 - x).powi(2) / 0.08).exp())
        .collect();
    let w: f64 = k.iter().sum();
    let wy: f64 = k.iter().zip(BOKE_Y).map(|(k, y)| k * y).sum();
    assert!((wy - 5.0624313392).abs() < 1e-9);
    assert_close(kr.mean[0], wy / w, 1e-14);
    assert_close(kr.log_weight_sum[0], w.ln(), 1e-14);

    // T3: 2-D, U = {(0,0), (1,0), (0,1)}, y = (1, 2, 3), h = 0.5. At (0.5, 0.5) every
    // ‖u − u_i‖² = 0.5, so k_i = e^{−1}: m = 2, W = 3e^{−1}.
    let u2 = pts(&[&[0.0, 0.0], &[1.0, 0.0], &[0.0, 1.0]]);
    let q2 = pts(&[&[0.5, 0.5], &[0.2, 0.7]]);
    let kr2 = cpu
        .kernel_regression(&u2, &[1.0, 2.0, 3.0], SmoothingKernel::Gaussian, 0.5, &q2)
        .unwrap();
    assert_close(kr2.mean[0], 2.0, 1e-14);
    assert_close(kr2.log_weight_sum[0], (3.0f64).ln() - 1.0, 1e-14);
    assert!((kr2.mean[1] - 2.3475001325).abs() < 1e-9);
    assert!((kr2.log_weight_sum[1].exp() - 1.2218578809).abs() < 1e-9);
}

/// T2: h = 1e-3 gives the nearest-neighbour average without 0/0. ln W(0.3) = −0.1²/(2·1e-6)
/// = −5000 (the next point is 1e4 further down in log space); at 0.45 the two nearest points
/// tie: m = (3 + 2)/2, ln W = −0.05²/(2·1e-6) + ln 2 = −1250 + ln 2 = −1249.30685281944.
#[test]
fn kernel_regression_tiny_bandwidth_is_nearest_neighbour() {
    let cpu = CpuEngine::new();
    let q = pts(&[&[0.3], &[0.45], &[0.72], &[0.2]]);
    let kr = cpu
        .kernel_regression(&boke_data(), &BOKE_Y, SmoothingKernel::Gaussian, 1e-3, &q)
        .unwrap();
    assert_all_close(&kr.mean, &[3.0, 2.5, 0.0, 1.0], 1e-12);
    assert_close(kr.log_weight_sum[0], -5000.0, 1e-12);
    assert_close(kr.log_weight_sum[1], -1250.0 + 2f64.ln(), 1e-12);
    assert!(
        kr.mean
            .iter()
            .chain(&kr.log_weight_sum)
            .all(|v| v.is_finite())
    );
}

/// T4: compact kernels, h = 0.05. At 0.3 and 0.7 no point is within h: W = 0 (ln W = −∞) and m
/// falls back to the nearest neighbours (0.4 → 3; the 0.5/0.9 tie at 0.7 → (2 + 0)/2 = 1). At
/// 0.93 only 0.9 is within h: z = 0.03/0.05 = 0.6, Epanechnikov W = 1 − 0.36 = 0.64,
/// Uniform W = 1, m = 0.
#[test]
fn kernel_regression_compact_kernels_and_empty_neighbourhoods() {
    let cpu = CpuEngine::new();
    let q = pts(&[&[0.3], &[0.7], &[0.93]]);
    for (kernel, w) in [
        (SmoothingKernel::Epanechnikov, 0.64),
        (SmoothingKernel::Uniform, 1.0),
    ] {
        let kr = cpu
            .kernel_regression(&boke_data(), &BOKE_Y, kernel, 0.05, &q)
            .unwrap();
        assert_all_close(&kr.mean, &[3.0, 1.0, 0.0], 1e-12);
        assert_eq!(kr.log_weight_sum[0], f64::NEG_INFINITY);
        assert_eq!(kr.log_weight_sum[1], f64::NEG_INFINITY);
        assert_close(kr.log_weight_sum[2], f64::ln(w), 1e-12);
    }
    // The smoothing kernels themselves, Ψ(0) = 1.
    assert_eq!(SmoothingKernel::Epanechnikov.weight(0.36), 0.64);
    assert_eq!(SmoothingKernel::Uniform.weight(1.0), 1.0);
    assert_eq!(SmoothingKernel::Uniform.weight(1.0 + 1e-12), 0.0);
    assert_eq!(SmoothingKernel::Gaussian.weight(0.0), 1.0);
}

// ---------------------------------------------------------------------------------------------
// Nearest, top-k, arg-max
// ---------------------------------------------------------------------------------------------

/// UHE-BO's pseudo-labels take the y of the nearest observation: D = {(0.1, 1.0), (0.9, −1.0)},
/// x′ = (0.2, 0.45, 0.55, 0.8) → (0, 0, 1, 1); x′ = 0.5 is equidistant (0.5 − 0.1 == 0.9 − 0.5
/// == 0.4 in f64) → index 0.
#[test]
fn nearest_ties_go_to_the_lowest_index() {
    let cpu = CpuEngine::new();
    let d = pts(&[&[0.1], &[0.9]]);
    let q = pts(&[&[0.2], &[0.45], &[0.55], &[0.8], &[0.5]]);
    assert_eq!(0.5 - 0.1, 0.9 - 0.5);
    assert_eq!(cpu.nearest(&d, &q).unwrap(), vec![0, 0, 1, 1, 0]);
    // Reversed order: the tie now goes to the other point, still the lowest index.
    let d_rev = pts(&[&[0.9], &[0.1]]);
    assert_eq!(cpu.nearest(&d_rev, &q).unwrap(), vec![1, 1, 0, 0, 0]);
    // Duplicate data points and a 2-D tie.
    let d2 = pts(&[&[1.0, 1.0], &[0.0, 0.0], &[1.0, 1.0], &[-1.0, 1.0]]);
    let q2 = pts(&[&[0.9, 0.9], &[0.0, 1.0], &[0.0, 0.0]]);
    assert_eq!(cpu.nearest(&d2, &q2).unwrap(), vec![0, 0, 1]);
    assert!(
        cpu.nearest(&d2, &Points::empty(2).unwrap())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn top_k_order_and_ties() {
    let cpu = CpuEngine::new();
    let v = [0.5, 2.0, -1.0, 2.0, 0.5, 3.0];
    assert_eq!(cpu.top_k(&v, 1).unwrap(), vec![5]);
    assert_eq!(cpu.top_k(&v, 3).unwrap(), vec![5, 1, 3]);
    assert_eq!(cpu.top_k(&v, 4).unwrap(), vec![5, 1, 3, 0]);
    assert_eq!(cpu.top_k(&v, 6).unwrap(), vec![5, 1, 3, 0, 4, 2]);
    assert_eq!(cpu.top_k(&v, 100).unwrap(), vec![5, 1, 3, 0, 4, 2]);
    assert!(cpu.top_k(&v, 0).unwrap().is_empty());
    assert!(cpu.top_k(&[], 3).unwrap().is_empty());
    assert_eq!(
        cpu.top_k(&[f64::NEG_INFINITY, 1.0, f64::INFINITY], 3)
            .unwrap(),
        vec![2, 1, 0]
    );
    assert_eq!(cpu.argmax(&v).unwrap(), 5);
    assert_eq!(cpu.argmax(&[1.0, 3.0, 3.0, 2.0]).unwrap(), 1);
    assert_eq!(cpu.argmax(&[7.0]).unwrap(), 0);
    assert_eq!(cpu.argmax(&[-1.0, -1.0]).unwrap(), 0);
    assert!(is_invalid(cpu.top_k(&[1.0, f64::NAN], 1)));
    assert!(is_invalid(cpu.argmax(&[f64::NAN])));
    assert!(is_invalid(cpu.argmax(&[])));
    // Many ties across a long array: indices of the maximum in increasing order.
    let long: Vec<f64> = (0..5000).map(|i| f64::from(i % 7)).collect();
    let top = cpu.top_k(&long, 10).unwrap();
    assert_eq!(top, (0..10).map(|j| 6 + 7 * j).collect::<Vec<_>>());
}

// ---------------------------------------------------------------------------------------------
// Invalid inputs
// ---------------------------------------------------------------------------------------------

#[test]
fn invalid_inputs_are_rejected() {
    assert_rejects_invalid_inputs(&CpuEngine::new());

    // Points and model constructors validate their own values.
    assert!(is_invalid(Points::new(vec![0.0, f64::NAN], 1)));
    assert!(is_invalid(Points::new(vec![0.0, f64::INFINITY], 2)));
    assert!(is_invalid(Points::new(vec![0.0, 1.0, 2.0], 2)));
    assert!(is_invalid(Points::new(vec![], 0)));
    assert!(is_invalid(Points::from_rows(&[vec![0.0, 1.0], vec![2.0]])));
    let se = KernelKind::SquaredExponential;
    assert!(is_invalid(Kernel::new(se, vec![0.5, 0.0], 1.0)));
    assert!(is_invalid(Kernel::new(se, vec![-0.5], 1.0)));
    assert!(is_invalid(Kernel::new(se, vec![f64::NAN], 1.0)));
    assert!(is_invalid(Kernel::new(se, vec![], 1.0)));
    assert!(is_invalid(Kernel::new(se, vec![1.0], 0.0)));
    assert!(is_invalid(Kernel::new(
        KernelKind::RationalQuadratic { alpha: 0.0 },
        vec![1.0],
        1.0
    )));
    let k = Kernel::new(se, vec![1.0], 1.0).unwrap();
    assert!(is_invalid(k.clone().with_time_decay(1.5)));
    assert!(is_invalid(k.clone().with_time_decay(-0.1)));
    let x = pts(&[&[0.0], &[1.0]]);
    let fit = |y: &[f64], noise: Noise, lambda: f64| {
        GpState::fit(
            x.clone(),
            y,
            GpSpec::new(k.clone(), noise.clone()).lambda(lambda),
        )
    };
    assert!(is_invalid(fit(&[1.0], Noise::Homoscedastic(0.1), 1.0)));
    assert!(is_invalid(fit(
        &[1.0, f64::NAN],
        Noise::Homoscedastic(0.1),
        1.0
    )));
    assert!(is_invalid(fit(
        &[1.0, 2.0],
        Noise::Homoscedastic(-0.1),
        1.0
    )));
    assert!(is_invalid(fit(
        &[1.0, 2.0],
        Noise::PerPoint(vec![0.1]),
        1.0
    )));
    assert!(is_invalid(fit(
        &[1.0, 2.0],
        Noise::PerPoint(vec![0.1, -1.0]),
        1.0
    )));
    assert!(is_invalid(fit(&[1.0, 2.0], Noise::Homoscedastic(0.1), 0.0)));
    assert!(is_invalid(GpState::fit(
        pts(&[&[0.0, 1.0]]),
        &[1.0],
        GpSpec::new(k.clone(), Noise::Homoscedastic(0.1))
    )));
}

// ---------------------------------------------------------------------------------------------
// Thread-count independence
// ---------------------------------------------------------------------------------------------

/// Fits and evaluates everything inside a rayon pool of `threads` threads.
fn run_in_pool(threads: usize) -> (Posterior, Vec<f64>, Vec<f64>, Vec<usize>) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let cpu = CpuEngine::new();
        let mut r = rng(7);
        // n = 300 > one 128-row panel of L⁻¹; m = 1000 spans several 256-candidate blocks.
        let x = uniform_points(&mut r, 300, 3, 0.0, 1.0);
        let y = smooth_targets(&mut r, &x);
        let kernel = Kernel::new(KernelKind::Matern52, vec![0.3, 0.4, 0.5], 1.4).unwrap();
        let gp = GpState::fit(
            x.clone(),
            &y,
            GpSpec::new(kernel, Noise::Homoscedastic(1e-3)).mean(0.1),
        )
        .unwrap();
        let cand = uniform_points(&mut r, 1000, 3, 0.0, 1.0);
        let post = cpu.posterior(&gp, &cand).unwrap();
        let dec = uniform_points(&mut r, 100, 2, 0.0, 1.0);
        let ctx = uniform_points(&mut r, 50, 1, 0.0, 1.0);
        let inf = vec![-1.0; 100];
        let pair = cpu
            .pair_reduce(
                &gp,
                &dec,
                &ctx,
                2.0,
                PairReduction::WorstCaseTv {
                    delta: 0.4,
                    infimum: &inf,
                },
            )
            .unwrap();
        let kde = cpu
            .kde_log_density(&x, &[0.1, 0.2, 0.3], None, &cand)
            .unwrap();
        let near = cpu.nearest(&x, &cand).unwrap();
        (post, pair, kde, near)
    })
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let one = run_in_pool(1);
    let two = run_in_pool(2);
    // Bit-for-bit: compare the f64 bit patterns, not just values.
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&one.0.mean), bits(&two.0.mean));
    assert_eq!(bits(&one.0.variance), bits(&two.0.variance));
    assert_eq!(bits(&one.1), bits(&two.1));
    assert_eq!(bits(&one.2), bits(&two.2));
    assert_eq!(one.3, two.3);
    assert_eq!(bits(&one.0.mean), bits(&run_in_pool(3).0.mean));
}

/// DRBO-KDE's infimum values must be finite and one per decision: an infinite one meets a zero
/// weight when δ ≥ 2 and gives 0·∞ = NaN (found by fuzzing), so it is refused with its index.
#[test]
fn worst_case_infimum_values_must_be_finite_and_one_per_decision() {
    let cpu = CpuEngine::new();
    let mut r = rng(11);
    let x = uniform_points(&mut r, 6, 2, 0.0, 1.0);
    let y = smooth_targets(&mut r, &x);
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.3, 0.4], 1.0).unwrap();
    let gp = GpState::fit(x, &y, GpSpec::new(kernel, Noise::Homoscedastic(1e-3))).unwrap();
    let decisions = uniform_points(&mut r, 2, 1, 0.0, 1.0);
    let contexts = uniform_points(&mut r, 5, 1, 0.0, 1.0);
    let reduce = |infimum: &[f64], delta: f64| {
        cpu.pair_reduce(
            &gp,
            &decisions,
            &contexts,
            1.0,
            PairReduction::WorstCaseTv { delta, infimum },
        )
    };
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let message = reduce(&[0.0, bad], 2.0).unwrap_err().to_string();
        assert!(
            message.contains(&format!("infimum value 1 is {bad}")),
            "{message}"
        );
    }
    assert!(is_invalid(reduce(&[0.0], 0.5)));
    // At δ = 2 all the mass moves to the floor: the value is min(infimum, min_j u_j).
    let floor = reduce(&[-1e6, -2e6], 2.0).unwrap();
    assert_eq!(floor, vec![-1e6, -2e6]);
}

/// A fit whose posterior mean could overflow is refused (found by fuzzing: s² = 1e300 with
/// near-duplicate inputs gave |α| ≈ 5e11 and a NaN mean); an ordinary fit passes the same bound.
#[test]
fn fits_whose_posterior_mean_can_overflow_are_refused() {
    let train = Points::new(vec![3.75, 3.5625, 3.5625], 1).unwrap();
    let noise = Noise::PerPoint(vec![3.75, 3.5625, 3.5625]);
    let kernel = Kernel::new(KernelKind::Matern12, vec![3.0], 1e300).unwrap();
    let error = GpState::fit(
        train.clone(),
        &[3.0, 1e300, 4.0625],
        GpSpec::new(kernel, noise.clone())
            .mean(3.5625)
            .lambda(3.5625),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("posterior mean can overflow"), "{error}");
    let kernel = Kernel::new(KernelKind::Matern12, vec![3.0], 1.0).unwrap();
    let gp = GpState::fit(
        train,
        &[3.0, 1.0, 4.0625],
        GpSpec::new(kernel, noise.clone()),
    )
    .unwrap();
    let post = CpuEngine::new()
        .posterior(&gp, &Points::new(vec![6.375], 1).unwrap())
        .unwrap();
    assert!(post.mean[0].is_finite());
}
