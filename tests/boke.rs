//! BOKE, BOKE+, density exploration, KR-UCB and the fixed GP-UCB baseline against
//! `specs/boke.md` §8, and the paper's problems (§4.3–4.4, Appendix A).

mod common;

use bosweep::algorithms::boke::{KrSurrogate, Score, farthest_unbounded};
use bosweep::compute::{CpuEngine, Engine, Points};
use bosweep::model::SmoothingKernel;
use bosweep::problems::boke::{
    GoldsteinPriceLog, Rosenbrock4Standardised, Sphere6Standardised, simulate,
};
use bosweep::problems::functions::{Forrester, Hartmann3, SixHumpCamel, TestFunction};
use bosweep::problems::{self, Sense};

// ---------------------------------------------------------------------------------------------
// T9: benchmark functions at their optima (maximisation values g = −f of spec §4.3).

fn assert_close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: {got} vs {want} (tol {tol})"
    );
}

#[test]
fn t9_benchmark_maxima_match_the_spec() {
    let unit = |f: &dyn TestFunction, u: &[f64]| f.value(&f.domain().from_unit(u));
    let gp = GoldsteinPriceLog::new();
    assert_close(
        -unit(&gp, &[0.5, 0.25]),
        3.129172,
        1e-5,
        "goldstein-price log",
    );
    let rosen = Rosenbrock4Standardised::new().unwrap();
    assert_close(-unit(&rosen, &[0.4; 4]), 1.019701, 1e-5, "rosenbrock4 std");
    let sphere = Sphere6Standardised::new().unwrap();
    assert_close(
        -unit(&sphere, &[1.0, 0.8, 0.6, 0.4, 0.2, 0.0]),
        1.941389,
        1e-5,
        "sphere6 std",
    );
    assert_close(
        -Forrester::new().value(&[0.757249]),
        6.020740,
        1e-5,
        "forrester",
    );
    assert_close(
        -SixHumpCamel::new().value(&[0.0898, -0.7126]),
        1.031628,
        1e-5,
        "camel",
    );
    assert_close(
        -Hartmann3::new().value(&[0.114614, 0.555649, 0.852547]),
        3.862780,
        1e-5,
        "hartmann3",
    );
    // DiceOptim's documented local minima of the log-standardised Goldstein–Price.
    for (u, want) in [
        ([0.35, 0.4], -2.180396),
        ([0.95, 0.55], -1.756143),
        ([0.8, 0.7], -0.807367),
    ] {
        assert_close(
            unit(&gp, &u),
            want,
            1e-5,
            "goldstein-price log local minimum",
        );
    }
}

#[test]
fn t9_registry_optima_and_forms() {
    for (name, want) in [
        ("goldstein-price-log", -3.129172),
        ("rosenbrock4", -1.019701),
        ("sphere6", -1.941389),
        ("sprinkler", 8.33576),
    ] {
        let p = problems::build(name, &[]).unwrap();
        let opt = p.optimum(1).unwrap();
        assert_close(opt.value, want, 1e-5, name);
        for at in &opt.locations {
            let f = p.objective_of_interest(at, 1).unwrap();
            assert!(
                p.sense().regret(opt.value, f) < 1e-4,
                "{name}: f at optimum {f}"
            );
        }
    }
    let raw = problems::build("rosenbrock4", &[("form", "raw".into())]).unwrap();
    assert_eq!(raw.optimum(1).unwrap().value, 0.0);
    assert_eq!(raw.domain().lower(), &[-5.0; 4]);
    let raw = problems::build("sphere6", &[("form", "raw".into())]).unwrap();
    assert_eq!(raw.domain().upper(), &[5.12; 6]);
    let speed = problems::build("sprinkler", &[("output", "speed".into())]).unwrap();
    assert_eq!(speed.sense(), Sense::Maximize);
    assert!(problems::build("sphere6", &[("form", "rotated".into())]).is_err());
}

