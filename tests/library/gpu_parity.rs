//! GPU backend against the CPU reference, for every operation, kernel kind and precision.
use crate::common;

use bosweep::acquisition::PosteriorPaths;
use bosweep::compute::{
    CpuEngine, Engine, EngineError, GpuEngine, GpuOptions, ImprovementSmoothing, PairReduction,
    Points, Precision, SampleCells, SamplePaths,
};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise, SmoothingKernel};
use bosweep::pareto::{Front, partition};
use common::*;
use rand::RngExt;

// Tolerances on scaled errors, as (f32, f64); each error's scale is described where it is
// computed. Every tolerance was set after measuring the largest scaled error over all cases of
// this file on lavapipe (llvmpipe, 2 cores): it is 15–30× that maximum, rounded up to 1, 2 or
// 5 × 10^k. f32 tolerances sit near 1e-5 of the scale, leaving room for hardware GPUs whose
// f32 exp/log are a few ulp less accurate than LLVM's (Vulkan allows 3 + 2|x| ulp for exp);
// f64 ones near 1e-14: the f64 shaders use their own exp/log, accurate to about 1 ulp.
// `cargo test --test library gpu_parity:: -- --nocapture` prints every measured value.

/// Kernel values, `|Δk| / s²`. Measured 4.7e-7 (f32), 3.1e-16 (f64).
const CROSS: (f64, f64) = (1e-5, 1e-14);
/// Posterior mean, `|Δμ| / (|m| + ‖α‖₁ s²)`. Measured 2.1e-7, 3.6e-16.
const MEAN: (f64, f64) = (5e-6, 1e-14);
/// Posterior variance, `λ|Δσ²| / (s² + 2g_x)` (see `posterior_scales`). Measured 3.7e-7, 8.4e-16.
const VAR: (f64, f64) = (1e-5, 2e-14);
/// Pair reductions, `|Δ| / (|m| + ‖α‖₁ s² + β s)`. Measured 9.1e-8, 2.0e-16.
const PAIR: (f64, f64) = (2e-6, 5e-15);
/// KDE log density, `|Δ ln p̂| / ((1 + |ln p̂|)·coord)`. Measured 2.7e-7, 4.3e-16.
const KDE: (f64, f64) = (5e-6, 1e-14);
/// Regression mean (see `kr_errors`). Measured 2.8e-7, 3.0e-16.
const KR_MEAN: (f64, f64) = (5e-6, 5e-15);
/// Regression weight sum (ln W or W, see `kr_errors`). Measured 6.5e-7, 1.9e-15.
const KR_WEIGHT: (f64, f64) = (1e-5, 5e-14);
/// Chunked vs unchunked variance: only the grouping of the panels' partial sums differs.
/// Measured 4.3e-8, 8.8e-17.
const CHUNK_VAR: (f64, f64) = (1e-6, 2e-15);
/// Chunked vs unchunked pair reductions (through σ only). Measured 1.2e-8, 2.8e-17.
const CHUNK_PAIR: (f64, f64) = (3e-7, 5e-16);
/// Sample-path maxima, `|Δf| / (|m| + √(2s²/F) ‖w‖₁ + s² ‖v‖₁)` per path (the largest value
/// a path's terms could sum to). Measured 3.8e-7 (f32), 1.5e-16 (f64).
const PATHS: (f64, f64) = (1e-5, 5e-15);
/// Excess of the variance at training points over its exact upper bound σ² + jitter/λ, relative
/// to s², with σ² = 1e-8: cancellation in s² − ‖L⁻¹k‖². Measured 2.0e-5 (f32), 3.6e-16 (f64).
const TRAIN_VAR: (f64, f64) = (5e-4, 1e-14);

/// Prints the scaled error and asserts it is within the precision's tolerance.
fn check(gpu: &GpuEngine, what: &str, err: f64, tol: (f64, f64)) {
    let tol = match gpu.precision() {
        Precision::F32 => tol.0,
        Precision::F64 => tol.1,
    };
    println!(
        "MEASURE {:?} {what}: {err:.3e} (tol {tol:.0e})",
        gpu.precision()
    );
    assert!(
        err <= tol,
        "{:?} {what}: scaled error {err:e} above {tol:e}",
        gpu.precision()
    );
}

fn max_scaled(a: &[f64], b: &[f64], scale: f64) -> f64 {
    max_abs_diff(a, b) / scale
}

#[test]
fn cross_covariance_all_kernels() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        let mut r = rng(101);
        let sizes = [
            (1, 1, 1),
            (65, 257, 1),
            (257, 65, 3),
            (1000, 33, 2),
            (33, 17, 256),
        ];
        let mut cases = Vec::new();
        for &(ma, mb, d) in &sizes {
            for kind in kinds() {
                cases.push((ma, mb, d, kind, None));
            }
        }
        for eps in [0.0, 0.3, 1.0] {
            for kind in kinds() {
                cases.push((65, 257, 2, kind, Some(eps)));
            }
        }
        for (ma, mb, d, kind, decay) in cases {
            let k = random_kernel(&mut r, kind, d, decay);
            let a = points_maybe_timed(&mut r, ma, d, decay.is_some());
            let b = points_maybe_timed(&mut r, mb, d, decay.is_some());
            let want = cpu.cross_covariance(&k, &a, &b).unwrap();
            let got = gpu.cross_covariance(&k, &a, &b).unwrap();
            assert_eq!(got.shape(), (ma, mb));
            let err = max_scaled(want.as_slice(), got.as_slice(), k.signal_variance());
            check(
                &gpu,
                &format!("cross {kind:?} {decay:?} {ma}x{mb} d{d}"),
                err,
                CROSS,
            );
        }
    }
}

/// Scales of a posterior's errors: `|m| + ‖α‖₁ s²` for the mean, and per candidate for `λσ²`,
/// `s² + 2 g_x` with `g_x = √(Σ_j v_j² Σ_k (L⁻¹_jk k_k)²)`, `v = L⁻¹ k_x`: the spread that
/// independent relative rounding errors in the entries of `L⁻¹` and `k_x` cause in `‖v‖²`
/// (it grows with the conditioning of `K + λΣ`).
fn posterior_scales(gp: &GpState, candidates: &Points) -> (f64, Vec<f64>) {
    let s2 = gp.kernel().signal_variance();
    let mean_scale = gp.mean().abs() + gp.alpha().iter().map(|a| a.abs()).sum::<f64>() * s2;
    if gp.train().is_empty() {
        return (mean_scale.max(s2), vec![s2; candidates.rows()]);
    }
    let kx = CpuEngine::new()
        .cross_covariance(gp.kernel(), gp.train(), candidates)
        .unwrap();
    let linv = gp.linv();
    let v = linv * &kx;
    let t = linv.component_mul(linv) * kx.component_mul(&kx);
    let var_scale = v
        .column_iter()
        .zip(t.column_iter())
        .map(|(v, t)| {
            s2 + 2.0
                * v.iter()
                    .zip(t.iter())
                    .map(|(v, t)| v * v * t)
                    .sum::<f64>()
                    .sqrt()
        })
        .collect();
    (mean_scale, var_scale)
}

