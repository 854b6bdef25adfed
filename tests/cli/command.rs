//! Command objectives in sweeps (`[[problem]] name = "command"`): the user's black box gets
//! replicates, resume and reports; its failures are missing runs named in the error, never lost
//! results; bad settings are refused before anything runs.

use std::path::{Path, PathBuf};

use crate::common::{
    assert_contains, bosweep, exited, file_containing, run_args, stderr, succeeded, sweep_config,
};
use crate::sweep::traces;
use std::process::Output;

use serde_json::Value;

fn sandbox(name: &str) -> PathBuf {
    crate::common::sandbox("command", name)
}

/// Sweeps `config`, written to `dir/sweep.toml`, into `dir/out`.
fn sweep(dir: &Path, config: &str, out: &str) -> Output {
    sweep_config(dir, "sweep.toml", config, out, &[])
}

/// Sweeps `config` into `dir/out`, which must fail `count` runs naming each of `needles`, and
/// returns the stderr.
fn failed_runs(dir: &Path, config: &str, count: usize, needles: &[&str]) -> String {
    let err = exited(&sweep(dir, config, "out"), 1);
    assert_contains(&err, &[&format!("{count} run(s) failed")]);
    for needle in needles {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    err
}

/// `(x₀ − 0.3)² + (x₁ + 0.2)²` in awk (in every CI image), printed to 17 digits so that the
/// value read back is the double awk computed.
const OBJECTIVE: &str = r#"awk '{ gsub(/[][]/, ""); split($0, x, ","); a = x[1] - 0.3; b = x[2] + 0.2; printf "%.17g\n", a * a + b * b }'"#;

fn objective(x: &[f64]) -> f64 {
    let (a, b) = (x[0] - 0.3, x[1] + 0.2);
    a * a + b * b
}

#[test]
fn a_command_objective_sweeps_reproducibly_with_its_values_in_the_traces() {
    let dir = sandbox("ok");
    let config = format!(
        r#"
seed = 3
replicates = 2
budget = 8
init = 4

[[algorithm]]
name = "random"

[[algorithm]]
name = "gp-ucb"
grid_size = 256

[[problem]]
name = "command"
cmd = "{}"
bounds = "0:1, -1:1"
"#,
        OBJECTIVE.replace('\\', "\\\\").replace('"', "\\\"")
    );
    for out in ["a", "b"] {
        let result = sweep(&dir, &config, out);
        succeeded(&result);
    }
    let runs = traces(&dir.join("a"));
    assert_eq!(runs.len(), 4, "2 algorithms × 2 replicates");
    for (file, lines) in &runs {
        let header = &lines[0]["header"];
        assert_eq!(header["problem"], "command", "{file}");
        assert_eq!(header["sense"], "minimize", "{file}");
        assert_eq!(header["problem_parameters"]["bounds"], "0:1,-1:1", "{file}");
        assert_eq!(lines.len(), 9, "{file}: header + 8 evaluations");
        let mut best = f64::INFINITY;
        for step in &lines[1..] {
            let x: Vec<f64> = step["x"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            assert!(
                (0.0..=1.0).contains(&x[0]) && (-1.0..=1.0).contains(&x[1]),
                "{x:?}"
            );
            let y = step["y"].as_f64().unwrap();
            assert_eq!(y, objective(&x), "{file}: the command's value at {x:?}");
            best = best.min(y);
            assert_eq!(step["best_value"].as_f64().unwrap(), best, "{file}");
            assert!(step["simple_regret"].is_null(), "no optimum, no regret");
        }
    }
    assert_eq!(
        runs,
        traces(&dir.join("b")),
        "the same seed gave other traces"
    );
    file_containing(dir.join("a/report.md"), &["4 of 4 runs completed"]);
}

/// Issue 43: a command problem's label (`command[bounds=0:1, -5:5,cmd=…,sense=min,timeout=20]`)
/// made headings and plot file names unwieldy. Reports show the command alone, unless two
/// settings differ in a setup key only; a `label` shows as given.
#[test]
fn command_problems_are_shown_by_their_command_or_their_label() {
    let dir = sandbox("labels");
    let config = r#"
seed = 1
budget = 5
init = 3

[[algorithm]]
name = "random"

[[problem]]
name = "command"
cmd = "echo 1"
bounds = "0:1, -5:5"
timeout = 20

[[problem]]
name = "command"
cmd = "echo 2"
bounds = ["0:1", "0:2"]

[[problem]]
name = "command"
cmd = "echo 3"
bounds = "0:1"
label = "three"
"#;
    succeeded(&sweep(&dir, config, "s"));
    let report = std::fs::read_to_string(dir.join("s/report.md")).unwrap();
    for heading in [
        "## Problem `command[cmd=echo 1]`\n",
        // The second of two settings that read alike keeps its whole label.
        "## Problem `command[cmd=echo 2]`\n",
        "## Problem `command[bounds=0:2,cmd=echo 2]`\n",
        "## Problem `three`\n",
    ] {
        assert!(report.contains(heading), "{heading}: {report}");
    }
    for plot in ["command_cmd=echo_1_-best-value.png", "three-best-value.png"] {
        assert!(dir.join("s/plots").join(plot).is_file(), "{plot}");
    }
}

#[test]
fn command_failures_are_missing_runs_named_in_the_error_and_the_others_complete() {
    let dir = sandbox("fail");
    let config = r#"
seed = 1
budget = 6
init = 3

[[algorithm]]
name = "random"

# Commands that answer at once have a minute, so that a loaded machine never fails them; the
# one that hangs is killed after its second.
[[problem]]
name = "command"
cmd = ["exit 3", "echo banana", "echo 0.25"]
bounds = "0:1"
timeout = 60

[[problem]]
name = "command"
cmd = "sleep 60"
bounds = "0:1"
timeout = 1
"#;
    failed_runs(
        &dir,
        config,
        3,
        &[
            "`exit 3`",
            "exited with exit status: 3",
            "`sleep 60`",
            "no answer within 1s",
            "printed \"banana\", not a number",
        ],
    );
    let runs = traces(&dir.join("out"));
    assert_eq!(runs.len(), 1, "only the working command's run is complete");
    let lines = runs.values().next().unwrap();
    assert!(lines[1..].iter().all(|s| s["y"] == 0.25));
    file_containing(
        dir.join("out/report.md"),
        &["1 of 4 runs completed (3 missing)"],
    );
}

/// With `parallel = 2` the two repeats of a point (RAHBO's k = 2) run at once: each command,
/// once it has logged its start, waits for its partner's start (the number of starts logged
/// reaching the next even number), which no runner of one command at a time could let happen
/// (its command would time out). With `parallel = 1` a command never starts before the one
/// before it has ended; each takes 0.3 s there, time for commands run at once to show, while
/// a correct runner passes however long anything takes.
#[test]
fn parallel_runs_the_repeats_of_a_point_at_once() {
    for parallel in [1, 2] {
        let dir = sandbox(&format!("parallel{parallel}"));
        let log = dir.join("log").display().to_string();
        let between = if parallel == 2 {
            format!(
                "n=$(grep -c s {log}); \
                 while [ $(grep -c s {log}) -lt $(( (n + 1) / 2 * 2 )) ]; do sleep 0.01; done"
            )
        } else {
            "sleep 0.3".to_string()
        };
        let config = format!(
            r#"
seed = 1
budget = 8
init = 2

[[algorithm]]
name = "rahbo"
k = 2

[[problem]]
name = "command"
cmd = "echo s >> {log}; {between}; echo e >> {log}; echo 1.5"
bounds = "0:1"
parallel = {parallel}
"#
        );
        let result = sweep(&dir, &config, "out");
        succeeded(&result);
        let events = std::fs::read_to_string(&log).unwrap();
        let events: Vec<&str> = events.lines().collect();
        assert_eq!(events.len(), 16, "8 evaluations, each a start and an end");
        if parallel == 2 {
            // Each pair of repeats: both start before either ends.
            for (i, pair) in events.chunks(4).enumerate() {
                assert_eq!(&pair[..2], ["s", "s"], "pair {i}: {events:?}");
            }
        } else {
            assert!(
                events.chunks(2).all(|w| w == ["s", "e"]),
                "parallel = 1: {events:?}"
            );
        }
    }
}

#[test]
fn bad_command_settings_are_refused_before_anything_runs_naming_them() {
    let dir = sandbox("bad");
    let head = "seed = 1\nbudget = 6\ninit = 3\n\n[[algorithm]]\nname = \"random\"\n\n[[problem]]\nname = \"command\"\n";
    for (settings, needles) in [
        (
            "bounds = \"0:1\"\n",
            &["line 8", "parameter cmd", "give the command to run"][..],
        ),
        (
            "cmd = \"echo 1\"\nbounds = \"0:1,x\"\n",
            &[
                "line 8",
                "parameter bounds = \"0:1,x\"",
                "entry 2 \"x\" is not of the form lo:hi",
            ],
        ),
        (
            "cmd = \"echo 1\"\nbounds = \"1:0\"\n",
            &["parameter bounds = \"1:0\""],
        ),
        (
            "cmd = 3\nbounds = \"0:1\"\n",
            &["line 10", "parameter cmd = 3", "must be text"],
        ),
        (
            "cmd = \"echo 1\"\nbounds = \"0:1\"\ntimeout = 0\n",
            &["parameter timeout = 0"],
        ),
        (
            "cmd = \"echo 1\"\nbounds = \"0:1\"\nparallel = 0\n",
            &["parameter parallel = 0"],
        ),
    ] {
        let result = sweep(&dir, &format!("{head}{settings}"), "out");
        let err = stderr(&result);
        assert_eq!(result.status.code(), Some(2), "{settings}: {err}");
        assert_contains(&err, &["sweep.toml"]);
        for needle in needles {
            assert!(err.contains(needle), "{settings}: {needle}: {err}");
        }
        assert!(!dir.join("out/runs").exists(), "{settings}: something ran");
    }
}

#[test]
fn a_callable_objective_is_refused_by_the_command_line_naming_where_it_comes_from() {
    let dir = sandbox("callable");
    let config = "seed = 1\nbudget = 6\ninit = 3\n\n[[algorithm]]\nname = \"random\"\n\n\
                  [[problem]]\nname = \"callable\"\nfunction = \"bowl\"\nbounds = \"0:1\"\n";
    let result = sweep(&dir, config, "out");
    let err = exited(&result, 2);
    assert_contains(
        &err,
        &[
            "sweep.toml",
            "line 8",
            "parameter function = \"bowl\": no function of this name is registered",
            "bosweep.sweep(config, objectives={NAME: function})",
        ],
    );
    assert!(!dir.join("out/runs").exists(), "something ran");
}

/// An optimiser in sh: proposes `[0.t, 0.5]` at its t-th ask, recommends `[0.25, 0.75]`, and
/// logs every message it reads to `log`.
fn sh_optimiser(log: &Path) -> String {
    format!(
        r#"t=0; while IFS= read -r line; do echo "$line" >> {log}; case "$line" in *'"op":"ask"'*) t=$((t+1)); echo 'a stray print'; echo "{{\"x\":[0.$t,0.5]}}";; *'"op":"recommend"'*) echo '{{"x":[0.25,0.75]}}';; esac; done"#,
        log = log.display()
    )
}

fn toml_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

#[test]
fn a_command_optimiser_runs_beside_ours_and_hears_every_step() {
    let dir = sandbox("algo");
    let config = |log: &Path| {
        format!(
            r#"
seed = 5
budget = 9
init = 4

[[algorithm]]
name = "random"

[[algorithm]]
name = "command"
cmd = {}

[[problem]]
name = "branin"
"#,
            toml_string(&sh_optimiser(log))
        )
    };
    // The same config twice (the log path is part of the command, so of the run's seed).
    let log = dir.join("log");
    for out in ["a", "b"] {
        let result = sweep(&dir, &config(&log), out);
        succeeded(&result);
        std::fs::rename(&log, dir.join(format!("log-{out}"))).unwrap();
    }
    let runs = traces(&dir.join("a"));
    assert_eq!(runs.len(), 2);
    let (file, lines) = runs.iter().find(|(f, _)| f.contains("-command")).unwrap();
    let random = &runs.iter().find(|(f, _)| f.contains("-random-")).unwrap().1;
    assert_eq!(lines[0]["header"]["algorithm"], "command", "{file}");
    // The same paired initial design as ours, then its own proposals and recommendation.
    for (ours, theirs) in lines[1..5].iter().zip(&random[1..5]) {
        assert_eq!(
            (&ours["x"], &ours["y"]),
            (&theirs["x"], &theirs["y"]),
            "the initial designs differ"
        );
    }
    for (t, step) in lines[5..].iter().enumerate() {
        assert_eq!(step["phase"], "opt");
        assert_eq!(
            step["x"],
            serde_json::json!([(t + 1) as f64 / 10.0, 0.5]),
            "{file}"
        );
        assert_eq!(
            step["recommended_x"],
            serde_json::json!([0.25, 0.75]),
            "{file}"
        );
    }
    // It heard start, every step (y in the maximisation sense: Branin is minimised), its asks.
    let heard: Vec<Value> = std::fs::read_to_string(dir.join("log-a"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(heard[0]["op"], "start");
    assert_eq!(heard[0]["dim"], 2);
    assert_eq!(
        heard[0]["budget"], 9,
        "the run's budget, its design included"
    );
    assert_eq!(
        heard[0]["bounds"],
        serde_json::json!([[-5.0, 10.0], [0.0, 15.0]])
    );
    let tells: Vec<&Value> = heard.iter().filter(|m| m["op"] == "tell").collect();
    assert_eq!(tells.len(), 9);
    for (tell, step) in tells.iter().zip(&lines[1..]) {
        assert_eq!(tell["x"], step["x"]);
        assert_eq!(tell["y"].as_f64().unwrap(), -step["y"].as_f64().unwrap());
    }
    assert_eq!(heard.iter().filter(|m| m["op"] == "ask").count(), 5);
    assert!(heard.iter().any(|m| m["op"] == "recommend"));
    assert_eq!(
        runs,
        traces(&dir.join("b")),
        "the same seed gave other traces"
    );
}

#[test]
fn command_optimisers_that_crash_hang_or_answer_garbage_are_named_missing_runs() {
    let dir = sandbox("algo-fail");
    let cases = [
        ("exit 4", "exited with exit status: 4"),
        ("cat > /dev/null", "no answer to recommend within 1s"),
        (
            "while read l; do echo '{not json'; done",
            "not a JSON object",
        ),
        (
            "while read l; do echo '{\"x\":[1,2,3]}'; done",
            "a point of 3 coordinates",
        ),
        (
            "while read l; do echo '{\"x\":[99,1]}'; done",
            "outside the bounds",
        ),
        (
            "while read l; do echo '{\"y\":1}'; done",
            "no \"x\": [numbers]",
        ),
    ];
    // The optimisers that answer have a minute, so that a loaded machine never fails them; the
    // one that never answers is given up on after a second.
    let (hangs, answer): (Vec<_>, Vec<_>) = cases.iter().partition(|(c, _)| c.starts_with("cat"));
    let cmds: Vec<String> = answer.iter().map(|(c, _)| toml_string(c)).collect();
    let config = format!(
        r#"
seed = 5
budget = 6
init = 3

[[algorithm]]
name = "command"
cmd = [{}]
timeout = 60

[[algorithm]]
name = "command"
cmd = {}
timeout = 1

[[problem]]
name = "branin"
"#,
        cmds.join(", "),
        toml_string(hangs[0].0)
    );
    let err = failed_runs(&dir, &config, 6, &[]);
    for (cmd, needle) in cases {
        let line = err
            .lines()
            .find(|l| l.contains(&format!("optimiser command `{cmd}`")))
            .unwrap_or_else(|| panic!("{cmd} is not named: {err}"));
        assert!(line.contains(needle), "{cmd}: {needle}: {line}");
    }
    assert!(traces(&dir.join("out")).is_empty(), "no run completed");
}

/// The worked example of the guide (docs/guide/your-own.md), in Python's standard library: a reproducible random search.
#[test]
fn the_python_example_optimiser_runs_reproducibly() {
    let dir = sandbox("python");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("sweeps/examples/random_search.py");
    let config = format!(
        r#"
seed = 2
replicates = 2
budget = 10
init = 3

[[algorithm]]
name = "command"
cmd = {}

[[problem]]
name = "hartmann3"
"#,
        toml_string(&format!("python3 {}", script.display()))
    );
    for out in ["a", "b"] {
        let result = sweep(&dir, &config, out);
        succeeded(&result);
    }
    let runs = traces(&dir.join("a"));
    assert_eq!(runs.len(), 2);
    for (file, lines) in &runs {
        let ys: Vec<f64> = lines[1..]
            .iter()
            .map(|s| s["y"].as_f64().unwrap())
            .collect();
        let best = ys.iter().copied().fold(f64::INFINITY, f64::min);
        let last = lines.last().unwrap();
        // Hartmann-3 is minimised; the example recommends the best point it was told.
        let best_step = lines[1..]
            .iter()
            .find(|s| s["y"].as_f64() == Some(best))
            .unwrap();
        assert_eq!(last["recommended_x"], best_step["x"], "{file}");
    }
    let replicates: Vec<&Vec<Value>> = runs.values().collect();
    assert_ne!(
        replicates[0][4]["x"], replicates[1][4]["x"],
        "replicates draw other points"
    );
    assert_eq!(
        runs,
        traces(&dir.join("b")),
        "the same seed gave other traces"
    );
}

/// With `runtime = "wall"` and 3 workers a command objective runs three evaluations at once:
/// each logs its start and waits until three have started, which evaluations run one at a
/// time could never see (the first would time out). A worker's objective that crashes or
/// hangs ends its own run only.
#[test]
fn workers_on_the_wall_clock_evaluate_at_once_and_a_failing_worker_ends_its_run_only() {
    let dir = sandbox("wall");
    let log = dir.join("log").display().to_string();
    let config = format!(
        r#"
seed = 2
budget = 7
init = 3
workers = 3
runtime = "wall"

[[algorithm]]
name = "random"

[[problem]]
name = "command"
cmd = "exit 3"
bounds = "0:1"
timeout = 60

[[problem]]
name = "command"
cmd = "sleep 60"
bounds = "0:1"
timeout = 1

[[problem]]
name = "command"
cmd = "echo s >> {log}; while [ $(grep -c s {log}) -lt 3 ]; do sleep 0.01; done; echo 0.25"
bounds = "0:1"
timeout = 60
"#
    );
    failed_runs(
        &dir,
        &config,
        2,
        &[
            "`exit 3`",
            "exited with exit status: 3",
            "no answer within 1s",
        ],
    );
    let runs = traces(&dir.join("out"));
    assert_eq!(runs.len(), 1, "the rendezvous objective's run completes");
    let lines = runs.values().next().unwrap();
    assert_eq!(lines[0]["header"]["runtime"], "wall");
    assert_eq!(lines.len(), 8);
    let mut workers = Vec::new();
    for step in &lines[1..] {
        assert_eq!(step["y"], 0.25);
        let (start, finish) = (
            step["start"].as_f64().unwrap(),
            step["finish"].as_f64().unwrap(),
        );
        assert!(0.0 <= start && start <= finish, "{step}");
        workers.push(step["worker"].as_u64().unwrap());
    }
    workers.sort_unstable();
    workers.dedup();
    assert_eq!(workers, [1, 2, 3]);
}

/// A peer library's algorithm (`optuna-tpe`, …) whose check fails refuses the whole sweep before
/// any run starts (exit 2), naming the algorithm and passing on the pip line the check printed;
/// two settings of one adapter with one interpreter are checked once.
#[cfg(unix)]
#[test]
fn a_peer_whose_library_is_missing_refuses_the_sweep_up_front() {
    use std::os::unix::fs::PermissionsExt;
    let dir = sandbox("peer-missing");
    let python = dir.join("python");
    let log = dir.join("checks.log");
    let script = format!(
        "#!/bin/sh\necho \"$*\" >> '{}'\necho 'optuna-tpe needs optuna>=4: not installed; install with' >&2\necho \"    $0 -m pip install 'optuna>=4'\" >&2\nexit 2\n",
        log.display()
    );
    std::fs::write(&python, script).unwrap();
    std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = format!(
        "budget = 4\ninit = 2\n[[algorithm]]\nname = \"optuna-tpe\"\npython = \"{}\"\ntimeout = [10, 20]\n[[problem]]\nname = \"branin\"\n",
        python.display()
    );
    let result = sweep(&dir, &config, "out");
    let err = exited(&result, 2);
    assert_contains(
        &err,
        &[
            &format!(
                "algorithm \"optuna-tpe\" cannot run with the Python interpreter `{}`",
                python.display()
            ),
            &format!("{} -m pip install 'optuna>=4'", python.display()),
        ],
    );
    assert!(!dir.join("out").exists(), "the sweep started: {err}");
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "-m bosweep.adapters check optuna-tpe\n"
    );
}

/// `bosweep run` with a peer whose interpreter does not exist: exit 2 before the run, naming
/// the parameter and the environment variable that choose it.
#[test]
fn a_run_of_a_peer_without_its_interpreter_is_refused() {
    let result = bosweep(
        Path::new("."),
        &run_args(
            "nevergrad-cma",
            "branin",
            "4",
            &["--init", "2", "--param", "python=/no/such/python"],
        ),
    );
    let err = exited(&result, 2);
    assert_contains(
        &err,
        &[
            "algorithm \"nevergrad-cma\" cannot run with the Python interpreter `/no/such/python` (the parameter python or BOSWEEP_PYTHON names another): it could not start",
            "parameter python or BOSWEEP_PYTHON",
        ],
    );
    assert!(result.stdout.is_empty());
}
