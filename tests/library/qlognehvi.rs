//! qLogNEHVI and qLogNParEGO against BoTorch's `qLogNoisyExpectedHypervolumeImprovement` and
//! `qLogNParEGO` on fixed data,
//! hyperparameters and base samples (`benches/peers/qlognehvi_reference.py` wrote
//! `data/qlognehvi_botorch.json`), its engine operation against the exact hypervolume
//! improvement, and the GPU backend against the CPU's values.

use bosweep::acquisition::{
    Acquisition, BaseSamples, ObjectiveModel, QLogNParEgo, QLogNoisyExpectedHypervolumeImprovement,
    TAU_RELU,
};
use bosweep::compute::{CpuEngine, Engine, ImprovementSmoothing, Points};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use bosweep::surrogate::OutputTransform;
use nalgebra::DMatrix;
use serde_json::Value;

struct Case {
    gps: Vec<GpState>,
    outputs: Vec<OutputTransform>,
    reference: Vec<f64>,
    baseline: Points,
    pending: Points,
    candidates: Points,
    /// Per objective, samples × (observed + pending + candidate).
    base: Vec<DMatrix<f64>>,
    alone: Vec<f64>,
    with_pending: Vec<f64>,
    sharp_tau: f64,
    sharp: Vec<f64>,
    parego_weights: Vec<f64>,
    parego_alone: Vec<f64>,
    parego_with_pending: Vec<f64>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/qlognehvi_botorch.json");
    let json: Value = serde_json::from_str(text).unwrap();
    let parse = |v: &Value| -> Vec<f64> { serde_json::from_value(v.clone()).unwrap() };
    let rows = |v: &Value| -> Vec<Vec<f64>> { serde_json::from_value(v.clone()).unwrap() };
    json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let m = c["objectives"].as_u64().unwrap() as usize;
            let baseline = Points::from_rows(&rows(&c["train_x"])).unwrap();
            let train_y = rows(&c["train_y"]);
            let lengthscales = rows(&c["lengthscales"]);
            let (signal, noise) = (parse(&c["signal_vars"]), parse(&c["noise_vars"]));
            let mut gps = Vec::new();
            let mut outputs = Vec::new();
            for j in 0..m {
                let y: Vec<f64> = train_y.iter().map(|row| row[j]).collect();
                let output = OutputTransform::standardize(&y);
                let z: Vec<f64> = y.iter().map(|v| output.forward(*v)).collect();
                let kernel =
                    Kernel::new(KernelKind::Matern52, lengthscales[j].clone(), signal[j]).unwrap();
                let spec = GpSpec::new(kernel, Noise::Homoscedastic(noise[j]));
                gps.push(GpState::fit(baseline.clone(), &z, spec).unwrap());
                outputs.push(output);
            }
            let normals: Vec<Vec<Vec<f64>>> =
                serde_json::from_value(c["base_samples"].clone()).unwrap();
            let base = (0..m)
                .map(|j| DMatrix::from_fn(normals.len(), normals[0].len(), |s, i| normals[s][i][j]))
                .collect();
            Case {
                gps,
                outputs,
                reference: parse(&c["reference_point"]),
                baseline,
                pending: Points::from_rows(&rows(&c["pending"])).unwrap(),
                candidates: Points::from_rows(&rows(&c["candidates"])).unwrap(),
                base,
                alone: parse(&c["alone"]),
                with_pending: parse(&c["with_pending"]),
                sharp_tau: c["sharp_tau"].as_f64().unwrap(),
                sharp: parse(&c["sharp"]),
                parego_weights: parse(&c["parego_weights"]),
                parego_alone: parse(&c["parego_alone"]),
                parego_with_pending: parse(&c["parego_with_pending"]),
            }
        })
        .collect()
}

/// The objective models of a case.
fn models(c: &Case) -> Vec<ObjectiveModel<'_>> {
    c.gps
        .iter()
        .zip(&c.outputs)
        .map(|(gp, output)| ObjectiveModel {
            gp,
            output: *output,
        })
        .collect()
}

