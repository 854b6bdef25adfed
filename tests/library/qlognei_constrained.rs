//! qLogNEI under black-box constraints against BoTorch 0.18.1's `qLogNoisyExpectedImprovement`
//! with `constraints` on fixed data, hyperparameters and base samples
//! (`benches/peers/qlognei_constrained_reference.py` wrote
//! `data/qlognei_constrained_botorch.json`), the GPU backend against the CPU's values, pruning's
//! invariants, and runs of `qlognei` on a constrained problem.

use bosweep::acquisition::{
    Acquisition, BaseSamples, ConstrainedQLogNoisyExpectedImprovement, ConstrainedSmoothing,
    ObjectiveModel, ScalarObjective, lower_bound_points, objective_lower_bound,
    prune_baseline_constrained,
};
use bosweep::compute::{CpuEngine, Engine, EngineError, Points};
use bosweep::model::GpState;
use bosweep::surrogate::OutputTransform;
use nalgebra::DMatrix;
use serde_json::Value;

use crate::common::{
    cpu_run, fast_acquisition, held_gp, largest_error, outcome_models, steps, without_timings,
};

fn numbers(v: &Value) -> Vec<f64> {
    serde_json::from_value(v.clone()).unwrap()
}

fn rows(v: &Value) -> Vec<Vec<f64>> {
    serde_json::from_value(v.clone()).unwrap()
}

fn json() -> Value {
    serde_json::from_str(include_str!("data/qlognei_constrained_botorch.json")).unwrap()
}

/// One case's three GPs (the objective's first) as BoTorch's ModelListGP holds them, and its
/// values.
struct Case {
    gps: Vec<GpState>,
    outputs: Vec<OutputTransform>,
    lower_bound: Option<f64>,
    values: Vec<f64>,
}

impl Case {
    fn models(&self) -> Vec<ObjectiveModel<'_>> {
        outcome_models(&self.gps, &self.outputs)
    }
}

fn case(json: &Value, name: &str) -> Case {
    let train = Points::from_rows(&rows(&json["train_x"])).unwrap();
    let case = &json[name];
    let (gps, outputs) = rows(&case["train_y"])
        .iter()
        .zip(case["gps"].as_array().unwrap())
        .map(|(y, held)| held_gp(&train, y, held))
        .unzip();
    Case {
        gps,
        outputs,
        lower_bound: case["lower_bound"].as_f64(),
        values: numbers(&case["values"]),
    }
}

/// The base samples of each output (samples × points), from BoTorch's samples × points × outputs.
fn base_samples(json: &Value) -> Vec<BaseSamples> {
    let cube: Vec<Vec<Vec<f64>>> = serde_json::from_value(json["base_samples"].clone()).unwrap();
    (0..3)
        .map(|j| {
            BaseSamples::from_matrix(DMatrix::from_fn(cube.len(), cube[0].len(), |s, i| {
                cube[s][i][j]
            }))
            .unwrap()
        })
        .collect()
}

/// The acquisition of `case` over the training points with the pending ones, its lower bound of
/// the objective BoTorch's own where BoTorch needed one.
fn acquisition<'a>(
    json: &Value,
    case: &Case,
    models: &[ObjectiveModel<'a>],
    engine: &dyn Engine,
) -> Result<ConstrainedQLogNoisyExpectedImprovement<'a>, EngineError> {
    let pending = Points::from_rows(&rows(&json["pending"])).unwrap();
    let lower_bound = case.lower_bound;
    ConstrainedQLogNoisyExpectedImprovement::new(
        ScalarObjective::Single,
        models,
        engine,
        (models[0].gp.train(), &pending),
        &base_samples(json),
        ConstrainedSmoothing::default(),
        || lower_bound.ok_or_else(|| EngineError::invalid("BoTorch needed no lower bound")),
    )
}

/// With a feasible baseline point in every sample, bosweep's values are BoTorch's to 1e-9 at
/// 20 candidates (from −51 to −10: most candidates lie outside the disc constraint, where the
/// smoothed indicator's `−2 ln|c/η|` tail dominates), and the lower bound is never asked for.
#[test]
fn matches_botorch_where_every_sample_has_a_feasible_point() {
    let json = json();
    let case = case(&json, "feasible");
    let models = case.models();
    let engine = CpuEngine::new();
    let acquisition = acquisition(&json, &case, &models, &engine).unwrap();
    assert_eq!(acquisition.infeasible_value(), f64::NEG_INFINITY);
    let candidates = Points::from_rows(&rows(&json["candidates"])).unwrap();
    let got = acquisition.evaluate(&engine, &candidates).unwrap();
    let error = largest_error(&got, &case.values, 1.0);
    eprintln!("constrained qLogNEI, feasible: largest error {error:e}");
    assert!(error <= 1e-9, "{got:?} vs BoTorch {:?}", case.values);
}

