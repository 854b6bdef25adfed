//! LogEI × probability of feasibility (`logei-pof`) against BoTorch's analytic
//! `LogConstrainedExpectedImprovement` and `LogProbabilityOfFeasibility` on fixed data and
//! hyperparameters (`benches/peers/logei_pof_reference.py` wrote `data/logei_pof_botorch.json`),
//! the GPU backend against the CPU's values, and runs of the method on `constrained-gramacy`:
//! reproducible, ending feasible, in batches too.

use bosweep::acquisition::{Acquisition, LogConstrainedExpectedImprovement, ObjectiveModel};
use bosweep::compute::{CpuEngine, Points};
use bosweep::model::GpState;
use bosweep::surrogate::OutputTransform;
use serde_json::Value;

use crate::common::{
    cpu_run, fast_acquisition, held_gp, largest_error, outcome_models, run_to_trace, steps,
    without_timings,
};

/// The objective's GP and the two constraints', as BoTorch's ModelListGP holds them.
struct Reference {
    gps: Vec<GpState>,
    outputs: Vec<OutputTransform>,
    best_f: f64,
    candidates: Points,
    log_constrained_ei: Vec<f64>,
    log_pof: Vec<f64>,
}

impl Reference {
    /// Each GP with its standardisation, the objective's first.
    fn models(&self) -> Vec<ObjectiveModel<'_>> {
        outcome_models(&self.gps, &self.outputs)
    }
}

fn reference() -> Reference {
    let json: Value = serde_json::from_str(include_str!("data/logei_pof_botorch.json")).unwrap();
    let numbers = |v: &Value| -> Vec<f64> { serde_json::from_value(v.clone()).unwrap() };
    let rows = |v: &Value| -> Vec<Vec<f64>> { serde_json::from_value(v.clone()).unwrap() };
    let train = Points::from_rows(&rows(&json["train_x"])).unwrap();
    let (gps, outputs) = rows(&json["train_y"])
        .iter()
        .zip(json["gps"].as_array().unwrap())
        .map(|(y, held)| held_gp(&train, y, held))
        .unzip();
    Reference {
        gps,
        outputs,
        best_f: json["best_f"].as_f64().unwrap(),
        candidates: Points::from_rows(&rows(&json["candidates"])).unwrap(),
        log_constrained_ei: numbers(&json["log_constrained_ei"]),
        log_pof: numbers(&json["log_pof"]),
    }
}

/// bosweep's value is BoTorch's to 1e-9 relative at 20 candidates, from −310 (deep in the
/// infeasible region) to −2.9. bosweep takes log EI in the objective's standardised units, as
/// `logei` does, so BoTorch's value (in the objective's own units) is `ln s` more. The
/// probability of feasibility alone (the acquisition before a feasible point) is BoTorch's to
/// 1e-9 relative where its magnitude is at least 1, and to 1e-9 absolutely below: BoTorch's
/// `log_ndtr` of a likely feasible point is `ln erfc − ln 2`, exact to 1e-16 absolutely, not
/// relatively (its −4.2e-13 is bosweep's to 2.3e-17).
#[test]
fn matches_botorch_on_fixed_data_and_hyperparameters() {
    let r = reference();
    let engine = CpuEngine::new();
    let models = r.models();
    let shift = r.outputs[0].std.ln();
    let acquisition =
        LogConstrainedExpectedImprovement::new(models[0], r.best_f, &models[1..]).unwrap();
    let got: Vec<f64> = acquisition
        .evaluate(&engine, &r.candidates)
        .unwrap()
        .iter()
        .map(|v| v + shift)
        .collect();
    let error = largest_error(&got, &r.log_constrained_ei, 0.0);
    eprintln!("log constrained EI: largest relative error {error:e}");
    assert!(
        error <= 1e-9,
        "{got:?} vs BoTorch {:?}",
        r.log_constrained_ei
    );

    let feasibility = LogConstrainedExpectedImprovement::feasibility(&models[1..]).unwrap();
    let got = feasibility.evaluate(&engine, &r.candidates).unwrap();
    let error = largest_error(&got, &r.log_pof, 1.0);
    eprintln!("log probability of feasibility: largest error {error:e}");
    assert!(error <= 1e-9, "{got:?} vs BoTorch {:?}", r.log_pof);
}