/// `max_i |a_i − b_i| · λ / scale_i`.
fn var_err(a: &[f64], b: &[f64], lambda: f64, scale: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .zip(scale)
        .map(|((a, b), s)| (a - b).abs() * lambda / s)
        .fold(0.0, f64::max)
}

fn fit(r: &mut rand_chacha::ChaCha8Rng, kernel: Kernel, n: usize, noise: f64) -> GpState {
    let spatial = kernel.spatial_dim();
    let x = points_maybe_timed(r, n, spatial, kernel.time_decay().is_some());
    let y = smooth_targets(r, &x);
    GpState::fit(
        x,
        &y,
        GpSpec::new(kernel, Noise::Homoscedastic(noise))
            .mean(0.25)
            .lambda(1.3),
    )
    .unwrap()
}

fn random_gp(
    r: &mut rand_chacha::ChaCha8Rng,
    kind: KernelKind,
    d: usize,
    n: usize,
    noise: f64,
) -> GpState {
    let k = random_kernel(r, kind, d, None);
    fit(r, k, n, noise)
}

fn compare_posterior(gpu: &GpuEngine, gp: &GpState, cand: &Points, label: &str) {
    let want = CpuEngine::new().posterior(gp, cand).unwrap();
    let got = gpu.posterior(gp, cand).unwrap();
    let (ms, vs) = posterior_scales(gp, cand);
    check(
        gpu,
        &format!("post-mean {label}"),
        max_scaled(&want.mean, &got.mean, ms),
        MEAN,
    );
    let ve = var_err(&want.variance, &got.variance, gp.lambda(), &vs);
    check(gpu, &format!("post-var {label}"), ve, VAR);
    assert!(
        got.variance.iter().all(|v| *v >= 0.0),
        "negative variance {label}"
    );
}

#[test]
fn posterior_all_kernels() {
    for gpu in gpus() {
        let mut r = rng(202);
        let mut cases: Vec<(usize, usize, usize, KernelKind, Option<f64>)> = Vec::new();
        for kind in kinds() {
            cases.push((65, 3, 2001, kind, None));
            cases.push((65, 2, 2001, kind, Some(0.3)));
            cases.push((20, 256, 65, kind, None));
        }
        cases.push((65, 2, 2001, KernelKind::SquaredExponential, Some(1.0)));
        cases.push((65, 2, 2001, KernelKind::Matern52, Some(0.0)));
        // More candidates than one chunk (65536) of the default engine.
        cases.push((3, 1, 70001, KernelKind::Matern12, None));
        for kind in [KernelKind::SquaredExponential, KernelKind::Matern32] {
            cases.push((1, 1, 2001, kind, None));
            cases.push((300, 2, 2001, kind, None));
        }
        for (n, d, m, kind, decay) in cases {
            let k = random_kernel(&mut r, kind, d, decay);
            let gp = fit(&mut r, k, n, 1e-2);
            let cand = points_maybe_timed(&mut r, m, d, decay.is_some());
            compare_posterior(
                &gpu,
                &gp,
                &cand,
                &format!("{kind:?} {decay:?} n{n} d{d} m{m}"),
            );
        }
        // Small candidate sets (one, and not a multiple of the 64-wide tiles).
        let gp = random_gp(&mut r, KernelKind::Matern12, 3, 65, 1e-2);
        for m in [1, 65, 257] {
            let cand = points_maybe_timed(&mut r, m, 3, false);
            compare_posterior(&gpu, &gp, &cand, &format!("Matern12 n65 d3 m{m}"));
        }
        // Nearly noise-free SE: K + λΣ is badly conditioned, so the variance scale grows.
        let gp = random_gp(&mut r, KernelKind::SquaredExponential, 2, 100, 1e-8);
        let mut cand_rows: Vec<Vec<f64>> = gp.train().iter().map(<[f64]>::to_vec).collect();
        cand_rows.extend(
            points_maybe_timed(&mut r, 500, 2, false)
                .iter()
                .map(<[f64]>::to_vec),
        );
        compare_posterior(
            &gpu,
            &gp,
            &Points::from_rows(&cand_rows).unwrap(),
            "SE noise 1e-8",
        );
        // Heteroscedastic noise, a small noise level, and the prior (n = 0).
        let k = random_kernel(&mut r, KernelKind::Matern52, 3, None);
        let x = points_maybe_timed(&mut r, 100, 3, false);
        let y = smooth_targets(&mut r, &x);
        let noise = Noise::PerPoint(uniform_values(&mut r, 100, 1e-4, 1e-1));
        let gp = GpState::fit(x, &y, GpSpec::new(k, noise.clone()).mean(-0.5).lambda(0.7)).unwrap();
        let cand = points_maybe_timed(&mut r, 1000, 3, false);
        compare_posterior(&gpu, &gp, &cand, "per-point noise");
        let k = random_kernel(&mut r, KernelKind::Matern32, 3, None);
        let gp = fit(&mut r, k, 100, 1e-6);
        compare_posterior(&gpu, &gp, &cand, "noise 1e-6");
        let k = random_kernel(&mut r, KernelKind::SquaredExponential, 3, None);
        let gp = prior_gp(k, 3, 0.4, 2.0);
        let want = CpuEngine::new().posterior(&gp, &cand).unwrap();
        assert_eq!(gpu.posterior(&gp, &cand).unwrap(), want);
    }
}

