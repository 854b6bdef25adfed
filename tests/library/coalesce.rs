//! Coalescing (`GpuOptions::coalesce`): the posterior, pair-reduction, KDE and kernel-regression
//! calls that threads make while the device is busy run together, and each call still gets
//! exactly its own results, bit for bit those of the engine that runs every call alone,
//! whatever the order the threads arrive in.

use crate::common;

use std::sync::Barrier;
use std::time::Duration;

use bosweep::compute::{
    DeviceUse, Engine, GpuEngine, GpuOptions, KernelRegression, PairReduction, Points, Posterior,
    Precision,
};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise, SmoothingKernel};
use common::*;
use rand::RngExt;

/// Thread `t`'s `k`-th call: an operation chosen by `t + k` on its own random inputs.
enum Call {
    Posterior(Vec<GpState>, Points),
    Pairs(Box<GpState>, Points, Points, Vec<f64>, usize),
    Kde(Points, Vec<f64>, Option<Vec<f64>>, Points),
    Regression(Points, Vec<f64>, SmoothingKernel, Points),
}

#[derive(Debug, PartialEq)]
enum Answer {
    Posteriors(Vec<Posterior>),
    Values(Vec<f64>),
    Regression(KernelRegression),
}

fn gp(r: &mut impl rand::Rng, n: usize, d: usize, g: usize) -> GpState {
    let train = uniform_points_in(r, n, d);
    let y: Vec<f64> = (0..n).map(|_| r.random::<f64>()).collect();
    let kind = [KernelKind::SquaredExponential, KernelKind::Matern52][g % 2];
    let kernel = Kernel::new(kind, vec![0.3 + 0.1 * g as f64; d], 1.5).unwrap();
    GpState::fit(train, &y, GpSpec::new(kernel, Noise::Homoscedastic(1e-3))).unwrap()
}

fn uniform_points_in(r: &mut impl rand::Rng, rows: usize, d: usize) -> Points {
    Points::new((0..rows * d).map(|_| r.random::<f64>()).collect(), d).unwrap()
}

fn call(t: usize, k: usize) -> Call {
    let mut r = rng((100 * t + k) as u64);
    let d = 1 + (t + k) % 3;
    let n = 3 + (t * 7 + k * 5) % 20;
    let m = 1 + (t * 13 + k * 31) % 300;
    match (t + k) % 4 {
        0 => Call::Posterior(
            (0..1 + (t + k) % 2)
                .map(|g| gp(&mut r, n + g, d, g))
                .collect(),
            uniform_points_in(&mut r, m, d),
        ),
        1 => {
            let samples = 1 + (t + 3 * k) % 12;
            let infimum = (0..m).map(|_| r.random::<f64>() - 1.0).collect();
            Call::Pairs(
                Box::new(gp(&mut r, n, d + 1, t)),
                uniform_points_in(&mut r, m, d),
                uniform_points_in(&mut r, samples, 1),
                infimum,
                (t + k) % 3,
            )
        }
        2 => {
            let weights = t
                .is_multiple_of(2)
                .then(|| (0..n).map(|i| (i % 3) as f64).collect());
            Call::Kde(
                uniform_points_in(&mut r, n, d),
                vec![0.2 + 0.05 * d as f64; d],
                weights,
                uniform_points_in(&mut r, m, d),
            )
        }
        _ => {
            let kernel = [
                SmoothingKernel::Gaussian,
                SmoothingKernel::Epanechnikov,
                SmoothingKernel::Uniform,
            ][t % 3];
            let targets = (0..n).map(|_| r.random::<f64>()).collect();
            Call::Regression(
                uniform_points_in(&mut r, n, d),
                targets,
                kernel,
                uniform_points_in(&mut r, m, d),
            )
        }
    }
}

