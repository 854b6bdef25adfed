//! Baseline BO through the run loop: reproducibility, the trace schema of the conventions,
//! GP-UCB against random search, and CPU/GPU agreement.

mod common;

use bosweep::compute::{CpuEngine, Engine, Precision};
use bosweep::sweep::RunSummary;
use common::{RunRequest, without_timings};
use serde_json::Value;

/// Runs `algo` with its defaults on `problem` (see [`common::traced_run`]).
fn traced_run(
    engine: &dyn Engine,
    algo: &str,
    problem: &str,
    budget: usize,
    init: usize,
    seed: u64,
) -> (RunSummary, Vec<Value>) {
    common::traced_run(
        engine,
        &RunRequest {
            algo,
            params: &[],
            problem,
            budget,
            init,
            seed,
        },
    )
}

#[test]
fn same_seed_gives_the_same_trace_on_the_cpu() {
    let cpu = CpuEngine::new();
    for algo in ["random", "gp-ucb", "ei"] {
        let (_, a) = traced_run(&cpu, algo, "branin", 14, 5, 3);
        let (_, b) = traced_run(&cpu, algo, "branin", 14, 5, 3);
        assert_eq!(without_timings(&a), without_timings(&b), "{algo}");
        let (_, c) = traced_run(&cpu, algo, "branin", 14, 5, 4);
        assert_ne!(
            without_timings(&a)[1..],
            without_timings(&c)[1..],
            "{algo}: seeds 3 and 4 agree"
        );
    }
}

#[test]
fn trace_follows_the_conventions() {
    let cpu = CpuEngine::new();
    let (summary, lines) = traced_run(&cpu, "gp-ucb", "branin", 12, 4, 1);
    let header = &lines[0]["header"];
    for key in [
        "algorithm",
        "algorithm_parameters",
        "problem",
        "problem_parameters",
        "seed",
        "device",
        "bosweep_version",
    ] {
        assert!(!header[key].is_null(), "header lacks {key}");
    }
    assert_eq!(header["algorithm_parameters"]["ucb_multiplier"], 2.0);
    let steps = &lines[1..];
    assert_eq!(steps.len(), 12);
    let optimum = 5.0 / (4.0 * std::f64::consts::PI);
    let mut cumulative = 0.0;
    let mut best = f64::INFINITY;
    for (i, s) in steps.iter().enumerate() {
        for key in [
            "iter",
            "phase",
            "x",
            "y",
            "repeats",
            "evals",
            "context",
            "t",
            "f",
            "best_value",
            "recommended_x",
            "instant_regret",
            "cumulative_regret",
            "simple_regret",
            "model_seconds",
            "acq_seconds",
            "extra",
        ] {
            assert!(s.get(key).is_some(), "step {i} lacks {key}");
        }
        assert_eq!(s["iter"], i + 1);
        assert_eq!(s["phase"], if i < 4 { "init" } else { "opt" });
        assert_eq!(s["evals"], i + 1);
        assert!(s["t"].is_null() && s["context"].is_null());
        let f = s["f"].as_f64().unwrap();
        assert_eq!(f, s["y"].as_f64().unwrap(), "noise-free: y is f");
        let instant = s["instant_regret"].as_f64().unwrap();
        assert!((instant - (f - optimum)).abs() < 1e-12 && instant >= 0.0);
        cumulative += instant;
        assert!((s["cumulative_regret"].as_f64().unwrap() - cumulative).abs() < 1e-9);
        best = best.min(f);
        assert_eq!(s["best_value"].as_f64().unwrap(), best);
        assert!(s["simple_regret"].as_f64().unwrap() >= 0.0);
    }
    assert_eq!(summary.evals, 12);
    assert_eq!(
        summary.cumulative_regret.unwrap(),
        steps[11]["cumulative_regret"].as_f64().unwrap()
    );
}

/// The check: on Branin with 10 fixed seeds, GP-UCB's median final simple regret after
/// 50 evaluations is below random search's.
#[test]
fn gp_ucb_beats_random_search_on_branin() {
    let cpu = CpuEngine::new();
    let median = |algo: &str| {
        let mut regrets: Vec<f64> = (0..10)
            .map(|seed| {
                traced_run(&cpu, algo, "branin", 50, 10, seed)
                    .0
                    .simple_regret
                    .unwrap()
            })
            .collect();
        regrets.sort_by(f64::total_cmp);
        (regrets[4] + regrets[5]) / 2.0
    };
    let (ucb, random) = (median("gp-ucb"), median("random"));
    assert!(
        ucb < random,
        "GP-UCB median regret {ucb} not below random's {random}"
    );
    assert!(ucb < 1e-2, "GP-UCB median regret {ucb}");
}

/// Same decisions on both backends, up to ties: compared with the GPU in f64, where the
/// posteriors agree to ~1e-14 (f32 rounding can reorder near-tied grid points).
#[test]
fn cpu_and_gpu_make_the_same_decisions() {
    let Some(gpu) = common::gpu(Precision::F64) else {
        return;
    };
    let cpu = CpuEngine::new();
    for algo in ["gp-ucb", "ei"] {
        let (_, a) = traced_run(&cpu, algo, "branin", 12, 5, 2);
        let (_, b) = traced_run(&gpu, algo, "branin", 12, 5, 2);
        for (s, t) in a[1..].iter().zip(&b[1..]) {
            let (x, y): (Vec<f64>, Vec<f64>) = (
                serde_json::from_value(s["x"].clone()).unwrap(),
                serde_json::from_value(t["x"].clone()).unwrap(),
            );
            let gap = x
                .iter()
                .zip(&y)
                .map(|(p, q)| (p - q).abs())
                .fold(0.0, f64::max);
            assert!(gap < 1e-4, "{algo} step {}: {x:?} vs {y:?}", s["iter"]);
        }
    }
}

/// Runs with one seed start from the same initial design whatever the algorithm, so that
/// methods are compared on paired designs.
#[test]
fn algorithms_share_the_initial_design_of_a_seed() {
    let engine = CpuEngine::new();
    let init_points = |algo: &str| {
        let request = RunRequest {
            algo,
            params: &[],
            problem: "branin",
            budget: 6,
            init: 4,
            seed: 11,
        };
        let (_, lines) = common::traced_run(&engine, &request);
        lines[1..5]
            .iter()
            .map(|l| l["x"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(init_points("random"), init_points("gp-ucb"));
    assert_eq!(init_points("random"), init_points("boke"));
}
