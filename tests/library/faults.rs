//! GPU loss mid-run, through the real device-lost path (the device is destroyed by
//! `GpuOptions::lose_device_after`): a bare GPU engine reports it as a GPU error, never a panic;
//! the `--device auto` engine finishes the run on the CPU with a warning in the trace.

use crate::common;

use std::process::Command;

use bosweep::compute::{
    CpuEngine, Engine, EngineError, FailoverEngine, GpuEngine, GpuOptions, Points,
};
use bosweep::model::{Kernel, KernelKind};
use common::{RunRequest, gpu_with, traced_run};

fn losing_gpu(after: usize) -> Option<GpuEngine> {
    gpu_with(GpuOptions {
        lose_device_after: Some(after),
        ..Default::default()
    })
}

fn covariance(engine: &dyn Engine) -> Result<Vec<f64>, EngineError> {
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.5], 2.0).unwrap();
    let a = Points::new(vec![0.0, 0.25, 1.0], 1).unwrap();
    Ok(engine
        .cross_covariance(&kernel, &a, &a)?
        .iter()
        .copied()
        .collect())
}

#[test]
fn a_lost_device_fails_every_later_operation_with_a_gpu_error() {
    let Some(gpu) = losing_gpu(1) else { return };
    assert!(
        covariance(&gpu).is_ok(),
        "the first operation runs before the loss"
    );
    for _ in 0..2 {
        match covariance(&gpu) {
            Err(EngineError::Gpu(message)) => assert!(!message.is_empty()),
            other => panic!("expected a GPU error after the device loss, got {other:?}"),
        }
    }
}

#[test]
fn failover_engine_answers_from_the_cpu_after_the_loss() {
    let Some(gpu) = losing_gpu(1) else { return };
    let engine = FailoverEngine::new(gpu);
    assert!(engine.warnings().is_empty());
    covariance(&engine).unwrap();
    let after = covariance(&engine).unwrap();
    assert_eq!(after, covariance(&CpuEngine::new()).unwrap());
    let warnings = engine.warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("continuing on the CPU backend"));
    assert!(engine.describe().contains("after the GPU failed"));
}

#[test]
fn a_run_survives_gpu_loss_and_its_trace_says_where() {
    let Some(gpu) = losing_gpu(3) else { return };
    let engine = FailoverEngine::new(gpu);
    let request = RunRequest {
        algo: "gp-ucb",
        params: &[],
        problem: "branin",
        budget: 10,
        init: 4,
        seed: 7,
    };
    let (summary, lines) = traced_run(&engine, &request);
    assert_eq!(summary.evals, 10);
    let warned: Vec<_> = lines[1..]
        .iter()
        .filter(|l| l.get("warnings").is_some())
        .collect();
    assert_eq!(warned.len(), 1, "exactly one step reports the loss");
    let step = warned[0]["iter"].as_u64().unwrap();
    assert!(
        step > 4,
        "the loss happens in the optimisation phase, got step {step}"
    );
    assert!(
        warned[0]["warnings"][0]
            .as_str()
            .unwrap()
            .contains("GPU failed")
    );
}

#[test]
fn forced_gpu_stops_with_exit_1_and_a_bad_fault_count_is_a_usage_error() {
    if losing_gpu(0).is_none() {
        return;
    }
    let out_dir = std::env::temp_dir().join(format!("bosweep-faults-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let run = |fault: &str| {
        Command::new(env!("CARGO_BIN_EXE_bosweep"))
            .args([
                "--device",
                "gpu",
                "run",
                "--algo",
                "gp-ucb",
                "--problem",
                "branin",
            ])
            .args(["--budget", "8", "--init", "3", "--out"])
            .arg(out_dir.join(format!("trace-{fault}.jsonl")))
            .env("BOSWEEP_FAULT_GPU_LOSS_AFTER", fault)
            .output()
            .unwrap()
    };
    let lost = run("2");
    let stderr = String::from_utf8_lossy(&lost.stderr);
    assert_eq!(lost.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("GPU error"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let bad = run("soon");
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("BOSWEEP_FAULT_GPU_LOSS_AFTER") && stderr.contains("soon"));
    std::fs::remove_dir_all(&out_dir).unwrap();
}
