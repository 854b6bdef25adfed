//! BOKE, BOKE+, density exploration, KR-UCB and the fixed GP-UCB baseline against
//! `specs/boke.md` §8, and the paper's problems (§4.3–4.4, Appendix A).

mod common;

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
            let tol = 1e-8 * want.abs().max(1e-300);
            assert!(
                (got - want).abs() <= tol.max(if want == 0.0 { 0.0 } else { tol }),
                "{x:?} {what}: {got} vs {want}"
            );
        }
    }
    let stalled = simulate(&[90.0, 90.0, 4e-6, 0.2, 0.02, 0.02, 2.0, 10.0]);
    assert!((stalled.consumption - 9.56174031).abs() < 1e-7);
    assert!(stalled.range.abs() < 1e-12 && stalled.speed == 0.0);
}
