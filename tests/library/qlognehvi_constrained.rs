//! qLogNEHVI and qLogNParEGO under black-box constraints against BoTorch 0.18.1's
//! `qLogNoisyExpectedHypervolumeImprovement` and `qLogNParEGO` with `constraints` on fixed data,
//! hyperparameters and base samples (`benches/peers/qlognehvi_constrained_reference.py` wrote
//! `data/qlognehvi_constrained_botorch.json`), the GPU backend against the CPU's values, and
//! `qlognehvi` and `qlognparego` on a constrained problem.

use bosweep::acquisition::{
    Acquisition, BaseSamples, CONSTRAINT_ETA, ChebyshevScalarization,
    ConstrainedQLogNoisyExpectedImprovement, ConstrainedSmoothing, ObjectiveModel,
    QLogNoisyExpectedHypervolumeImprovement, ScalarObjective, TAU_RELU, lower_bound_points,
    objective_lower_bound,
};
use bosweep::compute::EngineError;
use bosweep::compute::{CpuEngine, Engine, ImprovementSmoothing, Points};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use bosweep::surrogate::OutputTransform;
use nalgebra::DMatrix;
use serde_json::Value;

use crate::common::{
    cpu_run, fast_acquisition, largest_error, outcome_models, steps, without_timings,
};

/// Two objectives and two constraints as BoTorch's multi-output model holds them, for one case's
/// targets.
struct Reference {
    gps: Vec<GpState>,
    outputs: Vec<OutputTransform>,
    json: Value,
}

fn numbers(v: &Value) -> Vec<f64> {
    serde_json::from_value(v.clone()).unwrap()
}

fn rows(v: &Value) -> Vec<Vec<f64>> {
    serde_json::from_value(v.clone()).unwrap()
}

fn reference(case: &str) -> Reference {
    let json: Value =
        serde_json::from_str(include_str!("data/qlognehvi_constrained_botorch.json")).unwrap();
    let train = Points::from_rows(&rows(&json["train_x"])).unwrap();
    let train_y = rows(&json[case]["train_y"]);
    let lengthscales = rows(&json["lengthscales"]);
    let (signal, noise) = (numbers(&json["signal_vars"]), numbers(&json["noise_vars"]));
    let (mut gps, mut outputs) = (Vec::new(), Vec::new());
    for j in 0..4 {
        let y: Vec<f64> = train_y.iter().map(|row| row[j]).collect();
        let output = OutputTransform::standardize(&y);
        let z: Vec<f64> = y.iter().map(|v| output.forward(*v)).collect();
        let kernel = Kernel::new(KernelKind::Matern52, lengthscales[j].clone(), signal[j]).unwrap();
        let spec = GpSpec::new(kernel, Noise::Homoscedastic(noise[j]));
        gps.push(GpState::fit(train.clone(), &z, spec).unwrap());
        outputs.push(output);
    }
    Reference { gps, outputs, json }
}

impl Reference {
    /// The four models, the objectives' first.
    fn models(&self) -> Vec<ObjectiveModel<'_>> {
        outcome_models(&self.gps, &self.outputs)
    }

    /// Each output's base samples, without the pending points' columns unless `with_pending`,
    /// and the pending points.
    fn pending_and_base(&self, with_pending: bool) -> (Points, Vec<BaseSamples>) {
        let cube: Vec<Vec<Vec<f64>>> =
            serde_json::from_value(self.json["base_samples"].clone()).unwrap();
        let n_train = self.gps[0].train().rows();
        let last = cube[0].len() - 1;
        let columns: Vec<usize> = if with_pending {
            (0..=last).collect()
        } else {
            (0..n_train).chain([last]).collect()
        };
        let base = (0..4)
            .map(|j| {
                BaseSamples::from_matrix(DMatrix::from_fn(cube.len(), columns.len(), |s, i| {
                    cube[s][columns[i]][j]
                }))
                .unwrap()
            })
            .collect();
        let pending = if with_pending {
            Points::from_rows(&rows(&self.json["pending"])).unwrap()
        } else {
            Points::new(Vec::new(), 2).unwrap()
        };
        (pending, base)
    }

    fn values(&self, engine: &dyn Engine, with_pending: bool) -> Vec<f64> {
        let models = self.models();
        let (pending, base) = self.pending_and_base(with_pending);
        let acquisition = QLogNoisyExpectedHypervolumeImprovement::with_constraints(
            &models[..2],
            &models[2..],
            engine,
            (self.gps[0].train(), &pending),
            &numbers(&self.json["reference_point"]),
            &base,
            (ImprovementSmoothing::BOTORCH, CONSTRAINT_ETA),
        )
        .unwrap();
        let candidates = Points::from_rows(&rows(&self.json["candidates"])).unwrap();
        acquisition.evaluate(engine, &candidates).unwrap()
    }
}

