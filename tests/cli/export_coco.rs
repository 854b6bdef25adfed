//! `bosweep export-coco`: a sweep's runs on `bbob` as COCO data — the layout, the `.info` index
//! and the data rows cocopp reads, checked against the sweep's own traces.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{assert_contains, bosweep, exited, succeeded, sweep_config};

const CONFIG: &str = r#"
seed = 3
replicates = 2
budget = 6
init = 4

[[algorithm]]
name = "random"

[[problem]]
name = "bbob"
function = [1, 20]
instance = [1, 7]
dim = 2

[[problem]]
name = "branin"
"#;

fn sandbox(name: &str) -> PathBuf {
    crate::common::sweep_sandbox("coco", name, CONFIG)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The (evals, f) steps of every bbob trace of `function`, instance by instance in run order.
fn traces(sweep: &Path, function: usize) -> Vec<(usize, Vec<(usize, f64)>)> {
    let mut names: Vec<_> = std::fs::read_dir(sweep.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    let mut out = Vec::new();
    for path in names {
        let text = read(&path);
        let mut lines = text.lines();
        let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        let params = &header["header"]["problem_parameters"];
        if header["header"]["problem"] != "bbob" || params["function"] != function {
            continue;
        }
        let steps = lines
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                (
                    v["evals"].as_u64().unwrap() as usize,
                    v["f"].as_f64().unwrap(),
                )
            })
            .collect();
        out.push((params["instance"].as_u64().unwrap() as usize, steps));
    }
    out
}

