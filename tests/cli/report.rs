//! `bosweep::report::write_report` on synthetic sweep directories: hand-written manifests and
//! traces, checked against hand-computed statistics.

use std::path::{Path, PathBuf};

use bosweep::report::{
    COMPARISON_COLUMNS, ERT_COLUMNS, Metric, ReportError, ReportOptions, SCORES_COLUMNS,
    STEPS_COLUMNS, SUMMARY_COLUMNS, YScale, write_report, write_report_with,
};
use bosweep::sweep::{Manifest, Phase, RunSpec, Setting, SettingValue, StepRecord, TraceError};
use serde_json::{Value, json};

use crate::common::{assert_contains, file_containing};

/// A fresh sweep directory (with `runs/`) under the system's temporary directory, removed when
/// the test passes and kept for inspection when it fails (or when `BOSWEEP_KEEP_TEST_DIRS` is
/// set, e.g. to look at the plots).
pub(crate) struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() && std::env::var_os("BOSWEEP_KEEP_TEST_DIRS").is_none() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

pub(crate) fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("bosweep-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("runs")).unwrap();
    TempDir(dir)
}

pub(crate) fn setting(name: &str, params: &[(&str, SettingValue)]) -> Setting {
    Setting::new(
        name,
        params
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

pub(crate) fn spec(
    index: usize,
    algorithm: &Setting,
    problem: &Setting,
    replicate: usize,
) -> RunSpec {
    RunSpec {
        index,
        algorithm: algorithm.clone(),
        problem: problem.clone(),
        replicate,
        budget: 4,
        init: 2,
        seed: 1000 + index as u64,
        design_seed: replicate as u64,
        parallel: Default::default(),
    }
}

/// One step: (evals, simple regret, cumulative regret, best value, model s, acquisition s).
pub(crate) type S = (usize, Option<f64>, Option<f64>, f64, f64, f64);

fn trace_text(spec: &RunSpec, sense: &str, steps: &[S]) -> String {
    let mut lines = vec![json!({"header": {
        "algorithm": spec.algorithm.name,
        "problem": spec.problem.name,
        "sense": sense,
        "seed": spec.seed,
        "bosweep_version": "test",
    }})];
    for (i, &(evals, simple, cumulative, best, model, acq)) in steps.iter().enumerate() {
        let step = StepRecord {
            evals,
            cumulative_regret: cumulative,
            model_seconds: model,
            acq_seconds: acq,
            ..step_record(i + 1, Some(best), best, simple, simple)
        };
        lines.push(serde_json::to_value(step).unwrap());
    }
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// Step `iter` (one evaluation each; the first two the design's) at x = 0.5, observing `y` of
/// the objective `f`, with the evaluated point's regret `instant` and the recommendation's
/// `simple`; nothing timed.
fn step_record(
    iter: usize,
    y: Option<f64>,
    f: f64,
    instant: Option<f64>,
    simple: Option<f64>,
) -> StepRecord {
    StepRecord {
        iter,
        phase: if iter <= 2 { Phase::Init } else { Phase::Opt },
        x: vec![0.5],
        y,
        objectives: Vec::new(),
        constraints: Vec::new(),
        feasible: None,
        repeats: 1,
        evals: iter,
        context: None,
        t: None,
        f: Some(f),
        best_value: Some(f),
        front: Vec::new(),
        hypervolume: None,
        log_hv_difference: None,
        igd_plus: None,
        recommended_x: vec![0.5],
        recommended_feasible: None,
        instant_regret: instant,
        cumulative_regret: instant,
        simple_regret: simple,
        model_seconds: 0.0,
        acq_seconds: 0.0,
        grid_seconds: 0.0,
        refine_seconds: 0.0,
        batch: None,
        worker: None,
        start: None,
        finish: None,
        extra: Default::default(),
        warnings: Vec::new(),
    }
}

pub(crate) fn write_trace(dir: &Path, spec: &RunSpec, sense: &str, steps: &[S]) {
    std::fs::write(
        Manifest::trace_path(dir, spec),
        trace_text(spec, sense, steps),
    )
    .unwrap();
}

pub(crate) fn write_manifest(dir: &Path, runs: Vec<RunSpec>) {
    Manifest {
        config_hash: "0123456789abcdef".into(),
        bosweep_version: "test".into(),
        device: None,
        runs,
    }
    .write(dir)
    .unwrap();
}

pub(crate) const CONFIG: &str = "seed = 7\nbudget = 4\n\n[[algorithms]]\nname = \"random\"\n";

/// Two problems × two algorithms:
/// - `branin` (minimize, regrets known): random × 3 replicates (the third of a budget one
///   evaluation smaller),
///   gp-ucb[ucb_multiplier=2] × 3 replicates of which the third is missing;
/// - `ext[dim=2]` (maximize, regrets unknown): both algorithms × 2 replicates of budget 3.
pub(crate) fn build_sweep(dir: &Path) -> Vec<RunSpec> {
    std::fs::write(dir.join("config.toml"), CONFIG).unwrap();
    let random = setting("random", &[]);
    let ucb = setting("gp-ucb", &[("ucb_multiplier", SettingValue::Number(2.0))]);
    let branin = setting("branin", &[]);
    let ext = setting("ext", &[("dim", SettingValue::Number(2.0))]);
    let mut runs = Vec::new();
    for (a, p, reps) in [
        (&random, &branin, 3),
        (&ucb, &branin, 3),
        (&random, &ext, 2),
        (&ucb, &ext, 2),
    ] {
        for r in 0..reps {
            runs.push(spec(runs.len(), a, p, r));
        }
    }
    // The three-step runs are complete runs of a budget of 3.
    for short in [2, 6, 7, 8, 9] {
        runs[short].budget = 3;
    }
    write_manifest(dir, runs.clone());

    let k = |v: f64| Some(v);
    let branin: [&[S]; 5] = [
        // branin × random: final simple regrets 0.5, 0.3, 0.1; cumulative 4, 3, 2.
        &[
            (1, k(2.0), k(2.0), 2.4, 0.0, 0.0),
            (2, k(1.0), k(3.0), 1.4, 0.0, 0.0),
            (3, k(0.8), k(3.5), 1.2, 0.1, 0.2),
            (4, k(0.5), k(4.0), 0.9, 0.1, 0.2),
        ],
        &[
            (1, k(1.5), k(1.5), 1.9, 0.0, 0.0),
            (2, k(1.0), k(2.5), 1.4, 0.0, 0.0),
            (3, k(0.3), k(2.8), 0.7, 0.1, 0.2),
            (4, k(0.3), k(3.0), 0.7, 0.1, 0.2),
        ],
        &[
            (1, k(1.0), k(1.0), 1.4, 0.0, 0.0),
            (2, k(0.5), k(1.5), 0.9, 0.0, 0.0),
            (3, k(0.1), k(2.0), 0.5, 0.1, 0.2),
        ],
        // branin × gp-ucb: final simple regrets 0.01, 0.03; runs[5] missing.
        &[
            (1, k(1.0), k(1.0), 1.4, 0.0, 0.0),
            (2, k(0.5), k(1.5), 0.9, 0.0, 0.0),
            (3, k(0.1), k(1.6), 0.5, 1.0, 0.5),
            (4, k(0.01), k(1.62), 0.41, 1.0, 0.5),
        ],
        &[
            (1, k(1.0), k(1.0), 1.4, 0.0, 0.0),
            (2, k(0.5), k(1.5), 0.9, 0.0, 0.0),
            (3, k(0.2), k(1.7), 0.6, 1.0, 0.5),
            (4, k(0.03), k(1.75), 0.43, 2.0, 0.5),
        ],
    ];
    for (run, steps) in runs.iter().zip(branin) {
        write_trace(dir, run, "minimize", steps);
    }
    // ext (maximize, regrets null): random best values 1 and 2, gp-ucb 3 and 2.
    let ext_steps = |finals: f64| -> Vec<S> {
        vec![
            (1, None, None, finals - 1.0, 0.0, 0.0),
            (2, None, None, finals - 0.5, 0.0, 0.0),
            (3, None, None, finals, 0.25, 0.25),
        ]
    };
    write_trace(dir, &runs[6], "maximize", &ext_steps(1.0));
    write_trace(dir, &runs[7], "maximize", &ext_steps(2.0));
    write_trace(dir, &runs[8], "maximize", &ext_steps(3.0));
    write_trace(dir, &runs[9], "maximize", &ext_steps(2.0));
    runs
}

pub(crate) fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// The cells of columns `a` and `b` of every row, as pairs.
fn cell_pairs(rows: &[Vec<String>], a: usize, b: usize) -> Vec<(&str, &str)> {
    rows.iter()
        .map(|r| (r[a].as_str(), r[b].as_str()))
        .collect()
}

fn num(cell: &str) -> f64 {
    cell.parse()
        .unwrap_or_else(|_| panic!("{cell:?} is not a number"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + b.abs())
}

/// The smallest sweeps report what cannot be concluded instead of failing: one algorithm on one
/// problem with one seed has its table and score but no paired test and no ranks; two
/// algorithms on it have one pair, too few for the test, and ranks over one problem.
#[test]
fn one_algorithm_one_problem_one_seed_say_what_cannot_be_concluded() {
    let k = |v: f64| Some(v);
    let (random, ucb, branin) = (
        setting("random", &[]),
        setting("gp-ucb", &[]),
        setting("branin", &[]),
    );
    let steps = |last: f64| -> [S; 4] {
        [
            (1, k(2.0), k(2.0), 2.4, 0.0, 0.0),
            (2, k(1.0), k(3.0), 1.4, 0.0, 0.0),
            (3, k(0.5), k(3.5), 0.9, 0.1, 0.2),
            (4, k(last), k(3.5 + last), 0.4 + last, 0.1, 0.2),
        ]
    };

    let dir = temp_dir("small-one");
    std::fs::write(dir.join("config.toml"), CONFIG).unwrap();
    let run = spec(0, &random, &branin, 0);
    write_manifest(&dir, vec![run.clone()]);
    write_trace(&dir, &run, "minimize", &steps(0.25));
    assert_eq!(write_report(&dir).unwrap().completed_runs, 1);
    let (_, comparisons) = read_csv(&dir.join("comparisons.csv"));
    assert!(comparisons.is_empty(), "{comparisons:?}");
    assert!(!dir.join("ranks.csv").exists());
    assert!(
        !dir.join("plots/ranks.png").exists(),
        "no diagram of one algorithm"
    );
    assert!(dir.join("plots/branin-regret.png").is_file());
    assert!(dir.join("report.html").is_file());
    let (_, scores) = read_csv(&dir.join("scores.csv"));
    assert_eq!(scores[0][..3], ["random", "1", "0"]);

    let dir = temp_dir("small-two");
    std::fs::write(dir.join("config.toml"), CONFIG).unwrap();
    let runs = vec![spec(0, &random, &branin, 0), spec(1, &ucb, &branin, 0)];
    write_manifest(&dir, runs.clone());
    write_trace(&dir, &runs[0], "minimize", &steps(0.25));
    write_trace(&dir, &runs[1], "minimize", &steps(0.05));
    write_report(&dir).unwrap();
    let (_, comparisons) = read_csv(&dir.join("comparisons.csv"));
    assert_eq!(comparisons.len(), 1);
    assert_eq!(comparisons[0][1..4], ["random", "gp-ucb", "1"]);
    assert_eq!(comparisons[0][9], "cannot conclude (< 6 pairs)");
    let (_, ranks) = read_csv(&dir.join("ranks.csv"));
    assert_eq!(ranks[0][..3], ["gp-ucb", "1", "1"]);
    assert!(close(num(&ranks[0][3]), 1.96), "{ranks:?}");
    file_containing(
        dir.join("report.md"),
        &[
            "cannot conclude (< 6 pairs)",
            "With few problems the test is weak",
        ],
    );
    // The plots, the diagram and the page are drawn for a single pair too.
    for plot in [
        "branin-regret",
        "ranks",
        "runtime-distribution",
        "normalised-scores",
    ] {
        for ext in ["png", "svg"] {
            let path = dir.join("plots").join(format!("{plot}.{ext}"));
            assert!(std::fs::metadata(&path).unwrap().len() > 0, "{path:?}");
        }
    }
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(
        html.contains("cannot conclude (&lt; 6 pairs)")
            || html.contains("cannot conclude (< 6 pairs)"),
        "the page holds the verdict"
    );

    // At a simulated time: one timed run each, one before its second step.
    add_finishes(&dir, &runs[0], |i| (i + 1) as f64);
    add_finishes(&dir, &runs[1], |i| (i + 2) as f64);
    let at_time = ReportOptions {
        time: Some(2.0),
        ..ReportOptions::default()
    };
    write_report_with(&dir, &at_time).unwrap();
    let (_, then) = read_csv(&dir.join("comparisons-at-time.csv"));
    assert_eq!(then.len(), 1);
    assert_eq!(then[0][3], "1", "{then:?}");
    assert_eq!(then[0][9], "cannot conclude (< 6 pairs)");
    let (_, summary_then) = read_csv(&dir.join("summary-at-time.csv"));
    // random's regret after 2 steps, gp-ucb's after its first (finished at 2).
    assert_eq!(summary_then[0][3], "1");
    assert_eq!(summary_then[1][3], "2");
    assert!(dir.join("plots/branin-regret-simulated-time.png").is_file());
    assert!(
        dir.join("plots/runtime-distribution-simulated-time.png")
            .is_file()
    );
    file_containing(dir.join("report.md"), &["### At simulated time 2"]);
}

/// Where the report compares cumulative regrets, the scores normalise those: on branin random
/// search's mean final cumulative regret is (4 + 3 + 2) / 3 = 3, gp-ucb's (1.62 + 1.75) / 2.
#[test]
fn scores_follow_the_compared_regret() {
    let dir = temp_dir("scores-cumulative");
    build_sweep(&dir);
    let cumulative = comparing(Metric::CumulativeRegret);
    write_report_with(&dir, &cumulative).unwrap();
    let (_, rows) = read_csv(&dir.join("scores.csv"));
    assert_eq!(rows[0][0], "gp-ucb[ucb_multiplier=2]");
    assert!(
        close(num(&rows[0][2]), 100.0 * (1.0 - 1.685 / 3.0)),
        "{rows:?}"
    );
    file_containing(dir.join("report.md"), &["r its final cumulative regret"]);
}

#[test]
fn summary_csv_has_hand_computed_statistics() {
    let dir = temp_dir("summary");
    build_sweep(&dir);
    let summary = write_report(&dir).unwrap();
    assert_eq!(summary.total_runs, 10);
    assert_eq!(summary.completed_runs, 9);
    assert_eq!(summary.missing.len(), 1);
    assert_eq!(summary.missing[0].replicate, 2);

    let (header, rows) = read_csv(&dir.join("summary.csv"));
    assert_eq!(header, SUMMARY_COLUMNS);
    let keys = cell_pairs(&rows, 0, 1);
    assert_eq!(
        keys,
        [
            ("branin", "random"),
            ("branin", "gp-ucb[ucb_multiplier=2]"),
            ("ext[dim=2]", "random"),
            ("ext[dim=2]", "gp-ucb[ucb_multiplier=2]"),
        ]
    );

    // branin × random: simple regrets 0.5, 0.3, 0.1 → mean 0.3, sd 0.2, se 0.2/√3, median 0.3.
    let r = &rows[0];
    assert_eq!(r[2], "3");
    assert!(close(num(&r[3]), 0.3));
    assert!(close(num(&r[4]), 0.2 / 3f64.sqrt()), "se {}", r[4]);
    assert!(close(num(&r[5]), 0.3));
    assert!(close(num(&r[6]), 3.0)); // cumulative (4 + 3 + 2) / 3
    assert!(close(num(&r[7]), (0.9 + 0.7 + 0.5) / 3.0)); // best value
    assert!(close(num(&r[8]), 11.0 / 3.0)); // evals (4 + 4 + 3) / 3
    // Seconds: 11 steps, 5 of them at 0.3 s.
    assert!(close(num(&r[9]), 5.0 * 0.3 / 11.0), "seconds {}", r[9]);

    // branin × gp-ucb: two completed runs, 0.01 and 0.03 → mean 0.02, se 0.01, median 0.02.
    let r = &rows[1];
    assert_eq!(r[2], "2");
    assert!(close(num(&r[3]), 0.02));
    assert!((num(&r[4]) - 0.01).abs() < 1e-15, "se {}", r[4]);
    assert!(close(num(&r[5]), 0.02));
    assert!(close(num(&r[6]), (1.62 + 1.75) / 2.0));
    assert!(close(num(&r[7]), 0.42));
    assert!(close(num(&r[8]), 4.0));
    assert!(close(num(&r[9]), (1.5 + 1.5 + 1.5 + 2.5) / 8.0));

    // ext: regrets unknown → empty cells; best values and the rest are there.
    for (r, best) in [(&rows[2], 1.5), (&rows[3], 2.5)] {
        assert_eq!(r[2], "2");
        for c in 3..=6 {
            assert_eq!(r[c], "", "column {} of {r:?}", header[c]);
        }
        assert!(close(num(&r[7]), best));
        assert!(close(num(&r[8]), 3.0));
        assert!(close(num(&r[9]), 2.0 * 0.5 / 6.0));
        assert_eq!(r[13], "", "no score without known regrets");
    }

    // Normalised scores against random search's mean final regret on branin, 0.3: random's
    // own mean is 0 by construction; gp-ucb's runs score 100(1 − 0.01/0.3) and 100(1 − 0.03/0.3).
    assert!(num(&rows[0][13]).abs() < 1e-12, "{}", rows[0][13]);
    let ucb_score = (100.0 * (1.0 - 0.01 / 0.3) + 90.0) / 2.0;
    assert!(close(num(&rows[1][13]), ucb_score), "{}", rows[1][13]);
    let (header, scores) = read_csv(&dir.join("scores.csv"));
    assert_eq!(header, SCORES_COLUMNS);
    assert_eq!(scores.len(), 2);
    assert_eq!(
        (scores[0][0].as_str(), scores[0][1].as_str()),
        ("gp-ucb[ucb_multiplier=2]", "1")
    );
    assert!(close(num(&scores[0][2]), ucb_score) && close(num(&scores[0][3]), ucb_score));
    assert_eq!(
        (scores[1][0].as_str(), scores[1][4].as_str()),
        ("random", "random")
    );

    // ERT on branin. To Δf ≤ 0.1: random's runs spend 4, 4 and 3 evaluations, the last
    // reaching it (11 per success); gp-ucb's reach it at 3 and 4 (3.5). To 10: every run at its
    // first evaluation. To 10⁻³: none.
    let (header, ert) = read_csv(&dir.join("ert.csv"));
    assert_eq!(header, ERT_COLUMNS);
    let branin: Vec<[&str; 5]> = ert
        .iter()
        .filter(|r| r[0] == "branin")
        .map(|r| {
            [
                r[1].as_str(),
                r[2].as_str(),
                r[3].as_str(),
                r[4].as_str(),
                r[5].as_str(),
            ]
        })
        .collect();
    assert_eq!(
        branin,
        [
            ["random", "10", "3", "3", "1"],
            ["random", "0.1", "3", "1", "11"],
            ["random", "0.001", "3", "0", ""],
            ["random", "1e-5", "3", "0", ""],
            ["gp-ucb[ucb_multiplier=2]", "10", "2", "2", "1"],
            ["gp-ucb[ucb_multiplier=2]", "0.1", "2", "2", "3.5"],
            ["gp-ucb[ucb_multiplier=2]", "0.001", "2", "0", ""],
            ["gp-ucb[ucb_multiplier=2]", "1e-5", "2", "0", ""],
        ]
    );
    assert!(
        ert.iter().all(|r| r[0] == "branin"),
        "ext's regrets are unknown"
    );

    // The returned rows match the file, with the best of each problem marked.
    assert_eq!(summary.rows.len(), 4);
    let best: Vec<bool> = summary.rows.iter().map(|r| r.best).collect();
    assert_eq!(best, [false, true, false, true]);
    assert_eq!(summary.rows[2].simple_regret_mean, None);
    assert!(summary.rows[0].simple_regret_se.is_some());
}

#[test]
fn steps_csv_holds_every_step_of_every_completed_run() {
    let dir = temp_dir("steps");
    let runs = build_sweep(&dir);
    write_report(&dir).unwrap();
    let (header, rows) = read_csv(&dir.join("steps.csv"));
    assert_eq!(header, STEPS_COLUMNS);
    // branin: random 4 + 4 + 3 steps, gp-ucb 4 + 4 (its third run missing); ext: 4 runs × 3.
    assert_eq!(rows.len(), 31);
    let column = |name: &str| STEPS_COLUMNS.iter().position(|c| *c == name).unwrap();
    let first = &rows[0];
    assert_eq!(first[column("run")], runs[0].key());
    assert_eq!(first[column("algorithm")], "random");
    assert_eq!(first[column("seed")], runs[0].seed.to_string());
    assert_eq!(first[column("phase")], "init");
    assert_eq!(first[column("x")], "[0.5]");
    assert_eq!(first[column("simple_regret")], "2");
    assert_eq!(first[column("context")], "");
    let last_random = &rows[3];
    assert_eq!(last_random[column("iter")], "4");
    assert_eq!(last_random[column("simple_regret")], "0.5");
    assert_eq!(last_random[column("cumulative_regret")], "4");
    // ext's regrets are unknown: empty cells, its best values kept.
    let ext = rows
        .iter()
        .find(|r| r[column("problem")] == "ext[dim=2]")
        .unwrap();
    assert_eq!(ext[column("simple_regret")], "");
    assert_eq!(ext[column("best_value")], "0");
}

#[test]
fn steps_parquet_is_steps_csv_typed() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, UInt64Type};
    use arrow_array::{Array, RecordBatch};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    let dir = temp_dir("parquet");
    build_sweep(&dir);
    write_report(&dir).unwrap();
    let file = std::fs::File::open(dir.join("steps.parquet")).unwrap();
    let batches: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let [batch] = &batches[..] else {
        panic!("{} batches", batches.len())
    };
    let schema = batch.schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, STEPS_COLUMNS);
    let type_of = |name: &str| {
        schema
            .field_with_name(name)
            .unwrap()
            .data_type()
            .to_string()
    };
    assert_eq!(type_of("run"), "Utf8");
    assert_eq!(type_of("seed"), "UInt64");
    assert_eq!(type_of("simple_regret"), "Float64");
    assert!(type_of("x").starts_with("List("), "{}", type_of("x"));

    // Cell by cell what steps.csv holds: numbers equal to the last bit, empty cells null.
    let (_, rows) = read_csv(&dir.join("steps.csv"));
    assert_eq!(batch.num_rows(), rows.len());
    assert_eq!(batch.num_rows(), 31);
    for (c, name) in STEPS_COLUMNS.iter().enumerate() {
        let column = batch.column(c);
        for (r, row) in rows.iter().enumerate() {
            let cell = &row[c];
            let at = format!("{name} row {r}");
            if column.is_null(r) {
                assert_eq!(cell, "", "{at}");
                continue;
            }
            match column.data_type() {
                numeric if numeric.is_numeric() => {
                    let value = match column.as_primitive_opt::<Float64Type>() {
                        Some(reals) => reals.value(r),
                        None => column.as_primitive::<UInt64Type>().value(r) as f64,
                    };
                    assert_eq!(value, num(cell), "{at}");
                }
                _ if column.as_list_opt::<i32>().is_some() => {
                    let point = column.as_list::<i32>().value(r);
                    let point: Vec<f64> = point.as_primitive::<Float64Type>().values().to_vec();
                    let expected: Vec<f64> = serde_json::from_str(cell).unwrap();
                    assert_eq!(point, expected, "{at}");
                }
                _ => assert_eq!(column.as_string::<i32>().value(r), cell, "{at}"),
            }
        }
    }
    // Unknown values are null, not NaN: ext's regrets, every context.
    assert!(
        batch
            .column(STEPS_COLUMNS.iter().position(|c| *c == "context").unwrap())
            .null_count()
            == 31
    );
}

#[test]
fn paired_tests_and_ranks_are_hand_computed() {
    let dir = temp_dir("paired");
    build_sweep(&dir);
    write_report(&dir).unwrap();
    let (header, rows) = read_csv(&dir.join("comparisons.csv"));
    assert_eq!(header, COMPARISON_COLUMNS);
    // branin: random − gp-ucb over replicates 0 and 1 (gp-ucb's replicate 2 is missing):
    // 0.49 and 0.27, both positive: W+ = 3, T = 0, exact p = 2 · P(T ≤ 0) = 2/4.
    assert_eq!(
        rows[0][..4],
        ["branin", "random", "gp-ucb[ucb_multiplier=2]", "2"]
    );
    assert!(close(num(&rows[0][4]), 0.38), "{:?}", rows[0]);
    assert_eq!(
        rows[0][5..],
        [
            "3",
            "0",
            "0.5",
            "0.5",
            "cannot conclude (< 6 pairs)",
            "best-evaluated-regret"
        ]
    );
    // ext (maximised best values): random − gp-ucb = 1 − 3 and 2 − 2: one non-zero pair, W+ = 0,
    // p = 2 · P(T ≤ 0) = 1. Two pairs can never reach p < 0.05: "cannot conclude".
    assert_eq!(
        rows[1][..5],
        [
            "ext[dim=2]",
            "random",
            "gp-ucb[ucb_multiplier=2]",
            "2",
            "-1"
        ]
    );
    assert_eq!(
        rows[1][5..],
        [
            "0",
            "0",
            "1",
            "1",
            "cannot conclude (< 6 pairs)",
            "best-value"
        ]
    );
    assert_eq!(rows.len(), 2);

    // gp-ucb is best on both problems: ranks 1 and 2, CD = 1.960 · √(2·3 / (6·2)).
    let (header, rows) = read_csv(&dir.join("ranks.csv"));
    assert_eq!(
        header,
        [
            "algorithm",
            "average_rank",
            "problems",
            "critical_difference"
        ]
    );
    assert_eq!(rows[0][..3], ["gp-ucb[ucb_multiplier=2]", "1", "2"]);
    assert_eq!(rows[1][..3], ["random", "2", "2"]);
    assert!(close(num(&rows[0][3]), 1.96 * 0.5f64.sqrt()));
    let report = file_containing(
        dir.join("report.md"),
        &[
            "## Across problems",
            "Paired tests against `gp-ucb[ucb_multiplier=2]`",
            "| `random` | 2 | 0.38 | 3 | 0.5 | 0.5 | cannot conclude (< 6 pairs) |",
        ],
    );
    // Issue 43: the report says how many replicates a verdict takes.
    assert!(
        report.contains(
            "Holm's correction over 1 comparison asks for p < 0.05, which takes 6 pairs; the \
             fewest here are 2. Run at least 6 replicates (`replicates = 6`)."
        ),
        "{report}"
    );
}

/// One minimised problem with known regrets, algorithms `a` and `b` × 6 replicates, whose
/// metrics disagree: `a` has the lower final simple regret (0.1 + 0.01r against 0.2 + 0.02r),
/// `b` the lower cumulative regret (5 + 0.5r against 10 + r) and the better best value (1.05
/// against 1.1 + 0.01r). `config` is the sweep directory's `config.toml`.
fn build_disagreeing_sweep(dir: &Path, config: &str) {
    std::fs::write(dir.join("config.toml"), config).unwrap();
    let (a, b) = (setting("a", &[]), setting("b", &[]));
    let problem = setting("branin", &[]);
    let mut runs = Vec::new();
    for algorithm in [&a, &b] {
        for r in 0..6 {
            runs.push(RunSpec {
                budget: 2,
                ..spec(runs.len(), algorithm, &problem, r)
            });
        }
    }
    write_manifest(dir, runs.clone());
    for run in &runs {
        let r = run.replicate as f64;
        let (simple, cumulative, best) = if run.algorithm.name == "a" {
            (0.1 + 0.01 * r, 10.0 + r, 1.1 + 0.01 * r)
        } else {
            (0.2 + 0.02 * r, 5.0 + 0.5 * r, 1.05)
        };
        write_trace(
            dir,
            run,
            "minimize",
            &[
                (
                    1,
                    Some(simple + 0.5),
                    Some(cumulative / 2.0),
                    best + 0.5,
                    0.0,
                    0.0,
                ),
                (2, Some(simple), Some(cumulative), best, 0.0, 0.0),
            ],
        );
    }
}

/// (best algorithm, comparisons.csv's one row) of a report on `dir`.
/// The report options that compare `metric`, the others their defaults.
fn comparing(metric: Metric) -> ReportOptions {
    ReportOptions {
        metric: Some(metric),
        ..ReportOptions::default()
    }
}

fn best_and_comparison(dir: &Path, options: &ReportOptions) -> (String, Vec<String>) {
    let summary = write_report_with(dir, options).unwrap();
    let best = summary.rows.iter().find(|r| r.best).unwrap();
    let (header, rows) = read_csv(&dir.join("comparisons.csv"));
    assert_eq!(header, COMPARISON_COLUMNS);
    assert_eq!(rows.len(), 1);
    (best.algorithm.clone(), rows[0].clone())
}

#[test]
fn the_metric_picks_the_best_and_the_paired_tests() {
    let dir = temp_dir("metric");
    build_disagreeing_sweep(&dir, CONFIG);
    // Six pairs of one sign: W+ = 21, T = 0, exact two-sided p = 2/2⁶; Holm over one test.
    let p = 2.0 / 64.0;
    let check = |row: &[String], algorithm: &str, best: &str, median: f64, metric: &str| {
        assert_eq!(row[..4], ["branin", algorithm, best, "6"], "{row:?}");
        assert!(close(num(&row[4]), median), "{row:?}");
        assert_eq!(row[5..7], ["21", "0"], "{row:?}");
        assert!(close(num(&row[7]), p) && close(num(&row[8]), p), "{row:?}");
        assert_eq!(row[9..], ["worse", metric], "{row:?}");
    };

    // The default on a noise-free problem: the best evaluated regret (the fixture's regrets
    // only fall, so it is the simple regret). b − a = 0.1 + 0.01r, median 0.125.
    let (best, row) = best_and_comparison(&dir, &ReportOptions::default());
    assert_eq!(best, "a");
    check(&row, "b", "a", 0.125, "best-evaluated-regret");

    // Cumulative regret: a − b = 5 + 0.5r, median 6.25.
    let cumulative = comparing(Metric::CumulativeRegret);
    let (best, row) = best_and_comparison(&dir, &cumulative);
    assert_eq!(best, "b");
    check(&row, "a", "b", 6.25, "cumulative-regret");
    // b's cumulative regrets 5, 5.5, …, 7.5: mean 6.25, s.e. 0.5·sd(0, …, 5)/√6.
    let (header, rows) = read_csv(&dir.join("summary.csv"));
    assert_eq!(header, SUMMARY_COLUMNS);
    let se = header
        .iter()
        .position(|c| c == "cumulative_regret_se")
        .unwrap();
    assert!(
        close(num(&rows[1][se]), 0.5 * 3.5f64.sqrt() / 6f64.sqrt()),
        "{:?}",
        rows[1]
    );
    assert!(close(num(&rows[1][6]), 6.25));
    assert_eq!(rows[1][12], "best");
    file_containing(
        dir.join("report.md"),
        &[
            "(lowest mean final cumulative regret)",
            "Wilcoxon signed-rank on the final cumulative regret",
            "| **6.25** |",
        ],
    );

    // The best value, though regrets are known: a − b = 0.05 + 0.01r, median 0.075.
    let value = comparing(Metric::BestValue);
    let (best, row) = best_and_comparison(&dir, &value);
    assert_eq!(best, "b");
    check(&row, "a", "b", 0.075, "best-value");
}

#[test]
fn the_config_names_the_metric_and_the_option_overrides_it() {
    let dir = temp_dir("metric-config");
    build_disagreeing_sweep(
        &dir,
        &format!("{CONFIG}\n[report]\nmetric = \"cumulative-regret\"\n"),
    );
    let (best, row) = best_and_comparison(&dir, &ReportOptions::default());
    assert_eq!(
        (best.as_str(), row[10].as_str()),
        ("b", "cumulative-regret")
    );
    let simple = comparing(Metric::SimpleRegret);
    let (best, row) = best_and_comparison(&dir, &simple);
    assert_eq!(
        (best.as_str(), row[10].as_str()),
        ("a", "recommendation-regret")
    );

    // A hand-edited config with an unknown metric: an error naming the file, nothing written.
    let dir = temp_dir("metric-bad");
    build_disagreeing_sweep(&dir, &format!("{CONFIG}\n[report]\nmetric = \"median\"\n"));
    let e = write_report(&dir).unwrap_err();
    assert!(matches!(e, ReportError::Config { .. }), "{e:?}");
    let message = e.to_string();
    assert_contains(&message, &["config.toml", "unknown metric \"median\""]);
    assert!(!dir.join("summary.csv").exists());
}

#[test]
fn markdown_report_has_config_tables_best_plots_and_missing_runs() {
    let dir = temp_dir("markdown");
    let runs = build_sweep(&dir);
    write_report(&dir).unwrap();
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.starts_with("# "), "a title first:\n{md}");
    assert!(
        md.contains(&format!("```toml\n{CONFIG}```")),
        "config in a fenced block:\n{md}"
    );
    assert!(md.contains("## Problem `branin`"));
    assert!(md.contains("## Problem `ext[dim=2]`"));
    // Tables: a header row and one row per algorithm.
    assert_eq!(md.matches("| algorithm | runs |").count(), 2, "{md}");
    assert_contains(
        &md,
        &["| `random` | 3 | 0.3 | 0.1155 | 0.3 | 0.1155 | 0.3 | 3 |"],
    );
    // Best in bold: gp-ucb by the best evaluated regret on branin (noise-free: the default),
    // by best value (maximize) on ext.
    assert!(
        md.contains(
            "| **`gp-ucb[ucb_multiplier=2]`** | 2 | **0.02** | 0.01 | 0.02 | 0.01 | 0.02 |"
        ),
        "{md}"
    );
    assert_contains(
        &md,
        &["| **`gp-ucb[ucb_multiplier=2]`** | 2 | – | – | – | – | – | – | **2.5** |"],
    );
    assert!(!md.contains("**`random`**"), "{md}");
    assert!(md.contains("lowest mean final best evaluated regret"));
    assert!(md.contains("maximize"));
    // Plot links, and the files they point to.
    for link in [
        "plots/branin-regret.png",
        "plots/branin-regret.svg",
        "plots/branin-seconds.png",
        "plots/branin-seconds.svg",
        "plots/ext_dim=2_-best-value.png",
        "plots/ext_dim=2_-best-value.svg",
        "plots/ext_dim=2_-seconds.png",
        "plots/ext_dim=2_-seconds.svg",
    ] {
        assert!(
            md.contains(&format!("({link})")),
            "no link to {link}:\n{md}"
        );
        assert!(dir.join(link).is_file(), "{link} not written");
    }
    // The missing run, named with its trace file, in the branin section only.
    let missing = runs[5].trace_file();
    let line = md
        .lines()
        .find(|l| l.starts_with("Missing runs"))
        .expect("a missing-runs line");
    assert!(
        line.contains("(1)")
            && line.contains(&missing)
            && line.contains("gp-ucb[ucb_multiplier=2]"),
        "{line}"
    );
    assert_eq!(md.matches("Missing runs").count(), 1);
    let branin_end = md.find("## Problem `ext").unwrap();
    assert!(md.find(&missing).unwrap() < branin_end);
}