/// Sphere-6 against a direct evaluation of DiceOptim's definition with an explicit rotation
/// matrix built as the product of Givens rotations (row-vector convention).
#[test]
fn t9_sphere6_matches_the_rotation_matrix_form() {
    let (s, c) = 22.5f64.to_radians().sin_cos();
    let mut rot = [[0.0; 6]; 6];
    for (i, row) in rot.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    // z ← z·G for each pair, applied in order; accumulate R = G₁G₂…, z_new = z·R.
    for i in 0..5 {
        for j in i + 1..6 {
            for row in rot.iter_mut() {
                let (a, b) = (row[i], row[j]);
                row[i] = c * a + s * b;
                row[j] = -s * a + c * b;
            }
        }
    }
    let sphere = Sphere6Standardised::new().unwrap();
    let mut rng = common::rng(3);
    for _ in 0..20 {
        let u = common::uniform_points(&mut rng, 1, 6, 0.0, 1.0)
            .row(0)
            .to_vec();
        let z0: Vec<f64> = (0..6)
            .map(|i| 10.0 * u[i] - 5.0 + (2.0 * i as f64 - 5.0))
            .collect();
        let z: Vec<f64> = (0..6)
            .map(|j| (0..6).map(|i| z0[i] * rot[i][j]).sum())
            .collect();
        let want = ((0..6)
            .map(|i| 2f64.powi(i as i32 + 1) * z[i] * z[i])
            .sum::<f64>()
            - 1745.3796)
            / 899.0367;
        assert_close(sphere.value(&u), want, 1e-12, "sphere6 rotation");
    }
}

// ---------------------------------------------------------------------------------------------
// T10: the sprinkler model.

#[test]
fn t10_sprinkler_outputs_match_the_package() {
    let rows: [([f64; 8], [f64; 3]); 6] = [
        (
            [33.0, 18.0, 2e-6, 0.18, 0.015, 0.0199, 1.54, 7.5],
            [4.21839666, 5.32114227, 3.12404577],
        ),
        (
            [0.0, 0.0, 2e-6, 0.1, 0.01, 0.01, 1.0, 5.0],
            [3.31355946, 0.253443834, 2.57241335],
        ),
        (
            [45.0, 45.0, 3e-6, 0.15, 0.015, 0.015, 1.5, 7.5],
            [6.19985616, 6.07441321, 2.75967581],
        ),
        (
            [45.0, 0.0, 4e-6, 0.1, 0.01, 0.01, 2.0, 10.0],
            [9.64620964, 7.38213141, 8.2856083],
        ),
        (
            [30.0, 60.0, 3e-6, 0.15, 0.015, 0.012, 1.5, 8.0],
            [6.21397088, 6.46020382, 2.73411285],
        ),
        (
            [32.07, 90.0, 4e-6, 0.15, 0.015, 0.015, 2.0, 10.0],
            [9.56174031, 8.33571526, 0.0],
        ),
    ];
    for (x, want) in rows {
        let out = simulate(&x);
        for (got, want, what) in [
            (out.consumption, want[0], "consumption"),
            (out.range, want[1], "range"),
            (out.speed, want[2], "speed"),
        ] {
            assert!(
                (got - want).abs() <= 1e-8 * want.abs(),
                "{x:?} {what}: {got} vs {want}"
            );
        }
    }
    let stalled = simulate(&[90.0, 90.0, 4e-6, 0.2, 0.02, 0.02, 2.0, 10.0]);
    assert!((stalled.consumption - 9.56174031).abs() < 1e-7);
    assert!(stalled.range.abs() < 1e-12 && stalled.speed == 0.0);
}

// ---------------------------------------------------------------------------------------------
// T1–T5: the kernel-regression surrogate on toy data.

fn toy() -> (Points, Vec<f64>) {
    (
        Points::new(vec![0.1, 0.4, 0.5, 0.9], 1).unwrap(),
        vec![1.0, 3.0, 2.0, 0.0],
    )
}

fn line(us: &[f64]) -> Points {
    Points::new(us.to_vec(), 1).unwrap()
}

