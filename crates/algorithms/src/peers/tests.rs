//! The peers: their entries, command lines, interpreters and preflight checks.

use super::methods::{chosen_interpreter, shell_quoted};
use super::*;
use crate::command::Command;
use crate::registry;
use bosweep_core::params::ParamValue;
use bosweep_toolkit::AlgorithmError;

#[test]
fn every_peer_has_its_entry_in_the_same_order_naming_its_pip_requirement() {
    let names: Vec<&str> = ENTRIES.iter().map(|e| e.name).collect();
    let peers: Vec<&str> = PEERS.iter().map(|p| p.name).collect();
    assert_eq!(names, peers);
    for (entry, peer) in ENTRIES.iter().zip(PEERS) {
        assert!(
            entry
                .description
                .ends_with(&format!("pip install {}", peer.pip)),
            "{}: {}",
            entry.name,
            entry.description
        );
        assert!(registry().any(|e| e.name == entry.name));
        assert_eq!(entry.parameters(), peer.parameters(), "{}", entry.name);
    }
}

/// The command line of peer `name` with the `given` parameters and interpreter `python`.
fn command_line(name: &str, given: &[(&str, ParamValue)], python: &str) -> Command {
    let params = crate::find(name).unwrap().resolve(given).unwrap();
    let budget = match name {
        "nevergrad-ngopt" => NgOptSettings::read(&params).budget,
        _ => 0,
    };
    peer(name).command(&PeerSettings::read(&params), budget, python)
}

#[test]
fn each_entry_expands_to_its_adapter_command() {
    let py = "/opt/venv/bin/python";
    let expected = [
        ("optuna-tpe", "optuna --sampler tpe", true),
        ("optuna-cmaes", "optuna --sampler cmaes", true),
        ("optuna-gp", "optuna --sampler gp", false),
        ("nevergrad-ngopt", "nevergrad --optimizer ngopt", false),
        ("nevergrad-cma", "nevergrad --optimizer cma", true),
        ("botorch-qlognei", "botorch", true),
    ];
    for (name, arguments, batch_capable) in expected {
        let command = command_line(name, &[], py);
        assert_eq!(command.cmd, format!("{py} -m bosweep.adapters {arguments}"));
        assert_eq!(command.batch_capable, batch_capable, "{name}");
        assert_eq!(command.answer.timeout, 600.0, "{name}");
    }
    let given = [
        ("timeout", ParamValue::Number(30.0)),
        ("budget", ParamValue::Number(40.0)),
    ];
    let command = command_line("nevergrad-ngopt", &given, "/my envs/python");
    assert_eq!(
        command.cmd,
        "'/my envs/python' -m bosweep.adapters nevergrad --optimizer ngopt --budget 40"
    );
    assert_eq!(command.answer.timeout, 30.0);
}

#[test]
fn the_interpreter_is_the_parameter_else_the_environment_else_python3() {
    assert_eq!(
        chosen_interpreter("/a/python", Some("/b/python")),
        "/a/python"
    );
    assert_eq!(chosen_interpreter(" ", Some("/b/python")), "/b/python");
    assert_eq!(chosen_interpreter("", Some("")), "python3");
    assert_eq!(chosen_interpreter("", None), "python3");
}

#[test]
fn the_trace_records_the_interpreter_and_the_timeout() {
    let given = [("python", ParamValue::from("/a/python"))];
    let built = crate::build("optuna-tpe", &given).unwrap();
    assert_eq!(
        built.parameters(),
        [
            ("python".to_owned(), ParamValue::from("/a/python")),
            ("timeout".to_owned(), ParamValue::Number(600.0)),
        ]
    );
}

#[test]
fn only_peers_have_a_preflight_and_it_names_the_interpreter() {
    assert_eq!(preflight("random", &[]).unwrap(), None);
    let given = [("python", ParamValue::from("/a/python"))];
    assert_eq!(
        preflight("nevergrad-cma", &given).unwrap(),
        Some(Preflight {
            algorithm: "nevergrad-cma",
            python: "/a/python".into(),
        })
    );
    assert!(preflight("nevergrad-cma", &[("sampler", ParamValue::from("x"))]).is_err());
}

/// A fake interpreter: a shell script in a fresh directory that prints `stderr` and exits
/// with `status`.
#[cfg(unix)]
fn fake_python(name: &str, stderr: &str, status: i32) -> String {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("bosweep-peers-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("python");
    let script = format!("#!/bin/sh\ncat >&2 <<'SAID'\n{stderr}\nSAID\nexit {status}\n");
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[cfg(unix)]
#[test]
fn a_missing_requirement_is_a_configuration_error_with_the_pip_line() {
    let check = |python: String| {
        Preflight {
            algorithm: "optuna-cmaes",
            python,
        }
        .run()
    };
    let said = "optuna-cmaes needs cmaes: not installed; install with python -m pip install cmaes";
    let Err(AlgorithmError::Config(message)) = check(fake_python("unmet", said, 2)) else {
        panic!("an unmet requirement passed the check");
    };
    assert!(
        message.starts_with("algorithm \"optuna-cmaes\" cannot run"),
        "{message}"
    );
    assert!(message.ends_with(said), "{message}");

    let python = fake_python("no-package", "No module named 'bosweep'", 1);
    let Err(AlgorithmError::Config(message)) = check(python.clone()) else {
        panic!("a missing bosweep package passed the check");
    };
    assert!(
        message.ends_with(&format!(
            "{python} -m pip install ./crates/python 'optuna>=4' cmaes"
        )),
        "{message}"
    );

    let Err(AlgorithmError::Config(message)) = check("/no/such/python".into()) else {
        panic!("a missing interpreter passed the check");
    };
    assert!(
        message.contains("`/no/such/python` (the parameter python or BOSWEEP_PYTHON names another): it could not start"),
        "{message}"
    );
    assert!(
        message.contains("parameter python or BOSWEEP_PYTHON"),
        "{message}"
    );

    assert!(check(fake_python("met", "", 0)).is_ok());
}

#[test]
fn shell_words_are_quoted_only_when_needed() {
    assert_eq!(
        shell_quoted("/opt/venv/bin/python3.12"),
        "/opt/venv/bin/python3.12"
    );
    assert_eq!(shell_quoted("/my dir/it's"), r"'/my dir/it'\''s'");
}