/// The contents of an SVG's `<text>` elements, trimmed.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let start = t.find('>')? + 1;
            let end = t.find("</text>")?;
            Some(t[start..end].trim().to_string())
        })
        .collect()
}

fn png_info(path: &Path) -> (u32, u32, Vec<u8>, png::ColorType) {
    let bytes = std::fs::read(path).unwrap();
    assert!(
        bytes.len() > 8 * 1024,
        "{} is only {} bytes",
        path.display(),
        bytes.len()
    );
    assert_eq!(
        &bytes[..8],
        b"\x89PNG\r\n\x1a\n",
        "{} has no PNG signature",
        path.display()
    );
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).unwrap();
    buf.truncate(frame.buffer_size());
    (frame.width, frame.height, buf, frame.color_type)
}

#[test]
fn plots_are_written_as_svg_and_png_with_text() {
    let dir = temp_dir("plots");
    build_sweep(&dir);
    let summary = write_report(&dir).unwrap();
    let plots: Vec<&PathBuf> = summary
        .files
        .iter()
        .filter(|f| f.starts_with(dir.join("plots")))
        .collect();
    // branin (regrets known): the best evaluated and the recommendation's regret, cumulative
    // regret, best value, regret vs time, seconds; ext: best value, seconds; across problems:
    // average ranks, the runtime distribution and the normalised scores' profile; each as SVG
    // and PNG.
    assert_eq!(plots.len(), 22, "{plots:?}");
    let runtimes = std::fs::read_to_string(dir.join("plots/runtime-distribution.svg")).unwrap();
    let texts = svg_texts(&runtimes);
    for text in [
        "random",
        "gp-ucb[ucb_multiplier=2]",
        "fraction of (run, Δf target) pairs reached",
    ] {
        assert!(
            texts.iter().any(|t| t.contains(text)),
            "runtime-distribution.svg: {text}"
        );
    }
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("![runtime distribution](plots/runtime-distribution.png)"));
    assert!(
        report
            .contains("cumulative regret vs evaluations [PNG](plots/branin-cumulative-regret.png)")
    );
    let ranks = std::fs::read_to_string(dir.join("plots/ranks.svg")).unwrap();
    for text in [
        "random (2.00)",
        "gp-ucb[ucb_multiplier=2] (1.00)",
        "CD = 1.39",
    ] {
        assert!(
            svg_texts(&ranks).iter().any(|t| t.contains(text)),
            "ranks.svg: {text}"
        );
    }

    for name in [
        "branin-regret",
        "branin-seconds",
        "ext_dim=2_-best-value",
        "ext_dim=2_-seconds",
    ] {
        let svg = std::fs::read_to_string(dir.join("plots").join(format!("{name}.svg"))).unwrap();
        assert!(svg.contains("<svg"), "{name}.svg");
        assert!(svg.len() > 2000, "{name}.svg is only {} bytes", svg.len());
        assert!(
            svg.contains("evaluations"),
            "{name}.svg has no x axis label"
        );
        assert!(
            svg.contains("gp-ucb[ucb_multiplier=2]"),
            "{name}.svg has no legend entry"
        );
        assert!(
            svg.contains(if name.starts_with("branin") {
                "branin"
            } else {
                "ext[dim=2]"
            }),
            "{name}.svg title"
        );
        let y_label = match name {
            "branin-regret" => "regret of the recommended point",
            "ext_dim=2_-best-value" => "best value",
            _ => "seconds per iteration",
        };
        assert!(
            svg.contains(y_label),
            "{name}.svg has no y axis label {y_label:?}"
        );

        let (w, h, pixels, color) = png_info(&dir.join("plots").join(format!("{name}.png")));
        assert_eq!((w, h), (1136, 757), "as wide as report.html's text column");
        assert_eq!(color, png::ColorType::Rgb);
        // Text renders: the title band (top 30 rows, middle third) has dark pixels.
        let dark = (0..30)
            .flat_map(|y| (300..600).map(move |x| (y * w + x) as usize * 3))
            .filter(|&i| pixels[i] < 100 && pixels[i + 1] < 100 && pixels[i + 2] < 100)
            .count();
        assert!(
            dark > 20,
            "{name}.png: no title text drawn ({dark} dark pixels)"
        );
    }
}

