//! Constrained problems from the command line: the run's summary, the refusal of methods that
//! ignore constraints, a command printing constraint values, and a sweep whose report counts
//! the runs without a feasible point.

use serde_json::Value;

use crate::common::{assert_contains, bosweep, exited, run_args, sandbox, succeeded, sweep_config};

#[test]
fn a_run_says_whether_its_recommendation_is_feasible() {
    let dir = sandbox("constrained", "run");
    let out = bosweep(
        &dir,
        &run_args("random", "welded-beam", "100", &["--seed", "1"]),
    );
    // A hundred uniform draws find no feasible welded beam: no value is reported.
    assert_contains(
        &succeeded(&out),
        &[
            "] (infeasible)",
            "best value = none (no feasible point evaluated)",
            "simple regret = unknown",
        ],
    );
    let out = bosweep(
        &dir,
        &run_args("random", "constrained-gramacy", "30", &["--seed", "1"]),
    );
    assert_contains(
        &succeeded(&out),
        &["] (feasible)", "(feasible points only)"],
    );
    let out = bosweep(&dir, &run_args("ei", "welded-beam", "10", &[]));
    assert_contains(
        &exited(&out, 2),
        &["algorithm \"ei\" ignores black-box constraints; problem \"welded-beam\" has 6"],
    );
}

#[test]
fn a_sweep_report_counts_the_runs_without_a_feasible_point() {
    let dir = sandbox("constrained", "sweep");
    let config = r#"
seed = 1
replicates = 4
budget = 8
init = 2

[[algorithm]]
name = "random"

[[algorithm]]
name = "nsga2"
population = 4

[[problem]]
name = "constrained-gramacy"

[[problem]]
name = "bnh"
"#;
    succeeded(&sweep_config(&dir, "c.toml", config, "out", &[]));
    let report = std::fs::read_to_string(dir.join("out/report.md")).unwrap();
    assert_contains(
        &report,
        &[
            "A constrained problem: values and regrets are those of feasible points only.",
            "| algorithm | runs without a feasible point | evaluations to the first feasible point (median) |",
            "feasible fraction vs evaluations [PNG](plots/constrained-gramacy-feasible-fraction.png)",
        ],
    );
    // No cumulative regret on a constrained problem, so no plot of it.
    assert!(
        !report.contains("constrained-gramacy-cumulative-regret"),
        "{report}"
    );
    assert!(
        dir.join("out/plots/constrained-gramacy-feasible-fraction.svg")
            .is_file()
    );
    // summary.csv's infeasible_runs agree with the traces: a run without a feasible step.
    let summary = std::fs::read_to_string(dir.join("out/summary.csv")).unwrap();
    let header: Vec<&str> = summary.lines().next().unwrap().split(',').collect();
    let column = header.iter().position(|c| *c == "infeasible_runs").unwrap();
    for algorithm in ["random", "nsga2[population=4]"] {
        let row: Vec<&str> = summary
            .lines()
            .find(|l| l.starts_with(&format!("constrained-gramacy,{algorithm},")))
            .unwrap()
            .split(',')
            .collect();
        let mut infeasible = 0;
        for entry in std::fs::read_dir(dir.join("out/runs")).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let stem = algorithm.split('[').next().unwrap();
            if name.contains(&format!("-{stem}")) && name.contains("constrained-gramacy") {
                let text = std::fs::read_to_string(&path).unwrap();
                infeasible += usize::from(!text.contains("\"feasible\":true"));
            }
        }
        assert_eq!(row[column], infeasible.to_string(), "{algorithm}");
    }
}

/// A command printing `{"objectives": [x + y], "constraints": [0.5 − x]}`: each step's trace
/// holds its constraint value and feasibility, recomputed here from the point; a command that
/// prints a bare number is an error naming what it printed.
#[test]
fn a_command_prints_its_constraint_values() {
    let dir = sandbox("constrained", "command");
    let script = dir.join("objective.sh");
    std::fs::write(
        &script,
        "read p; x=$(echo \"$p\" | tr -d '[] ' | cut -d, -f1); y=$(echo \"$p\" | tr -d '[] ' | cut -d, -f2); \
         awk -v x=\"$x\" -v y=\"$y\" 'BEGIN { printf \"{\\\"objectives\\\": [%.17g], \\\"constraints\\\": [%.17g]}\\n\", x + y, 0.5 - x }'\n",
    )
    .unwrap();
    let cmd = format!("sh {}", script.display());
    let trace = dir.join("trace.jsonl");
    let args = [
        "run",
        "--algo",
        "random",
        "--objective-cmd",
        &cmd,
        "--bounds",
        "0:1,0:1",
        "--constraints",
        "1",
        "--budget",
        "12",
        "--init",
        "3",
        "--out",
        trace.to_str().unwrap(),
    ];
    succeeded(&bosweep(&dir, &args));
    let lines: Vec<Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["header"]["constraints"], serde_json::json!(["c1"]));
    assert_eq!(lines[0]["header"]["problem_parameters"]["constraints"], 1);
    let mut best: Option<f64> = None;
    for step in &lines[1..] {
        let x: Vec<f64> = step["x"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let c = step["constraints"][0].as_f64().unwrap();
        assert!((c - (0.5 - x[0])).abs() < 1e-15);
        assert_eq!(step["feasible"], Value::Bool(c <= 0.0));
        if c <= 0.0 {
            let y = x[0] + x[1];
            best = Some(best.map_or(y, |b: f64| b.min(y)));
        }
        match best {
            Some(b) => assert!((step["best_value"].as_f64().unwrap() - b).abs() < 1e-12),
            None => assert!(step["best_value"].is_null()),
        }
    }
    let bare = [
        "run",
        "--algo",
        "random",
        "--objective-cmd",
        "echo 1",
        "--bounds",
        "0:1",
        "--constraints",
        "1",
        "--budget",
        "3",
        "--init",
        "1",
    ];
    assert_contains(
        &exited(&bosweep(&dir, &bare), 1),
        &[
            "objective command `echo 1`",
            "printed \"1\", not {\"objectives\": [1 number(s)], \"constraints\": [1 number(s)]}",
        ],
    );
}