#[test]
fn posterior_batch_matches_single_calls() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        let mut r = rng(303);
        let gps: Vec<GpState> = vec![
            random_gp(&mut r, KernelKind::SquaredExponential, 3, 65, 1e-2),
            random_gp(&mut r, KernelKind::Matern12, 3, 1, 1e-2),
            prior_gp(
                random_kernel(&mut r, KernelKind::Matern52, 3, None),
                3,
                0.1,
                1.0,
            ),
            random_gp(
                &mut r,
                KernelKind::RationalQuadratic { alpha: 2.5 },
                3,
                130,
                1e-3,
            ),
        ];
        let refs: Vec<&GpState> = gps.iter().collect();
        let cand = points_maybe_timed(&mut r, 1000, 3, false);
        let batch = gpu.posterior_batch(&refs, &cand).unwrap();
        assert_eq!(batch.len(), gps.len());
        for (i, (gp, got)) in gps.iter().zip(&batch).enumerate() {
            // The batch runs the same dispatches as a single call: bit-identical.
            assert_eq!(got, &gpu.posterior(gp, &cand).unwrap(), "GP {i}");
            let want = cpu.posterior(gp, &cand).unwrap();
            let (ms, vs) = posterior_scales(gp, &cand);
            check(
                &gpu,
                &format!("batch-mean gp{i}"),
                max_scaled(&want.mean, &got.mean, ms),
                MEAN,
            );
            let ve = var_err(&want.variance, &got.variance, gp.lambda(), &vs);
            check(&gpu, &format!("batch-var gp{i}"), ve, VAR);
        }
        assert!(gpu.posterior_batch(&[], &cand).unwrap().is_empty());
    }
}

#[test]
fn pair_reduce_all_reductions() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        let mut r = rng(404);
        // (kind, decisions, context samples, context dim)
        let mut cases: Vec<(KernelKind, usize, usize, usize)> = Vec::new();
        for kind in kinds() {
            cases.push((kind, 65, 7, 1));
        }
        for m in [1, 300] {
            cases.push((KernelKind::SquaredExponential, 65, m, 1));
        }
        cases.push((KernelKind::Matern52, 1, 7, 2));
        cases.push((KernelKind::Matern32, 33, 300, 2));
        for (kind, rows, samples, dc) in cases {
            let dx = 2;
            let k = random_kernel(&mut r, kind, dx + dc, None);
            let gp = fit(&mut r, k, 50, 1e-2);
            let dec = points_maybe_timed(&mut r, rows, dx, false);
            let ctx = points_maybe_timed(&mut r, samples, dc, false);
            let beta = 2.0;
            let s2 = gp.kernel().signal_variance();
            let (ms, _) = posterior_scales(&gp, &ctx_join(&dec, &ctx));
            let scale = ms + beta * s2.sqrt();
            // ±10 lie below / above every UCB value here (|μ| ≲ 2, βσ ≲ 3).
            let below = vec![-10.0; rows];
            let above = vec![10.0; rows];
            let lowest = cpu
                .pair_reduce(&gp, &dec, &ctx, beta, PairReduction::Min)
                .unwrap();
            assert!(lowest.iter().all(|u| u.abs() < 10.0));
            let mixed: Vec<f64> = (0..rows)
                .map(|i| {
                    if i % 2 == 0 {
                        -10.0
                    } else {
                        r.random_range(-1.0..1.0)
                    }
                })
                .collect();
            let mut reds = vec![
                ("mean".to_string(), PairReduction::Mean),
                ("min".into(), PairReduction::Min),
            ];
            for delta in [0.0, 0.3, 1.0, 2.5] {
                for (name, inf) in [("below", &below), ("above", &above), ("mixed", &mixed)] {
                    reds.push((
                        format!("tv δ={delta} inf {name}"),
                        PairReduction::WorstCaseTv {
                            delta,
                            infimum: inf,
                        },
                    ));
                }
            }
            for (name, red) in reds {
                let want = cpu.pair_reduce(&gp, &dec, &ctx, beta, red).unwrap();
                let got = gpu.pair_reduce(&gp, &dec, &ctx, beta, red).unwrap();
                let err = max_scaled(&want, &got, scale);
                check(
                    &gpu,
                    &format!("pair {kind:?} {rows}x{samples} dc{dc} {name}"),
                    err,
                    PAIR,
                );
            }
        }
    }
}

/// Every (decision, context) pair as one joint point, decision-major.
fn ctx_join(dec: &Points, ctx: &Points) -> Points {
    let rows: Vec<Vec<f64>> = dec
        .iter()
        .flat_map(|x| ctx.iter().map(move |c| [x, c].concat()))
        .collect();
    Points::from_rows(&rows).unwrap()
}

/// With no data every pair has the prior's UCB m + β s/√λ, whatever the reduction.
#[test]
fn pair_reduce_without_data() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        let k = Kernel::new(KernelKind::Matern52, vec![0.3, 0.4, 0.5], 1.6).unwrap();
        let gp = prior_gp(k, 3, 0.2, 2.0);
        let mut r = rng(4040);
        let dec = points_maybe_timed(&mut r, 65, 2, false);
        let ctx = points_maybe_timed(&mut r, 7, 1, false);
        let u = 0.2 + 1.5 * (1.6f64 / 2.0).sqrt();
        let inf: Vec<f64> = (0..65)
            .map(|i| if i % 2 == 0 { -3.0 } else { 3.0 })
            .collect();
        for red in [
            PairReduction::Mean,
            PairReduction::Min,
            PairReduction::WorstCaseTv {
                delta: 0.6,
                infimum: &inf,
            },
        ] {
            let want = cpu.pair_reduce(&gp, &dec, &ctx, 1.5, red).unwrap();
            let got = gpu.pair_reduce(&gp, &dec, &ctx, 1.5, red).unwrap();
            check(&gpu, "pair prior", max_scaled(&want, &got, u.abs()), PAIR);
            if red == PairReduction::Min {
                assert!(got.iter().all(|v| (v - u).abs() < 1e-15));
            }
        }
    }
}