#[test]
fn linear_option_still_writes_every_plot() {
    let dir = temp_dir("linear");
    build_sweep(&dir);
    let log = write_report(&dir).unwrap();
    let log_svg = std::fs::read_to_string(dir.join("plots/branin-regret.svg")).unwrap();
    let options = ReportOptions {
        y_scale: YScale::Linear,
        ..ReportOptions::default()
    };
    let linear = write_report_with(&dir, &options).unwrap();
    assert_eq!(log.files, linear.files);
    let linear_svg = std::fs::read_to_string(dir.join("plots/branin-regret.svg")).unwrap();
    // Regrets span 0.01 … 2: the log axis labels decades, the linear one does not.
    let log_texts = svg_texts(&log_svg);
    let linear_texts = svg_texts(&linear_svg);
    assert!(
        log_texts.iter().any(|t| t == "0.01"),
        "log axis has no 0.01 tick: {log_texts:?}"
    );
    assert!(
        !linear_texts.iter().any(|t| t == "0.01"),
        "linear axis has a 0.01 tick: {linear_texts:?}"
    );
    assert!(
        linear_texts.iter().any(|t| t == "0.4"),
        "linear axis has no 0.4 tick: {linear_texts:?}"
    );
}

#[test]
fn bad_jsonl_names_file_and_line_and_writes_nothing() {
    let dir = temp_dir("bad-jsonl");
    let runs = build_sweep(&dir);
    let path = Manifest::trace_path(&dir, &runs[3]);
    let mut lines: Vec<String> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines[2] = "{\"iter\": 2, \"evals\": 2, oops".into();
    std::fs::write(&path, lines.join("\n")).unwrap();
    let err = write_report(&dir).unwrap_err();
    let message = err.to_string();
    assert!(
        matches!(err, ReportError::Trace(TraceError::Defect { line: 3, .. })),
        "{err:?}"
    );
    assert!(message.contains(&runs[3].trace_file()), "{message}");
    assert_contains(&message, &["line 3"]);
    assert!(!dir.join("summary.csv").exists());
    assert!(!dir.join("report.md").exists());

    // A step without a required field.
    let mut step: Value = serde_json::from_str(&lines[1]).unwrap();
    step.as_object_mut().unwrap().remove("model_seconds");
    lines[2] = step.to_string();
    std::fs::write(&path, lines.join("\n")).unwrap();
    let message = write_report(&dir).unwrap_err().to_string();
    assert!(
        message.contains("line 3") && message.contains("model_seconds"),
        "{message}"
    );

    // No header line.
    std::fs::write(&path, lines[1..].join("\n")).unwrap();
    let message = write_report(&dir).unwrap_err().to_string();
    assert!(
        message.contains("line 1") && message.contains("header"),
        "{message}"
    );
}

