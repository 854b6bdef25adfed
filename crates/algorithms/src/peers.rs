//! Peer optimisation libraries as ready-made command optimisers: Optuna's TPE, CMA-ES and GP
//! samplers, Nevergrad's NGOpt and CMA, and BoTorch's qLogNoisyExpectedImprovement, each run as
//! `<python> -m bosweep.adapters …` (the Python package's `bosweep.adapters`), which speaks
//! the JSON-lines protocol of [`super::command`].
//!
//! Parameters: `python`, the interpreter that has the bosweep Python package and the library
//! installed (default: the environment variable `BOSWEEP_PYTHON`, else `python3` on the PATH;
//! a path or a name, not a command line), and `timeout`, as the `command` optimiser's. Each
//! adapter's batch capability is its own (see [`PEERS`]).
//!
//! A missing library is refused before anything runs rather than in the middle of a sweep:
//! [`preflight`] gives the check, `<python> -m bosweep.adapters check <name>`, which exits 2
//! naming the pip line that installs what is missing.

use std::process::{Command as ProcessCommand, Stdio};

use super::command::CommandAlgorithm;
use crate::command::Command;
use bosweep_core::params::{ParamSpec, ParamValue, Params, Settings};
use bosweep_toolkit::AlgorithmEntry;
use bosweep_toolkit::Requirement;
use bosweep_toolkit::{Algorithm, AlgorithmError};

/// The environment variable naming the default interpreter of the peers.
pub const PYTHON_ENV: &str = "BOSWEEP_PYTHON";

/// The interpreter when neither the parameter nor [`PYTHON_ENV`] names one.
const DEFAULT_PYTHON: &str = "python3";

bosweep_core::settings! {
    /// What every peer takes: the interpreter that runs its adapter, and how long it may take
    /// to answer.
    pub struct PeerSettings {
        python: String = String::new() => (
            "the Python interpreter with the bosweep package and the library installed (default: $BOSWEEP_PYTHON, else python3)"
        ),
        timeout: f64 = 600.0 => (
            "seconds the optimiser may take to answer one ask or recommend",
            1e-3,
            1e6
        ),
    }
}

bosweep_core::settings! {
    /// NGOpt's settings: a peer's, and the budget it plans for.
    pub struct NgOptSettings {
        /// The interpreter and the timeout.
        peer: PeerSettings = PeerSettings::default() => {},
        budget: usize = 0 => (
            "the evaluations NGOpt plans for (it picks its method from them); 0: the run's budget",
            0,
            1_000_000
        ),
    }
}

/// One peer library's method behind `python -m bosweep.adapters`.
#[derive(Debug)]
pub struct Peer {
    /// The registry name, also the adapter's name for `check`.
    pub name: &'static str,
    /// The arguments after `python -m bosweep.adapters`.
    pub arguments: &'static str,
    /// What `pip install` needs for it (besides the bosweep package).
    pub pip: &'static str,
    /// Whether it proposes points while others are pending (batches, asynchronous workers).
    pub batch_capable: bool,
    /// Whether it plans for a budget (NGOpt's `budget` parameter).
    pub plans_budget: bool,
}

/// Every peer, in listing order (the order of the registry entries below).
pub const PEERS: &[Peer] = &[
    Peer {
        name: "optuna-tpe",
        arguments: "optuna --sampler tpe",
        pip: "'optuna>=4'",
        batch_capable: true,
        plans_budget: false,
    },
    Peer {
        name: "optuna-cmaes",
        arguments: "optuna --sampler cmaes",
        pip: "'optuna>=4' cmaes",
        batch_capable: true,
        plans_budget: false,
    },
    Peer {
        name: "optuna-gp",
        arguments: "optuna --sampler gp",
        pip: "'optuna>=4' torch scipy",
        batch_capable: false,
        plans_budget: false,
    },
    Peer {
        name: "nevergrad-ngopt",
        arguments: "nevergrad --optimizer ngopt",
        pip: "'nevergrad>=1'",
        batch_capable: false,
        plans_budget: true,
    },
    Peer {
        name: "nevergrad-cma",
        arguments: "nevergrad --optimizer cma",
        pip: "'nevergrad>=1'",
        batch_capable: true,
        plans_budget: false,
    },
    Peer {
        name: "botorch-qlognei",
        arguments: "botorch",
        pip: "botorch",
        batch_capable: true,
        plans_budget: false,
    },
];