#[test]
fn kde_matches_cpu() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        let mut r = rng(505);
        // (data points, dim, queries, weighted)
        let cases = [
            (1, 1, 1, false),
            (65, 3, 257, true),
            (300, 1, 1000, false),
            (300, 2, 65, true),
            (40, 256, 65, true),
        ];
        for (n, d, m, weighted) in cases {
            let data = points_maybe_timed(&mut r, n, d, false);
            let q = points_maybe_timed(&mut r, m, d, false);
            let h = uniform_values(&mut r, d, 0.05, 0.3);
            let w: Option<Vec<f64>> = weighted.then(|| {
                (0..n)
                    .map(|i| {
                        if i % 5 == 3 {
                            0.0
                        } else {
                            r.random_range(0.1..3.0)
                        }
                    })
                    .collect()
            });
            let want = cpu.kde_log_density(&data, &h, w.as_deref(), &q).unwrap();
            let got = gpu.kde_log_density(&data, &h, w.as_deref(), &q).unwrap();
            // ln p̂ = lse(ln w − ½z²) − log_norm: the shader's z = q/h − c/h carry an absolute
            // error ≈ ε·coord, so ½z² errs by ≈ ε·coord·|z| ≲ ε·coord·(1 + ½z²).
            let coord = coord_scale(&[&data, &q], &h);
            let err = want
                .iter()
                .zip(&got)
                .map(|(a, b)| (a - b).abs() / ((1.0 + a.abs()) * coord))
                .fold(0.0, f64::max);
            check(&gpu, &format!("kde n{n} d{d} m{m} w{weighted}"), err, KDE);
            if d <= 3 {
                // The density itself: relative error = |Δ ln p̂|, within the same bound.
                let want = cpu.kde_density(&data, &h, w.as_deref(), &q).unwrap();
                let got = gpu.kde_density(&data, &h, w.as_deref(), &q).unwrap();
                let bound = (1.0 + want.iter().map(|p| p.ln().abs()).fold(0.0, f64::max)) * coord;
                let rel = want
                    .iter()
                    .zip(&got)
                    .map(|(a, b)| (a - b).abs() / a)
                    .fold(0.0, f64::max);
                check(
                    &gpu,
                    &format!("kde-density n{n} d{d} m{m}"),
                    rel / bound,
                    KDE,
                );
            }
        }
    }
}

/// Whether a compact-kernel regression at `q` hinges on a near-boundary data point
/// (`|z² − 1| < margin`, where rounding decides in or out) or on a near-tie of the nearest
/// neighbours (where rounding decides which targets the empty-neighbourhood rule averages).
fn ambiguous(data: &Points, q: &[f64], h: f64, margin: f64) -> bool {
    let mut d2: Vec<f64> = data
        .iter()
        .map(|x| x.iter().zip(q).map(|(a, b)| (a - b) * (a - b)).sum())
        .collect();
    if d2.iter().any(|d| (d / (h * h) - 1.0).abs() < margin) {
        return true;
    }
    d2.sort_by(f64::total_cmp);
    d2.len() > 1 && (d2[1] - d2[0]) <= margin * d2[1]
}

/// Scaled errors of one regression query. The GPU gets the coordinates divided by `h`, rounded
/// to its precision, so every z carries an absolute error ≈ ε·`coord` with
/// `coord = max(1, max|x|/h)` (the cancellation in `x/h − x'/h`); both errors are divided by it.
/// - Gaussian: the mean is a softmax average of the targets, `|Δm| / max|y|`; `ln W = L + ln S`
///   with `L = −d²_min/(2h²)` rounded relatively, `|Δ ln W| / (1 + |ln W|)`.
/// - Compact kernels: each weight `1 − z²` (or 1) carries an absolute error ≲ ε, so `W` has
///   error ∝ ε·(support size) and the ratio `m = Σ w y / W` is conditioned by `1/W`:
///   `|Δm| / (max|y| · max(1, 1/W))` and `|ΔW| / max(1, W)` (W is compared instead of `ln W`,
///   whose error blows up as `W → 0`).
fn kr_errors(
    kernel: SmoothingKernel,
    want: (f64, f64),
    got: (f64, f64),
    y_scale: f64,
    coord: f64,
) -> (f64, f64) {
    let (m0, lw0) = want;
    let (m1, lw1) = got;
    if kernel == SmoothingKernel::Gaussian {
        let lw = (lw0 - lw1).abs() / (1.0 + lw0.abs());
        ((m0 - m1).abs() / (y_scale * coord), lw / coord)
    } else {
        let (w0, w1) = (lw0.exp(), lw1.exp());
        let cond = if w0 > 0.0 { (1.0 / w0).max(1.0) } else { 1.0 };
        (
            (m0 - m1).abs() / (y_scale * cond * coord),
            (w0 - w1).abs() / (w0.max(1.0) * coord),
        )
    }
}

/// `max(1, max|x|/h)` over the coordinates of `sets`, each dimension with its bandwidth.
fn coord_scale(sets: &[&Points], h: &[f64]) -> f64 {
    sets.iter()
        .flat_map(|p| p.iter())
        .flat_map(|x| x.iter().zip(h.iter().cycle()).map(|(v, h)| v.abs() / h))
        .fold(1.0, f64::max)
}

#[test]
fn kernel_regression_matches_cpu() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        let margin = match gpu.precision() {
            Precision::F32 => 1e-4,
            Precision::F64 => 1e-12,
        };
        let mut r = rng(606);
        // (data points, dim, queries, bandwidth for Gaussian, bandwidth for compact kernels)
        let cases = [
            (1, 1, 1, 0.2, 0.2),
            (65, 1, 1000, 0.05, 0.01),
            (300, 3, 257, 0.1, 0.15),
            (40, 256, 65, 2.0, 6.0),
        ];
        for (n, d, m, hg, hc) in cases {
            let data = points_maybe_timed(&mut r, n, d, false);
            let y = uniform_values(&mut r, n, -2.0, 2.0);
            let q = points_maybe_timed(&mut r, m, d, false);
            let y_scale = y.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            for kernel in [
                SmoothingKernel::Gaussian,
                SmoothingKernel::Epanechnikov,
                SmoothingKernel::Uniform,
            ] {
                let h = if kernel == SmoothingKernel::Gaussian {
                    hg
                } else {
                    hc
                };
                let want = cpu.kernel_regression(&data, &y, kernel, h, &q).unwrap();
                let got = gpu.kernel_regression(&data, &y, kernel, h, &q).unwrap();
                let coord = coord_scale(&[&data, &q], &[h]);
                let mut mean_err = 0.0f64;
                let mut lw_err = 0.0f64;
                let mut skipped = 0;
                let mut empty = 0;
                for (i, x) in q.iter().enumerate() {
                    if kernel != SmoothingKernel::Gaussian && ambiguous(&data, x, h, margin) {
                        skipped += 1;
                        continue;
                    }
                    let (a, b) = (want.log_weight_sum[i], got.log_weight_sum[i]);
                    // Empty neighbourhoods (W = 0) must agree exactly.
                    assert_eq!(
                        a == f64::NEG_INFINITY,
                        b == f64::NEG_INFINITY,
                        "query {i}: ln W {a} vs {b}"
                    );
                    empty += usize::from(a == f64::NEG_INFINITY);
                    let (me, we) =
                        kr_errors(kernel, (want.mean[i], a), (got.mean[i], b), y_scale, coord);
                    mean_err = mean_err.max(me);
                    lw_err = lw_err.max(we);
                }
                assert!(
                    skipped * 20 <= m.max(20),
                    "{skipped} of {m} queries ambiguous"
                );
                let label = format!("{kernel:?} n{n} d{d} m{m} (skipped {skipped}, empty {empty})");
                check(&gpu, &format!("kr-mean {label}"), mean_err, KR_MEAN);
                check(&gpu, &format!("kr-lnW {label}"), lw_err, KR_WEIGHT);
            }
        }
    }
}