impl Reference {
    /// Constrained qLogNParEGO's values, and the lower bound it asked for (bosweep's, from
    /// BoTorch's uniforms) where it asked for one.
    fn parego(&self, engine: &dyn Engine, with_pending: bool) -> (Vec<f64>, Option<f64>) {
        let models = self.models();
        let (pending, base) = self.pending_and_base(with_pending);
        let baseline = self.gps[0].train();
        let weights = numbers(&self.json["parego_weights"]);
        let chebyshev =
            ChebyshevScalarization::at_means(weights, &models[..2], engine, baseline).unwrap();
        let objective = ScalarObjective::Chebyshev(chebyshev);
        let mut fixed: Vec<&[f64]> = baseline.iter().collect();
        fixed.extend(pending.iter());
        let uniforms = rows(&self.json["lower_bound_uniforms"]);
        let uniforms = DMatrix::from_fn(uniforms.len(), 2, |i, j| uniforms[i][j]);
        let points = lower_bound_points(&Points::from_rows(&fixed).unwrap(), &uniforms).unwrap();
        let ours = objective_lower_bound(&objective, &models[..2], engine, &points).unwrap();
        let mut asked = None;
        let acquisition = ConstrainedQLogNoisyExpectedImprovement::new(
            objective,
            &models,
            engine,
            (baseline, &pending),
            &base,
            ConstrainedSmoothing {
                tau_relu: TAU_RELU,
                eta: CONSTRAINT_ETA,
            },
            || {
                asked = Some(ours);
                Ok::<f64, EngineError>(ours)
            },
        )
        .unwrap();
        let candidates = Points::from_rows(&rows(&self.json["candidates"])).unwrap();
        (acquisition.evaluate(engine, &candidates).unwrap(), asked)
    }
}

/// With 3 of 9 observed points feasible, and with none (every sample's front empty, one cell
/// above the reference point), alone and with 2 pending points, the values at 10 candidates are
/// BoTorch's to 1e-9.
#[test]
fn matches_botorch_with_some_and_with_no_feasible_points() {
    let engine = CpuEngine::new();
    for case in ["some_feasible", "none_feasible"] {
        let r = reference(case);
        for (with_pending, key) in [(false, "alone"), (true, "with_pending")] {
            let got = r.values(&engine, with_pending);
            let expected = numbers(&r.json[case][key]);
            let error = largest_error(&got, &expected, 1.0);
            eprintln!("constrained qLogNEHVI, {case}, {key}: largest error {error:e}");
            assert!(
                error <= 1e-9,
                "{case}, {key}: {got:?} vs BoTorch {expected:?}"
            );
        }
    }
}

/// Constrained qLogNParEGO (fixed weights), alone and with 2 pending points: with some feasible
/// points every sample has one and no lower bound is asked; with none, bosweep's lower bound of
/// the scalarised objective from BoTorch's uniforms is BoTorch's to 1e-12; the values at 10
/// candidates are BoTorch's to 1e-9.
#[test]
fn constrained_parego_matches_botorch() {
    let engine = CpuEngine::new();
    for case in ["some_feasible", "none_feasible"] {
        let r = reference(case);
        for (with_pending, key) in [(false, "parego_alone"), (true, "parego_with_pending")] {
            let (got, bound) = r.parego(&engine, with_pending);
            let expected = &r.json[case][key];
            match (bound, expected["lower_bound"].as_f64()) {
                (None, None) => {}
                (Some(ours), Some(theirs)) => assert!(
                    (ours - theirs).abs() <= 1e-12 * theirs.abs().max(1.0),
                    "{case}, {key}: bound {ours} vs BoTorch {theirs}"
                ),
                other => panic!("{case}, {key}: lower bounds {other:?}"),
            }
            let expected = numbers(&expected["values"]);
            let error = largest_error(&got, &expected, 1.0);
            eprintln!("constrained qLogNParEGO, {case}, {key}: largest error {error:e}");
            assert!(
                error <= 1e-9,
                "{case}, {key}: {got:?} vs BoTorch {expected:?}"
            );
        }
    }
}

/// The GPU backend's posteriors and hypervolume improvements give the CPU's values: to 1e-9 in
/// f64, and in f32 to 1e-3 of each value's magnitude (at least 1).
#[test]
fn gpu_matches_cpu() {
    let cpu = CpuEngine::new();
    let r = reference("some_feasible");
    let expected = r.values(&cpu, true);
    for gpu in crate::common::gpus() {
        let tolerance = crate::common::acquisition_tolerance(&gpu);
        let got = r.values(&gpu, true);
        let error = largest_error(&got, &expected, 1.0);
        assert!(
            error <= tolerance,
            "{:?}: {got:?} vs {expected:?}",
            gpu.precision()
        );
    }
}

/// `qlognehvi` and `qlognparego` on BNH (two objectives, two constraints; budget 14, 6 design points, seed 2, the
/// debug runs' small acquisition grid): the same trace twice, the timings aside; its steps name
/// the constraints' lengthscales, and its points after the design are mostly feasible.
#[test]
fn a_bnh_run_is_reproducible_and_mostly_feasible() {
    let mut params = fast_acquisition();
    params.push(("mc_samples", 32.0.into()));
    for algo in ["qlognehvi", "qlognparego"] {
        let run = || cpu_run(algo, &params, "bnh", 14, 6, 2);
        let (_, first) = run();
        let (_, second) = run();
        assert_eq!(without_timings(&first), without_timings(&second));
        let steps = steps(first);
        let modelled = &steps[6..];
        let constraint_models = |s: &Value| {
            s["extra"]["constraint_lengthscales"]
                .as_array()
                .map(Vec::len)
        };
        assert!(
            modelled.iter().all(|s| constraint_models(s) == Some(2)),
            "{algo}: {:?}",
            modelled[0]["extra"]
        );
        let feasible = modelled
            .iter()
            .filter(|s| s["feasible"] == Value::Bool(true))
            .count();
        assert!(
            feasible >= 5,
            "{algo}: {feasible} feasible of {}",
            modelled.len()
        );
    }
}