/// The GPU backend's posteriors give the CPU's values: to 1e-9 in f64, and in f32 to 1e-3 of
/// each value's magnitude (at least 1), as qLogNEI's.
#[test]
fn gpu_matches_cpu() {
    let r = reference();
    let models = r.models();
    let acquisition =
        LogConstrainedExpectedImprovement::new(models[0], r.best_f, &models[1..]).unwrap();
    let feasibility = LogConstrainedExpectedImprovement::feasibility(&models[1..]).unwrap();
    let cpu = CpuEngine::new();
    for gpu in crate::common::gpus() {
        let tolerance = crate::common::acquisition_tolerance(&gpu);
        for acquisition in [&acquisition, &feasibility] {
            let expected = acquisition.evaluate(&cpu, &r.candidates).unwrap();
            let got = acquisition.evaluate(&gpu, &r.candidates).unwrap();
            let error = largest_error(&got, &expected, 1.0);
            assert!(
                error <= tolerance,
                "{:?}: {got:?} vs {expected:?}",
                gpu.precision()
            );
        }
    }
}

/// `logei-pof` on Gramacy et al.'s constrained problem (budget 25, 8 design points, seed 4, the
/// debug runs' small acquisition grid):
/// the same trace twice, the timings aside, a feasible point found and recommended, and the
/// recommendation the best feasible point evaluated.
#[test]
fn a_constrained_gramacy_run_is_reproducible_and_ends_feasible() {
    let params = fast_acquisition();
    let run = || cpu_run("logei-pof", &params, "constrained-gramacy", 25, 8, 4);
    let (_, first) = run();
    let (_, second) = run();
    assert_eq!(without_timings(&first), without_timings(&second));
    let steps = steps(first);
    let last = steps.last().unwrap();
    assert_eq!(last["recommended_feasible"], Value::Bool(true), "{last}");
    let best = steps
        .iter()
        .filter(|s| s["feasible"] == Value::Bool(true))
        .min_by(|a, b| {
            a["y"]
                .as_f64()
                .unwrap()
                .total_cmp(&b["y"].as_f64().unwrap())
        })
        .unwrap();
    assert_eq!(last["recommended_x"], best["x"]);
    assert_eq!(last["best_value"], best["y"]);
}

/// `logei-pof` in batches of 3 on the same problem (budget 23, 8 design points, seed 4): each
/// batch's later points under the Kriging believer of every model are distinct points; the same
/// trace twice, the timings aside; a feasible point found.
#[test]
fn batches_under_the_kriging_believer_are_distinct_and_reproducible() {
    use bosweep::algorithms;
    use bosweep::problems;
    use bosweep::sweep::{Parallel, RunConfig};

    let params = fast_acquisition();
    let run = || {
        let problem = problems::build("constrained-gramacy", &[]).unwrap();
        let mut algorithm = algorithms::build("logei-pof", &params).unwrap();
        let config = RunConfig {
            budget: 23,
            init: 8,
            seed: 4,
            design_seed: 4,
            parallel: Parallel {
                batch: 3,
                ..Parallel::default()
            },
        };
        let engine = CpuEngine::new();
        run_to_trace(
            problem.as_ref(),
            algorithm.as_mut(),
            "logei-pof",
            &engine,
            &config,
        )
        .1
    };
    let (first, second) = (run(), run());
    assert_eq!(without_timings(&first), without_timings(&second));
    let steps = steps(first);
    assert_eq!(steps.len(), 23);
    for batch in steps[8..].chunks(3) {
        for (i, step) in batch.iter().enumerate() {
            assert!(
                batch[..i].iter().all(|other| other["x"] != step["x"]),
                "a batch repeated a point: {batch:?}"
            );
        }
    }
    assert!(steps.iter().any(|s| s["feasible"] == Value::Bool(true)));
}