/// `count` queries uniform in `[0,1]^dim` whose nearest and second-nearest data points differ in
/// squared distance by more than 1e-3 relative, so that every precision must agree.
fn queries_without_near_ties(
    r: &mut rand_chacha::ChaCha8Rng,
    data: &Points,
    count: usize,
) -> Points {
    let mut rows = Vec::new();
    while rows.len() < count {
        let q = points_maybe_timed(r, 1, data.dim(), false);
        let q = q.row(0);
        let mut d2: Vec<f64> = data
            .iter()
            .map(|x| x.iter().zip(q).map(|(a, b)| (a - b) * (a - b)).sum())
            .collect();
        d2.sort_by(f64::total_cmp);
        if d2.len() < 2 || d2[1] - d2[0] > 1e-3 * d2[1] {
            rows.push(q.to_vec());
        }
    }
    Points::from_rows(&rows).unwrap()
}

#[test]
fn nearest_is_exact() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        let mut r = rng(707);
        for (n, d, m) in [
            (1, 1, 1),
            (65, 3, 257),
            (300, 1, 1000),
            (300, 2, 1000),
            (40, 256, 65),
        ] {
            let data = points_maybe_timed(&mut r, n, d, false);
            let q = queries_without_near_ties(&mut r, &data, m);
            assert_eq!(
                gpu.nearest(&data, &q).unwrap(),
                cpu.nearest(&data, &q).unwrap(),
                "n{n} d{d} m{m}"
            );
        }
    }
}

/// Value arrays for exact top-k parity: continuous, heavily duplicated (with ±0 and ±∞), constant.
fn top_k_inputs(r: &mut rand_chacha::ChaCha8Rng, len: usize) -> Vec<Vec<f64>> {
    let atoms = [
        -1.5,
        -0.0,
        0.0,
        0.5,
        2.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e-300,
        -1e-300,
    ];
    vec![
        uniform_values(r, len, -1.0, 1.0),
        (0..len)
            .map(|_| atoms[r.random_range(0..atoms.len())])
            .collect(),
        (0..len)
            .map(|_| if r.random_range(0..2) == 0 { 0.0 } else { -0.0 })
            .collect(),
        vec![3.25; len],
    ]
}

#[test]
fn top_k_and_argmax_are_exact() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        let mut r = rng(808);
        for len in [1, 1023, 1024, 1025, 5000] {
            for values in top_k_inputs(&mut r, len) {
                for k in [1, 7, 512, 600] {
                    assert_eq!(
                        gpu.top_k(&values, k).unwrap(),
                        cpu.top_k(&values, k).unwrap(),
                        "len {len} k {k}"
                    );
                }
                assert_eq!(gpu.argmax(&values).unwrap(), cpu.argmax(&values).unwrap());
            }
        }
        assert!(gpu.top_k(&[], 3).unwrap().is_empty());
        assert!(gpu.top_k(&[1.0, 2.0], 0).unwrap().is_empty());
        assert!(matches!(
            gpu.top_k(&[1.0, f64::NAN], 1),
            Err(EngineError::InvalidInput(_))
        ));
        assert!(matches!(gpu.argmax(&[]), Err(EngineError::InvalidInput(_))));
    }
}

#[test]
fn training_point_variance_is_non_negative_with_tiny_noise() {
    for gpu in gpus() {
        let mut r = rng(909);
        for kind in kinds() {
            let k = random_kernel(&mut r, kind, 2, None);
            let s2 = k.signal_variance();
            let gp = fit(&mut r, k, 100, 1e-8);
            let post = gpu.posterior(&gp, gp.train()).unwrap();
            assert!(
                post.variance.iter().all(|v| v.is_finite() && *v >= 0.0),
                "{kind:?}"
            );
            // Exactly, σ²(x_i) ≤ (λσ² + jitter)/λ: the one-point value s²σ²/(s² + λσ²) bounds it.
            let bound = 1e-8 + gp.jitter() / gp.lambda();
            let worst = post.variance.iter().fold(0.0f64, |a, v| a.max(*v));
            check(
                &gpu,
                &format!("train-var {kind:?}"),
                (worst - bound).max(0.0) / s2,
                TRAIN_VAR,
            );
        }
    }
}

/// The default engine and one whose bindings are capped at `max_binding` bytes, for each
/// precision the adapter supports.
fn engine_pairs(max_binding: u64) -> Vec<(GpuEngine, GpuEngine)> {
    gpus()
        .into_iter()
        .map(|full| {
            let options = GpuOptions {
                precision: full.precision(),
                max_binding_bytes: Some(max_binding),
                ..Default::default()
            };
            (full, GpuEngine::new(&options).unwrap())
        })
        .collect()
}