/// The registry's entries, one per [`PEERS`] element, in its order. Peers search the whole
/// box: a problem with a finite allowed set is refused.
pub(super) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry::declared_by::<PeerSettings>(
        "optuna-tpe",
        "Optuna's TPE sampler (constant liar on pending points), through \
                      python -m bosweep.adapters; needs pip install 'optuna>=4'",
        Requirement::Continuous,
        |p| peer("optuna-tpe").build(&p, 0),
    ),
    AlgorithmEntry::declared_by::<PeerSettings>(
        "optuna-cmaes",
        "Optuna's CMA-ES sampler, through python -m bosweep.adapters; needs \
                      pip install 'optuna>=4' cmaes",
        Requirement::Continuous,
        |p| peer("optuna-cmaes").build(&p, 0),
    ),
    AlgorithmEntry::declared_by::<PeerSettings>(
        "optuna-gp",
        "Optuna's GP sampler (one point at a time), through python -m \
                      bosweep.adapters; needs pip install 'optuna>=4' torch scipy",
        Requirement::Continuous,
        |p| peer("optuna-gp").build(&p, 0),
    ),
    AlgorithmEntry::declared_by::<NgOptSettings>(
        "nevergrad-ngopt",
        "Nevergrad's NGOpt (one point at a time), through python -m \
                      bosweep.adapters; needs pip install 'nevergrad>=1'",
        Requirement::Continuous,
        |p| peer("nevergrad-ngopt").build(&p, NgOptSettings::read(&p).budget),
    ),
    AlgorithmEntry::declared_by::<PeerSettings>(
        "nevergrad-cma",
        "Nevergrad's CMA-ES, through python -m bosweep.adapters; needs pip \
                      install 'nevergrad>=1'",
        Requirement::Continuous,
        |p| peer("nevergrad-cma").build(&p, 0),
    ),
    AlgorithmEntry::declared_by::<PeerSettings>(
        "botorch-qlognei",
        "BoTorch's qLogNoisyExpectedImprovement on a SingleTaskGP by \
                      optimize_acqf, through python -m bosweep.adapters; needs pip install \
                      botorch",
        Requirement::Continuous,
        |p| peer("botorch-qlognei").build(&p, 0),
    ),
];

/// The peer called `name`, if it is one.
pub fn find_peer(name: &str) -> Option<&'static Peer> {
    PEERS.iter().find(|peer| peer.name == name)
}

/// The peer of one of [`ENTRIES`], which are named after [`PEERS`].
fn peer(name: &str) -> &'static Peer {
    find_peer(name).expect("every peer entry names a peer")
}

impl Peer {
    /// The parameters its registry entry declares.
    fn parameters(&self) -> &'static [ParamSpec] {
        if self.plans_budget {
            NgOptSettings::table()
        } else {
            PeerSettings::table()
        }
    }

    /// The optimiser command with `settings`, run by the interpreter `python`, planning for
    /// `budget` evaluations where it is not 0 (NGOpt's `budget`).
    fn command(&self, settings: &PeerSettings, budget: usize, python: &str) -> Command {
        let mut cmd = format!(
            "{} -m bosweep.adapters {}",
            shell_quoted(python),
            self.arguments
        );
        if budget > 0 {
            cmd.push_str(&format!(" --budget {budget}"));
        }
        Command::new(cmd)
            .timeout(settings.timeout)
            .batch_capable(self.batch_capable)
    }

    /// The running optimiser with parameters `p` (resolved against this peer's entry) and
    /// `budget` (see [`Peer::command`]).
    fn build(&self, p: &Params, budget: usize) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let peer = PeerSettings::read(p);
        let python = interpreter(&peer);
        let settings = self.command(&peer, budget, &python);
        // The trace records the interpreter that ran, whether given or taken from the
        // environment.
        let recorded = p
            .to_list()
            .into_iter()
            .map(|(key, value)| match key.as_str() {
                "python" => (key, ParamValue::from(python.as_str())),
                _ => (key, value),
            })
            .collect();
        Ok(CommandAlgorithm::recorded_as(settings, recorded))
    }
}