#[test]
fn no_completed_runs_is_an_error_and_writes_nothing() {
    let dir = temp_dir("none-completed");
    let random = setting("random", &[]);
    let branin = setting("branin", &[]);
    write_manifest(
        &dir,
        vec![spec(0, &random, &branin, 0), spec(1, &random, &branin, 1)],
    );
    let err = write_report(&dir).unwrap_err();
    assert!(
        matches!(err, ReportError::NoCompletedRuns { total: 2, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("none of the 2 runs"), "{err}");
    let entries: Vec<_> = std::fs::read_dir(&*dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        entries.len(),
        2,
        "only manifest.json and runs/ should exist: {entries:?}"
    );
}

#[test]
fn missing_or_bad_manifest_is_an_error_naming_it() {
    let dir = temp_dir("no-manifest");
    let err = write_report(&dir).unwrap_err();
    assert!(matches!(err, ReportError::Manifest { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains(&dir.join("manifest.json").display().to_string()),
        "{err}"
    );

    std::fs::write(dir.join("manifest.json"), "{\"runs\": 3}").unwrap();
    let err = write_report(&dir).unwrap_err();
    assert!(matches!(err, ReportError::Manifest { .. }), "{err:?}");
    assert!(err.to_string().contains("manifest.json"), "{err}");
}

/// A larger sweep with realistic curves, long labels and runs of different lengths; the plots are
/// left in the temporary directory for inspection.
#[test]
fn realistic_sweep_renders() {
    let dir = temp_dir("realistic");
    std::fs::write(dir.join("config.toml"), CONFIG).unwrap();
    let algorithms = [
        setting("random", &[]),
        setting("ei", &[]),
        setting("gp-ucb", &[("ucb_multiplier", SettingValue::Number(2.0))]),
        setting(
            "gp-ucb",
            &[
                ("beta_schedule", SettingValue::Text("srinivas".into())),
                ("fit", SettingValue::Text("map".into())),
            ],
        ),
    ];
    let problems = [
        setting("hartmann6", &[("noise_std", SettingValue::Number(0.1))]),
        setting("branin", &[]),
    ];
    let mut runs = Vec::new();
    for p in &problems {
        for a in &algorithms {
            for r in 0..5 {
                // The fifth replicate's runs are of a smaller budget.
                runs.push(RunSpec {
                    budget: if r == 4 { 30 } else { 40 },
                    init: 10,
                    ..spec(runs.len(), a, p, r)
                });
            }
        }
    }
    write_manifest(&dir, runs.clone());
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut uniform = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for run in &runs {
        let a = algorithms.iter().position(|a| *a == run.algorithm).unwrap();
        let length = if run.replicate == 4 { 30 } else { 40 };
        let rate = [0.02, 0.08, 0.12, 0.1][a];
        let mut simple: f64 = 3.0 * (0.5 + uniform());
        let mut cumulative = 0.0;
        let steps: Vec<S> = (1..=length)
            .map(|e| {
                if e > 10 {
                    simple = (simple * (1.0 - rate * uniform() * 2.0)).min(simple);
                }
                cumulative += simple * (1.0 + uniform());
                let secs = if e > 10 {
                    0.01 * a as f64 * (1.0 + e as f64 / 10.0) * (0.8 + 0.4 * uniform())
                } else {
                    0.0
                };
                (
                    e,
                    Some(simple),
                    Some(cumulative),
                    -3.32 + simple,
                    secs * 0.8,
                    secs * 0.2,
                )
            })
            .collect();
        if run.replicate == 3 && a == 1 {
            continue; // missing
        }
        write_trace(&dir, run, "minimize", &steps);
    }
    let summary = write_report(&dir).unwrap();
    assert_eq!(summary.missing.len(), 2);
    for f in summary
        .files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "png"))
    {
        png_info(f);
    }
}

/// Twelve algorithms (palette colours repeat), one with a label wider than the plot, and a long
/// problem label: everything still renders.
#[test]
fn many_algorithms_and_long_labels_render() {
    let dir = temp_dir("many");
    let long = "x".repeat(110);
    let problem = setting(
        "michalewicz",
        &[
            ("dim", SettingValue::Number(10.0)),
            ("noise_std", SettingValue::Number(0.05)),
            (
                "note",
                SettingValue::Text("a-rather-long-problem-description-for-the-title".into()),
            ),
        ],
    );
    let mut algorithms: Vec<Setting> = (0..11)
        .map(|i| {
            setting(
                "gp-ucb",
                &[("ucb_multiplier", SettingValue::Number(0.5 * i as f64))],
            )
        })
        .collect();
    algorithms.push(setting(
        "ei",
        &[("comment", SettingValue::Text(long.clone()))],
    ));
    let runs: Vec<RunSpec> = algorithms
        .iter()
        .enumerate()
        .map(|(i, a)| RunSpec {
            budget: 20,
            ..spec(i, a, &problem, 0)
        })
        .collect();
    write_manifest(&dir, runs.clone());
    for (i, run) in runs.iter().enumerate() {
        let steps: Vec<S> = (1..=20)
            .map(|e| {
                let r = (1.0 + i as f64) / (e as f64).powf(0.5 + 0.1 * i as f64);
                (
                    e,
                    Some(r),
                    Some(r * e as f64),
                    -9.66 + r,
                    0.001 * e as f64,
                    0.002,
                )
            })
            .collect();
        write_trace(&dir, run, "minimize", &steps);
    }
    let summary = write_report(&dir).unwrap();
    assert_eq!(summary.rows.len(), 12);
    let finals: Vec<f64> = (0..12)
        .map(|i| (1.0 + i as f64) / 20f64.powf(0.5 + 0.1 * i as f64))
        .collect();
    let argmin = (0..12)
        .min_by(|&a, &b| finals[a].total_cmp(&finals[b]))
        .unwrap();
    let best: Vec<usize> = (0..12).filter(|&i| summary.rows[i].best).collect();
    assert_eq!(best, [argmin]);
    let svg = std::fs::read_to_string(dir.join("plots").join(format!(
        "{}-regret.svg",
        problem.label().replace(['[', ']', ','], "_")
    )))
    .unwrap();
    let texts = svg_texts(&svg);
    assert!(
        texts
            .iter()
            .any(|t| t.ends_with('…') && t.starts_with("ei[comment=xxx")),
        "{texts:?}"
    );
    for f in summary
        .files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "png"))
    {
        png_info(f);
    }
    // The critical-difference diagram widens its margins for long labels (here 38 characters)
    // and cuts only the 120-character one, whose rank stays readable.
    let ranks = std::fs::read_to_string(dir.join("plots/ranks.svg")).unwrap();
    let texts = svg_texts(&ranks);
    let ucb = format!("{} (", algorithms[10].label());
    assert!(
        texts.iter().any(|t| t.starts_with(&ucb)),
        "{ucb}: {texts:?}"
    );
    let cut = texts
        .iter()
        .find(|t| t.starts_with("ei[comment=xxx"))
        .unwrap_or_else(|| panic!("{texts:?}"));
    assert!(cut.contains("…") && cut.ends_with(')'), "{cut}");
    let (width, ..) = png_info(&dir.join("plots/ranks.png"));
    assert!((1136..=1400).contains(&width), "{width}");
}

