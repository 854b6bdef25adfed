//! Sweeps through the command line: resuming after an interruption, sharding and merging, and
//! thread counts all give the same traces as one uninterrupted sweep.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

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
    let dir = std::env::temp_dir().join(format!("bosweep-sweep-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("sweep.toml"), CONFIG).unwrap();
    dir
}

fn bosweep(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_bosweep"))
        .args(["--device", "cpu"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    out
}

fn sweep(dir: &Path, out: &str, extra: &[&str]) {
    let result = bosweep(
        dir,
        &[&["sweep", "sweep.toml", "--out", out][..], extra].concat(),
    );
    assert_eq!(
        result.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
}

/// Every completed trace of a sweep directory, without the fields a rerun may change: the
/// wall-clock timings and the device description (which names the thread count).
fn traces(dir: &Path) -> BTreeMap<String, Vec<Value>> {
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
                        o.remove("model_seconds");
                        o.remove("acq_seconds");
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
    assert!(String::from_utf8_lossy(&out.stderr).contains("6 already complete, 6 completed now"));
    assert_eq!(traces(&dir.join("resumed")), full);
}

#[test]
fn sweep_killed_at_any_moment_then_resumed_loses_nothing() {
    let dir = sandbox("kill");
    // Long enough (~2 s) that the kills below land mid-sweep.
    let config = CONFIG
        .replace("replicates = 2", "replicates = 8")
        .replace("budget = 9", "budget = 20");
    std::fs::write(dir.join("sweep.toml"), config).unwrap();
    sweep(&dir, "full", &["--no-report"]);
    let full = traces(&dir.join("full"));
    let mut interrupted = 0;
    for delay_ms in [100, 300, 700] {
        let out = format!("killed-{delay_ms}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_bosweep"))
            .args([
                "--device",
                "cpu",
                "sweep",
                "sweep.toml",
                "--out",
                &out,
                "--no-report",
            ])
            .current_dir(&dir)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        // Whatever was complete when killed is whole and equal to the uninterrupted result.
        let survived = traces(&dir.join(&out));
        for (name, lines) in &survived {
            assert_eq!(Some(lines), full.get(name), "{name}");
        }
        if survived.len() < full.len() {
            interrupted += 1;
        }
        sweep(&dir, &out, &["--no-report"]);
        assert_eq!(traces(&dir.join(&out)), full);
    }
    assert!(interrupted > 0, "no kill landed before the sweep completed");
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
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(traces(&dir.join("merged")), traces(&dir.join("full")));
    assert!(dir.join("merged/summary.csv").exists() && dir.join("merged/report.md").exists());
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
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bad.toml") && err.contains("line 7") && err.contains("kappa"),
        "{err}"
    );

    // A directory of another config is refused, for sweeping and for merging.
    sweep(&dir, "first", &["--no-report"]);
    std::fs::write(
        dir.join("other.toml"),
        CONFIG.replace("seed = 7", "seed = 8"),
    )
    .unwrap();
    let out = bosweep(
        &dir,
        &["sweep", "other.toml", "--out", "first", "--no-report"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("different config"));
    let other = bosweep(
        &dir,
        &[
            "sweep",
            "other.toml",
            "--out",
            "second",
            "--no-report",
            "--shard",
            "0/4",
        ],
    );
    assert_eq!(other.status.code(), Some(0));
    let out = bosweep(&dir, &["merge", "--out", "merged", "first", "second"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("refusing to merge"));
    for shard in ["3/3", "1/0", "x"] {
        let out = bosweep(&dir, &["sweep", "sweep.toml", "--shard", shard]);
        assert_eq!(out.status.code(), Some(2), "--shard {shard}");
    }
}
