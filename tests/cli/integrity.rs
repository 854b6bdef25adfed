//! What a hostile user tried, held fixed: a trace cut short is refused by every reader instead
//! of counted, two runs given one output never interleave, a closed stderr does not stop a
//! sweep from finishing, an interrupted sweep releases its lock, and huge or contradictory
//! settings are refused with a message instead of a panic, an abort or a silent choice.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use bosweep::sweep::{Parallel, RunConfig, RuntimeModel, TraceWriter, run};

use crate::common::{
    assert_contains, bosweep, command, exited, file_containing, run_args, stderr, succeeded,
    sweep_config,
};

const CONFIG: &str = r#"
seed = 3
replicates = 2
budget = 8
init = 4

[[algorithm]]
name = "random"

[[algorithm]]
name = "gp-ucb"
grid_size = 64

[[problem]]
name = "branin"
"#;

fn sandbox(name: &str) -> PathBuf {
    crate::common::sweep_sandbox("integrity", name, CONFIG)
}

/// Runs `args`, which must exit with `code` and say `words` on stderr.
fn refused(dir: &Path, args: &[&str], code: i32, words: &str) -> String {
    let out = bosweep(dir, args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(code), "bosweep {args:?}: {err}");
    assert!(err.contains(words), "bosweep {args:?}: {err}");
    err
}

fn sweep(dir: &Path, out: &str) {
    let result = bosweep(dir, &["sweep", "sweep.toml", "--out", out, "--no-report"]);
    succeeded(&result);
}

/// The trace file names of a sweep directory, sorted.
fn trace_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    names.sort();
    names
}

/// `bosweep archive create SWEEP SET --name NAME` with a description and a commit.
fn archive_create<'a>(sweep: &'a str, set: &'a str, name: &'a str) -> [&'a str; 10] {
    [
        "archive",
        "create",
        sweep,
        set,
        "--name",
        name,
        "--description",
        "a set of a test's sweep",
        "--commit",
        "0000000",
    ]
}

/// Deletes the last line of `path`.
fn drop_last_line(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(path, format!("{}\n", lines[..lines.len() - 1].join("\n"))).unwrap();
}

#[test]
fn a_trace_cut_short_is_refused_by_every_reader_and_redone_by_resume() {
    let dir = sandbox("truncated");
    sweep(&dir, "a");
    sweep(&dir, "b");
    let name = trace_names(&dir.join("b"))
        .into_iter()
        .find(|n| n.contains("gp-ucb") && n.ends_with("r0.jsonl"))
        .unwrap();
    let cut = dir.join("b/runs").join(&name);
    drop_last_line(&cut);
    let why = "line 8: the run is not complete: it stops after 7 of its 8 evaluations";
    for args in [
        &["compare", "a", "b", "--metric", "cumulative-regret"][..],
        &["compare", "b", "a"],
        &["report", "b"],
        &archive_create("b", "set", "b"),
    ] {
        let err = refused(&dir, args, 2, why);
        assert!(err.contains(&name), "{args:?}: {err}");
    }
    assert!(!dir.join("set").exists());
    assert!(!dir.join("b/report.md").exists());

    // merge leaves the cut trace out, says so, and reports the run as missing.
    let out = bosweep(&dir, &["merge", "--out", "merged", "b"]);
    let err = exited(&out, 0);
    assert_contains(
        &err,
        &[&format!("{name} {why}; not merged"), "3 completed runs"],
    );
    assert!(!dir.join("merged/runs").join(&name).exists());
    file_containing(
        dir.join("merged/report.md"),
        &["3 of 4 runs completed (1 missing)"],
    );

    // A corrupted line is not merged either.
    let other = dir.join("b/runs").join(&trace_names(&dir.join("b"))[0]);
    let text = std::fs::read_to_string(&other).unwrap();
    std::fs::write(&other, text.replacen("\"iter\":3,", "\"iter\":3,oops", 1)).unwrap();
    let out = bosweep(&dir, &["merge", "--out", "merged-again", "b"]);
    let err = stderr(&out);
    assert_contains(&err, &["line 4: not a trace step", "2 completed runs"]);

    // Resume moves both aside and runs them again; every reader then takes the sweep.
    sweep(&dir, "b");
    assert!(cut.with_extension("jsonl.invalid").exists());
    let out = bosweep(
        &dir,
        &["compare", "a", "b", "--metric", "cumulative-regret"],
    );
    succeeded(&out);
    let compared = String::from_utf8_lossy(&out.stdout);
    assert_contains(&compared, &["4 paired runs"]);
}