/// A 2048-byte binding cap (512 f32 or 256 f64 values) splits every operation into many
/// chunks: 40 training points make 40·41/2 = 820 packed values of L⁻¹, so several panels;
/// candidates, queries and decisions go a few (or one) at a time; top-k works on segments of
/// 1024 keys. Per-query operations must not change at all; the posterior and the pair
/// reduction only change through the grouping of the panels' partial sums.
#[test]
fn chunked_engine_matches_default() {
    let cpu = CpuEngine::new();
    for (full, small) in engine_pairs(2048) {
        let mut r = rng(1010);
        let d = 3;
        let k = random_kernel(&mut r, KernelKind::Matern52, d, None);
        let gp = fit(&mut r, k.clone(), 40, 1e-2);
        let cand = points_maybe_timed(&mut r, 300, d, false);

        let kt = random_kernel(&mut r, KernelKind::Matern32, 2, Some(0.4));
        let a = points_maybe_timed(&mut r, 70, 2, true);
        let b = points_maybe_timed(&mut r, 40, 2, true);
        assert_eq!(
            small.cross_covariance(&kt, &a, &b).unwrap(),
            full.cross_covariance(&kt, &a, &b).unwrap()
        );

        let (_, vs) = posterior_scales(&gp, &cand);
        let want = full.posterior(&gp, &cand).unwrap();
        let got = small.posterior(&gp, &cand).unwrap();
        // μ = m + Σ_k α_k k_k is summed per candidate in a fixed order: chunking cannot change it.
        assert_eq!(want.mean, got.mean);
        check(
            &full,
            "chunk post-var",
            var_err(&want.variance, &got.variance, gp.lambda(), &vs),
            CHUNK_VAR,
        );

        let gp2 = random_gp(
            &mut r,
            KernelKind::RationalQuadratic { alpha: 0.7 },
            d,
            25,
            1e-3,
        );
        let (_, vs2) = posterior_scales(&gp2, &cand);
        let want = full.posterior_batch(&[&gp, &gp2], &cand).unwrap();
        let got = small.posterior_batch(&[&gp, &gp2], &cand).unwrap();
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            let vs = if i == 0 { &vs } else { &vs2 };
            assert_eq!(w.mean, g.mean);
            check(
                &full,
                "chunk batch-var",
                var_err(&w.variance, &g.variance, gp.lambda(), vs),
                CHUNK_VAR,
            );
        }

        // Pair reduction: 2 decision + 1 context columns; 40 × 5 context distances fit 2048
        // bytes in f64, one decision per chunk.
        let gpp = random_gp(&mut r, KernelKind::SquaredExponential, 3, 40, 1e-2);
        let dec = points_maybe_timed(&mut r, 9, 2, false);
        let ctx = points_maybe_timed(&mut r, 5, 1, false);
        let inf = vec![-0.5; 9];
        let (ms, _) = posterior_scales(&gpp, &ctx_join(&dec, &ctx));
        let scale = ms + 2.0 * gpp.kernel().signal_variance().sqrt();
        for red in [
            PairReduction::Mean,
            PairReduction::Min,
            PairReduction::WorstCaseTv {
                delta: 0.5,
                infimum: &inf,
            },
        ] {
            let want = full.pair_reduce(&gpp, &dec, &ctx, 2.0, red).unwrap();
            let got = small.pair_reduce(&gpp, &dec, &ctx, 2.0, red).unwrap();
            check(
                &full,
                "chunk pair",
                max_scaled(&want, &got, scale),
                CHUNK_PAIR,
            );
        }

        let h = [0.1, 0.2, 0.15];
        let w: Vec<f64> = (0..40).map(|i| 1.0 + (i % 3) as f64).collect();
        assert_eq!(
            small
                .kde_log_density(gp.train(), &h, Some(&w), &cand)
                .unwrap(),
            full.kde_log_density(gp.train(), &h, Some(&w), &cand)
                .unwrap()
        );
        let y = uniform_values(&mut r, 40, -1.0, 1.0);
        for kernel in [
            SmoothingKernel::Gaussian,
            SmoothingKernel::Epanechnikov,
            SmoothingKernel::Uniform,
        ] {
            assert_eq!(
                small
                    .kernel_regression(gp.train(), &y, kernel, 0.2, &cand)
                    .unwrap(),
                full.kernel_regression(gp.train(), &y, kernel, 0.2, &cand)
                    .unwrap()
            );
        }
        assert_eq!(
            small.nearest(gp.train(), &cand).unwrap(),
            full.nearest(gp.train(), &cand).unwrap()
        );

        for values in top_k_inputs(&mut r, 5000) {
            for k in [1, 7, 512, 600] {
                let want = cpu.top_k(&values, k).unwrap();
                assert_eq!(small.top_k(&values, k).unwrap(), want, "k {k}");
                assert_eq!(full.top_k(&values, k).unwrap(), want, "k {k}");
            }
            assert_eq!(small.argmax(&values).unwrap(), cpu.argmax(&values).unwrap());
        }
    }
}

#[test]
fn invalid_inputs_are_rejected_on_the_gpu() {
    for gpu in gpus() {
        assert_rejects_invalid_inputs(&gpu);
    }
}

/// The hand-computed toy cases (`engine_reference.rs`) whose answers hinge on exact ties give
/// the CPU's answers on the GPU where the tie survives rounding to the shader precision.
#[test]
fn hand_computed_toy_cases_on_the_gpu() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        // Kernel regression's case T4: data scaled by 1/h = 20 is (2, 8, 10, 18), query 0.7 →
        // 14: the 0.5/0.9 tie is exact in f32 too. T2 (h = 1e-3) and T1 (h = 0.2).
        let u = Points::new(vec![0.1, 0.4, 0.5, 0.9], 1).unwrap();
        let y = [1.0, 3.0, 2.0, 0.0];
        // Compact kernels: no query at exactly z = 1 (e.g. 0.45 with h = 0.05 is at z² = 1 in
        // f32 but 1 − 4e-16 in f64: a boundary case either answer is right for).
        let compact = Points::new(vec![0.3, 0.7, 0.93], 1).unwrap();
        let smooth = Points::new(vec![0.3, 0.45, 0.7, 0.72, 0.2, 0.0, 1.0], 1).unwrap();
        for (kernel, h, q) in [
            (SmoothingKernel::Epanechnikov, 0.05, &compact),
            (SmoothingKernel::Uniform, 0.05, &compact),
            (SmoothingKernel::Gaussian, 1e-3, &smooth),
            (SmoothingKernel::Gaussian, 0.2, &smooth),
        ] {
            let want = cpu.kernel_regression(&u, &y, kernel, h, q).unwrap();
            let got = gpu.kernel_regression(&u, &y, kernel, h, q).unwrap();
            for i in 0..q.rows() {
                assert!(
                    (want.mean[i] - got.mean[i]).abs() < 1e-5,
                    "{kernel:?} h {h} query {i}"
                );
                let (a, b) = (want.log_weight_sum[i], got.log_weight_sum[i]);
                assert!(
                    a == b || (a - b).abs() < 1e-5 * (1.0 + a.abs()),
                    "{kernel:?} h {h} query {i}: {a} vs {b}"
                );
            }
        }
        // The nearest-observation case. In f32, 0.1 and 0.9 round so that 0.5 is no longer
        // equidistant; use a tie that is exact in binary there.
        let d = Points::new(vec![0.1, 0.9], 1).unwrap();
        let q = Points::new(vec![0.2, 0.45, 0.55, 0.8], 1).unwrap();
        assert_eq!(gpu.nearest(&d, &q).unwrap(), vec![0, 0, 1, 1]);
        let (d, q) = match gpu.precision() {
            Precision::F64 => (d, Points::new(vec![0.5], 1).unwrap()),
            Precision::F32 => (
                Points::new(vec![0.25, 0.75], 1).unwrap(),
                Points::new(vec![0.5], 1).unwrap(),
            ),
        };
        assert_eq!(gpu.nearest(&d, &q).unwrap(), vec![0]);
        // Empty query sets.
        let none = Points::empty(1).unwrap();
        assert!(gpu.nearest(&d, &none).unwrap().is_empty());
        assert!(
            gpu.kde_log_density(&d, &[0.1], None, &none)
                .unwrap()
                .is_empty()
        );
        assert!(
            gpu.kernel_regression(&d, &[1.0, 2.0], SmoothingKernel::Gaussian, 0.1, &none)
                .unwrap()
                .mean
                .is_empty()
        );
        let k = Kernel::new(KernelKind::Matern12, vec![0.3], 1.0).unwrap();
        assert_eq!(gpu.cross_covariance(&k, &none, &d).unwrap().shape(), (0, 2));
        assert_eq!(gpu.cross_covariance(&k, &d, &none).unwrap().shape(), (2, 0));
    }
}