/// Issue 15: the best of each problem is chosen by the mean, and the algorithms whose mean lies
/// within one standard error of it (|m − m_best| ≤ √(se² + se_best²)) are marked as ties, in
/// `summary.csv` (rank `tied`) and in `report.md` (italics, and named under the table).
#[test]
fn ties_within_one_standard_error_are_marked() {
    let dir = temp_dir("ties");
    std::fs::write(dir.join("config.toml"), CONFIG).unwrap();
    let branin = setting("branin", &[]);
    let ext = setting("ext", &[]);
    // Final simple regrets (branin) or best values (ext, maximised) of two replicates each: every
    // pair has a standard error of 0.1, so means closer than √0.02 ≈ 0.141 tie.
    let cases: [(&str, &Setting, [f64; 2]); 5] = [
        ("random", &branin, [1.0, 1.2]),
        ("gp-ucb", &branin, [1.1, 1.3]),
        ("ei", &branin, [2.0, 2.2]),
        ("random", &ext, [5.0, 5.2]),
        ("gp-ucb", &ext, [4.8, 5.0]),
    ];
    let mut runs = Vec::new();
    for (algorithm, problem, finals) in &cases {
        for (replicate, v) in finals.iter().enumerate() {
            let run = spec(runs.len(), &setting(algorithm, &[]), problem, replicate);
            let known = problem.name == "branin";
            let steps: Vec<S> = (1..=4)
                .map(|e| {
                    let regret = known.then_some(*v);
                    (
                        e,
                        regret,
                        regret,
                        if known { 0.4 + v } else { *v },
                        0.1,
                        0.1,
                    )
                })
                .collect();
            let sense = if known { "minimize" } else { "maximize" };
            runs.push((run, sense, steps));
        }
    }
    write_manifest(&dir, runs.iter().map(|r| r.0.clone()).collect());
    for (run, sense, steps) in &runs {
        write_trace(&dir, run, sense, steps);
    }
    let summary = write_report(&dir).unwrap();
    let marks: Vec<(bool, bool)> = summary.rows.iter().map(|r| (r.best, r.tied)).collect();
    // gp-ucb on branin: 1.2 − 1.1 = 0.1 ≤ 0.141 ties; ei: 1.0 > 0.141 does not. On ext the best
    // value 5.1 is best (maximised) and gp-ucb's 4.9 is 0.2 away: no tie.
    assert_eq!(
        marks,
        [
            (true, false),
            (false, true),
            (false, false),
            (true, false),
            (false, false)
        ]
    );
    assert!((summary.rows[3].best_value_se.unwrap() - 0.1).abs() < 1e-12);
    let (header, rows) = read_csv(&dir.join("summary.csv"));
    let rank = header.iter().position(|h| h == "rank").unwrap();
    let ranks: Vec<&str> = rows.iter().map(|r| r[rank].as_str()).collect();
    assert_eq!(ranks, ["best", "tied", "", "best", ""]);
    let md = file_containing(
        dir.join("report.md"),
        &[
            "| *`gp-ucb`* | 2 | *1.2* |",
            "Within one standard error of it: `gp-ucb`.",
        ],
    );
    assert_eq!(md.matches("Within one standard error").count(), 1, "{md}");
}