#[test]
fn an_archived_run_that_stops_short_of_its_budget_is_refused() {
    let dir = sandbox("archived-short");
    sweep(&dir, "s");
    let out = bosweep(&dir, &archive_create("s", "set", "s"));
    succeeded(&out);
    let runs = dir.join("set/runs.jsonl");
    let text = std::fs::read_to_string(&runs).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let budget = first["run"]["budget"].as_u64().unwrap();
    std::fs::write(
        &runs,
        text.replacen(
            &format!("\"budget\":{budget}"),
            &format!("\"budget\":{}", budget + 1),
            1,
        ),
    )
    .unwrap();
    refused(
        &dir,
        &["archive", "show", "set"],
        2,
        "runs.jsonl line 1: kept.evals: the run is not complete: it ends at 8 of its 9 evaluations",
    );
}

#[test]
fn two_runs_given_one_output_never_interleave() {
    let dir = sandbox("one-output");
    let path = dir.join("same.jsonl");
    std::fs::write(&path, "another run's line\n").unwrap();
    // Another process's writer holds the file, as a first `bosweep run --out same.jsonl` does.
    let holder = File::options().write(true).open(&path).unwrap();
    holder.lock().unwrap();
    let args = run_args(
        "random",
        "branin",
        "4",
        &["--init", "2", "--out", "same.jsonl"],
    );
    refused(
        &dir,
        &args,
        2,
        "--out: same.jsonl is being written by another process",
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "another run's line\n"
    );
    drop(holder);
    let out = bosweep(&dir, &args);
    succeeded(&out);
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 5);
}