/// The pending points (none unless `with_pending`) and each objective's base samples, without
/// the pending points' columns when there are none.
fn pending_and_base(c: &Case, with_pending: bool) -> (Points, Vec<BaseSamples>) {
    if with_pending {
        let base = c
            .base
            .iter()
            .map(|b| BaseSamples::from_matrix(b.clone()).unwrap());
        return (c.pending.clone(), base.collect());
    }
    let last = c.base[0].ncols() - 1;
    let columns: Vec<usize> = (0..c.baseline.rows()).chain([last]).collect();
    let base = c
        .base
        .iter()
        .map(|b| BaseSamples::from_matrix(b.select_columns(&columns)).unwrap());
    (Points::new(Vec::new(), 2).unwrap(), base.collect())
}

fn values(
    engine: &dyn Engine,
    c: &Case,
    with_pending: bool,
    smoothing: ImprovementSmoothing,
) -> Vec<f64> {
    let models = models(c);
    let (pending, base) = pending_and_base(c, with_pending);
    let acquisition = QLogNoisyExpectedHypervolumeImprovement::new(
        &models,
        engine,
        &c.baseline,
        &pending,
        &c.reference,
        &base,
        smoothing,
    )
    .unwrap();
    acquisition.evaluate(engine, &c.candidates).unwrap()
}

/// In two objectives, with BoTorch's temperatures, every value agrees with BoTorch's to 1e-9:
/// the decompositions of the non-dominated region are the same strips. Candidates that improve
/// on no sample's front have values near −40 or below, the fat tails' floor, which depend on
/// which cells tile the region; in three objectives bosweep's cells (Lacour et al.'s second
/// construction) and BoTorch's (its algorithm run again on the local upper bounds) differ,
/// and so do the smoothed minima at the cells' faces, each by at most τ_max ln 2 (measured:
/// 1e-5 relative).
#[test]
fn matches_botorch_on_fixed_data_and_base_samples() {
    let cpu = CpuEngine::new();
    for c in cases() {
        let m = c.reference.len();
        let tolerance = if m == 2 { 1e-9 } else { 1e-4 };
        for (with_pending, expected) in [(false, &c.alone), (true, &c.with_pending)] {
            let got = values(&cpu, &c, with_pending, ImprovementSmoothing::BOTORCH);
            for (g, e) in got.iter().zip(expected) {
                let tolerance = if *e > -20.0 { tolerance } else { 1.0 };
                assert!(
                    (g - e).abs() <= tolerance * e.abs().max(1.0),
                    "m = {m}, pending {with_pending}: {got:?} vs BoTorch {expected:?}"
                );
            }
        }
    }
}

/// With temperatures of 1e-9 both are the logarithm of the mean exact improvement, whatever the
/// cells: every candidate that improves on some sample agrees to 1e-6 in any number of
/// objectives, so the decompositions cover the same region.
#[test]
fn sharp_smoothing_matches_botorch_in_any_number_of_objectives() {
    let cpu = CpuEngine::new();
    for c in cases() {
        let smoothing = ImprovementSmoothing {
            tau_relu: c.sharp_tau,
            tau_max: c.sharp_tau,
        };
        let got = values(&cpu, &c, true, smoothing);
        let mut compared = 0;
        for (g, e) in got.iter().zip(&c.sharp) {
            if *e > -20.0 {
                compared += 1;
                assert!(
                    (g - e).abs() <= 1e-6 * e.abs().max(1.0),
                    "m = {}: {got:?} vs BoTorch {:?}",
                    c.reference.len(),
                    c.sharp
                );
            }
        }
        assert!(compared >= 5, "only {compared} candidates improve");
    }
}

