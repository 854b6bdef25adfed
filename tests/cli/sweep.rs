//! Sweeps through the command line: resuming after an interruption, sharding and merging, and
//! thread counts all give the same traces as one uninterrupted sweep.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::Output;

use bosweep::sweep::StepRecord;
use serde_json::Value;

use crate::common::{
    assert_contains, bosweep, command, exited, file_containing, stderr, succeeded, sweep_config,
};

const CONFIG: &str = r#"
seed = 7
replicates = 2
budget = 9
init = 4

[[algorithm]]
name = "random"

[[algorithm]]
name = "gp-ucb"
ucb_multiplier = [1.0, 2.0]
grid_size = 512

[[problem]]
name = "forrester"

[[problem]]
name = "branin"
noise_std = 0.1
"#;

fn sandbox(name: &str) -> PathBuf {
    crate::common::sweep_sandbox("sweep", name, CONFIG)
}

fn sweep(dir: &Path, out: &str, extra: &[&str]) {
    let result = bosweep(
        dir,
        &[&["sweep", "sweep.toml", "--out", out][..], extra].concat(),
    );
    succeeded(&result);
}

/// Every completed trace of a sweep directory, without the fields a rerun may change: the
/// wall-clock timings and the device description (which names the thread count).
pub(crate) fn traces(dir: &Path) -> BTreeMap<String, Vec<Value>> {
    std::fs::read_dir(dir.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .map(|p| {
            let lines = std::fs::read_to_string(&p)
                .unwrap()
                .lines()
                .map(|l| {
                    let mut v: Value = serde_json::from_str(l).unwrap();
                    if let Some(o) = v.as_object_mut() {
                        for field in StepRecord::TIMINGS {
                            o.remove(field);
                        }
                        if let Some(h) = o.get_mut("header").and_then(Value::as_object_mut) {
                            h.remove("device");
                        }
                    }
                    v
                })
                .collect();
            (p.file_name().unwrap().to_string_lossy().into_owned(), lines)
        })
        .collect()
}

#[test]
fn interrupted_and_resumed_sweep_equals_an_uninterrupted_one() {
    let dir = sandbox("resume");
    sweep(&dir, "full", &["--no-report"]);
    let full = traces(&dir.join("full"));
    assert_eq!(
        full.len(),
        12,
        "2 problems × 3 algorithm settings × 2 replicates"
    );

    // A sweep that lost half of its runs and left a half-written one behind.
    sweep(&dir, "resumed", &["--no-report"]);
    let runs = dir.join("resumed/runs");
    let names: Vec<String> = full.keys().cloned().collect();
    for name in names.iter().step_by(2) {
        std::fs::remove_file(runs.join(name)).unwrap();
    }
    std::fs::write(runs.join(format!("{}.partial", names[0])), "{\"header\":").unwrap();
    let out = bosweep(
        &dir,
        &["sweep", "sweep.toml", "--out", "resumed", "--no-report"],
    );
    assert_contains(&stderr(&out), &["6 already complete, 6 completed now"]);
    assert_eq!(traces(&dir.join("resumed")), full);
}

/// A command objective, `(x − 0.3)²` by awk, that counts its calls (a line each in `calls`)
/// and, while the file `gate` exists, from the call the file `stop` names on, marks itself held
/// (`blocked`, a link to `gate`: made only while `gate` exists, so never left behind once the
/// test has removed `gate`) and waits for `gate` to go.
const GATED_OBJECTIVE: &str = r#"read x
echo "$x" >> calls
if [ -e gate ] && [ "$(wc -l < calls)" -ge "$(cat stop)" ]; then
    ln gate blocked 2>/dev/null
    while [ -e gate ]; do sleep 0.01; done
fi
echo "$x" | awk '{ gsub(/[][]/, ""); printf "%.17g\n", ($1 - 0.3) * ($1 - 0.3) }'
"#;

#[test]
fn sweep_killed_at_any_moment_then_resumed_loses_nothing() {
    let dir = sandbox("kill");
    std::fs::write(dir.join("objective.sh"), GATED_OBJECTIVE).unwrap();
    // Branin replaced by the gated objective: 3 algorithm settings × 2 replicates × 9 = 54 of
    // its evaluations in the sweep. The command runs in the sweep's directory, `dir`.
    let config = CONFIG.replace(
        "name = \"branin\"\nnoise_std = 0.1\n",
        "name = \"command\"\ncmd = \"sh objective.sh\"\nbounds = \"0:1\"\n",
    );
    std::fs::write(dir.join("sweep.toml"), config).unwrap();
    sweep(&dir, "full", &["--no-report"]);
    let full = traces(&dir.join("full"));
    assert_eq!(full.len(), 12);
    // SIGKILL at its first, its 27th and its last (54th) objective evaluation, while the other
    // runs in flight go on wherever they are.
    for stop in [1, 27, 54] {
        let out = format!("killed-{stop}");
        let _ = std::fs::remove_file(dir.join("calls"));
        std::fs::write(dir.join("stop"), stop.to_string()).unwrap();
        std::fs::write(dir.join("gate"), "").unwrap();
        let mut child = command(&dir, &["sweep", "sweep.toml", "--out", &out, "--no-report"])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Wait for the held evaluation: how long it takes to come does not matter, within a
        // deadline that only a sweep that hangs reaches, however loaded the machine.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
        while !dir.join("blocked").exists() {
            if let Some(status) = child.try_wait().unwrap() {
                panic!("stop {stop}: the sweep ended ({status}) before its objective was held");
            }
            if std::time::Instant::now() > deadline {
                child.kill().unwrap();
                panic!("stop {stop}: no evaluation was held 5 minutes after the sweep started");
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        // Lets the held objective processes, now orphans, finish; `blocked` cannot come back.
        std::fs::remove_file(dir.join("gate")).unwrap();
        std::fs::remove_file(dir.join("blocked")).unwrap();
        // Whatever was complete when killed is whole and equal to the uninterrupted result, and
        // the run whose evaluation was held is not among it.
        let survived = if dir.join(&out).join("runs").exists() {
            traces(&dir.join(&out))
        } else {
            BTreeMap::new() // killed before it made its directory
        };
        for (name, lines) in &survived {
            assert_eq!(Some(lines), full.get(name), "{name}");
        }
        assert!(
            survived.len() < full.len(),
            "stop {stop}: {} runs",
            survived.len()
        );
        sweep(&dir, &out, &["--no-report"]);
        assert_eq!(traces(&dir.join(&out)), full, "stop {stop}");
    }
}

#[test]
fn merged_shards_equal_the_unsharded_sweep() {
    let dir = sandbox("shards");
    sweep(&dir, "full", &["--no-report"]);
    for i in 0..3 {
        sweep(
            &dir,
            &format!("shard-{i}"),
            &["--shard", &format!("{i}/3"), "--no-report"],
        );
        assert!(traces(&dir.join(format!("shard-{i}"))).len() == 4);
    }
    let out = bosweep(
        &dir,
        &["merge", "--out", "merged", "shard-0", "shard-1", "shard-2"],
    );
    succeeded(&out);
    assert_eq!(traces(&dir.join("merged")), traces(&dir.join("full")));
    assert!(dir.join("merged/summary.csv").exists() && dir.join("merged/report.md").exists());
}

/// `bosweep sweep sweep.toml --out OUT --no-report` with the scheduler variables `vars` and
/// the further arguments `extra`.
fn scheduled_sweep(dir: &Path, out: &str, vars: &[(&str, String)], extra: &[&str]) -> Output {
    let args = [
        &["sweep", "sweep.toml", "--out", out, "--no-report"][..],
        extra,
    ]
    .concat();
    command(dir, &args)
        .envs(vars.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap()
}

#[test]
fn scheduler_variables_pick_the_shard_and_the_shards_merge_into_the_whole_sweep() {
    let dir = sandbox("scheduled");
    sweep(&dir, "full", &["--no-report"]);
    // A SLURM array --array=1-3 (ids 1, 2, 3), then a Kubernetes Indexed Job of 2 pods.
    for id in 1..=3 {
        let vars = [
            ("SLURM_ARRAY_TASK_ID", id.to_string()),
            ("SLURM_ARRAY_TASK_MIN", "1".into()),
            ("SLURM_ARRAY_TASK_COUNT", "3".into()),
        ];
        let out = scheduled_sweep(&dir, &format!("slurm-{id}"), &vars, &[]);
        let err = exited(&out, 0);
        assert!(
            err.contains(&format!("running shard {}/3 (SLURM job array", id - 1)),
            "{err}"
        );
        assert_eq!(traces(&dir.join(format!("slurm-{id}"))).len(), 4);
    }
    for index in 0..2 {
        let vars = [
            ("JOB_COMPLETION_INDEX", index.to_string()),
            ("BOSWEEP_SHARD_COUNT", "2".into()),
        ];
        let out = scheduled_sweep(&dir, &format!("pod-{index}"), &vars, &[]);
        succeeded(&out);
    }
    for (merged, parts) in [
        ("slurm", ["slurm-1", "slurm-2", "slurm-3"].as_slice()),
        ("pods", &["pod-0", "pod-1"]),
    ] {
        let out = bosweep(&dir, &[&["merge", "--out", merged][..], parts].concat());
        succeeded(&out);
        assert_eq!(
            traces(&dir.join(merged)),
            traces(&dir.join("full")),
            "{merged}"
        );
    }
    // --shard overrides; an inconsistent environment is a usage error naming the variable.
    let vars = [("JOB_COMPLETION_INDEX", "1".to_string())];
    let out = scheduled_sweep(&dir, "bad", &vars, &[]);
    let err = exited(&out, 2);
    assert_contains(&err, &["BOSWEEP_SHARD_COUNT is not"]);
    let out = scheduled_sweep(&dir, "given", &vars, &["--shard", "0/2"]);
    succeeded(&out);
    assert_eq!(traces(&dir.join("given")), traces(&dir.join("pod-0")));
}

#[test]
fn one_and_two_threads_give_identical_traces() {
    let dir = sandbox("threads");
    sweep(&dir, "one", &["--threads", "1", "--no-report"]);
    sweep(&dir, "two", &["--threads", "2", "--no-report"]);
    assert_eq!(traces(&dir.join("one")), traces(&dir.join("two")));
}

#[test]
fn bad_configs_and_directories_exit_2_naming_the_problem() {
    let dir = sandbox("bad");
    std::fs::write(dir.join("bad.toml"), "budget = 10\ninit = 2\nreplicates = 1\n\n[[algorithm]]\nname = \"gp-ucb\"\nkappa = 2\n\n[[problem]]\nname = \"branin\"\n").unwrap();
    let out = bosweep(&dir, &["sweep", "bad.toml", "--out", "x"]);
    let err = exited(&out, 2);
    assert!(
        err.contains("bad.toml") && err.contains("line 7") && err.contains("kappa"),
        "{err}"
    );

    // A directory of another config is refused, for sweeping and for merging.
    sweep(&dir, "first", &["--no-report"]);
    let other = CONFIG.replace("seed = 7", "seed = 8");
    let out = sweep_config(&dir, "other.toml", &other, "first", &["--no-report"]);
    assert_contains(&exited(&out, 2), &["different config"]);
    let out = sweep_config(
        &dir,
        "other.toml",
        &other,
        "second",
        &["--no-report", "--shard", "0/4"],
    );
    succeeded(&out);
    let out = bosweep(&dir, &["merge", "--out", "merged", "first", "second"]);
    assert_contains(&exited(&out, 2), &["refusing to merge"]);
    for shard in ["3/3", "1/0", "x"] {
        let out = bosweep(&dir, &["sweep", "sweep.toml", "--shard", shard]);
        assert_eq!(out.status.code(), Some(2), "--shard {shard}");
    }
}

/// An output directory that names an existing file is refused (exit 2) as such by every command
/// that writes into one, before anything is written.
#[test]
fn an_output_path_that_is_a_file_exits_2_saying_so() {
    let dir = sandbox("file-out");
    std::fs::write(dir.join("taken"), "a file").unwrap();
    let commands: [&[&str]; 4] = [
        &["sweep", "sweep.toml", "--out", "taken"],
        &["merge", "--out", "taken", "."],
        &["report", "taken"],
        &["export-coco", ".", "--out", "taken"],
    ];
    for args in commands {
        let out = bosweep(&dir, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("taken: the path is a file, not a directory"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("taken")).unwrap(),
        "a file"
    );
    // Without --out, the default directory (results/<config stem>) is named as such.
    std::fs::create_dir(dir.join("results")).unwrap();
    std::fs::write(dir.join("results/sweep"), "a file").unwrap();
    let out = bosweep(&dir, &["sweep", "sweep.toml"]);
    let err = exited(&out, 2);
    assert_contains(
        &err,
        &["the default output directory results/sweep: the path is a file"],
    );
}

/// Issue 15: two sweeps on one directory both failed and left invalid traces. The directory is
/// locked: a second sweep exits 2 naming the holder, or waits for it with `--wait`; the lock of
/// a sweep that died is taken over.
#[test]
fn a_locked_directory_refuses_or_queues_a_second_sweep() {
    use bosweep::sweep::{LOCK_FILE, SweepLock, WhenLocked};
    let dir = sandbox("lock");
    let out_dir = dir.join("locked");
    std::fs::create_dir_all(&out_dir).unwrap();
    // This test process holds the lock, as a running sweep would.
    let held = SweepLock::acquire(&out_dir, WhenLocked::Refuse, |_| {}).unwrap();
    let out = bosweep(&dir, &["sweep", "sweep.toml", "--out", "locked"]);
    let err = exited(&out, 2);
    assert!(
        err.contains("is in use by another sweep")
            && err.contains(&format!("pid {}", std::process::id()))
            && err.contains("queue behind it (wait)"),
        "{err}"
    );
    assert!(!out_dir.join("manifest.json").exists());
    // --wait queues behind the holder: it says so on stderr, then blocks on the lock.
    let mut waiting = command(
        &dir,
        &[
            "sweep",
            "sweep.toml",
            "--out",
            "locked",
            "--wait",
            "--no-report",
        ],
    )
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    let mut stderr = BufReader::new(waiting.stderr.take().unwrap());
    let mut err = String::new();
    while !err.contains("waiting for the sweep that holds") {
        let read = stderr.read_line(&mut err).unwrap();
        assert!(read > 0, "the sweep ended without waiting: {err}");
    }
    assert!(!out_dir.join("manifest.json").exists(), "did not wait");
    // As the holder, this test now completes half of the runs (those of an uninterrupted sweep
    // of the same config) and lets go: the queued sweep finds them done, so it looked at the
    // directory only once the lock was released.
    sweep(&dir, "full", &["--no-report"]);
    let full = traces(&dir.join("full"));
    std::fs::create_dir_all(out_dir.join("runs")).unwrap();
    for file in ["manifest.json", "config.toml"] {
        std::fs::copy(dir.join("full").join(file), out_dir.join(file)).unwrap();
    }
    for name in full.keys().step_by(2) {
        std::fs::copy(
            dir.join("full/runs").join(name),
            out_dir.join("runs").join(name),
        )
        .unwrap();
    }
    drop(held);
    stderr.read_to_string(&mut err).unwrap();
    let status = waiting.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert_contains(
        &err,
        &["12 runs selected: 6 already complete, 6 completed now"],
    );
    assert_eq!(traces(&out_dir), full);
    // A clean release leaves an empty lock file.
    assert_eq!(
        std::fs::read_to_string(out_dir.join(LOCK_FILE)).unwrap(),
        ""
    );
    // A holder that died (its text left, no lock held) is taken over.
    std::fs::write(
        out_dir.join(LOCK_FILE),
        "pid 4194303 on host gone, since 2026-01-01 00:00:00 UTC, running bosweep sweep\n",
    )
    .unwrap();
    let out = bosweep(
        &dir,
        &["sweep", "sweep.toml", "--out", "locked", "--no-report"],
    );
    let err = exited(&out, 0);
    assert_contains(&err, &["(pid 4194303 on host gone", "taking it over"]);
    assert!(!err.contains("error"), "{err}");
}

/// Issue 15: resume trusted any file under a trace's final name. A trace that is not whole is
/// moved aside as `.invalid`, named in a warning, and its run is done again.
#[test]
fn resume_redoes_traces_that_are_not_whole() {
    let dir = sandbox("validate");
    sweep(&dir, "full", &["--no-report"]);
    let full = traces(&dir.join("full"));
    sweep(&dir, "damaged", &["--no-report"]);
    let runs = dir.join("damaged/runs");
    let names: Vec<String> = full.keys().cloned().collect();
    // A line cut off, a missing last step, another run's trace, and an empty file.
    let text = |name: &String| std::fs::read_to_string(runs.join(name)).unwrap();
    let cut = text(&names[0]);
    std::fs::write(runs.join(&names[0]), &cut[..cut.len() - 40]).unwrap();
    let short = text(&names[1]);
    let without_last: Vec<&str> = short.lines().collect();
    std::fs::write(
        runs.join(&names[1]),
        format!("{}\n", without_last[..without_last.len() - 1].join("\n")),
    )
    .unwrap();
    std::fs::write(runs.join(&names[2]), text(&names[3])).unwrap();
    std::fs::write(runs.join(&names[4]), "").unwrap();
    let out = bosweep(
        &dir,
        &["sweep", "sweep.toml", "--out", "damaged", "--no-report"],
    );
    let err = exited(&out, 0);
    for (name, reason) in [
        (&names[0], "line 10: not a trace step (EOF while parsing"),
        (
            &names[1],
            "line 9: the run is not complete: it stops after 8 of its 9 evaluations",
        ),
        (&names[2], "line 1: the header is another run's (seed"),
        (&names[4], "line 1: empty trace (no header line)"),
    ] {
        assert!(
            err.contains(&format!("{name} is not a complete trace ({reason}")),
            "{name}: {err}"
        );
        assert!(runs.join(format!("{name}.invalid")).exists());
    }
    assert_contains(&err, &["8 already complete, 4 completed now"]);
    assert_eq!(traces(&dir.join("damaged")), full);
}

/// Issue 15: resuming with another device mixed CPU and GPU traces silently. The manifest
/// records the device; another one is refused (exit 2, naming both) unless
/// `--allow-mixed-devices`, and the report names the devices of the runs.
#[test]
fn resuming_on_another_device_is_refused_or_said() {
    let dir = sandbox("devices");
    sweep(&dir, "out", &["--no-report"]);
    let manifest_path = dir.join("out/manifest.json");
    let mut manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    assert_eq!(manifest["device"], "cpu (f64)");
    // As if the first runs had used a GPU.
    manifest["device"] = "gpu (H100, Vulkan, DiscreteGpu, F32)".into();
    std::fs::write(&manifest_path, manifest.to_string()).unwrap();
    let names: Vec<String> = traces(&dir.join("out")).keys().cloned().collect();
    std::fs::remove_file(dir.join("out/runs").join(&names[0])).unwrap();
    let out = bosweep(&dir, &["sweep", "sweep.toml", "--out", "out"]);
    let err = exited(&out, 2);
    assert!(
        err.contains(
            "used gpu (H100, Vulkan, DiscreteGpu, F32), this invocation would use cpu (f64)"
        ) && err.contains("allow mixed devices (allow_mixed_devices)"),
        "{err}"
    );
    assert!(!dir.join("out/runs").join(&names[0]).exists());
    let out = bosweep(
        &dir,
        &[
            "sweep",
            "sweep.toml",
            "--out",
            "out",
            "--allow-mixed-devices",
        ],
    );
    let err = exited(&out, 0);
    assert!(
        err.contains("note:") && err.contains("the runs completed now use cpu (f64)"),
        "{err}"
    );
    file_containing(
        dir.join("out/report.md"),
        &["Devices: `cpu (rayon, ", "(12 runs)."],
    );
}

#[test]
fn labels_change_what_reports_show_and_no_run() {
    let dir = sandbox("labels");
    let labelled = CONFIG
        .replace(
            "name = \"random\"\n",
            "name = \"random\"\nlabel = \"Random search\"\n",
        )
        .replace(
            "name = \"gp-ucb\"\n",
            "name = \"gp-ucb\"\nlabel = \"UCB\"\n",
        )
        .replace(
            "name = \"forrester\"\n",
            "name = \"forrester\"\nlabel = \"F\"\n",
        );
    sweep(&dir, "plain", &[]);
    succeeded(&sweep_config(
        &dir,
        "labelled.toml",
        &labelled,
        "labelled",
        &[],
    ));
    assert_eq!(traces(&dir.join("labelled")), traces(&dir.join("plain")));
    let summary = std::fs::read_to_string(dir.join("labelled/summary.csv")).unwrap();
    for shown in [
        "F,Random search,",
        "F,UCB[ucb_multiplier=1],",
        "branin[noise_std=0.1],UCB[ucb_multiplier=2],",
    ] {
        assert!(summary.contains(shown), "{shown}: {summary}");
    }
    assert!(!summary.contains("gp-ucb"), "{summary}");
    file_containing(dir.join("labelled/report.md"), &["## Problem `F`"]);

    for (bad, needles) in [
        (
            labelled.replace("label = \"F\"", "label = 3"),
            ["line 19", "key \"label\": expected the name reports show"],
        ),
        (
            labelled.replace("name = \"branin\"\n", "name = \"branin\"\nlabel = \"F\"\n"),
            [
                "line 23",
                "label \"F\" already names the problem setting of line 19",
            ],
        ),
    ] {
        std::fs::write(dir.join("bad.toml"), &bad).unwrap();
        let out = bosweep(&dir, &["sweep", "bad.toml", "--out", "bad"]);
        let err = exited(&out, 2);
        for needle in needles {
            assert!(err.contains(needle), "{needle}: {err}");
        }
    }
}

/// The `metric` column of every row of a sweep directory's `comparisons.csv`.
fn compared_on(dir: &Path) -> Vec<String> {
    let mut reader = csv::Reader::from_path(dir.join("comparisons.csv")).unwrap();
    let column = reader
        .headers()
        .unwrap()
        .iter()
        .position(|c| c == "metric")
        .unwrap();
    reader
        .records()
        .map(|r| r.unwrap()[column].to_owned())
        .collect()
}

#[test]
fn the_config_and_the_report_command_choose_the_compared_metric() {
    let dir = sandbox("metric");
    let config = format!("{CONFIG}\n[report]\nmetric = \"cumulative-regret\"\n");
    succeeded(&sweep_config(&dir, "metric.toml", &config, "swept", &[]));
    // Two problems × two algorithms against each best.
    assert_eq!(compared_on(&dir.join("swept")), ["cumulative-regret"; 4]);
    file_containing(
        dir.join("swept/report.md"),
        &["(lowest mean final cumulative regret)"],
    );

    let out = bosweep(&dir, &["report", "swept", "--metric", "best-value"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(compared_on(&dir.join("swept")), ["best-value"; 4]);

    let out = bosweep(&dir, &["report", "swept", "--metric", "median"]);
    let err = exited(&out, 2);
    assert_contains(&err, &["unknown metric \"median\""]);
}
