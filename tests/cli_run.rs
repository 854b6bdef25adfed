//! `bosweep run` and `bosweep list` from the command line: exit codes, messages, and traces that
//! keep every completed evaluation when the objective fails.

use std::path::PathBuf;
use std::process::{Command, Output};

fn bosweep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bosweep"))
        .arg("--device")
        .arg("cpu")
        .args(args)
        .output()
        .unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bosweep-cli-run-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!text.contains("panicked"), "{text}");
    text
}

fn expect_usage_error(args: &[&str], needle: &str) {
    let out = bosweep(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

#[test]
fn list_shows_algorithms_problems_and_defaults() {
    let out = bosweep(&["list"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "gp-ucb",
        "ei",
        "random",
        "ucb_multiplier = 2",
        "branin",
        "hartmann6",
        "noise_std = 0",
        "minimize",
    ] {
        assert!(text.contains(needle), "list lacks {needle}");
    }
}

#[test]
fn run_writes_a_trace_and_a_summary() {
    let dir = temp_dir("ok");
    let trace = dir.join("t.jsonl");
    let out = bosweep(&[
        "run",
        "--algo",
        "gp-ucb",
        "--problem",
        "branin",
        "--budget",
        "12",
        "--init",
        "5",
        "--seed",
        "1",
        "--noise-std",
        "0.1",
        "--param",
        "ucb_multiplier=1.5",
        "--out",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary = String::from_utf8(out.stdout).unwrap();
    assert!(
        summary.contains("recommended x = [") && summary.contains("simple regret = "),
        "{summary}"
    );
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 13);
    assert_eq!(
        lines[0]["header"]["algorithm_parameters"]["ucb_multiplier"],
        1.5
    );
    assert_eq!(lines[0]["header"]["problem_parameters"]["noise_std"], 0.1);
    let last = &lines[12];
    assert_ne!(last["y"], last["f"], "noisy observations differ from f");
}

#[test]
fn bad_run_input_exits_2_naming_the_problem() {
    let base = ["run", "--problem", "branin", "--budget", "5", "--init", "2"];
    let with = |extra: &[&'static str]| [&base[..], extra].concat();
    expect_usage_error(
        &with(&["--algo", "gp-ucbb"]),
        "unknown algorithm \"gp-ucbb\"",
    );
    expect_usage_error(
        &[
            "run",
            "--algo",
            "random",
            "--problem",
            "bran",
            "--budget",
            "5",
        ],
        "unknown problem \"bran\"",
    );
    expect_usage_error(
        &with(&["--algo", "gp-ucb", "--param", "ucb_multiplier"]),
        "not of the form key=value",
    );
    expect_usage_error(
        &with(&["--algo", "gp-ucb", "--param", "kappa=2"]),
        "unknown parameter \"kappa\"",
    );
    expect_usage_error(
        &with(&["--algo", "gp-ucb", "--param", "ucb_multiplier=-1"]),
        "ucb_multiplier",
    );
    expect_usage_error(
        &with(&["--algo", "random", "--noise-std", "-1"]),
        "noise_std",
    );
    expect_usage_error(
        &with(&["--algo", "random", "--problem-param", "dim=0"]),
        "unknown parameter \"dim\"",
    );
    expect_usage_error(
        &[
            "run",
            "--algo",
            "random",
            "--problem",
            "ackley",
            "--budget",
            "5",
            "--init",
            "2",
            "--problem-param",
            "dim=0",
        ],
        "dim",
    );
    expect_usage_error(
        &[
            "run",
            "--algo",
            "random",
            "--problem",
            "branin",
            "--budget",
            "3",
            "--init",
            "5",
        ],
        "--init: value 5 exceeds the budget of 3",
    );
    expect_usage_error(
        &[
            "run",
            "--algo",
            "random",
            "--problem",
            "branin",
            "--budget",
            "0",
            "--init",
            "0",
        ],
        "--budget",
    );
    expect_usage_error(
        &[
            "run",
            "--algo",
            "random",
            "--objective-cmd",
            "echo 1",
            "--bounds",
            "0:1,2",
            "--budget",
            "3",
        ],
        "--bounds: entry 2",
    );
    expect_usage_error(
        &[
            "run",
            "--algo",
            "random",
            "--objective-cmd",
            "echo 1",
            "--bounds",
            "1:0",
            "--budget",
            "3",
        ],
        "--bounds",
    );
}

/// An external objective that fails on its 4th call: the run stops with exit code 1 and the
/// trace holds the header and the three completed evaluations.
#[test]
fn failing_external_objective_keeps_completed_evaluations() {
    let dir = temp_dir("crash");
    let counter = dir.join("calls");
    let trace = dir.join("t.jsonl");
    let cmd = format!(
        "n=$(cat {c} 2>/dev/null || echo 0); n=$((n+1)); echo $n > {c}; [ $n -ge 4 ] && exit 7; echo 0.$n",
        c = counter.display()
    );
    let out = bosweep(&[
        "run",
        "--algo",
        "random",
        "--objective-cmd",
        &cmd,
        "--bounds",
        "0:1,-1:1",
        "--budget",
        "10",
        "--init",
        "2",
        "--out",
        trace.to_str().unwrap(),
    ]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("exited with") && err.contains("7"), "{err}");
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "header + 3 completed evaluations");
    assert_eq!(lines[3]["y"], 0.3);
    assert!(
        lines[3]["simple_regret"].is_null(),
        "unknown optimum gives null regret"
    );
}

#[test]
fn external_objective_garbage_and_timeouts_exit_1() {
    for (cmd, needle) in [
        ("echo banana", "not a number"),
        ("echo nan", "finite"),
        ("sleep 3; echo 1", "no answer within"),
    ] {
        let out = bosweep(&[
            "run",
            "--algo",
            "random",
            "--objective-cmd",
            cmd,
            "--bounds",
            "0:1",
            "--budget",
            "3",
            "--init",
            "1",
            "--objective-timeout",
            "0.3",
            "--out",
            temp_dir("garbage").join("t.jsonl").to_str().unwrap(),
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{cmd}: {err}");
        assert!(err.contains(needle), "{cmd}: {err}");
    }
}

#[test]
fn unwritable_trace_exits_1() {
    let out = bosweep(&[
        "run",
        "--algo",
        "random",
        "--problem",
        "branin",
        "--budget",
        "3",
        "--init",
        "1",
        "--out",
        "/nonexistent/dir/t.jsonl",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}
