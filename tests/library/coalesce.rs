//! Coalescing (`GpuOptions::coalesce`): posterior calls that threads make while the device is
//! busy run together, and each call still gets exactly its own results, bit for bit those of
//! the engine that runs every call alone, whatever the order the threads arrive in.

use crate::common;

use std::sync::Barrier;

use bosweep::compute::{Engine, GpuOptions, Points, Posterior, Precision};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use common::*;
use rand::RngExt;

/// Thread `t`'s `k`-th call: its own GPs (one or two, of different sizes and kernels) and
/// candidates.
fn call(t: usize, k: usize) -> (Vec<GpState>, Points) {
    let mut r = rng((100 * t + k) as u64);
    let d = 1 + (t + k) % 3;
    let gps = (0..1 + (t + k) % 2)
        .map(|g| {
            let n = 3 + (t * 7 + k * 5 + g) % 20;
            let train = Points::new((0..n * d).map(|_| r.random::<f64>()).collect(), d).unwrap();
            let y: Vec<f64> = (0..n).map(|_| r.random::<f64>()).collect();
            let kind = [KernelKind::SquaredExponential, KernelKind::Matern52][g % 2];
            let kernel = Kernel::new(kind, vec![0.3 + 0.1 * g as f64; d], 1.5).unwrap();
            GpState::fit(train, &y, GpSpec::new(kernel, Noise::Homoscedastic(1e-3))).unwrap()
        })
        .collect();
    let m = 1 + (t * 13 + k * 31) % 300;
    let candidates = Points::new((0..m * d).map(|_| r.random::<f64>()).collect(), d).unwrap();
    (gps, candidates)
}

#[test]
fn concurrent_calls_get_their_own_results_bit_for_bit() {
    for precision in [Precision::F32, Precision::F64] {
        let options = |coalesce| GpuOptions {
            precision,
            coalesce,
            ..Default::default()
        };
        let (Some(coalescing), Some(alone)) = (gpu_with(options(true)), gpu_with(options(false)))
        else {
            return;
        };
        let (threads, calls) = (12, 6);
        let expected: Vec<Vec<Vec<Posterior>>> = (0..threads)
            .map(|t| {
                (0..calls)
                    .map(|k| {
                        let (gps, candidates) = call(t, k);
                        let refs: Vec<&GpState> = gps.iter().collect();
                        alone.posterior_batch(&refs, &candidates).unwrap()
                    })
                    .collect()
            })
            .collect();
        let start = Barrier::new(threads);
        std::thread::scope(|scope| {
            for (t, expected) in expected.iter().enumerate() {
                let (coalescing, start) = (&coalescing, &start);
                scope.spawn(move || {
                    // Random arrival orders: each thread yields a random number of times before
                    // each call.
                    let mut r = rng(7 + t as u64);
                    start.wait();
                    for (k, want) in expected.iter().enumerate() {
                        for _ in 0..r.random_range(0..50) {
                            std::thread::yield_now();
                        }
                        let (gps, candidates) = call(t, k);
                        let refs: Vec<&GpState> = gps.iter().collect();
                        let got = coalescing.posterior_batch(&refs, &candidates).unwrap();
                        assert_eq!(&got, want, "thread {t}, call {k}, {precision:?}");
                    }
                });
            }
        });
        let (passes, ran) = coalescing.coalesced().unwrap();
        assert_eq!(ran, threads * calls);
        assert!(passes >= 1 && passes <= ran);
        println!("MEASURE {precision:?}: {ran} calls in {passes} passes");
        assert_eq!(alone.coalesced(), None);
        // Bad input is refused before it can join (and spoil) anyone else's pass.
        let (gps, _) = call(0, 0);
        let wrong = Points::new(vec![0.5; 7], 7).unwrap();
        assert!(coalescing.posterior(&gps[0], &wrong).is_err());
    }
}
