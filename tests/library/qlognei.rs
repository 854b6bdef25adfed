//! qLogNEI against BoTorch's `qLogNoisyExpectedImprovement` on fixed data, hyperparameters and
//! base samples (`benches/peers/qlognei_reference.py` wrote `data/qlognei_botorch.json`), its
//! smoothing functions by hand, and the GPU backend against the CPU's values.

use crate::common;

use bosweep::acquisition::{
    Acquisition, BaseSamples, QLogNoisyExpectedImprovement, fatmax, log_fatplus, log_mean_exp,
};
use bosweep::compute::{CpuEngine, Engine, Points};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use nalgebra::DMatrix;
use serde_json::Value;

struct Reference {
    gp: GpState,
    baseline: Points,
    pending: Points,
    candidates: Points,
    base: DMatrix<f64>,
    alone: Vec<f64>,
    with_pending: Vec<f64>,
}

fn reference() -> Reference {
    let text = include_str!("data/qlognei_botorch.json");
    let json: Value = serde_json::from_str(text).unwrap();
    let numbers = |key: &str| -> Vec<f64> { serde_json::from_value(json[key].clone()).unwrap() };
    let rows = |key: &str| -> Vec<Vec<f64>> { serde_json::from_value(json[key].clone()).unwrap() };
    let points = |key: &str| Points::from_rows(&rows(key)).unwrap();
    let kernel = Kernel::new(
        KernelKind::Matern52,
        numbers("lengthscales"),
        json["signal_var"].as_f64().unwrap(),
    )
    .unwrap();
    let noise = Noise::Homoscedastic(json["noise_var"].as_f64().unwrap());
    let baseline = points("train_x");
    let gp = GpState::fit(
        baseline.clone(),
        &numbers("train_y"),
        GpSpec::new(kernel, noise),
    )
    .unwrap();
    let base = rows("base_samples");
    Reference {
        gp,
        baseline,
        pending: points("pending"),
        candidates: points("candidates"),
        base: DMatrix::from_fn(base.len(), base[0].len(), |s, j| base[s][j]),
        alone: numbers("alone"),
        with_pending: numbers("with_pending"),
    }
}

/// The base samples without the pending points' columns (the candidate's column last).
fn without_pending(base: &DMatrix<f64>, observed: usize) -> BaseSamples {
    let last = base.ncols() - 1;
    let columns: Vec<usize> = (0..observed).chain([last]).collect();
    BaseSamples::from_matrix(base.select_columns(&columns)).unwrap()
}

fn values(engine: &dyn Engine, r: &Reference, with_pending: bool) -> Vec<f64> {
    let (pending, base) = if with_pending {
        (
            r.pending.clone(),
            BaseSamples::from_matrix(r.base.clone()).unwrap(),
        )
    } else {
        (
            Points::new(Vec::new(), 2).unwrap(),
            without_pending(&r.base, r.baseline.rows()),
        )
    };
    let acquisition =
        QLogNoisyExpectedImprovement::new(&r.gp, engine, &r.baseline, &pending, &base).unwrap();
    acquisition.evaluate(engine, &r.candidates).unwrap()
}

#[test]
fn matches_botorch_on_fixed_data_and_base_samples() {
    let r = reference();
    let cpu = CpuEngine::new();
    for (with_pending, expected) in [(false, &r.alone), (true, &r.with_pending)] {
        let got = values(&cpu, &r, with_pending);
        for (g, e) in got.iter().zip(expected) {
            assert!(
                (g - e).abs() <= 1e-9 * e.abs().max(1.0),
                "pending {with_pending}: {got:?} vs BoTorch {expected:?}"
            );
        }
    }
}

/// The smoothing functions at hand-computed points: `fatplus(0; τ) = τ (ln 2 + 0.1)`, far below
/// zero the Cauchy tail `0.1 τ³/x²`, far above `x`; `fatmax` of one value is the value, of two
/// equal values `v + τ ln 2`; `log_mean_exp` of `{0, ln 3}` is `ln 2`.
#[test]
fn smoothing_functions_by_hand() {
    let tau = 1e-6;
    assert!((log_fatplus(0.0, tau) - (tau * (2f64.ln() + 0.1)).ln()).abs() < 1e-14);
    let far = log_fatplus(-1.0, tau);
    assert!((far - (0.1 * tau * tau * tau).ln()).abs() < 1e-9, "{far}");
    assert!((log_fatplus(2.0, tau) - 2f64.ln()).abs() < 1e-12);
    assert_eq!(fatmax(&[-3.5], 1e-2), -3.5);
    assert!((fatmax(&[1.0, 1.0], 1e-2) - (1.0 + 1e-2 * 2f64.ln())).abs() < 1e-15);
    // A value 1 below the top with τ = 1: p(1) = 2/5, so the top + ln(1 + 2/5).
    assert!((fatmax(&[0.0, -1.0], 1.0) - 1.4f64.ln()).abs() < 1e-15);
    assert!((log_mean_exp(&[0.0, 3f64.ln()]) - 2f64.ln()).abs() < 1e-15);
}

/// The GPU backend's kernel matrices and posterior give the CPU's values: to 1e-9 in f64, and in
/// f32 to the accuracy its variances keep where the candidate's improvement matters.
#[test]
fn gpu_matches_cpu() {
    let r = reference();
    let cpu = CpuEngine::new();
    for gpu in common::gpus() {
        let tolerance = crate::common::acquisition_tolerance(&gpu);
        for with_pending in [false, true] {
            let (a, b) = (
                values(&cpu, &r, with_pending),
                values(&gpu, &r, with_pending),
            );
            for (x, y) in a.iter().zip(&b) {
                assert!(
                    (x - y).abs() <= tolerance * x.abs().max(1.0),
                    "{:?} pending {with_pending}: {a:?} vs {b:?}",
                    gpu.precision()
                );
            }
        }
    }
}

/// The `qlognei` method's batches: built point by point with the earlier points sampled
/// jointly as pending, so the points spread out (a second point where the first is adds no
/// improvement in any sample); the same seed gives the same batch, and a batch of one is the
/// sequential step.
#[test]
fn batches_spread_out_and_repeat_with_their_seed() {
    use bosweep::algorithms::{Optimizer, QLogNei};
    let f = |x: &[f64]| -((x[0] - 0.3).powi(2) + (x[1] - 0.6).powi(2));
    let batch = |q: usize| {
        let settings = QLogNei::default()
            .maximizer(|m| m.grid_size(256))
            .mc_samples(128);
        common::batch_after_design(Optimizer::builder(settings).seed(11), f, q)
    };
    let points = batch(3);
    assert_eq!(points.len(), 3);
    for a in &points {
        assert!(a.iter().all(|v| (0.0..=1.0).contains(v)), "{a:?}");
    }
    common::assert_apart(&points, 1e-2, "a qLogNEI batch");
    assert_eq!(batch(3), points);
    assert_eq!(batch(1), points[..1]);
}