/// With sharp temperatures the engine's value is the logarithm of the exact hypervolume
/// improvement (`bosweep::pareto::hypervolume_improvement`, minimisation form) over random
/// fronts in 2–4 objectives, for every draw that improves the front.
#[test]
fn the_engine_value_is_the_log_of_the_exact_improvement() {
    use bosweep::acquisition::push_non_dominated_cells;
    use bosweep::pareto::{Front, hypervolume_improvement, partition};
    use rand::RngExt;

    let cpu = CpuEngine::new();
    let mut rng = crate::common::rng(7);
    let sharp = ImprovementSmoothing {
        tau_relu: 1e-12,
        tau_max: 1e-12,
    };
    for m in 2..=4 {
        let reference = vec![0.0; m];
        let front: Vec<f64> = (0..8 * m).map(|_| rng.random_range(0.0..1.0)).collect();
        let mut cells = bosweep::compute::SampleCells::new(m);
        push_non_dominated_cells(&mut cells, &front, &reference).unwrap();
        let draws: Vec<f64> = (0..50 * m).map(|_| rng.random_range(0.0..1.2)).collect();
        let got = cpu
            .log_hypervolume_improvement(&cells, &draws, sharp)
            .unwrap();
        let negated: Vec<f64> = front.iter().map(|v| -v).collect();
        let part = partition(Front::new(&negated, m).unwrap(), &vec![0.0; m]).unwrap();
        let mut improving = 0;
        for (y, value) in draws.chunks_exact(m).zip(&got) {
            let minus_y: Vec<f64> = y.iter().map(|v| -v).collect();
            let exact = hypervolume_improvement(&part.non_dominated, &minus_y).unwrap();
            if exact > 1e-6 {
                improving += 1;
                assert!(
                    (value.exp() - exact).abs() <= 1e-8 * exact.max(1e-3),
                    "m = {m}, y = {y:?}: {} vs exact {exact}",
                    value.exp()
                );
            } else {
                assert!(
                    *value < -20.0,
                    "m = {m}, y = {y:?}: {value} without improvement"
                );
            }
        }
        assert!(improving >= 10, "m = {m}: only {improving} draws improve");
    }
}

/// The GPU backend (its kernel matrices, posteriors and the hypervolume-improvement shader)
/// gives the CPU's values: to 1e-9 in f64, and in f32 to 1e-3 (relative), the accuracy its
/// posterior variances keep, as for qLogNEI.
#[test]
fn gpu_matches_cpu() {
    let cpu = CpuEngine::new();
    for gpu in crate::common::gpus() {
        let tolerance = crate::common::acquisition_tolerance(&gpu);
        for c in cases() {
            let a = values(&cpu, &c, true, ImprovementSmoothing::BOTORCH);
            let b = values(&gpu, &c, true, ImprovementSmoothing::BOTORCH);
            for (x, y) in a.iter().zip(&b) {
                assert!(
                    (x - y).abs() <= tolerance * x.abs().max(1.0),
                    "{:?}: {a:?} vs {b:?}",
                    gpu.precision()
                );
            }
        }
    }
}

/// qLogNParEGO with BoTorch's weights, the pending points joining the observed ones, agrees with
/// BoTorch's `qLogNParEGO` to 1e-9 in two and three objectives, candidates without improvement
/// (the fat tail's values) included: the scalarisation leaves no choice of cells.
#[test]
fn qlognparego_matches_botorch_on_fixed_data_and_base_samples() {
    let cpu = CpuEngine::new();
    for c in cases() {
        for (with_pending, expected) in [(false, &c.parego_alone), (true, &c.parego_with_pending)] {
            let (pending, base) = pending_and_base(&c, with_pending);
            let acquisition = QLogNParEgo::new(
                &models(&c),
                &cpu,
                &c.baseline,
                &pending,
                c.parego_weights.clone(),
                &base,
                TAU_RELU,
            )
            .unwrap();
            let got = acquisition.evaluate(&cpu, &c.candidates).unwrap();
            for (g, e) in got.iter().zip(expected) {
                assert!(
                    (g - e).abs() <= 1e-9 * e.abs().max(1.0),
                    "m = {}, pending {with_pending}: {got:?} vs BoTorch {expected:?}",
                    c.reference.len()
                );
            }
        }
    }
}