/// A headless Chromium to open pages with: `BOSWEEP_CHROMIUM`, else `chromium` or
/// `chromium-browser` on the `PATH`.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("BOSWEEP_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

/// What the page shows once loaded, read by a script the test appends to a copy of it.
const PAGE_PROBE: &str = "<script>
window.addEventListener('load', () => {
  const images = [...document.images];
  const tables = [...document.querySelectorAll('table')];
  document.title = JSON.stringify({
    images: images.length,
    decoded: images.filter(i => i.complete && i.naturalWidth > 0).map(i => i.naturalWidth),
    tables: tables.length,
    laid_out: tables.filter(t => t.getBoundingClientRect().height > 0).length,
    cells: document.querySelectorAll('td').length,
    sections: [...document.querySelectorAll('nav li')].map(li => li.textContent),
  });
});
</script>";

#[test]
fn html_report_is_self_contained_and_renders_in_headless_chromium() {
    let dir = temp_dir("html");
    build_sweep(&dir);
    let summary = write_report(&dir).unwrap();
    let html_path = dir.join("report.html");
    assert_eq!(summary.files.last(), Some(&html_path), "written last");
    let page = std::fs::read_to_string(&html_path).unwrap();
    // Every image is embedded; the report's other files are only linked.
    let images = page.matches("<img src=\"").count();
    assert_eq!(
        page.matches("<img src=\"data:image/png;base64,").count(),
        images
    );
    // branin: both final regrets, cumulative regret, best value, regret vs time, seconds; ext:
    // best value, seconds; the ranks, the runtime distribution and the normalised scores.
    assert_eq!(images, 11, "{page}");
    for text in [
        "<title>Sweep report: bosweep-report-",
        "<a href=\"#section-1\">Config (config.toml)</a>",
        "<h2 id=\"section-1\">Config (<code>config.toml</code>)</h2>",
        "<a href=\"plots/branin-regret.svg\">SVG</a>",
        "Devices:",
        "Missing runs",
    ] {
        assert!(page.contains(text), "report.html lacks {text:?}");
    }

    let Some(browser) = chromium() else {
        assert_ne!(
            std::env::var("BOSWEEP_REQUIRE_BROWSER").as_deref(),
            Ok("1"),
            "BOSWEEP_REQUIRE_BROWSER=1 but no chromium on the PATH (or BOSWEEP_CHROMIUM)"
        );
        eprintln!("skipped the browser check: no chromium on the PATH (or BOSWEEP_CHROMIUM)");
        return;
    };
    let probe = dir.join("probe.html");
    std::fs::write(
        &probe,
        page.replace("</body>", &format!("{PAGE_PROBE}</body>")),
    )
    .unwrap();
    let profile = dir.join("chromium-profile");
    let output = std::process::Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=10000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("file://{}", probe.display()))
        .output()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", browser.display()));
    let dom = String::from_utf8_lossy(&output.stdout);
    let title = dom
        .split_once("<title>")
        .and_then(|(_, rest)| rest.split_once("</title>"))
        .map(|(title, _)| title.replace("&amp;", "&"))
        .unwrap_or_else(|| {
            panic!(
                "{} printed no page (status {}): {}",
                browser.display(),
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )
        });
    let shown: Value = serde_json::from_str(&title)
        .unwrap_or_else(|e| panic!("the probe did not run ({e}); the title is {title:?}"));
    assert_eq!(shown["images"], images, "{shown}");
    // Every image decoded, at the plots' default width, the page's text column.
    let widths = shown["decoded"].as_array().unwrap();
    assert_eq!(widths.len(), images, "{shown}");
    assert!(widths.iter().all(|w| *w == 1136), "{shown}");
    assert_eq!(shown["tables"], shown["laid_out"], "{shown}");
    // The ranks', and per problem its summary and paired tests.
    assert!(shown["tables"].as_u64().unwrap() >= 5, "{shown}");
    assert!(shown["cells"].as_u64().unwrap() >= 40, "{shown}");
    let sections: Vec<&str> = shown["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(sections.contains(&"Problem branin"), "{sections:?}");
    assert!(sections.contains(&"Problem ext[dim=2]"), "{sections:?}");
}