/// One engine serves several threads at once (operations serialise on its buffers) and gives
/// each the result it would give alone.
#[test]
fn one_engine_shared_by_threads() {
    for gpu in gpus() {
        assert!(gpu.describe().starts_with("gpu ("), "{}", gpu.describe());
        assert!(gpu.describe().contains(&format!("{:?}", gpu.precision())));
        let mut r = rng(1111);
        let gp = random_gp(&mut r, KernelKind::Matern32, 2, 50, 1e-2);
        let cand: Vec<Points> = (0..4)
            .map(|_| points_maybe_timed(&mut r, 300, 2, false))
            .collect();
        let values = uniform_values(&mut r, 3000, -1.0, 1.0);
        let run = |c: &Points| {
            (
                gpu.posterior(&gp, c).unwrap(),
                gpu.top_k(&values, 10).unwrap(),
                gpu.nearest(gp.train(), c).unwrap(),
            )
        };
        let serial: Vec<_> = cand.iter().map(run).collect();
        let parallel: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = cand.iter().map(|c| s.spawn(move || run(c))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(serial, parallel);
    }
}

/// A query so far away that every squared distance overflows to +∞ (found by fuzzing): every
/// data point is equally near, so the Gaussian mean is the average of all targets and ln W = −∞,
/// never NaN. f32 cannot represent the coordinates, so only f64 adapters are compared.
#[test]
fn kernel_regression_where_every_distance_overflows() {
    let data = Points::new(vec![4.25, -1.0], 1).unwrap();
    let y = [1.0, 2.0];
    let q = Points::new(vec![1e300, 0.5], 1).unwrap();
    let cpu = CpuEngine::new();
    let want = cpu
        .kernel_regression(&data, &y, SmoothingKernel::Gaussian, 2.0, &q)
        .unwrap();
    assert_eq!(want.mean[0], 1.5);
    assert_eq!(want.log_weight_sum[0], f64::NEG_INFINITY);
    assert!(want.mean[1].is_finite() && want.log_weight_sum[1].is_finite());
    if let Some(gpu) = gpu_f64() {
        let got = gpu
            .kernel_regression(&data, &y, SmoothingKernel::Gaussian, 2.0, &q)
            .unwrap();
        assert_eq!(got.mean[0], 1.5);
        assert_eq!(got.log_weight_sum[0], f64::NEG_INFINITY);
        assert!((got.mean[1] - want.mean[1]).abs() < 1e-12);
    }
}

/// The smallest lengthscale, whose scaled squared distances overflow f32, must leave
/// candidates uncorrelated with the data — prior mean 0 and variance s² — on every kernel; the
/// Matérn shaders once returned (1 + s + 5r²/3)·e^{-s} = ∞ · 0 = NaN there, and f32 scaled
/// coordinates ∞ − ∞ = NaN. (The shaders cap the inverse lengthscale, at 1e18 in f32, where
/// the rational-quadratic's polynomial tail is about 1e-24, not 0; in f64 (d/ℓ)^-1.4 ≈ 1e-209.)
#[test]
fn overflowing_scaled_distances_give_the_prior() {
    let train = Points::new(vec![0.1, 0.2, 0.5, 0.4, 0.9, 0.7], 2).unwrap();
    let cand = Points::new(vec![0.3, 0.3, 0.8, 0.1], 2).unwrap();
    for kind in kinds() {
        let kernel = Kernel::new(kind, vec![1e-150; 2], 4.0).unwrap();
        let gp = GpState::fit(
            train.clone(),
            &[1.0, 2.0, 0.5],
            GpSpec::new(kernel, Noise::Homoscedastic(0.01)),
        )
        .unwrap();
        let want = CpuEngine::new().posterior(&gp, &cand).unwrap();
        let prior = |p: &bosweep::compute::Posterior, tol: f64| {
            p.mean.iter().all(|m| m.abs() <= tol)
                && p.variance.iter().all(|v| (v - 4.0).abs() <= tol)
        };
        assert!(prior(&want, 1e-200), "{kind:?}: {want:?}");
        for gpu in gpus() {
            let got = gpu.posterior(&gp, &cand).unwrap();
            let tol = match gpu.precision() {
                Precision::F32 => 1e-20,
                Precision::F64 => 1e-200,
            };
            assert!(prior(&got, tol), "{kind:?} {:?}: {got:?}", gpu.precision());
        }
    }
}

/// Per path of `paths`, the scale of its values' rounding errors: `|m| + √(2s²/F) ‖w_s‖₁ +
/// s² ‖v_s‖₁`, the largest magnitude its terms could sum to.
fn path_scales(paths: &SamplePaths<'_>) -> Vec<f64> {
    let s = paths.paths;
    let column_sum = |values: &[f64], p: usize| -> f64 {
        values.iter().skip(p).step_by(s).map(|v| v.abs()).sum()
    };
    (0..s)
        .map(|p| {
            paths.mean.abs()
                + paths.amplitude() * column_sum(paths.prior_weights, p)
                + paths.kernel.signal_variance() * column_sum(paths.update_weights, p)
        })
        .collect()
}

/// Sample-path maxima of GPs fitted with each kernel that has a spectral density, paths drawn
/// by the toolkit's sampler: each path's maximum within [`PATHS`] of the CPU's, at the same
/// candidate wherever the CPU's best and second-best values are further apart than that
/// tolerance; with some candidates excluded (the CPU's best of path 0 among them). Sizes span
/// one candidate, a partial workgroup, several workgroups and path groups (four paths a
/// group: 5 paths leave one group partial), and 20 dimensions.
#[test]
fn sample_path_maxima_match_cpu() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        let mut r = rng(2024);
        let mut worst = 0.0f64;
        let mut compared = 0;
        // (candidates, dimensions, features, training points, paths)
        let sizes = [
            (1, 1, 1, 0, 1),
            (100, 2, 16, 5, 1),
            (1000, 3, 64, 20, 5),
            (2000, 20, 256, 40, 2),
        ];
        for (m, d, features, n, s) in sizes {
            for kind in [
                KernelKind::SquaredExponential,
                KernelKind::Matern32,
                KernelKind::Matern52,
            ] {
                let kernel = random_kernel(&mut r, kind, d, None);
                let gp = fit(&mut r, kernel, n, 1e-3);
                let paths = PosteriorPaths::draw(&gp, features, s, &mut r).unwrap();
                let inputs = paths.inputs();
                let scales = path_scales(&inputs);
                let candidates = points_maybe_timed(&mut r, m, d, false);
                let want = cpu.sample_path_maxima(&inputs, &candidates, &[]).unwrap();
                let mut excluded = vec![want[0].index];
                excluded.extend((0..m).step_by(7).filter(|&i| i != want[0].index));
                excluded.truncate(m - 1);
                for excluded in [&[][..], &excluded[..]] {
                    let want = cpu
                        .sample_path_maxima(&inputs, &candidates, excluded)
                        .unwrap();
                    let got = gpu
                        .sample_path_maxima(&inputs, &candidates, excluded)
                        .unwrap();
                    assert_eq!(got.len(), s);
                    for p in 0..s {
                        let err = (got[p].value - want[p].value).abs() / scales[p];
                        worst = worst.max(err);
                        let mut without_best = excluded.to_vec();
                        without_best.push(want[p].index);
                        let gap = if without_best.len() < m {
                            let second = cpu
                                .sample_path_maxima(&inputs, &candidates, &without_best)
                                .unwrap()[p];
                            (want[p].value - second.value) / scales[p]
                        } else {
                            f64::INFINITY
                        };
                        let tol = match gpu.precision() {
                            Precision::F32 => PATHS.0,
                            Precision::F64 => PATHS.1,
                        };
                        if gap > tol {
                            compared += 1;
                            assert_eq!(
                                got[p].index, want[p].index,
                                "{kind:?} m{m} d{d} path {p}: gap {gap:e}"
                            );
                        }
                        assert!(!excluded.contains(&got[p].index));
                    }
                }
            }
        }
        // 54 (path, case) pairs in all; with these seeds every one is compared.
        assert!(
            compared >= 50,
            "only {compared} arg-maxima were far enough apart to compare"
        );
        check(&gpu, "sample-path maxima", worst, PATHS);
    }
}

