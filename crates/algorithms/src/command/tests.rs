//! The `command` optimiser: its settings, its checks and the protocol run end to end.

use super::*;
use crate::testing::resolve;
use bosweep_core::params::Settings;
use bosweep_toolkit::{AlgorithmSettings, Optimizer};

#[test]
fn defaults_and_values_round_trip() {
    assert_eq!(Command::default().answer.timeout, 600.0);
    let changed = Command::new("./optimise --fast")
        .answer(|a| a.timeout(2.5))
        .batch_capable(true);
    assert_eq!(Command::read(&resolve(&changed)), changed);
}

#[test]
fn out_of_range_values_are_refused_by_name() {
    let message = |settings: Command| settings.build().err().unwrap().to_string();
    assert!(message(Command::new("true").answer(|a| a.timeout(0.0))).contains("timeout = 0"));
    assert!(message(Command::default()).contains("parameter cmd"));
}

/// A shell optimiser that proposes `x` at every ask and recommends it too.
#[cfg(unix)]
#[test]
fn the_optimizer_runs_a_shell_optimiser() {
    let script = r#"while read -r line; do case "$line" in *'"op":"ask"'*|*'"op":"recommend"'*) echo '{"x":[0.25,-1.5]}';; esac; done"#;
    let mut opt = Optimizer::builder(Command::new(script).answer(|a| a.timeout(20.0)))
        .bounds(&[(0.0, 1.0), (-2.0, 2.0)])
        .seed(2)
        .init(2)
        .minimize()
        .build()
        .unwrap();
    let mut asked = Vec::new();
    for _ in 0..4 {
        for x in opt.ask(1).unwrap() {
            opt.tell(&x, x[0] * x[0] + x[1] * x[1]).unwrap();
            asked.push(x);
        }
    }
    // The initial design's two points, then the command's.
    assert_eq!(asked.len(), 4);
    assert!(asked[..2].iter().all(|x| x != &[0.25, -1.5]));
    assert_eq!(asked[2..], [vec![0.25, -1.5], vec![0.25, -1.5]]);
    assert_eq!(opt.recommend(), Some(&[0.25, -1.5][..]));
}

/// A batch-capable shell optimiser that answers each ask with the number of points pending
/// as its first coordinate: the asks of one batch list the earlier ones.
#[cfg(unix)]
#[test]
fn a_batch_capable_optimiser_sees_the_pending_points() {
    let script = r#"while read -r line; do case "$line" in *'"op":"ask"'*) n=$(printf '%s' "$line" | grep -o '\],\[' | wc -l); case "$line" in *'"pending":[]'*) k=0;; *) k=$((n + 1));; esac; echo "{\"x\":[$k]}";; *'"op":"recommend"'*) echo '{"x":[0]}';; esac; done"#;
    let build = |capable: bool| {
        Optimizer::builder(
            Command::new(script)
                .answer(|a| a.timeout(20.0))
                .batch_capable(capable),
        )
        .bounds(&[(0.0, 10.0)])
        .init(1)
        .build()
        .unwrap()
    };
    let mut opt = build(true);
    let design = opt.ask(3).unwrap();
    opt.tell(&design[0], 1.0).unwrap();
    assert_eq!(opt.ask(3).unwrap(), [vec![0.0], vec![1.0], vec![2.0]]);
    // Without the declaration, one point at a time: a batch is refused.
    let mut opt = build(false);
    let design = opt.ask(1).unwrap();
    opt.tell(&design[0], 1.0).unwrap();
    assert!(opt.ask(3).is_err());
    assert_eq!(opt.ask(1).unwrap().len(), 1);
}

/// On a problem of two objectives the command is told so at `start` (with the reference point,
/// maximised) and is told both values at every `tell`, maximised: the shell optimiser writes
/// what it reads to a file.
#[cfg(unix)]
#[test]
fn a_command_is_told_several_objectives() {
    let dir = std::env::temp_dir().join(format!("bosweep-command-mo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("lines.jsonl");
    let script = format!(
        r#"while read -r line; do printf '%s\n' "$line" >> '{}'; case "$line" in *'"op":"ask"'*) echo '{{"x":[0.5,0.5]}}';; esac; done"#,
        log.display()
    );
    let problem = bosweep_problems::build("branin-currin", &[]).unwrap();
    let mut opt = Optimizer::builder(Command::new(script).answer(|a| a.timeout(20.0)))
        .problem(problem)
        .seed(4)
        .init(2)
        .build()
        .unwrap();
    for _ in 0..3 {
        for x in opt.ask(1).unwrap() {
            opt.tell_objectives(&x, &[x[0] + 1.0, 2.0 * x[1]]).unwrap();
        }
    }
    // The script answers this ask after writing every earlier line: the file is complete.
    opt.ask(1).unwrap();
    drop(opt);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["op"], "start");
    assert_eq!(lines[0]["objectives"], 2);
    assert_eq!(
        lines[0]["reference_point"],
        serde_json::json!([-18.0, -6.0])
    );
    let tells: Vec<_> = lines.iter().filter(|l| l["op"] == "tell").collect();
    assert_eq!(tells.len(), 3);
    for tell in tells {
        let x: Vec<f64> = serde_json::from_value(tell["x"].clone()).unwrap();
        assert_eq!(
            tell["objectives"],
            serde_json::json!([-(x[0] + 1.0), -2.0 * x[1]])
        );
        assert_eq!(tell["y"], serde_json::json!(-(x[0] + 1.0)));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// On a constrained box a command is told the number of constraints at `start` and their
/// values, as given (never negated), at every `tell`.
#[cfg(unix)]
#[test]
fn a_command_is_told_constraint_values() {
    let dir = std::env::temp_dir().join(format!("bosweep-command-c-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("lines.jsonl");
    let script = format!(
        r#"while read -r line; do printf '%s\n' "$line" >> '{}'; case "$line" in *'"op":"ask"'*|*'"op":"recommend"'*) echo '{{"x":[0.5]}}';; esac; done"#,
        log.display()
    );
    let mut opt = Optimizer::builder(Command::new(script).answer(|a| a.timeout(20.0)))
        .bounds(&[(0.0, 1.0)])
        .constraints(2)
        .seed(4)
        .init(2)
        .build()
        .unwrap();
    for _ in 0..3 {
        for x in opt.ask(1).unwrap() {
            opt.tell_constrained(&x, x[0], &[x[0] - 0.25, -1.0])
                .unwrap();
        }
    }
    opt.ask(1).unwrap();
    drop(opt);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["constraints"], 2);
    let tells: Vec<_> = lines.iter().filter(|l| l["op"] == "tell").collect();
    assert_eq!(tells.len(), 3);
    for tell in tells {
        let x = tell["x"][0].as_f64().unwrap();
        assert_eq!(tell["constraints"], serde_json::json!([x - 0.25, -1.0]));
        assert_eq!(tell["y"], serde_json::json!(-x));
    }
    std::fs::remove_dir_all(&dir).ok();
}
