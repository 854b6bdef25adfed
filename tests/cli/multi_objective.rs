//! Problems of several objectives from the command line: a command printing a list of values,
//! the run's summary and trace, the errors that name what is wrong, and a sweep with its report.

use std::path::Path;

use serde_json::Value;

use crate::common::{assert_contains, bosweep, exited, run_args, sandbox, succeeded, sweep_config};

/// Schaffer's problem as a shell command: x² and (x − 2)², printed as `[f1, f2]`, or inside
/// `{"objectives": …}` with `wrapped`.
fn schaffer(wrapped: bool) -> String {
    let (open, close) = if wrapped {
        ("{\\\"objectives\\\": [", "]}")
    } else {
        ("[", "]")
    };
    format!(
        "read p; x=$(echo \"$p\" | tr -d '[] '); awk -v x=\"$x\" 'BEGIN {{ printf \"{open}%.17g, %.17g{close}\\n\", x*x, (x-2)*(x-2) }}'"
    )
}

fn trace_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The 2-D hypervolume of `points` up to `r`.
fn hypervolume(points: &[[f64; 2]], r: [f64; 2]) -> f64 {
    let mut inside: Vec<[f64; 2]> = points
        .iter()
        .copied()
        .filter(|p| p[0] < r[0] && p[1] < r[1])
        .collect();
    inside.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    let (mut volume, mut ceiling) = (0.0, r[1]);
    for p in inside {
        if p[1] < ceiling {
            volume += (r[0] - p[0]) * (ceiling - p[1]);
            ceiling = p[1];
        }
    }
    volume
}

fn run_schaffer(dir: &Path, wrapped: bool, extra: &[&str]) -> std::process::Output {
    let cmd = schaffer(wrapped);
    let args = [
        &[
            "run",
            "--algo",
            "random",
            "--objective-cmd",
            cmd.as_str(),
            "--bounds",
            "-5:5",
            "--budget",
            "12",
            "--init",
            "3",
            "--out",
            "t.jsonl",
        ][..],
        extra,
    ]
    .concat();
    bosweep(dir, &args)
}

#[test]
fn a_command_of_two_objectives_gives_a_front_and_its_hypervolume() {
    for wrapped in [false, true] {
        let dir = sandbox("multi-objective", &format!("command-{wrapped}"));
        let out = run_schaffer(
            &dir,
            wrapped,
            &["--objectives", "2", "--reference-point", "4,4"],
        );
        succeeded(&out);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_contains(&text, &["non-dominated points = ", "hypervolume = "]);
        let lines = trace_lines(&dir.join("t.jsonl"));
        let header = &lines[0]["header"];
        assert_eq!(header["objectives"], 2);
        assert_eq!(header["reference_point"], serde_json::json!([4.0, 4.0]));
        assert_eq!(header["problem_parameters"]["objectives"], 2);
        let mut seen = Vec::new();
        for step in &lines[1..] {
            let x = step["x"][0].as_f64().unwrap();
            let v = step["objectives"].as_array().unwrap();
            let v = [v[0].as_f64().unwrap(), v[1].as_f64().unwrap()];
            assert_eq!(v, [x * x, (x - 2.0) * (x - 2.0)]);
            assert!(step["y"].is_null() && step["log_hv_difference"].is_null());
            seen.push(v);
            let hv = step["hypervolume"].as_f64().unwrap();
            assert!((hv - hypervolume(&seen, [4.0, 4.0])).abs() < 1e-12);
        }
        assert_eq!(seen.len(), 12);
    }
}

#[test]
fn wrong_output_and_settings_are_named() {
    let dir = sandbox("multi-objective", "errors");
    for (cmd, needle) in [
        ("echo 1", "not a JSON list of 2 numbers"),
        ("echo '[1, 2, 3]'", "printed 3 objective value(s)"),
        ("echo '[1, null]'", "objective 2 printed as null"),
    ] {
        let out = bosweep(
            &dir,
            &[
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
                "--objectives",
                "2",
            ],
        );
        assert_contains(&exited(&out, 1), &[needle]);
    }
    for (extra, needle) in [
        (
            &["--objectives", "2", "--senses", "min"][..],
            "--senses: \"min\": 1 senses for 2 objectives",
        ),
        (
            &["--objectives", "2", "--senses", "min,up"],
            "\"up\" is neither min nor max",
        ),
        (
            &["--objectives", "2", "--reference-point", "1"],
            "--reference-point: \"1\"",
        ),
        (
            &["--reference-point", "1,1"],
            "--reference-point: \"1,1\": needs objectives ≥ 2",
        ),
    ] {
        let out = run_schaffer(&dir, false, extra);
        assert_contains(&exited(&out, 2), &[needle]);
    }
    let out = bosweep(
        &dir,
        &[
            "run",
            "--algo",
            "ei",
            "--objective-cmd",
            "echo '[1, 2]'",
            "--bounds",
            "0:1",
            "--budget",
            "3",
            "--objectives",
            "2",
        ],
    );
    assert_contains(
        &exited(&out, 2),
        &["algorithm \"ei\" optimises one objective; problem \"command\" has 2"],
    );
}