/// The interpreter of `settings`: its `python`, else `$BOSWEEP_PYTHON`, else `python3`.
fn interpreter(settings: &PeerSettings) -> String {
    chosen_interpreter(&settings.python, std::env::var(PYTHON_ENV).ok().as_deref())
}

/// The first of `given` and `environment` that is not blank, else `python3`.
fn chosen_interpreter(given: &str, environment: Option<&str>) -> String {
    [Some(given), environment]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|v| !v.is_empty())
        .unwrap_or(DEFAULT_PYTHON)
        .to_owned()
}

/// `word` as one word of `sh -c`: as it is when it has only safe characters, else in single
/// quotes.
fn shell_quoted(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+:@%=,".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The check that a peer can run here: its interpreter starts, has the bosweep package and
/// the library. Equal checks (one adapter, one interpreter) need running once.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Preflight {
    /// The peer's registry name.
    pub algorithm: &'static str,
    /// The interpreter that would run it.
    pub python: String,
}

/// The check algorithm `name` with the `given` parameters needs before it runs: `None` for
/// an algorithm that is not a peer. An unknown name or a bad parameter is the registry's error.
pub fn preflight(
    name: &str,
    given: &[(&str, ParamValue)],
) -> Result<Option<Preflight>, AlgorithmError> {
    let Some(peer) = find_peer(name) else {
        return Ok(None);
    };
    let params = Params::resolve("algorithm", peer.name, peer.parameters(), given)
        .map_err(|e| AlgorithmError::Config(e.0))?;
    Ok(Some(Preflight {
        algorithm: peer.name,
        python: interpreter(&PeerSettings::read(&params)),
    }))
}

impl Preflight {
    /// Runs `<python> -m bosweep.adapters check <name>`: a configuration error, naming the
    /// algorithm and the pip line to run, when the interpreter, the bosweep package or the
    /// library is missing.
    pub fn run(&self) -> Result<(), AlgorithmError> {
        let refused = |why: String| {
            AlgorithmError::Config(format!(
                "algorithm \"{}\" cannot run with the Python interpreter `{}` (the parameter \
                 python or {PYTHON_ENV} names another): {why}",
                self.algorithm, self.python
            ))
        };
        let output = ProcessCommand::new(&self.python)
            .args(["-m", "bosweep.adapters", "check", self.algorithm])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| refused(format!("it could not start ({e})")))?;
        if output.status.success() {
            return Ok(());
        }
        let said = String::from_utf8_lossy(&output.stderr).trim().to_owned();
        if said.contains("No module named 'bosweep'") || said.contains("No module named bosweep") {
            let pip = find_peer(self.algorithm).map_or("", |peer| peer.pip);
            return Err(refused(format!(
                "the bosweep Python package is not installed there; from bosweep's repository, \
                 install it and the library with\n    {} -m pip install ./crates/python {pip}",
                shell_quoted(&self.python)
            )));
        }
        Err(refused(format!(
            "its check ({}) said:\n{said}",
            output.status
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

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
            assert_eq!(command.timeout, 600.0, "{name}");
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
        assert_eq!(command.timeout, 30.0);
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
        let said =
            "optuna-cmaes needs cmaes: not installed; install with python -m pip install cmaes";
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
}