/// Puts each step of `spec`'s trace on a simulated clock: step `i` (from 0) finishes at
/// `finish(i)`.
fn add_finishes(dir: &Path, spec: &RunSpec, finish: impl Fn(usize) -> f64) {
    let path = Manifest::trace_path(dir, spec);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    for (i, line) in lines.enumerate() {
        let mut step: Value = serde_json::from_str(line).unwrap();
        step["start"] = json!(0.0);
        step["finish"] = json!(finish(i));
        out.push_str(&format!("{step}\n"));
    }
    std::fs::write(path, out).unwrap();
}

/// [`build_sweep`] with every step on a simulated clock: step `i` finishes at `i + 1`, except in
/// `gp-ucb` replicate 0 on `branin`, whose first step finishes at 3.
fn build_timed_sweep(dir: &Path) -> Vec<RunSpec> {
    let runs = build_sweep(dir);
    for (k, run) in runs.iter().enumerate() {
        if Manifest::trace_path(dir, run).is_file() {
            let late = if k == 3 { 2.0 } else { 0.0 };
            add_finishes(dir, run, |i| (i + 1) as f64 + late);
        }
    }
    runs
}

fn plot_names(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "svg"))
        .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_timed_sweep_is_plotted_and_compared_at_a_simulated_time() {
    let dir = temp_dir("timed");
    build_timed_sweep(&dir);
    let at = |time: f64| ReportOptions {
        time: Some(time),
        ..ReportOptions::default()
    };
    let summary = write_report_with(&dir, &at(2.5)).unwrap();
    let plots = plot_names(&summary.files);
    for plot in [
        "branin-regret-simulated-time",
        "ext_dim=2_-best-value-simulated-time",
        "runtime-distribution-simulated-time",
        "runtime-distribution",
    ] {
        assert!(plots.iter().any(|p| p == plot), "{plot} not in {plots:?}");
        assert!(dir.join("plots").join(format!("{plot}.png")).is_file());
    }
    for svg in [
        "branin-regret-simulated-time",
        "runtime-distribution-simulated-time",
    ] {
        let text = std::fs::read_to_string(dir.join(format!("plots/{svg}.svg"))).unwrap();
        assert!(
            svg_texts(&text).iter().any(|t| t == "simulated time"),
            "{svg}"
        );
    }

    // At 2.5 every run has its first two steps, but gp-ucb's replicate 0 on branin, whose first
    // step finishes at 3: left out. branin: random's simple regrets 1, 1, 0.5; gp-ucb's 0.5.
    let (header, rows) = read_csv(&dir.join("summary-at-time.csv"));
    assert_eq!(header, SUMMARY_COLUMNS);
    assert_eq!(rows.len(), 4);
    let row = |algorithm: &str, problem: &str| {
        rows.iter()
            .find(|r| r[0] == problem && r[1] == algorithm)
            .unwrap_or_else(|| panic!("no row {problem} {algorithm}"))
    };
    let random = row("random", "branin");
    assert_eq!(random[2], "3");
    assert!(close(num(&random[3]), 2.5 / 3.0));
    assert_eq!(random[8], "2");
    let ucb = row("gp-ucb[ucb_multiplier=2]", "branin");
    assert_eq!((ucb[2].as_str(), ucb[3].as_str()), ("1", "0.5"));
    assert_eq!(ucb[12], "best");
    // ext (maximised): best values 0.5 and 1.5 for random, 2.5 and 1.5 for gp-ucb.
    assert_eq!(row("random", "ext[dim=2]")[7], "1");
    assert_eq!(row("gp-ucb[ucb_multiplier=2]", "ext[dim=2]")[12], "best");

    let (header, comparisons) = read_csv(&dir.join("comparisons-at-time.csv"));
    assert_eq!(header, COMPARISON_COLUMNS);
    assert_eq!(comparisons.len(), 2);
    // branin: only replicate 1 has both runs by then (1 − 0.5); ext: −2 and 0.
    assert_eq!(
        comparisons
            .iter()
            .map(|c| (c[0].as_str(), c[3].as_str(), c[4].as_str(), c[10].as_str()))
            .collect::<Vec<_>>(),
        [
            ("branin", "1", "0.5", "best-evaluated-regret"),
            ("ext[dim=2]", "2", "-1", "best-value")
        ]
    );
    let (_, ranks) = read_csv(&dir.join("ranks-at-time.csv"));
    assert_eq!(
        ranks
            .iter()
            .map(|r| (r[0].as_str(), r[1].as_str(), r[2].as_str()))
            .collect::<Vec<_>>(),
        [("gp-ucb[ucb_multiplier=2]", "1", "2"), ("random", "2", "2")]
    );
    let md = file_containing(
        dir.join("report.md"),
        &[
            "### At simulated time 2.5",
            "1 completed run had no step by then and is left out.",
        ],
    );
    assert!(md.contains("lowest mean best evaluated regret at simulated time 2.5"));
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("At simulated time 2.5"));

    // Past every run's last step, the tables at that time are the final ones.
    write_report_with(&dir, &at(100.0)).unwrap();
    for (then, last) in [
        ("summary-at-time.csv", "summary.csv"),
        ("comparisons-at-time.csv", "comparisons.csv"),
        ("ranks-at-time.csv", "ranks.csv"),
    ] {
        assert_eq!(
            read_csv(&dir.join(then)),
            read_csv(&dir.join(last)),
            "{then}"
        );
    }
}

/// The timed sweep in a fresh directory `name`, its config asking for the report at `time`
/// (a TOML value, given as written).
fn timed_sweep_at(name: &str, time: &str) -> TempDir {
    let dir = temp_dir(name);
    build_timed_sweep(&dir);
    std::fs::write(
        dir.join("config.toml"),
        format!("{CONFIG}\n[report]\ntime = {time}\n"),
    )
    .unwrap();
    dir
}