#[test]
fn t1_mean_density_and_ikr_ucb_on_the_toy_set() {
    let (data, ys) = toy();
    let kr = KrSurrogate::new(&data, &ys, SmoothingKernel::Gaussian, 0.2);
    let us = [0.45, 0.0, 0.3, 0.7, 1.0];
    let table = [
        (2.2342911445, 2.2657885709, 0.6690061619, 3.6038008947),
        (1.0618091847, 1.2962560876, 0.9704580372, 3.2371721619),
        (2.1066672185, 2.1204500870, 0.6889727280, 3.4983955431),
        (1.5488227833, 1.4192248085, 0.8035245231, 3.0262738548),
        (0.9375828980, 0.1293122159, 1.0327498998, 2.1948120154),
    ];
    let engine = CpuEngine::new();
    let evals = kr
        .evaluate(&engine, &line(&us), Score::Ikr { sqrt_beta: 2.0 })
        .unwrap();
    for ((u, e), (w, m, sigma, a)) in us.iter().zip(&evals).zip(table) {
        assert_close(e.log_weight_sum.exp(), w, 1e-9, &format!("W({u})"));
        assert_close(e.mean, m, 1e-9, &format!("m({u})"));
        assert_close(
            bosweep::algorithms::boke::exploration(e.log_weight_sum),
            sigma,
            1e-9,
            "σ̂",
        );
        assert_close(e.score, a, 1e-9, &format!("a({u})"));
        // The single-point path used by the refinement gives the same value.
        let (value, _) = kr.score_gradient(&[*u], Score::Ikr { sqrt_beta: 2.0 });
        assert_close(value, e.score, 1e-12, "refinement value");
    }
    // Kernel weights and Σ k_i y_i at 0.45.
    let weights = [0.2162651668, 0.9692332345, 0.9692332345, 0.0795595087];
    for (x, w) in data.iter().zip(weights) {
        assert_close(
            (-(0.45 - x[0]).powi(2) / (2.0 * 0.04)).exp(),
            w,
            1e-9,
            "k_i",
        );
    }
    assert_close(
        evals[0].mean * evals[0].log_weight_sum.exp(),
        5.0624313392,
        1e-9,
        "Σ k y",
    );
    let scores: Vec<f64> = evals.iter().map(|e| e.score).collect();
    assert_eq!(engine.argmax(&scores).unwrap(), 0, "argmax is u = 0.45");
}

#[test]
fn t2_small_bandwidth_limit_is_the_nearest_neighbour_average() {
    let (data, ys) = toy();
    let kr = KrSurrogate::new(&data, &ys, SmoothingKernel::Gaussian, 1e-3);
    let evals = kr
        .evaluate(
            &CpuEngine::new(),
            &line(&[0.3, 0.45, 0.72, 0.2]),
            Score::Mean,
        )
        .unwrap();
    for (e, m) in evals.iter().zip([3.0, 2.5, 0.0, 1.0]) {
        assert!(e.mean.is_finite() && e.log_weight_sum.is_finite());
        assert_close(e.mean, m, 1e-9, "nearest-neighbour mean");
    }
    assert_close(evals[0].log_weight_sum, -5000.0, 1e-6, "ln W(0.3)");
    assert_close(evals[1].log_weight_sum, -1249.3068528, 1e-6, "ln W(0.45)");
    // The refinement path agrees and stays finite, gradients included.
    let (v, g) = kr.score_gradient(&[0.45], Score::Ikr { sqrt_beta: 1.0 });
    assert!(v.is_finite() && g.iter().all(|g| g.is_finite()));
}

#[test]
fn t3_two_dimensional_toy() {
    let data = Points::new(vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0], 2).unwrap();
    let ys = [1.0, 2.0, 3.0];
    let kr = KrSurrogate::new(&data, &ys, SmoothingKernel::Gaussian, 0.5);
    let q = Points::new(vec![0.5, 0.5, 0.2, 0.7], 2).unwrap();
    let evals = kr.evaluate(&CpuEngine::new(), &q, Score::Mean).unwrap();
    let sigma = |e: &bosweep::algorithms::boke::Evaluation| {
        bosweep::algorithms::boke::exploration(e.log_weight_sum)
    };
    assert_close(evals[0].mean, 2.0, 1e-9, "m(0.5, 0.5)");
    assert_close(
        evals[0].log_weight_sum.exp(),
        1.1036383235,
        1e-9,
        "W(0.5, 0.5)",
    );
    assert_close(sigma(&evals[0]), 0.9518896695, 1e-9, "σ̂(0.5, 0.5)");
    assert_close(evals[1].mean, 2.3475001325, 1e-9, "m(0.2, 0.7)");
    assert_close(
        evals[1].log_weight_sum.exp(),
        1.2218578809,
        1e-9,
        "W(0.2, 0.7)",
    );
    assert_close(sigma(&evals[1]), 0.9046688835, 1e-9, "σ̂(0.2, 0.7)");
}

