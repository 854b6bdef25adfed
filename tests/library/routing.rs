//! Routing by size (`--route auto`): each call returns exactly the results of the backend its
//! size sends it to, the calibration's timings give a model the router reads back, and a
//! sweep's traces count where their calls went.

use crate::common;

use bosweep::acquisition::PosteriorPaths;
use bosweep::compute::{
    CostModel, CpuEngine, Engine, LADDERS, Placement, Points, Precision, RoutedEngine, Work,
    calibrate,
};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use common::*;
use rand::RngExt;

fn gp(n: usize, d: usize, seed: u64) -> GpState {
    let mut r = rng(seed);
    let train = Points::new((0..n * d).map(|_| r.random::<f64>()).collect(), d).unwrap();
    let y: Vec<f64> = (0..n).map(|_| r.random::<f64>()).collect();
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.4; d], 1.3).unwrap();
    GpState::fit(train, &y, GpSpec::new(kernel, Noise::Homoscedastic(1e-3))).unwrap()
}

fn candidates(m: usize, d: usize, seed: u64) -> Points {
    let mut r = rng(seed);
    Points::new((0..m * d).map(|_| r.random::<f64>()).collect(), d).unwrap()
}

#[test]
fn each_call_returns_the_results_of_the_backend_its_size_picks() {
    let (Some(gpu), Some(direct_gpu)) = (gpu(Precision::F32), gpu(Precision::F32)) else {
        return;
    };
    let cpu = CpuEngine::new();
    // Posteriors from 10 000 units on the GPU; KDE never; top-k always.
    let model = CostModel {
        crossovers: [Some(1e4), None, Some(0.0)],
        source: "test".into(),
    };
    let routed = RoutedEngine::new(Box::new(gpu), model);

    let (small, large) = (gp(4, 2, 1), gp(16, 2, 2));
    let few = candidates(8, 2, 3); // 8 · 4 · (2 + 4) = 192 units
    let many = candidates(256, 2, 4); // 256 · 16 · 18 = 73 728 units
    assert_eq!(Work::posterior(&[&small], &few).units, 192.0);
    assert_eq!(
        routed.placement(&Work::posterior(&[&small], &few)),
        Some(Placement::Cpu)
    );
    assert_eq!(
        routed.posterior(&small, &few).unwrap(),
        cpu.posterior(&small, &few).unwrap(),
        "small: the CPU backend's result, bit for bit"
    );
    assert_eq!(
        routed.posterior(&large, &many).unwrap(),
        direct_gpu.posterior(&large, &many).unwrap(),
        "large: the GPU's"
    );
    let data = candidates(300, 2, 5);
    assert_eq!(
        routed
            .kde_log_density(&data, &[0.1, 0.2], None, &many)
            .unwrap(),
        cpu.kde_log_density(&data, &[0.1, 0.2], None, &many)
            .unwrap(),
        "KDE never leaves the CPU"
    );
    let values: Vec<f64> = (0..100).map(|i| (i * 37 % 101) as f64).collect();
    assert_eq!(
        routed.top_k(&values, 3).unwrap(),
        cpu.top_k(&values, 3).unwrap()
    );
    assert_eq!(routed.calls(), (2, 2));
    assert!(
        routed
            .describe()
            .contains("route auto (GPU for posterior ≥ 1.000e4 units")
    );
}

#[test]
fn a_calibration_times_both_backends_and_fits_a_model_the_router_reads_back() {
    let Some(gpu) = gpu(Precision::F32) else {
        return;
    };
    let tiny = LADDERS.iter().find(|l| l.name == "tiny").unwrap();
    let calibration = calibrate(&CpuEngine::new(), &gpu, tiny, 1).unwrap();
    let sizes = tiny.posterior.len() + tiny.point_pairs.len() + tiny.selection.len();
    assert_eq!(calibration.samples.len(), sizes);
    assert!(
        calibration
            .samples
            .iter()
            .all(|&(_, units, c, g)| units > 0.0 && c > 0.0 && g > 0.0)
    );
    // The crossovers are where the fitted lines cross.
    for (k, (family, c, g)) in calibration.lines.iter().enumerate() {
        assert_eq!(
            calibration.model.crossovers[k],
            bosweep::compute::CostLine::crossover(*c, *g)
        );
        assert_eq!(
            calibration.model.crossover(*family),
            calibration.model.crossovers[k]
        );
    }
    let path = std::path::Path::new("route.txt");
    let back = CostModel::parse(&calibration.model.to_text("test"), path).unwrap();
    for (a, b) in back.crossovers.iter().zip(&calibration.model.crossovers) {
        match (a, b) {
            (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-12 * b.abs(), "{a} {b}"),
            _ => assert_eq!(a, b),
        }
    }
}

/// Sample-path maxima are routed by the posterior family's crossover: under the default one a
/// TuRBO step's call (2000 candidates, 1024 features, 100 training points in 20-D: 4.5e7
/// units) stays on the CPU, bit for bit the CPU's result, where 2^16 candidates (1.5e9 units)
/// would go to the GPU.
#[test]
fn small_sample_path_calls_stay_on_the_cpu() {
    let Some(gpu) = gpu(Precision::F32) else {
        return;
    };
    let routed = RoutedEngine::new(Box::new(gpu), CostModel::default());
    let cpu = CpuEngine::new();
    let model = gp(100, 20, 6);
    let paths = PosteriorPaths::draw(&model, 1024, 1, &mut rng(7)).unwrap();
    let few = candidates(2000, 20, 8);
    let work = Work::sample_paths(&paths.inputs(), &few);
    assert_eq!(work.units, 2000.0 * 1124.0 * 20.0);
    assert_eq!(routed.placement(&work), Some(Placement::Cpu));
    assert_eq!(
        routed
            .sample_path_maxima(&paths.inputs(), &few, &[3])
            .unwrap(),
        cpu.sample_path_maxima(&paths.inputs(), &few, &[3]).unwrap()
    );
    assert_eq!(routed.calls(), (1, 0));
    let many = candidates(1 << 16, 20, 9);
    assert_eq!(
        routed.placement(&Work::sample_paths(&paths.inputs(), &many)),
        Some(Placement::Gpu)
    );
}