fn answer(engine: &GpuEngine, call: &Call) -> Answer {
    match call {
        Call::Posterior(gps, candidates) => {
            let refs: Vec<&GpState> = gps.iter().collect();
            Answer::Posteriors(engine.posterior_batch(&refs, candidates).unwrap())
        }
        Call::Pairs(gp, decisions, contexts, infimum, which) => {
            let reduction = match which {
                0 => PairReduction::Mean,
                1 => PairReduction::Min,
                _ => PairReduction::WorstCaseTv {
                    delta: 0.4,
                    infimum,
                },
            };
            let values = engine.pair_reduce(gp, decisions, contexts, 2.0, reduction);
            Answer::Values(values.unwrap())
        }
        Call::Kde(data, bandwidths, weights, queries) => Answer::Values(
            engine
                .kde_log_density(data, bandwidths, weights.as_deref(), queries)
                .unwrap(),
        ),
        Call::Regression(data, targets, kernel, queries) => Answer::Regression(
            engine
                .kernel_regression(data, targets, *kernel, 0.3, queries)
                .unwrap(),
        ),
    }
}

/// Runs `threads × calls` calls on `engine` from `threads` threads in random arrival orders
/// (each thread yields a random number of times before each call), checking every answer.
fn run_concurrently(engine: &GpuEngine, expected: &[Vec<Answer>], label: &str) {
    let start = Barrier::new(expected.len());
    std::thread::scope(|scope| {
        for (t, expected) in expected.iter().enumerate() {
            let start = &start;
            scope.spawn(move || {
                let mut r = rng(7 + t as u64);
                start.wait();
                for (k, want) in expected.iter().enumerate() {
                    for _ in 0..r.random_range(0..50) {
                        std::thread::yield_now();
                    }
                    let got = answer(engine, &call(t, k));
                    assert_eq!(&got, want, "thread {t}, call {k}, {label}");
                }
            });
        }
    });
}

#[test]
fn concurrent_calls_get_their_own_results_bit_for_bit() {
    for precision in [Precision::F32, Precision::F64] {
        let options = |coalesce, window| GpuOptions {
            precision,
            coalesce,
            coalesce_window: window,
            ..Default::default()
        };
        let Some(alone) = gpu_with(options(false, Duration::ZERO)) else {
            return;
        };
        let (threads, calls) = (12, 8);
        let expected: Vec<Vec<Answer>> = (0..threads)
            .map(|t| (0..calls).map(|k| answer(&alone, &call(t, k))).collect())
            .collect();
        let used = alone.device_use().unwrap();
        assert_eq!(used.calls, threads * calls);
        assert_eq!(used.passes, used.calls, "alone, every call is a pass");
        for window in [Duration::ZERO, Duration::from_millis(2)] {
            let coalescing = gpu_with(options(true, window)).unwrap();
            let label = format!("{precision:?}, window {window:?}");
            run_concurrently(&coalescing, &expected, &label);
            let DeviceUse { calls: ran, passes } = coalescing.device_use().unwrap();
            assert_eq!(ran, threads * calls);
            assert!(passes >= 1 && passes <= ran);
            println!("MEASURE {label}: {ran} calls in {passes} passes");
            // Bad input is refused before it can join (and spoil) anyone else's pass.
            let Call::Posterior(gps, _) = call(0, 0) else {
                unreachable!()
            };
            let wrong = Points::new(vec![0.5; 7], 7).unwrap();
            assert!(coalescing.posterior(&gps[0], &wrong).is_err());
            assert_eq!(coalescing.device_use().unwrap().calls, ran);
        }
    }
}

/// A run alone on the device never waits for the gathering window, however long: its passes
/// hold one call each. (Were it to wait, this test would take an hour, not fail quickly.)
#[test]
fn a_lone_run_never_waits_for_the_window() {
    let Some(engine) = gpu_with(GpuOptions {
        coalesce_window: Duration::from_secs(3600),
        ..Default::default()
    }) else {
        return;
    };
    let Some(alone) = gpu_with(GpuOptions {
        coalesce: false,
        ..Default::default()
    }) else {
        return;
    };
    for k in 0..8 {
        let call = call(0, k);
        assert_eq!(answer(&engine, &call), answer(&alone, &call), "call {k}");
    }
    let used = engine.device_use().unwrap();
    assert_eq!((used.calls, used.passes), (8, 8));
}