#[test]
fn a_sweep_whose_stderr_is_closed_finishes_its_runs_and_report() {
    let dir = sandbox("closed-stderr");
    let mut child = command(&dir, &["sweep", "sweep.toml", "--out", "s"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Nobody reads the messages: every one of them meets a closed pipe.
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert_eq!(trace_names(&dir.join("s")).len(), 4);
    assert!(dir.join("s/report.md").is_file());
}

#[test]
fn a_sweep_stopped_by_a_signal_releases_its_lock() {
    let dir = sandbox("signal-lock");
    // The objective announces itself, then waits for a line that never comes.
    let config = r#"
seed = 1
replicates = 1
budget = 2
init = 1

[[algorithm]]
name = "random"

[[problem]]
name = "command"
cmd = "echo started >> started.txt; read never < waiting.fifo; echo 1"
bounds = "0:1"
"#;
    std::fs::write(dir.join("blocked.toml"), config).unwrap();
    let fifo = dir.join("waiting.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut child = command(&dir, &["sweep", "blocked.toml", "--out", "s"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = dir.join("started.txt");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !started.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the objective never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let lock = dir.join("s/.bosweep.lock");
    assert!(std::fs::read_to_string(&lock).unwrap().contains("running"));
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on the child we spawned.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    assert_eq!(child.wait().unwrap().code(), Some(130));
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), "");
}

#[test]
fn settings_past_their_range_are_refused_by_name() {
    let dir = sandbox("ranges");
    let run = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = ["run", "--algo", "random", "--budget", "4", "--init", "2"]
            .map(String::from)
            .to_vec();
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let cases: [(&[&str], &str); 9] = [
        (
            &[
                "--objective-cmd",
                "echo 1",
                "--bounds",
                "0:1",
                "--objective-timeout",
                "2e19",
            ],
            "--objective-timeout: value 2e19 (must be a number in [0.001, 1000000])",
        ),
        (
            &["--problem", "branin", "--batch", "100000"],
            "--batch: value 100000 (must be at most 4096)",
        ),
        (
            &["--problem", "branin", "--workers", "100000"],
            "--workers: value 100000 (must be at most 4096)",
        ),
        (
            &[
                "--problem",
                "branin",
                "--workers",
                "2",
                "--runtime",
                "lognormal:sigma=1e308",
            ],
            "sigma = \"1e308\" is invalid (must be a number in [0, 10])",
        ),
        (
            &[
                "--problem",
                "branin",
                "--workers",
                "2",
                "--runtime",
                "constant:time=1e308",
            ],
            "time = \"1e308\" is invalid (must be a number in (0, 1e12])",
        ),
        (
            &[
                "--problem",
                "branin",
                "--workers",
                "2",
                "--runtime",
                "constant:time=1,time=2",
            ],
            "key \"time\" is given twice",
        ),
        (
            &["--objective-cmd", "echo 1", "--bounds", "-1e308:1e308"],
            "the width of [-1e308, 1e308] is not finite",
        ),
        (
            &["--objective-cmd", "echo 1", "--bounds", "0:1e309"],
            "bounds [0, inf] must be finite",
        ),
        (
            &["--problem", "branin", "--route", "gpu"],
            "route gpu with device cpu",
        ),
    ];
    for (extra, words) in cases {
        let args = run(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = refused(&dir, &args, 2, words);
        assert!(!err.contains("0000000000000000000000"), "{err}");
    }
    refused(
        &dir,
        &["kde-error", "--law", "normal", "--samples", "100000000000"],
        2,
        "--samples: KDEs of 100000000000 draws need about 2.18 TiB of memory",
    );
}

#[test]
fn a_simulated_clock_that_overflows_is_an_error_naming_the_model() {
    // Parsing bounds every runtime; a model built in code is checked as the clock runs.
    let problem = bosweep::problems::build("branin", &[]).unwrap();
    let mut algorithm = bosweep::algorithms::build("random", &[]).unwrap();
    let config = RunConfig {
        budget: 6,
        init: 2,
        seed: 1,
        design_seed: 1,
        parallel: Parallel {
            workers: 2,
            runtime: Some(RuntimeModel::Constant { time: 1e308 }),
            ..Parallel::default()
        },
    };
    let mut trace = TraceWriter::to_writer(Box::new(std::io::sink()));
    let engine = bosweep::compute::CpuEngine::new();
    let error = run(
        problem.as_ref(),
        algorithm.as_mut(),
        "random",
        &engine,
        &config,
        &mut trace,
    )
    .unwrap_err()
    .to_string();
    assert_contains(
        &error,
        &["runtime \"constant:time=1e308\": the simulated clock overflowed at step 3"],
    );
}

#[test]
fn more_threads_than_runs_start_no_more_threads_than_runs() {
    let dir = sandbox("threads");
    let out = bosweep(
        &dir,
        &[
            "sweep",
            "sweep.toml",
            "--out",
            "s",
            "--no-report",
            "--threads",
            "10000",
        ],
    );
    let err = exited(&out, 0);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_contains(
        &err,
        &[&format!(
            "4 run(s) to do: {} worker threads, not 10000",
            cores.max(4)
        )],
    );
}

#[test]
fn a_sweep_directory_given_as_an_archive_set_is_named_as_one() {
    let dir = sandbox("sweep-as-set");
    sweep(&dir, "s");
    let words =
        "s: a sweep directory, not an archive set; make a set of it with `bosweep archive create s";
    refused(&dir, &["archive", "show", "s"], 2, words);
    refused(&dir, &["report", "s", "--archive", "s"], 2, words);
}

#[test]
fn a_set_given_twice_is_put_beside_the_sweep_once() {
    let dir = sandbox("set-twice");
    sweep(&dir, "s");
    let out = bosweep(&dir, &archive_create("s", "set", "mine"));
    succeeded(&out);
    let out = bosweep(
        &dir,
        &["report", "s", "--archive", "set", "--archive", "./set"],
    );
    succeeded(&out);
    let report = std::fs::read_to_string(dir.join("s/report.md")).unwrap();
    assert_eq!(report.matches("| `mine` | 1 |").count(), 1, "{report}");
}

#[test]
fn a_sweep_without_runs_is_named_once() {
    let dir = sandbox("no-runs");
    sweep(&dir, "a");
    std::fs::create_dir_all(dir.join("none/runs")).unwrap();
    for file in ["manifest.json", "config.toml"] {
        std::fs::copy(dir.join("a").join(file), dir.join("none").join(file)).unwrap();
    }
    let err = refused(
        &dir,
        &["compare", "none", "a"],
        2,
        "none: none of the 4 runs in the manifest has completed",
    );
    assert!(!err.contains("none: none:"), "{err}");
    refused(
        &dir,
        &archive_create("none", "set", "x"),
        2,
        "none of the 4 runs",
    );
    // A directory that is not a sweep is bad input for every reader, said without the
    // operating system's error number.
    for (args, words) in [
        (&["report", "nowhere"][..], "No such file or directory"),
        (
            &["compare", "nowhere", "a"],
            "nowhere: no such sweep or archive set directory",
        ),
    ] {
        let err = refused(&dir, args, 2, words);
        assert!(!err.contains("os error"), "{err}");
    }
    std::fs::write(dir.join("none/manifest.json"), "{").unwrap();
    refused(
        &dir,
        &archive_create("none", "set", "x"),
        2,
        "cannot read the sweep manifest",
    );
}

/// `config` with `extra` at its top level and `label = …` on each algorithm where `labels`.
fn variant(dir: &Path, name: &str, top: &str, labels: bool) {
    let mut text = format!("{top}\n{CONFIG}");
    if labels {
        text = text
            .replace("name = \"random\"\n", "name = \"random\"\nlabel = \"RS\"\n")
            .replace("grid_size = 64\n", "grid_size = 64\nlabel = \"UCB\"\n");
    }
    std::fs::write(dir.join(format!("{name}.toml")), text).unwrap();
    let out = bosweep(
        dir,
        &[
            "sweep",
            &format!("{name}.toml"),
            "--out",
            name,
            "--no-report",
        ],
    );
    succeeded(&out);
}

#[test]
fn a_top_level_batch_is_on_every_label_and_runs_that_evaluate_differently_are_never_paired() {
    let dir = sandbox("parallel-labels");
    variant(&dir, "seq", "", false);
    variant(&dir, "q4", "batch = 4", false);
    // The report names the batch, as it would had each table given it.
    let out = bosweep(&dir, &["report", "q4"]);
    succeeded(&out);
    file_containing(
        dir.join("q4/summary.csv"),
        &[",random[batch=4],", ",\"gp-ucb[batch=4,grid_size=64]\","],
    );
    // So a sequential run and a batch run of one method are two algorithms to compare.
    refused(
        &dir,
        &["compare", "seq", "q4"],
        2,
        "no algorithm label is in both (A: random, gp-ucb[grid_size=64]; B: random[batch=4], \
         gp-ucb[batch=4,grid_size=64])",
    );
    // Labels the user gave are kept; the pairing still refuses what evaluates differently.
    variant(&dir, "seq-labelled", "", true);
    variant(&dir, "q4-labelled", "batch = 4", true);
    refused(
        &dir,
        &["compare", "seq-labelled", "q4-labelled"],
        2,
        "cannot pair RS on branin, replicate 0, of seq-labelled and q4-labelled: they evaluate \
         differently (one point at a time against batches of 4)",
    );
    variant(
        &dir,
        "w4-labelled",
        "workers = 4\nruntime = \"lognormal:sigma=0.5\"",
        true,
    );
    refused(
        &dir,
        &["compare", "q4-labelled", "w4-labelled"],
        2,
        "they evaluate differently (batches of 4 against 4 workers, runtime \
         lognormal:median=1,sigma=0.5)",
    );
}

#[test]
fn an_archive_set_beside_a_sweep_is_paired_only_on_its_designs_and_budget() {
    let dir = sandbox("archive-pairing");
    sweep(&dir, "seq");
    let out = bosweep(&dir, &archive_create("seq", "set", "old"));
    succeeded(&out);
    // Another budget: nothing to put beside the sweep.
    let longer = CONFIG.replace("budget = 8", "budget = 10");
    let out = sweep_config(&dir, "longer.toml", &longer, "longer", &["--no-report"]);
    succeeded(&out);
    refused(
        &dir,
        &["report", "longer", "--archive", "set"],
        2,
        "archive set old ran branin with a budget of 8 evaluations, this sweep with 10",
    );
    // Other designs (another seed), the same budget: the set's runs join the tables but no
    // paired test pairs them.
    let reseeded = CONFIG.replace("seed = 3", "seed = 4");
    let out = sweep_config(
        &dir,
        "reseeded.toml",
        &reseeded,
        "reseeded",
        &["--no-report"],
    );
    succeeded(&out);
    succeeded(&bosweep(&dir, &["report", "reseeded", "--archive", "set"]));
    file_containing(
        dir.join("reseeded/report.md"),
        &["Only 0 of its 4 runs share this sweep's initial design"],
    );
    let comparisons = std::fs::read_to_string(dir.join("reseeded/comparisons.csv")).unwrap();
    let mut header = comparisons.lines().next().unwrap().split(',');
    let pairs = header.position(|c| c == "pairs").unwrap();
    for row in comparisons.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        // Two runs of one side share their designs; a sweep's run and the set's do not.
        let across = cells[1].ends_with("[old]") != cells[2].ends_with("[old]");
        assert_eq!(cells[pairs], if across { "0" } else { "2" }, "{row}");
    }
}

#[test]
fn a_trace_cut_short_is_not_exported_to_coco() {
    let dir = sandbox("coco-cut");
    let bbob = CONFIG.replace(
        "name = \"branin\"",
        "name = \"bbob\"\nfunction = 1\ndim = 2",
    );
    succeeded(&sweep_config(
        &dir,
        "bbob.toml",
        &bbob,
        "s",
        &["--no-report"],
    ));
    let name = trace_names(&dir.join("s")).remove(0);
    drop_last_line(&dir.join("s/runs").join(&name));
    let err = refused(
        &dir,
        &["export-coco", "s", "--out", "coco"],
        2,
        "line 8: the run is not complete: it stops after 7 of its 8 evaluations",
    );
    assert!(err.contains(&name), "{err}");
}

#[test]
fn what_bosweep_checks_itself_comes_before_a_peers_python_check() {
    let dir = sandbox("peer-order");
    // NGOpt has no batch version: said at once, before any interpreter is asked.
    let err = refused(
        &dir,
        &run_args(
            "nevergrad-ngopt",
            "branin",
            "8",
            &[
                "--init",
                "4",
                "--batch",
                "4",
                "--param",
                "python=/no/such/python",
            ],
        ),
        2,
        "--batch 4: algorithm nevergrad-ngopt proposes one point at a time",
    );
    assert!(!err.contains("/no/such/python"), "{err}");
}