/// With no feasible baseline point (the disc constraint shifted up by 1), BoTorch counts the
/// points at its lower bound of the objective: bosweep's bound from the same 32 uniforms is
/// BoTorch's to 1e-12, and the values at 20 candidates are BoTorch's to 1e-9.
#[test]
fn matches_botorch_where_no_point_is_feasible_with_its_lower_bound() {
    let json = json();
    let case = case(&json, "infeasible");
    let models = case.models();
    let engine = CpuEngine::new();
    let mut fixed = rows(&json["train_x"]);
    fixed.extend(rows(&json["pending"]));
    let uniforms = rows(&json["lower_bound_uniforms"]);
    let uniforms = DMatrix::from_fn(uniforms.len(), 2, |i, j| uniforms[i][j]);
    let points = lower_bound_points(&Points::from_rows(&fixed).unwrap(), &uniforms).unwrap();
    let bound =
        objective_lower_bound(&ScalarObjective::Single, &models[..1], &engine, &points).unwrap();
    let expected = case.lower_bound.unwrap();
    assert!(
        (bound - expected).abs() <= 1e-12 * expected.abs(),
        "{bound} vs BoTorch {expected}"
    );

    let acquisition = acquisition(&json, &case, &models, &engine).unwrap();
    assert_eq!(acquisition.infeasible_value(), expected);
    let candidates = Points::from_rows(&rows(&json["candidates"])).unwrap();
    let got = acquisition.evaluate(&engine, &candidates).unwrap();
    let error = largest_error(&got, &case.values, 1.0);
    eprintln!("constrained qLogNEI, infeasible: largest error {error:e}");
    assert!(error <= 1e-9, "{got:?} vs BoTorch {:?}", case.values);
}

/// The GPU backend's posteriors give the CPU's values: to 1e-9 in f64, and in f32 to 1e-3 of
/// each value's magnitude (at least 1), as qLogNEI's.
#[test]
fn gpu_matches_cpu() {
    let json = json();
    let candidates = Points::from_rows(&rows(&json["candidates"])).unwrap();
    let cpu = CpuEngine::new();
    for name in ["feasible", "infeasible"] {
        let case = case(&json, name);
        let models = case.models();
        let expected = acquisition(&json, &case, &models, &cpu)
            .unwrap()
            .evaluate(&cpu, &candidates)
            .unwrap();
        for gpu in crate::common::gpus() {
            let tolerance = crate::common::acquisition_tolerance(&gpu);
            let got = acquisition(&json, &case, &models, &gpu)
                .unwrap()
                .evaluate(&gpu, &candidates)
                .unwrap();
            let error = largest_error(&got, &expected, 1.0);
            assert!(
                error <= tolerance,
                "{name}, {:?}: {got:?} vs {expected:?}",
                gpu.precision()
            );
        }
    }
}

/// Pruning keeps a subset of the observed points, at most `max_points`, the same for the same
/// seed; with feasible points it keeps only points that were feasible in some draw, so here
/// (noise 1e-3, every observation far from the constraints' boundaries but one) only observed
/// feasible ones; with none feasible, the points nearest to feasible.
#[test]
fn pruning_keeps_feasible_candidates_for_the_best() {
    let json = json();
    let engine = CpuEngine::new();
    let train = rows(&json["train_x"]);
    for name in ["feasible", "infeasible"] {
        let case = case(&json, name);
        let models = case.models();
        let ys = rows(&json[name]["train_y"]);
        let prune = || {
            let single = ScalarObjective::Single;
            prune_baseline_constrained(&single, &models[..1], &models[1..], &engine, 512, 4, 3)
                .unwrap()
        };
        let (kept, again) = (prune(), prune());
        assert_eq!(kept, again);
        assert!((1..=4).contains(&kept.rows()), "{name}: {}", kept.rows());
        let index = |x: &[f64]| train.iter().position(|t| t.as_slice() == x).unwrap();
        let kept: Vec<usize> = kept.iter().map(index).collect();
        let feasible: Vec<usize> = (0..train.len())
            .filter(|&i| ys[1][i] <= 0.0 && ys[2][i] <= 0.0)
            .collect();
        if name == "feasible" {
            assert!(!feasible.is_empty());
            assert!(
                kept.iter().all(|i| feasible.contains(i)),
                "{kept:?} {feasible:?}"
            );
            // The best feasible observation is among them.
            let best = *feasible
                .iter()
                .max_by(|&&a, &&b| ys[0][a].total_cmp(&ys[0][b]))
                .unwrap();
            assert!(kept.contains(&best), "{kept:?} lacks {best}");
        } else {
            assert!(feasible.is_empty());
            // The least violating observation (largest smoothed feasibility) is kept.
            let violation = |i: usize| ys[1][i].max(0.0) + ys[2][i].max(0.0);
            let nearest = (0..train.len())
                .min_by(|&a, &b| violation(a).total_cmp(&violation(b)))
                .unwrap();
            assert!(kept.contains(&nearest), "{kept:?} lacks {nearest}");
        }
    }
}

/// `qlognei` on Gramacy et al.'s constrained problem (budget 20, 8 design points, seed 4, the
/// debug runs' small acquisition grid): the same trace twice, the timings aside, a feasible point
/// found and recommended, and each step's `extra` naming the constraints' lengthscales.
#[test]
fn a_constrained_gramacy_run_is_reproducible_and_ends_feasible() {
    let params = fast_acquisition();
    let run = || cpu_run("qlognei", &params, "constrained-gramacy", 20, 8, 4);
    let (_, first) = run();
    let (_, second) = run();
    assert_eq!(without_timings(&first), without_timings(&second));
    let steps = steps(first);
    let last = steps.last().unwrap();
    assert_eq!(last["recommended_feasible"], Value::Bool(true), "{last}");
    let modelled = steps
        .iter()
        .find(|s| s["extra"]["constraint_lengthscales"].is_array())
        .expect("a model step");
    assert_eq!(
        modelled["extra"]["constraint_lengthscales"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}