/// A 4096-byte binding cap splits the candidates into chunks (about 340 of 3 coordinates in
/// f32): the chunks' partial maxima are merged on the device into exactly the one-chunk result.
#[test]
fn chunked_sample_path_maxima_match_default() {
    for (full, small) in engine_pairs(4096) {
        let mut r = rng(2025);
        let kernel = random_kernel(&mut r, KernelKind::Matern52, 3, None);
        let gp = fit(&mut r, kernel, 20, 1e-3);
        let paths = PosteriorPaths::draw(&gp, 64, 5, &mut r).unwrap();
        let candidates = points_maybe_timed(&mut r, 1500, 3, false);
        let excluded = [3, 700, 1499];
        assert_eq!(
            small
                .sample_path_maxima(&paths.inputs(), &candidates, &excluded)
                .unwrap(),
            full.sample_path_maxima(&paths.inputs(), &candidates, &excluded)
                .unwrap()
        );
    }
}

/// Log hypervolume improvement, `|Δv| / (1 + |v|)`. Measured 5.1e-7 (f32), 6.4e-16 (f64).
const HVI: (f64, f64) = (1e-5, 1e-14);

/// The cells of the region `front` (maximisation, above `reference`) does not dominate, as
/// the engine takes them: `bosweep::pareto` works in minimisation, so everything is negated.
pub fn max_form_cells(cells: &mut SampleCells, front: &[f64], reference: &[f64]) {
    let m = reference.len();
    let negated: Vec<f64> = front.iter().map(|v| -v).collect();
    let reference: Vec<f64> = reference.iter().map(|v| -v).collect();
    let part = partition(Front::new(&negated, m).unwrap(), &reference).unwrap();
    let flipped: Vec<(Vec<f64>, Vec<f64>)> = part
        .non_dominated
        .iter()
        .map(|(l, u)| {
            (
                u.iter().map(|v| -v).collect(),
                l.iter().map(|v| -v).collect(),
            )
        })
        .collect();
    cells
        .push_sample(flipped.iter().map(|(l, u)| (l.as_slice(), u.as_slice())))
        .unwrap();
}

/// Random fronts per sample in 2 and 3 objectives, and draws spread from far below the
/// reference point (no improvement: only the fat tails) to well above the fronts.
#[test]
fn hypervolume_improvement_matches_cpu() {
    let cpu = CpuEngine::new();
    for gpu in gpus() {
        let mut r = rng(211);
        let mut worst: f64 = 0.0;
        for (m, samples, front_size, candidates) in [(2, 5, 6, 41), (3, 7, 12, 23), (2, 1, 0, 3)] {
            let reference = vec![0.0; m];
            let mut cells = SampleCells::new(m);
            for _ in 0..samples {
                let front: Vec<f64> = (0..front_size * m)
                    .map(|_| r.random_range(-0.2..1.0))
                    .collect();
                max_form_cells(&mut cells, &front, &reference);
            }
            let draws: Vec<f64> = (0..candidates * samples * m)
                .map(|_| r.random_range(-1.0..1.5))
                .collect();
            for smoothing in [
                ImprovementSmoothing::BOTORCH,
                ImprovementSmoothing {
                    tau_relu: 1e-2,
                    tau_max: 1e-1,
                },
            ] {
                let want = cpu
                    .log_hypervolume_improvement(&cells, &draws, smoothing)
                    .unwrap();
                let got = gpu
                    .log_hypervolume_improvement(&cells, &draws, smoothing)
                    .unwrap();
                assert_eq!(got.len(), candidates * samples);
                for (a, b) in want.iter().zip(&got) {
                    assert!(a.is_finite(), "CPU value {a}");
                    worst = worst.max((a - b).abs() / (1.0 + a.abs()));
                }
            }
        }
        check(&gpu, "log hypervolume improvement", worst, HVI);
    }
}