#[test]
fn bbob_runs_become_one_cocopp_folder_per_algorithm() {
    let dir = sandbox("layout");
    let run = bosweep(&dir, &["sweep", "sweep.toml", "--out", "s", "--no-report"]);
    succeeded(&run);
    let out = bosweep(&dir, &["export-coco", "s", "--out", "coco"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    succeeded(&out);
    // 2 functions × 2 instances × 2 replicates; Branin's runs are not bbob's.
    assert_contains(&stdout, &["8 runs on bbob"]);

    let alg = dir.join("coco/random");
    let mut entries: Vec<String> = std::fs::read_dir(&alg)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    entries.sort();
    assert_eq!(
        entries,
        ["bbobexp_f1.info", "bbobexp_f20.info", "data_f1", "data_f20"]
    );

    for (function, fopts) in [(1, [79.48, -1000.0]), (20, [-546.5, 71.29])] {
        let info = read(&alg.join(format!("bbobexp_f{function}.info")));
        let lines: Vec<&str> = info.lines().collect();
        assert_eq!(lines.len(), 3, "{info}");
        assert!(lines[0].starts_with(&format!(
            "suite = 'bbob', funcId = {function}, DIM = 2, Precision = 1.000e-08, algId = 'random'"
        )));
        assert!(
            lines[0].ends_with("data_format = 'bbob-new2'"),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with('%'));

        let trials = traces(&dir.join("s"), function);
        let data = format!("data_f{function}/bbobexp_f{function}_DIM2");
        let mut index = Vec::new();
        let dat = read(&alg.join(format!("{data}.dat")));
        assert_eq!(dat, read(&alg.join(format!("{data}.tdat"))));
        let blocks: Vec<&str> = dat.split('%').filter(|b| !b.is_empty()).collect();
        assert_eq!(blocks.len(), trials.len());
        for ((instance, steps), block) in trials.iter().zip(&blocks) {
            let fopt = fopts[if *instance == 1 { 0 } else { 1 }];
            let mut rows = block.lines();
            let header = rows.next().unwrap();
            assert!(
                header.contains("Fopt (") && header.contains(" | x1 | x2..."),
                "{header}"
            );
            let logged: f64 = header
                .split("Fopt (")
                .nth(1)
                .and_then(|r| r.split(')').next())
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(logged, fopt);
            let mut best = f64::INFINITY;
            let rows: Vec<Vec<f64>> = rows
                .map(|r| r.split(' ').map(|c| c.parse().unwrap()).collect())
                .collect();
            assert_eq!(rows.len(), steps.len());
            for ((evals, f), row) in steps.iter().zip(&rows) {
                best = best.min(*f);
                assert_eq!(row.len(), 5 + 2, "{row:?}");
                assert_eq!(row[0], *evals as f64);
                assert_eq!(row[1], 0.0);
                let delta = best - fopt;
                assert!(
                    (row[2] - delta).abs() <= 1e-9 * delta.abs().max(1e-300),
                    "{row:?}"
                );
            }
            index.push((format!("{instance}:6"), best - fopt));
        }
        // The index names the data file, then every trial with its evaluations and final Δf
        // (C's %.1e).
        let entries: Vec<&str> = lines[2].split(", ").collect();
        assert_eq!(entries[0], format!("{data}.dat"));
        assert_eq!(entries.len(), 1 + index.len(), "{}", lines[2]);
        for (entry, (trial, delta)) in entries[1..].iter().zip(&index) {
            let (got_trial, got_delta) = entry.split_once('|').unwrap();
            assert_eq!(got_trial, trial);
            assert!(
                got_delta.contains("e+") || got_delta.contains("e-"),
                "{entry}"
            );
            let got_delta: f64 = got_delta.parse().unwrap();
            assert!(
                (got_delta - delta).abs() <= 0.05 * delta.abs(),
                "{entry}: {delta}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 43: of the 24 BBOB functions only f1 and f24 were named anywhere; a report's headings
/// name each bbob setting's function, and other problems keep their plain heading.
#[test]
fn report_headings_name_the_bbob_function() {
    let dir = sandbox("titles");
    let run = bosweep(&dir, &["sweep", "sweep.toml", "--out", "s"]);
    succeeded(&run);
    let report = read(&dir.join("s/report.md"));
    for heading in [
        "## Problem `bbob[dim=2,function=1,instance=7]`: f1 Sphere\n",
        "## Problem `bbob[dim=2,function=20,instance=1]`: f20 Schwefel x·sin(x)\n",
        "## Problem `branin`\n",
    ] {
        assert!(report.contains(heading), "{heading}: {report}");
    }
}

#[test]
fn a_sweep_without_bbob_runs_is_refused() {
    let dir = sandbox("none");
    let branin = "seed = 1\nbudget = 3\ninit = 2\n[[algorithm]]\nname = \"random\"\n[[problem]]\nname = \"branin\"\n";
    succeeded(&sweep_config(
        &dir,
        "branin.toml",
        branin,
        "s",
        &["--no-report"],
    ));
    let out = bosweep(&dir, &["export-coco", "s", "--out", "coco"]);
    let err = exited(&out, 2);
    assert_contains(&err, &["no completed run on the problem bbob"]);
    assert!(!dir.join("coco").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_or_non_finite_trace_is_refused_naming_it() {
    let dir = sandbox("bad");
    let run = bosweep(&dir, &["sweep", "sweep.toml", "--out", "s", "--no-report"]);
    succeeded(&run);
    let bbob_trace = std::fs::read_dir(dir.join("s/runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().contains("bbob"))
        .unwrap();
    let name = bbob_trace
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let text = read(&bbob_trace);
    let mut lines: Vec<String> = text.lines().map(String::from).collect();

    // Step 2 (line 3) with f written as null, as a trace writes a non-finite value.
    let mut step: Value = serde_json::from_str(&lines[2]).unwrap();
    step["f"] = Value::Null;
    lines[2] = step.to_string();
    std::fs::write(&bbob_trace, lines.join("\n") + "\n").unwrap();
    let out = bosweep(&dir, &["export-coco", "s", "--out", "coco"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&name) && err.contains("step 2: \"f\" is not finite"),
        "{err}"
    );

    // A line that is not JSON: the report's reader names the file and the line.
    lines[2] = "{\"iter\": 2, oops".into();
    std::fs::write(&bbob_trace, lines.join("\n") + "\n").unwrap();
    let out = bosweep(&dir, &["export-coco", "s", "--out", "coco2"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(err.contains(&name) && err.contains("line 3"), "{err}");
    assert!(!dir.join("coco2").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

const BIOBJ_CONFIG: &str = r#"
seed = 5
budget = 40
init = 10

[[algorithm]]
name = "random"

[[problem]]
name = "bbob-biobj"
function = [1, 20]
instance = [1, 11]
dim = 2
"#;

/// COCO's `hyp` indicator after each step of a bbob-biobj trace, computed here from the trace's
/// objectives and hypervolume: COCO's best-known normalised hypervolume (1.0 where it has none)
/// less the hypervolume over the ideal–nadir box's area, plus, while that is 0, the normalised
/// distance of the closest point so far to the box.
fn biobj_indicators(header: &Value, steps: &[Value]) -> (f64, Vec<(usize, f64)>) {
    let params = &header["problem_parameters"];
    let number = |key: &str| params[key].as_u64().unwrap() as usize;
    let problem = bosweep::problems::multi_objective::BbobBiobj::new(
        number("function"),
        number("instance"),
        number("dim"),
    )
    .unwrap();
    let (ideal, nadir) = (problem.ideal(), problem.nadir());
    let reference = problem.best_normalised_hypervolume().unwrap_or(1.0);
    let area = (nadir[0] - ideal[0]) * (nadir[1] - ideal[1]);
    let mut closest = f64::INFINITY;
    let rows = steps
        .iter()
        .map(|step| {
            let y: Vec<f64> = (0..2)
                .map(|k| {
                    let v = step["objectives"][k].as_f64().unwrap();
                    ((v - ideal[k]) / (nadir[k] - ideal[k]) - 1.0).max(0.0)
                })
                .collect();
            closest = closest.min(y[0].hypot(y[1]));
            let hv = step["hypervolume"].as_f64().unwrap() / area;
            let penalty = if hv > 0.0 { 0.0 } else { closest };
            (
                step["evals"].as_u64().unwrap() as usize,
                reference - hv + penalty,
            )
        })
        .collect();
    (reference, rows)
}

/// bbob-biobj runs go under `bbob-biobj/`, in the files and lines of COCO's bi-objective logger,
/// each row COCO's indicator of the trace's steps (benches/peers/bbob_biobj_export_check.py
/// compares them with cocoex's own logger on the same points).
#[test]
fn bbob_biobj_runs_become_coco_s_bi_objective_data() {
    let dir = crate::common::sweep_sandbox("coco", "biobj", BIOBJ_CONFIG);
    succeeded(&bosweep(
        &dir,
        &["sweep", "sweep.toml", "--out", "s", "--no-report"],
    ));
    let out = bosweep(&dir, &["export-coco", "s", "--out", "coco"]);
    succeeded(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_contains(&stdout, &["4 runs on bbob-biobj", "coco/bbob-biobj/random"]);
    assert!(!stdout.contains("runs on bbob written"), "{stdout}");

    let alg = dir.join("coco/bbob-biobj/random");
    let info = read(&alg.join("bbob-biobj_hyp.info"));
    let lines: Vec<&str> = info.lines().collect();
    assert_eq!(lines.len(), 4, "{info}");
    assert!(lines[0].starts_with(
        "suite = 'bbob-biobj', algorithm = 'random', indicator = 'hyp', folder = 'data'"
    ));
    assert!(lines[1].starts_with('%'));
    let mut penalised = 0;
    for (line, function) in lines[2..].iter().zip([1, 20]) {
        let data = format!("bbob-biobj_f{function:02}_d02_hyp");
        assert!(
            line.starts_with(&format!("function = {function:2}, dim =  2, {data}.dat, ")),
            "{line}"
        );
        let tdat = read(&alg.join(format!("data/{data}.tdat")));
        let dat = read(&alg.join(format!("data/{data}.dat")));
        let mut runs = Vec::new();
        for path in std::fs::read_dir(dir.join("s/runs")).unwrap() {
            let text = read(&path.unwrap().path());
            let values: Vec<Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            let header = values[0]["header"].clone();
            if header["problem_parameters"]["function"] == function {
                runs.push((header, values[1..].to_vec()));
            }
        }
        runs.sort_by_key(|(h, _)| h["problem_parameters"]["instance"].as_u64());
        let blocks: Vec<&str> = tdat.split("%\n").filter(|b| !b.is_empty()).collect();
        assert_eq!(blocks.len(), 2, "{tdat}");
        assert_eq!(dat.matches("| target hit").count(), 2);
        for ((header, steps), block) in runs.iter().zip(&blocks) {
            let (reference, want) = biobj_indicators(header, steps);
            let instance = header["problem_parameters"]["instance"].as_u64().unwrap();
            assert!(
                block.contains(&format!("% instance = {instance}, reference value = ")),
                "{block}"
            );
            let written: f64 = block
                .split("reference value = ")
                .nth(1)
                .and_then(|r| r.lines().next())
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(written, reference);
            assert_eq!(instance == 11, reference == 1.0, "{reference}");
            let rows: Vec<(usize, f64)> = block
                .lines()
                .filter(|l| !l.starts_with('%'))
                .map(|l| {
                    let (e, v) = l.split_once('\t').unwrap();
                    (e.parse().unwrap(), v.parse().unwrap())
                })
                .collect();
            assert_eq!(rows.len(), want.len());
            for ((e, v), (we, wv)) in rows.iter().zip(&want) {
                assert_eq!(e, we);
                assert!((v - wv).abs() <= 1e-14 * wv.abs(), "{v} vs {wv}");
                penalised += usize::from(*wv > reference);
            }
        }
    }
    // The rows include points outside the ideal–nadir box, measured by their distance to it.
    assert!(penalised > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

const CONSTRAINED_CONFIG: &str = r#"
seed = 9
replicates = 2
budget = 30
init = 6

[[algorithm]]
name = "random"

[[problem]]
name = "bbob-constrained"
function = [3, 50]
instance = 1
dim = 2
"#;

/// cocoex's single digit of a constraint value (0 where satisfied, 9 above 1).
fn coco_digit(c: f64) -> char {
    let limits = [0.0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0];
    let digit = limits.iter().position(|&l| c <= l).unwrap_or(9);
    char::from_digit(digit as u32, 10).unwrap()
}

/// bbob-constrained runs go under `bbob-constrained/` in the files of COCO's `bbob` logger, as
/// it writes them for that suite: every evaluation also counts one constraint evaluation, the
/// third column is the best `max(f, f_opt) + Σ max(c_j, 0)` so far less f_opt, and the fifth
/// one digit per constraint (benches/peers/bbob_constrained_export_check.py compares the rows
/// with cocoex's own logger on the same points).
#[test]
fn bbob_constrained_runs_become_coco_s_constrained_data() {
    let dir = crate::common::sweep_sandbox("coco", "constrained", CONSTRAINED_CONFIG);
    succeeded(&bosweep(
        &dir,
        &["sweep", "sweep.toml", "--out", "s", "--no-report"],
    ));
    let out = bosweep(&dir, &["export-coco", "s", "--out", "coco"]);
    succeeded(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_contains(
        &stdout,
        &["4 runs on bbob-constrained", "coco/bbob-constrained/random"],
    );
    assert!(!stdout.contains("runs on bbob written"), "{stdout}");

    let alg = dir.join("coco/bbob-constrained/random");
    let mut infeasible_rows = 0;
    for function in [3, 50] {
        let info = read(&alg.join(format!("bbobexp_f{function}.info")));
        assert!(info.starts_with(&format!(
            "suite = 'bbob-constrained', funcId = {function}, DIM = 2, Precision = 1.000e-08, algId = 'random'"
        )), "{info}");
        assert!(info.contains("logger = 'bbob-constrained'"), "{info}");
        let dat = read(&alg.join(format!("data_f{function}/bbobexp_f{function}_DIM2.dat")));
        let blocks: Vec<&str> = dat.split('%').filter(|b| !b.is_empty()).collect();
        let mut runs = Vec::new();
        let mut names: Vec<_> = std::fs::read_dir(dir.join("s/runs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for path in names {
            let values: Vec<Value> = read(&path)
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            if values[0]["header"]["problem_parameters"]["function"] == function {
                runs.push(values[1..].to_vec());
            }
        }
        assert_eq!(blocks.len(), runs.len());
        for (steps, block) in runs.iter().zip(&blocks) {
            let mut lines = block.lines();
            let fopt: f64 = lines
                .next()
                .unwrap()
                .split("Fopt (")
                .nth(1)
                .and_then(|r| r.split(')').next())
                .unwrap()
                .parse()
                .unwrap();
            let mut best = f64::INFINITY;
            for (step, line) in steps.iter().zip(lines) {
                let f = step["f"].as_f64().unwrap();
                let c: Vec<f64> = step["constraints"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap())
                    .collect();
                // The trace's regret at a feasible point is f − f_opt.
                if let Some(regret) = step["instant_regret"].as_f64() {
                    assert!((f - regret - fopt).abs() <= 1e-9 * fopt.abs().max(1.0));
                }
                let violation: f64 = c.iter().map(|v| v.max(0.0)).sum();
                infeasible_rows += usize::from(violation > 0.0);
                best = best.min(f.max(fopt) + violation);
                let cols: Vec<&str> = line.split(' ').collect();
                assert_eq!(cols.len(), 5 + 2, "{line}");
                let evals = step["evals"].as_u64().unwrap().to_string();
                assert_eq!((cols[0], cols[1]), (evals.as_str(), evals.as_str()));
                let delta: f64 = cols[2].parse().unwrap();
                let want = best - fopt;
                assert!(
                    (delta - want).abs() <= 1e-9 * want.abs().max(1e-300),
                    "{line}"
                );
                let digits: String = c.iter().map(|&v| coco_digit(v)).collect();
                assert_eq!(cols[4], digits, "{line}");
            }
        }
    }
    assert!(infeasible_rows > 0);
    let _ = std::fs::remove_dir_all(&dir);
}
