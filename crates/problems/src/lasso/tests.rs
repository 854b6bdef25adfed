//! bosweep's LassoBench against LassoBench's own construction
//! (`benches/peers/lassobench_reference.py` wrote `lassobench_reference.json` with celer 0.7.4,
//! scikit-learn 1.9.1 and numpy 2.4.6): the same data and splits from the same seed, and the
//! value at the Lasso's exact solutions, on all four benchmarks, with and without noisy data.

use serde_json::Value;

use super::{Bench, LassoBench};
use crate::functions::TestFunction;

const DATA: &str = include_str!("../../../../tests/library/data/lassobench_reference.json");

fn cases() -> Vec<(LassoBench, Value)> {
    let json: Value = serde_json::from_str(DATA).unwrap();
    json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let bench = match case["bench"].as_str().unwrap() {
                "simple" => Bench::Simple,
                "medium" => Bench::Medium,
                "high" => Bench::High,
                _ => Bench::Hard,
            };
            let noisy = case["noise"].as_bool().unwrap();
            (LassoBench::new(bench, noisy, 42).unwrap(), case.clone())
        })
        .collect()
}

fn numbers(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

fn indices(value: &Value) -> Vec<usize> {
    numbers(value).into_iter().map(|v| v as usize).collect()
}

fn relative(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// The design, targets, held-out rows and folds equal LassoBench's: the rows and folds exactly,
/// the numbers to rounding (numpy's matrix products sum in another order).
#[test]
fn data_and_splits_are_lassobench_s() {
    for (problem, case) in cases() {
        let data = &problem.data;
        let checks = &data.checks;
        let what = format!("{} noise={}", case["bench"], case["noise"]);
        assert_eq!(checks.test_rows, indices(&case["test_rows"]), "{what}");
        assert_eq!(
            checks.validation_rows[0],
            indices(&case["first_fold_validation"]),
            "{what}"
        );
        let row0: Vec<f64> = (0..problem.domain.dim())
            .map(|j| checks.train.column(j)[0])
            .collect();
        // The AR recursion is elementwise, as numpy's: the design is equal bit for bit.
        assert_eq!(row0, numbers(&case["x_train_row0"]), "{what}");
        for (got, want) in checks.train_y.iter().zip(numbers(&case["y_train_head"])) {
            assert!(relative(*got, want) <= 1e-13, "{what}: y {got} vs {want}");
        }
        let alpha_max = case["alpha_max"].as_f64().unwrap();
        assert!(relative(data.alpha_max, alpha_max) <= 1e-13, "{what}");
        let oracle = case["loss_oracle"].as_f64().unwrap();
        assert!(relative(data.loss_oracle, oracle) <= 1e-12, "{what}");
    }
}

/// The value equals the reference's at the Lasso's exact solutions, at the centre, at the
/// corners of small and large penalties, at uniform points and at the true support's penalties.
#[test]
fn values_are_those_of_the_exact_lasso() {
    let mut worst = 0.0_f64;
    for (problem, case) in cases() {
        let points = case["points"].as_array().unwrap();
        for (point, want) in points.iter().zip(numbers(&case["exact"])) {
            let got = problem.value(&numbers(point));
            worst = worst.max(relative(got, want));
        }
    }
    assert!(worst <= 1e-9, "largest relative difference {worst:e}");
}