#[test]
fn the_config_chooses_the_time_and_refuses_a_bad_one() {
    let dir = timed_sweep_at("time-config", "2.5");
    write_report(&dir).unwrap();
    let (_, rows) = read_csv(&dir.join("summary-at-time.csv"));
    assert_eq!(rows[0][8], "2");
    // --time overrides it.
    let options = ReportOptions {
        time: Some(1.0),
        ..ReportOptions::default()
    };
    write_report_with(&dir, &options).unwrap();
    let (_, rows) = read_csv(&dir.join("summary-at-time.csv"));
    assert_eq!(rows[0][8], "1");

    for (bad, found) in [
        ("0", "found 0"),
        ("-1", "found -1"),
        ("\"x\"", "found \"x\""),
    ] {
        let dir = timed_sweep_at("time-bad", bad);
        let e = write_report(&dir).unwrap_err();
        assert!(matches!(e, ReportError::Config { .. }), "{e:?}");
        let message = e.to_string();
        assert_contains(
            &message,
            &[
                "config.toml",
                "[report] time",
                "expected a positive finite simulated time",
                found,
            ],
        );
        assert!(!dir.join("summary.csv").exists());
    }
}

#[test]
fn a_time_with_untimed_runs_is_refused_naming_the_trace() {
    let dir = temp_dir("untimed");
    let runs = build_sweep(&dir);
    // Untimed runs: no plot against simulated time, no comparison at a time.
    let summary = write_report(&dir).unwrap();
    assert!(
        !plot_names(&summary.files)
            .iter()
            .any(|p| p.contains("simulated-time")),
        "{:?}",
        summary.files
    );
    assert!(!dir.join("summary-at-time.csv").exists());

    let dir = temp_dir("untimed-time");
    let runs_again = build_sweep(&dir);
    assert_eq!(runs, runs_again);
    let options = ReportOptions {
        time: Some(2.0),
        ..ReportOptions::default()
    };
    let e = write_report_with(&dir, &options).unwrap_err();
    assert!(matches!(e, ReportError::Untimed { .. }), "{e:?}");
    let message = e.to_string();
    assert!(message.contains(&runs[0].trace_file()), "{message}");
    assert!(
        message.contains(
            "has no simulated time; run with --runtime/--workers/--batch or drop [report] time"
        ),
        "{message}"
    );
    assert!(!dir.join("summary.csv").exists());
}

#[test]
fn bosweep_report_takes_the_time_and_refuses_a_bad_one() {
    let dir = temp_dir("time-cli");
    build_timed_sweep(&dir);
    let report = |time: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_bosweep"))
            .args(["report", dir.to_str().unwrap(), &format!("--time={time}")])
            .output()
            .unwrap()
    };
    let ok = report("2.5");
    assert!(ok.status.success(), "{ok:?}");
    let (_, rows) = read_csv(&dir.join("summary-at-time.csv"));
    assert_eq!(rows.len(), 4);
    for bad in ["0", "-1", "x", "inf"] {
        let refused = report(bad);
        assert!(!refused.status.success());
        let stderr = String::from_utf8_lossy(&refused.stderr);
        assert_contains(&stderr, &["--time", "positive finite simulated time"]);
    }
}

/// A trace of `spec` whose steps have the instant regrets `instant` (of the evaluated points) and
/// the simple regrets `recommended` (of the recommendations), one evaluation each; `noisy`
/// makes every observed `y` differ from `f`.
fn two_regret_trace(spec: &RunSpec, instant: &[f64], recommended: &[f64], noisy: bool) -> String {
    let header = json!({"header": {"seed": spec.seed, "budget": spec.budget, "sense": "minimize"}});
    let mut text = format!("{header}\n");
    for (i, (&r, &s)) in instant.iter().zip(recommended).enumerate() {
        let y = r + if noisy { 0.01 } else { 0.0 };
        let step = step_record(i + 1, Some(y), r, Some(r), Some(s));
        text.push_str(&format!("{}\n", serde_json::to_string(&step).unwrap()));
    }
    text
}

/// `a` evaluates a point of regret 0.05 at its second evaluation but keeps recommending worse
/// ones (final 0.5); `b`'s recommendation is its best point (final 0.2). Each measure is told
/// apart: the summary holds both, COCO's runtimes count `a`'s second evaluation, the default
/// metric is the best evaluated regret where the runs observe `f` itself and the
/// recommendation's where they observe it with noise.
#[test]
fn a_recommendation_that_lags_its_best_point_is_measured_both_ways() {
    let dir = temp_dir("two-regrets");
    std::fs::write(dir.join("config.toml"), CONFIG).unwrap();
    let (a, b) = (setting("a", &[]), setting("b", &[]));
    let quiet = setting("branin", &[]);
    let noisy = setting("branin", &[("noise_std", SettingValue::Number(0.1))]);
    let runs: Vec<RunSpec> = [(&a, &quiet), (&b, &quiet), (&a, &noisy), (&b, &noisy)]
        .iter()
        .enumerate()
        .map(|(i, (algorithm, problem))| spec(i, algorithm, problem, 0))
        .collect();
    write_manifest(&dir, runs.clone());
    let lagging = ([5.0, 0.05, 2.0, 3.0], [5.0, 4.0, 3.0, 0.5]);
    let faithful = ([5.0, 1.0, 0.5, 0.2], [5.0, 1.0, 0.5, 0.2]);
    for (run, (instant, recommended)) in runs.iter().zip([lagging, faithful, lagging, faithful]) {
        let noise = run.problem.params.iter().any(|(k, _)| k == "noise_std");
        std::fs::write(
            Manifest::trace_path(&dir, run),
            two_regret_trace(run, &instant, &recommended, noise),
        )
        .unwrap();
    }
    let summary = write_report(&dir).unwrap();
    let row = |problem: &str, algorithm: &str| {
        summary
            .rows
            .iter()
            .find(|r| r.problem == problem && r.algorithm == algorithm)
            .unwrap()
    };
    // Both final regrets, each run's own.
    let quiet_a = row("branin", "a");
    assert_eq!(quiet_a.best_evaluated_regret_mean, Some(0.05));
    assert_eq!(quiet_a.simple_regret_mean, Some(0.5));
    assert_eq!(row("branin", "b").best_evaluated_regret_mean, Some(0.2));
    // The default metric: on the noise-free problem the best evaluated regret picks `a`; on the
    // noisy one the recommendation's picks `b`.
    assert!(quiet_a.best && !row("branin", "b").best);
    let noisy_label = "branin[noise_std=0.1]";
    assert!(row(noisy_label, "b").best && !row(noisy_label, "a").best);
    let (_, comparisons) = read_csv(&dir.join("comparisons.csv"));
    let metrics = cell_pairs(&comparisons, 0, 10);
    assert_eq!(
        metrics,
        [
            ("branin", "best-evaluated-regret"),
            (noisy_label, "recommendation-regret")
        ]
    );
    // COCO's ERT to Δf ≤ 0.1 counts `a`'s second evaluation (its recommendation never got
    // there); `b` never evaluated a point that close.
    let (_, ert) = read_csv(&dir.join("ert.csv"));
    let ert_of = |algorithm: &str, target: &str| {
        ert.iter()
            .find(|r| r[0] == "branin" && r[1] == algorithm && r[2] == target)
            .map(|r| (r[4].clone(), r[5].clone()))
            .unwrap()
    };
    assert_eq!(ert_of("a", "0.1"), ("1".to_owned(), "2".to_owned()));
    assert_eq!(ert_of("b", "0.1"), ("0".to_owned(), String::new()));
    assert_eq!(ert_of("b", "10"), ("1".to_owned(), "1".to_owned()));
    // Each run's runtimes to the distribution's targets: `a` reaches 10^-1.2 at its second
    // evaluation, not 10^-1.4 (0.0398 < 0.05).
    let (header, runtimes) = read_csv(&dir.join("runtimes.csv"));
    assert_eq!(
        header,
        [
            "problem",
            "algorithm",
            "replicate",
            "evaluations",
            "target",
            "runtime"
        ]
    );
    assert_eq!(runtimes.len(), 4 * 51);
    let runtime_of = |algorithm: &str, k: usize| {
        let rows: Vec<&Vec<String>> = runtimes
            .iter()
            .filter(|r| r[0] == "branin" && r[1] == algorithm)
            .collect();
        // COCO's targets, 10^(i/5) for i = 10, 9, …
        let i = 10 - k as i32;
        assert_eq!(
            rows[k][4].parse::<f64>().unwrap(),
            10f64.powf(f64::from(i) / 5.0)
        );
        rows[k][5].clone()
    };
    assert_eq!(runtime_of("a", 16), "2");
    assert_eq!(runtime_of("a", 17), "");
    assert_eq!(runtime_of("b", 0), "1");
    // The recommendation's curve is captioned where it is the one shown.
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert_eq!(md.matches("so a curve can rise").count(), 1, "{md}");
}