#[test]
fn nsga2_and_random_sweep_registered_problems_into_a_report() {
    let dir = sandbox("multi-objective", "sweep");
    let out = bosweep(
        &dir,
        &run_args(
            "nsga2",
            "zdt1",
            "40",
            &["--init", "10", "--problem-param", "dim=4"],
        ),
    );
    // Without --out the trace goes to stdout and the summary to stderr.
    assert_contains(
        &succeeded(&out),
        &[
            "nsga2 on zdt1",
            "log10 hypervolume difference = ",
            "IGD+ = ",
        ],
    );
    let config = r#"
seed = 5
replicates = 2
budget = 30
init = 10

[[algorithm]]
name = "random"

[[algorithm]]
name = "nsga2"
population = 8

[[problem]]
name = "zdt1"
dim = 4

[[problem]]
name = "dtlz7"
dim = 4
objectives = 2

[[problem]]
name = "dtlz2"
dim = 4
objectives = 3
"#;
    succeeded(&sweep_config(&dir, "mo.toml", config, "out", &[]));
    let report = std::fs::read_to_string(dir.join("out/report.md")).unwrap();
    assert_contains(
        &report,
        &[
            "## Problem `zdt1[dim=4]`: ZDT1",
            "A problem of 2 objectives: its regret is the hypervolume difference",
            "## Problem `dtlz7[dim=4,objectives=2]`: DTLZ7",
            "(best mean final hypervolume, maximised; the maximum hypervolume is unknown",
            // Metric names: the hypervolume difference and the hypervolume, not regrets.
            "| algorithm | runs | hypervolume difference, best evaluated (mean) |",
            "(lowest mean final hypervolume difference)",
            "Wilcoxon signed-rank on the final hypervolume difference",
            "![hypervolume difference vs evaluations](plots/zdt1_dim=4_-hv-difference.png)",
            "hypervolume vs evaluations [PNG](plots/dtlz7_dim=4_objectives=2_-hypervolume.png)",
        ],
    );
    assert!(!report.contains("regret of the"), "{report}");
    // Several objectives have no cumulative regret, so their tables have no such column; each
    // row has as many cells as the header.
    assert!(!report.contains("cumulative regret (mean)"), "{report}");
    let table: Vec<&str> = report
        .lines()
        .skip_while(|l| !l.starts_with("| algorithm | runs | hypervolume difference"))
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(table.len(), 4, "{report}");
    let cells = |line: &str| line.matches('|').count();
    assert!(
        table.iter().all(|l| cells(l) == cells(table[0])),
        "{table:?}"
    );
    objective_space_figures(&dir.join("out"), &report);
    // The summary's regret of ZDT1 is the runs' final HV_max − HV.
    let summary = std::fs::read_to_string(dir.join("out/summary.csv")).unwrap();
    let row = summary
        .lines()
        .find(|l| l.starts_with("zdt1[dim=4],random,"))
        .unwrap();
    let regret: f64 = row.split(',').nth(3).unwrap().parse().unwrap();
    let mut finals = Vec::new();
    for entry in std::fs::read_dir(dir.join("out/runs")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.contains("-random-zdt1") {
            let lines = trace_lines(&path);
            let last = lines.last().unwrap();
            finals.push(120.0 + 2.0 / 3.0 - last["hypervolume"].as_f64().unwrap());
        }
    }
    assert_eq!(finals.len(), 2);
    let mean = finals.iter().sum::<f64>() / 2.0;
    assert!((regret - mean).abs() < 1e-9 * mean, "{regret} {mean}");
}

