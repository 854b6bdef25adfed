//! `bosweep run` and `bosweep list` from the command line: exit codes, messages, and traces that
//! keep every completed evaluation when the objective fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{assert_contains, exited, file_containing, run_args, stderr, succeeded};

/// Runs `bosweep --device cpu args…` in the test's working directory.
fn bosweep(args: &[&str]) -> Output {
    crate::common::bosweep(Path::new("."), args)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bosweep-cli-run-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The trace at `path`, a JSON value per line (the header first).
fn trace_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn expect_usage_error(args: &[&str], needle: &str) {
    let out = bosweep(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

#[test]
fn list_shows_algorithms_problems_and_defaults() {
    let out = bosweep(&["list", "--long"]);
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

/// Issue 43: `list` printed 717 lines and took no filter. It is a catalogue: one line per
/// entry, a name for its details, filters by what a method needs or can do and what a problem
/// has; bbob's functions are named.
#[test]
fn list_browses_by_kind_name_and_feature() {
    let stdout = |args: &[&str]| {
        let out = bosweep(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    // Entry lines: two spaces, the name, then two or more spaces.
    let names = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .map(|l| l.split_whitespace().next().unwrap().to_owned())
            .collect()
    };
    let all = stdout(&["list"]);
    let every = names(&all);
    // One line an entry: 51 algorithms and 69 problems (the multi-objective and constrained
    // suites among them) with their headings, not the 717 lines of details.
    assert!(all.lines().count() < 130, "{all}");
    for name in [
        "gp-ucb",
        "qlognei",
        "stableopt",
        "branin",
        "bbob",
        "command",
        "nsga2",
        "zdt1",
    ] {
        assert!(every.iter().any(|n| n == name), "{name}: {all}");
    }
    assert_contains(&all, &["Algorithms (51;"]);
    let several = names(&stdout(&["list", "--with", "several-objectives"]));
    assert_eq!(
        several[..9],
        [
            "random",
            "qlognehvi",
            "qlognparego",
            "nsga2",
            "optuna-tpe",
            "optuna-gp",
            "optuna-nsga2",
            "botorch-qlognehvi",
            "branin-currin"
        ]
    );
    assert!(!several.contains(&"optuna-cmaes".to_owned()));
    assert!(several.contains(&"car-side-impact".to_owned()) && !several.contains(&"ei".to_owned()));

    let constrained = names(&stdout(&["list", "--with", "constraints"]));
    assert_eq!(
        constrained[..15],
        [
            "random",
            "qlognei",
            "saasbo-map",
            "logei-pof",
            "qlognehvi",
            "qlognparego",
            "nsga2",
            "turbo",
            "scbo",
            "optuna-tpe",
            "optuna-gp",
            "optuna-nsga2",
            "botorch-qlognei",
            "botorch-qlognehvi",
            "constrained-gramacy"
        ]
    );
    assert!(constrained.contains(&"c2dtlz2".to_owned()) && !constrained.contains(&"ei".to_owned()));

    let batch = stdout(&["list", "algorithms", "--with", "batch"]);
    let batched = names(&batch);
    assert!(batched.contains(&"ei".to_owned()) && batched.contains(&"turbo".to_owned()));
    assert!(!batched.contains(&"uhe-bo".to_owned()) && !batched.contains(&"rahbo".to_owned()));
    assert!(!batch.contains("Problems"), "{batch}");
    let python = names(&stdout(&["list", "--with", "batch", "--with", "python"]));
    assert_eq!(
        python,
        [
            "optuna-tpe",
            "optuna-cmaes",
            "optuna-nsga2",
            "nevergrad-cma",
            "botorch-qlognei",
            "botorch-qlognehvi"
        ]
    );

    let contexts = stdout(&["list", "--with", "contexts"]);
    let contextual = names(&contexts);
    for name in ["sbo-kde", "stableopt", "newsvendor", "ackley-ctx"] {
        assert!(contextual.contains(&name.to_owned()), "{name}: {contexts}");
    }
    for name in ["gp-ucb", "branin", "pe-toy"] {
        assert!(!contextual.contains(&name.to_owned()), "{name}: {contexts}");
    }
    let known_noise = names(&stdout(&["list", "problems", "--with", "known-noise"]));
    assert_eq!(
        known_noise,
        ["sine-hetero", "branin-hetero", "swissfel-standin"]
    );
    assert!(stdout(&["list", "problems", "--with", "batch"]).contains("about algorithms only"));

    let bbob = stdout(&["list", "bbob"]);
    assert_contains(
        &bbob,
        &[
            "  8  f8 Rosenbrock, original",
            " 24  f24 Lunacek bi-Rastrigin",
        ],
    );
    let ei = stdout(&["list", "ei"]);
    assert!(ei.starts_with("Algorithm (--algo ei):"), "{ei}");
    assert!(
        ei.contains("batches: yes") && ei.contains("accepts: any problem"),
        "{ei}"
    );

    expect_usage_error(&["list", "logeii"], "did you mean \"logei\"?");
    expect_usage_error(&["list", "ei", "--long"], "give them without a name");
}

#[test]
fn run_writes_a_trace_and_a_summary() {
    let dir = temp_dir("ok");
    let trace = dir.join("t.jsonl");
    let out = bosweep(&run_args(
        "gp-ucb",
        "branin",
        "12",
        &[
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
        ],
    ));
    succeeded(&out);
    let summary = String::from_utf8(out.stdout).unwrap();
    assert!(
        summary.contains("recommended x = [") && summary.contains("simple regret = "),
        "{summary}"
    );
    let lines = trace_lines(&trace);
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
    let echo = |bounds: &'static str| {
        let command = ["run", "--algo", "random", "--objective-cmd", "echo 1"];
        [&command[..], &["--bounds", bounds, "--budget", "3"]].concat()
    };
    let cases = [
        (
            with(&["--algo", "gp-ucbb"]),
            "unknown algorithm \"gp-ucbb\"",
        ),
        (
            run_args("random", "bran", "5", &[]),
            "unknown problem \"bran\"",
        ),
        (
            with(&["--algo", "gp-ucb", "--param", "ucb_multiplier"]),
            "not of the form key=value",
        ),
        (
            with(&["--algo", "gp-ucb", "--param", "kappa=2"]),
            "unknown parameter \"kappa\"",
        ),
        (
            with(&["--algo", "gp-ucb", "--param", "ucb_multiplier=-1"]),
            "ucb_multiplier",
        ),
        (
            with(&["--algo", "random", "--noise-std", "-1"]),
            "noise_std",
        ),
        (
            with(&["--algo", "random", "--problem-param", "dim=0"]),
            "unknown parameter \"dim\"",
        ),
        (
            run_args(
                "random",
                "ackley",
                "5",
                &["--init", "2", "--problem-param", "dim=0"],
            ),
            "dim",
        ),
        (
            run_args("random", "branin", "3", &["--init", "5"]),
            "init: value 5 exceeds the budget of 3",
        ),
        (
            run_args("random", "branin", "0", &["--init", "0"]),
            "budget: value 0 (must be at least 1)",
        ),
        (echo("0:1,2"), "--bounds: entry 2"),
        (echo("1:0"), "--bounds"),
    ];
    for (args, needle) in cases {
        expect_usage_error(&args, needle);
    }
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
    let err = exited(&out, 1);
    assert!(err.contains("exited with") && err.contains("7"), "{err}");
    let lines = trace_lines(&trace);
    assert_eq!(lines.len(), 4, "header + 3 completed evaluations");
    assert_eq!(lines[3]["y"], 0.3);
    assert!(
        lines[3]["simple_regret"].is_null(),
        "unknown optimum gives null regret"
    );
}

#[test]
fn external_objective_garbage_and_timeouts_exit_1() {
    // Commands that answer have a minute, so that a loaded machine never fails them; the one
    // that hangs is given up on after a second.
    for (cmd, timeout, needle) in [
        ("echo banana", "60", "not a number"),
        ("echo nan", "60", "finite"),
        ("sleep 60; echo 1", "1", "no answer within 1s"),
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
            timeout,
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
    let out = bosweep(&run_args(
        "random",
        "branin",
        "3",
        &["--init", "1", "--out", "/nonexistent/dir/t.jsonl"],
    ));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// An objective that answers 1e300 right of 0.5 and x itself left of it (`sh` and `awk` only).
const HUGE_RIGHT: &str = "read x; awk -v v=\"$(echo \"$x\" | tr -d '[]')\" 'BEGIN { if (v > 0.5) print 1e300; else print v }'";

/// Issue 15: objective values of 1e300 beside ordinary ones failed with "K + λΣ is not positive
/// definite … (duplicate inputs with zero fixed noise?)": the targets' squares overflowed in
/// the standardisation. They now standardise; a spread that overflows f64 itself is refused
/// with a message naming the values.
#[test]
fn huge_objective_values_are_modelled_or_refused_by_name() {
    let dir = temp_dir("huge");
    let trace = dir.join("t.jsonl");
    let run = |cmd: &str| {
        bosweep(&[
            "run",
            "--algo",
            "gp-ucb",
            "--objective-cmd",
            cmd,
            "--bounds",
            "0:1",
            "--budget",
            "10",
            "--init",
            "5",
            "--seed",
            "3",
            "--out",
            trace.to_str().unwrap(),
        ])
    };
    let out = run(HUGE_RIGHT);
    succeeded(&out);
    let text = file_containing(&trace, &["\"y\":1e+300"]);
    assert_eq!(text.lines().count(), 11);
    // Values of ±1.7e308: their spread is beyond f64.
    let out = run(
        "read x; awk -v v=\"$(echo \"$x\" | tr -d '[]')\" 'BEGIN { if (v > 0.5) print 1.7e308; else print -1.7e308 }'",
    );
    let err = exited(&out, 1);
    assert!(
        err.contains("observed values range from -1.7e308 to 1.7e308")
            && err.contains("overflows f64")
            && !err.contains("duplicate inputs"),
        "{err}"
    );
}

/// Issue 15: `bosweep list | head` panicked on the closed pipe.
#[test]
fn a_closed_stdout_pipe_ends_output_quietly() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_bosweep"))
        .arg("list")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("Algorithms"), "{first}");
    // The reader is dropped here: the rest of the listing meets a closed pipe.
    let out = child.wait_with_output().unwrap();
    let err = exited(&out, 0);
    assert!(err.is_empty(), "{err}");
}

/// Issue 15: values like 1e300 printed as 301-digit numbers; listings and summaries now write
/// the shortest round-trip form, scientific outside [1e-4, 1e16).
#[test]
fn huge_and_tiny_numbers_print_in_scientific_notation() {
    let out = bosweep(&["list", "--long"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_contains(&text, &["min_noise_var = 1e-6  (a number in [1e-12, 1];"]);
    assert!(!text.contains("0.000000000001"), "{text}");
    let dir = temp_dir("scientific");
    let out = bosweep(&[
        "run",
        "--algo",
        "random",
        "--objective-cmd",
        HUGE_RIGHT,
        "--bounds",
        "0:1",
        "--sense",
        "max",
        "--budget",
        "6",
        "--init",
        "6",
        "--seed",
        "1",
        "--out",
        dir.join("t.jsonl").to_str().unwrap(),
    ]);
    let summary = String::from_utf8(out.stdout).unwrap();
    assert_contains(&summary, &["best value = 1e300"]);
}

/// Issue 15: `bosweep run` refuses an incompatible pair before writing anything, and `list`
/// says which problems each algorithm accepts.
#[test]
fn incompatible_run_is_refused_and_list_shows_what_each_algorithm_accepts() {
    let trace = temp_dir("incompatible").join("t.jsonl");
    let out = bosweep(&run_args(
        "stableopt",
        "branin",
        "10",
        &["--out", trace.to_str().unwrap()],
    ));
    let err = exited(&out, 2);
    assert!(
        err.contains("algorithm \"stableopt\" needs a contextual problem")
            && err.contains("problem \"branin\" is not one"),
        "{err}"
    );
    assert!(!trace.exists());
    let list = String::from_utf8(bosweep(&["list", "--long"]).stdout).unwrap();
    let accepts = |algorithm: &str| {
        let start = list.find(&format!("  {algorithm}: ")).unwrap();
        let line = list[start..].lines().nth(1).unwrap().to_string();
        assert!(line.trim_start().starts_with("accepts: "), "{line}");
        line
    };
    assert_eq!(accepts("gp-ucb").trim(), "accepts: any problem");
    assert!(
        accepts("sbo-kde").contains("newsvendor, ") || accepts("sbo-kde").ends_with("newsvendor")
    );
    assert!(!accepts("sbo-kde").contains("branin,"));
    assert!(accepts("pe-gp-ucb").contains("pe-toy"));
    assert!(accepts("rahbo-known-var").contains("sine-hetero"));
}

/// Whether process `pid` is gone (or a zombie waiting to be reaped), waiting up to 5 s for it.
fn gone(pid: u32) -> bool {
    for _ in 0..500 {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            // The state follows the parenthesised command name.
            Ok(stat)
                if stat
                    .rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z') =>
            {
                return true;
            }
            Ok(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
        }
    }
    false
}

/// The PIDs an objective wrote to `file`, one per line.
fn pids(file: &std::path::Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

/// Issue 15: a timed-out external objective kept running with parent PID 1 (only `sh` was
/// killed). Each evaluation now runs in its own process group, killed whole on timeout, when
/// the evaluation ends (a background process it left), and when bosweep is interrupted.
#[test]
fn external_objectives_leave_no_process_behind() {
    let dir = temp_dir("orphans");
    let file = dir.join("pids");
    let record = format!("echo $$ > {0}; sleep 100 & echo $! >> {0}", file.display());
    let run = |cmd: &str, timeout: &str| {
        Command::new(env!("CARGO_BIN_EXE_bosweep"))
            .args([
                "--device",
                "cpu",
                "run",
                "--algo",
                "random",
                "--objective-cmd",
                cmd,
                "--bounds",
                "0:1",
                "--budget",
                "1",
                "--init",
                "1",
                "--objective-timeout",
                timeout,
                "--out",
            ])
            .arg(dir.join("t.jsonl"))
            .output()
            .unwrap()
    };
    // Timed out: the shell and its sleeping child both go.
    let out = run(&format!("{record}; wait; echo 1"), "0.5");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("no answer within"));
    let started = pids(&file);
    assert_eq!(started.len(), 2);
    for pid in started {
        assert!(gone(pid), "process {pid} outlived its timed-out evaluation");
    }
    // Answered, leaving a background process: the evaluation succeeds and the process goes.
    let out = run(&format!("{record}; echo 1"), "30");
    succeeded(&out);
    for pid in pids(&file) {
        assert!(
            gone(pid),
            "background process {pid} outlived its evaluation"
        );
    }
    // Interrupted: bosweep exits 130 and takes the evaluation with it.
    std::fs::remove_file(&file).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_bosweep"))
        .args([
            "--device",
            "cpu",
            "run",
            "--algo",
            "random",
            "--objective-cmd",
            &format!("{record}; wait; echo 1"),
            "--bounds",
            "0:1",
            "--budget",
            "1",
            "--init",
            "1",
            "--out",
        ])
        .arg(dir.join("t.jsonl"))
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Long enough that only a broken start fails it, however loaded the machine.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    while pids_written(&file) < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the objective's processes had not started 5 minutes after bosweep run"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let bosweep_pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on the child we spawned.
    unsafe { libc::kill(bosweep_pid, libc::SIGINT) };
    assert_eq!(child.wait().unwrap().code(), Some(130));
    for pid in pids(&file) {
        assert!(gone(pid), "process {pid} outlived the interrupted bosweep");
    }
}

fn pids_written(file: &std::path::Path) -> usize {
    std::fs::read_to_string(file).map_or(0, |t| t.lines().count())
}

#[test]
fn batch_and_workers_run_from_the_command_line_and_bad_settings_exit_2() {
    let dir = temp_dir("parallel");
    let trace = dir.join("w.jsonl");
    let out = bosweep(&run_args(
        "random",
        "branin",
        "9",
        &[
            "--init",
            "3",
            "--workers",
            "3",
            "--runtime",
            "lognormal:sigma=0.5",
            "--out",
            trace.to_str().unwrap(),
        ],
    ));
    succeeded(&out);
    let lines = trace_lines(&trace);
    assert_eq!(lines[0]["header"]["workers"], 3);
    let finishes: Vec<f64> = lines[1..]
        .iter()
        .map(|s| s["finish"].as_f64().unwrap())
        .collect();
    assert!(
        finishes.windows(2).all(|w| w[0] <= w[1]),
        "told in the order they finish: {finishes:?}"
    );
    assert!(
        lines[1..]
            .iter()
            .all(|s| (1..=3).contains(&s["worker"].as_u64().unwrap()))
    );

    let base = ["run", "--problem", "branin", "--budget", "6", "--init", "2"];
    let with = |extra: &[&'static str]| [&base[..], extra].concat();
    expect_usage_error(
        &with(&["--algo", "gp-ucb", "--batch", "0"]),
        "--batch: value 0 (must be at least 1)",
    );
    expect_usage_error(
        &with(&["--algo", "gp-ucb", "--batch", "2", "--workers", "2"]),
        "--batch 2 and --workers 2: give one of them",
    );
    // Flags named as flags.
    expect_usage_error(
        &with(&["--algo", "uhe-bo", "--batch", "4"]),
        "--batch 4: algorithm uhe-bo proposes one point at a time (it has no batch version); \
         run it with --batch 1",
    );
    expect_usage_error(
        &with(&["--algo", "random", "--runtime", "lognormal:sigma=x"]),
        "--runtime: runtime \"lognormal:sigma=x\": sigma = \"x\" is invalid",
    );
    expect_usage_error(
        &with(&["--algo", "random", "--runtime", "linear:coordinate=2"]),
        "coordinate 2 does not exist",
    );
}

/// CMA-ES hands a generation of λ = 6 (Branin is 2-d) to a batch of 6.
#[test]
fn cmaes_runs_in_batches_from_the_command_line() {
    let dir = temp_dir("cmaes");
    let trace = dir.join("cmaes.jsonl");
    let out = bosweep(&run_args(
        "cmaes",
        "branin",
        "60",
        &["--batch", "6", "--out", trace.to_str().unwrap()],
    ));
    succeeded(&out);
    let lines = trace_lines(&trace);
    assert_eq!(lines.len(), 61);
    let updated: Vec<&serde_json::Value> = lines[1..]
        .iter()
        .filter_map(|s| s["extra"].get("generation"))
        .collect();
    assert!(!updated.is_empty());
    assert!(updated.iter().any(|g| g.as_u64().unwrap() >= 5));
    assert!(lines[1..].iter().all(|s| {
        let x = s["x"].as_array().unwrap();
        (-5.0..=10.0).contains(&x[0].as_f64().unwrap())
            && (0.0..=15.0).contains(&x[1].as_f64().unwrap())
    }));
}
