//! Constrained problems from the command line: the run's summary, the refusal of methods that
//! ignore constraints, and a sweep whose report counts the runs without a feasible point.

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
        ],
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