/// The figures in objective space of the sweep in `out`, whose `report.md` is `report`: for
/// ZDT1 (two objectives) the median runs' final sets, named in the caption (the lower of the
/// two replicates' final hypervolumes, read from the traces), with axes naming the objectives,
/// and the attainment surfaces; for DTLZ2 in three objectives the pairwise projections and no
/// attainment surfaces.
fn objective_space_figures(out: &Path, report: &str) {
    // Random search's median of two runs on ZDT1: the one of lower final hypervolume.
    let mut finals = Vec::new();
    for replicate in 0..2 {
        let name = format!("-random-zdt1_dim=4_-r{replicate}.jsonl");
        let path = std::fs::read_dir(out.join("runs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.to_string_lossy().ends_with(&name))
            .unwrap_or_else(|| panic!("no trace ending in {name}"));
        let last = trace_lines(&path).pop().unwrap();
        finals.push((last["hypervolume"].as_f64().unwrap(), replicate));
    }
    finals.sort_by(|a, b| a.0.total_cmp(&b.0));
    let median = finals[0].1;
    assert_contains(
        report,
        &[
            "### In objective space",
            "![final non-dominated sets of the median runs](plots/zdt1_dim=4_-front.png)",
            "the one whose final hypervolume is the median",
            &format!("Median runs: `random` replicate {median} of 2 (final hypervolume "),
            "`nsga2[population=8]` replicate ",
            "the true front's sample in grey",
            "the reference point (11, 11) is outside the view",
            "![attainment surfaces](plots/zdt1_dim=4_-attainment.png)",
            "Runs: `random` 2 runs (median k = 1); `nsga2[population=8]` 2 runs (median k = 1)",
            "![final non-dominated sets of the median runs](plots/dtlz2_dim=4_objectives=3_-front.png)",
            "The 3 objectives are shown as their pairwise projections",
        ],
    );
    assert!(!report.contains("dtlz2_dim=4_objectives=3_-attainment"));
    let plots = out.join("plots");
    assert!(
        !plots
            .join("dtlz2_dim=4_objectives=3_-attainment.png")
            .exists()
    );
    for (name, labels) in [
        (
            "zdt1_dim=4_-front",
            &["f1 (minimised)", "f2 (minimised)"][..],
        ),
        (
            "zdt1_dim=4_-attainment",
            &["f1 (minimised)", "f2 (minimised)"],
        ),
        (
            "dtlz2_dim=4_objectives=3_-front",
            &[
                "f1 (minimised)",
                "f2 (minimised)",
                "f3 (minimised)",
                "pairwise projections",
            ],
        ),
    ] {
        let svg = std::fs::read_to_string(plots.join(format!("{name}.svg"))).unwrap();
        assert_contains(&svg, labels);
        let png = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(plots.join(format!("{name}.png"))).unwrap(),
        ))
        .read_info()
        .unwrap();
        assert_eq!((png.info().width, png.info().height), (1136, 757), "{name}");
    }
    // The page embeds them, captions and all.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_contains(
        &html,
        &[
            "In objective space",
            "alt=\"attainment surfaces\"",
            "alt=\"final non-dominated sets of the median runs\"",
            &format!("Median runs: <code>random</code> replicate {median} of 2"),
        ],
    );
}

/// `bosweep indicators` on hand-computed values: the front {(1, 3), (2, 2), (3, 1)} plus the
/// dominated (3, 3) has hypervolume 6 up to (4, 4); against the front {(0, 2), (1, 1), (2, 0)}
/// every reference point is √2 away (IGD, IGD+) and 1 short in its worse objective (ε).
#[test]
fn indicators_of_a_csv_of_points() {
    let dir = sandbox("multi-objective", "indicators");
    std::fs::write(dir.join("p.csv"), "f1,f2\n1,3\n2,2\n3,1\n3,3\n").unwrap();
    std::fs::write(dir.join("z.csv"), "f1,f2\n0,2\n1,1\n2,0\n").unwrap();
    let out = bosweep(
        &dir,
        &[
            "indicators",
            "--points",
            "p.csv",
            "--reference",
            "4,4",
            "--front",
            "z.csv",
        ],
    );
    succeeded(&out);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("points,non_dominated,hypervolume,igd,igd_plus,epsilon_additive")
    );
    let row: Vec<f64> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    let root2 = std::f64::consts::SQRT_2;
    for (got, want) in row.iter().zip([4.0, 3.0, 6.0, root2, root2, 1.0]) {
        assert!((got - want).abs() < 1e-12, "{row:?}");
    }
    // The second objective maximised: (1, 3) dominates the rest; (4 − 1) · (3 − (−4)) = 21.
    let out = bosweep(
        &dir,
        &[
            "indicators",
            "--points",
            "p.csv",
            "--reference",
            "4,-4",
            "--senses",
            "min,max",
        ],
    );
    assert_contains(&String::from_utf8_lossy(&out.stdout), &["1,21"]);
    for (args, needle) in [
        (
            &["--reference", "4"][..],
            "--reference: 1 values for the 2 columns of p.csv",
        ),
        (
            &["--senses", "min,up"],
            "--senses: \"up\" is neither min nor max",
        ),
        (&["--front", "missing.csv"], "missing.csv"),
    ] {
        let out = bosweep(
            &dir,
            &[&["indicators", "--points", "p.csv"][..], args].concat(),
        );
        assert_contains(&exited(&out, 2), &[needle]);
    }
}