#[test]
fn t4_compact_kernels_and_the_empty_neighbourhood_rule() {
    let (data, ys) = toy();
    let engine = CpuEngine::new();
    let q = line(&[0.3, 0.7, 0.93]);
    for (kernel, w93, sigma93) in [
        (SmoothingKernel::Epanechnikov, 0.64, 1.25),
        (SmoothingKernel::Uniform, 1.0, 1.0),
    ] {
        let kr = KrSurrogate::new(&data, &ys, kernel, 0.05);
        let evals = kr
            .evaluate(&engine, &q, Score::Ikr { sqrt_beta: 3.0 })
            .unwrap();
        for (e, m) in evals.iter().zip([3.0, 1.0, 0.0]) {
            assert!(!e.mean.is_nan() && !e.score.is_nan());
            assert_close(e.mean, m, 1e-12, "mean (nearest neighbour where W = 0)");
        }
        assert_eq!(evals[0].log_weight_sum, f64::NEG_INFINITY);
        assert_eq!(evals[1].log_weight_sum, f64::NEG_INFINITY);
        assert_eq!(evals[0].score, f64::INFINITY);
        assert_close(evals[2].log_weight_sum.exp(), w93, 1e-12, "W(0.93)");
        assert_close(
            bosweep::algorithms::boke::exploration(evals[2].log_weight_sum),
            sigma93,
            1e-12,
            "σ̂(0.93)",
        );
        let scores: Vec<f64> = evals.iter().map(|e| e.score).collect();
        let best = farthest_unbounded(&engine, &data, &q, &scores).unwrap();
        assert_eq!(
            best,
            Some(1),
            "{kernel:?}: the W = 0 candidate farthest from the data, 0.7"
        );
    }
}

#[test]
fn t5_analytic_gradients_match_central_differences() {
    let mut rng = common::rng(5);
    let data = common::uniform_points(&mut rng, 7, 2, 0.0, 1.0);
    let ys = common::uniform_values(&mut rng, 7, -1.0, 2.0);
    let kr = KrSurrogate::new(&data, &ys, SmoothingKernel::Gaussian, 0.3);
    for score in [
        Score::Ikr {
            sqrt_beta: 2f64.sqrt(),
        },
        Score::Mean,
        Score::Density,
    ] {
        for _ in 0..5 {
            let u = common::uniform_points(&mut rng, 1, 2, 0.1, 0.9)
                .row(0)
                .to_vec();
            let (_, g) = kr.score_gradient(&u, score);
            for j in 0..2 {
                let (mut a, mut b) = (u.clone(), u.clone());
                a[j] -= 1e-6;
                b[j] += 1e-6;
                let fd = (kr.score_gradient(&b, score).0 - kr.score_gradient(&a, score).0) / 2e-6;
                assert!(
                    (g[j] - fd).abs() <= 1e-6 * fd.abs().max(1.0),
                    "{score:?} at {u:?}, coordinate {j}: {} vs {fd}",
                    g[j]
                );
            }
        }
    }
}

/// T8: the normalised KDE `(2π)^(−1/2) (h t)^(−1) W` integrates to 1.
#[test]
fn t8_normalised_kde_integrates_to_one() {
    let (data, ys) = toy();
    let n = 200_000;
    let (lo, hi) = (-3.0, 4.0);
    let step = (hi - lo) / (n - 1) as f64;
    let grid = line(&(0..n).map(|i| lo + step * i as f64).collect::<Vec<_>>());
    let kr = KrSurrogate::new(&data, &ys, SmoothingKernel::Gaussian, 0.2);
    let evals = kr
        .evaluate(&CpuEngine::new(), &grid, Score::Density)
        .unwrap();
    let norm = 1.0 / ((2.0 * std::f64::consts::PI).sqrt() * 0.2 * 4.0);
    let p: Vec<f64> = evals
        .iter()
        .map(|e| norm * e.log_weight_sum.exp())
        .collect();
    let integral = step * (p.iter().sum::<f64>() - 0.5 * (p[0] + p[n - 1]));
    assert_close(integral, 1.0, 1e-9, "∫ p̂");
}
