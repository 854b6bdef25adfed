//! How a peer's settings become a command optimiser: the peers, their adapters' command lines
//! and the interpreter that runs them.

use bosweep_core::params::{ParamSpec, ParamValue, Params, Settings};
use bosweep_toolkit::{Algorithm, AlgorithmError};

use super::settings::{NgOptSettings, PeerSettings};
use crate::command::{Command, CommandAlgorithm, Takes};

/// The environment variable naming the default interpreter of the peers.
pub const PYTHON_ENV: &str = "BOSWEEP_PYTHON";

/// The interpreter when neither the parameter nor [`PYTHON_ENV`] names one.
const DEFAULT_PYTHON: &str = "python3";

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
    /// Whether it takes several objectives.
    pub several_objectives: bool,
    /// Whether it takes black-box constraints (Optuna's samplers but CMA-ES, and BoTorch's).
    pub constraints: bool,
}

/// Every peer, in listing order (the order of the registry entries below).
pub const PEERS: &[Peer] = &[
    Peer {
        name: "optuna-tpe",
        arguments: "optuna --sampler tpe",
        pip: "'optuna>=4'",
        batch_capable: true,
        plans_budget: false,
        constraints: true,
        several_objectives: true,
    },
    Peer {
        name: "optuna-cmaes",
        arguments: "optuna --sampler cmaes",
        pip: "'optuna>=4' cmaes",
        batch_capable: true,
        plans_budget: false,
        constraints: false,
        several_objectives: false,
    },
    Peer {
        name: "optuna-gp",
        arguments: "optuna --sampler gp",
        pip: "'optuna>=4' torch scipy",
        batch_capable: false,
        plans_budget: false,
        constraints: true,
        several_objectives: true,
    },
    Peer {
        name: "optuna-nsga2",
        arguments: "optuna --sampler nsga2",
        pip: "'optuna>=4'",
        batch_capable: true,
        plans_budget: false,
        constraints: true,
        several_objectives: true,
    },
    Peer {
        name: "nevergrad-ngopt",
        arguments: "nevergrad --optimizer ngopt",
        pip: "'nevergrad>=1'",
        batch_capable: false,
        plans_budget: true,
        constraints: false,
        several_objectives: false,
    },
    Peer {
        name: "nevergrad-cma",
        arguments: "nevergrad --optimizer cma",
        pip: "'nevergrad>=1'",
        batch_capable: true,
        plans_budget: false,
        constraints: false,
        several_objectives: false,
    },
    Peer {
        name: "botorch-qlognei",
        arguments: "botorch",
        pip: "botorch",
        batch_capable: true,
        plans_budget: false,
        constraints: true,
        several_objectives: false,
    },
    Peer {
        name: "botorch-qlognehvi",
        arguments: "botorch --acquisition qlognehvi",
        pip: "botorch",
        batch_capable: true,
        plans_budget: false,
        constraints: true,
        several_objectives: true,
    },
];

/// The peer called `name`, if it is one.
pub fn find_peer(name: &str) -> Option<&'static Peer> {
    PEERS.iter().find(|peer| peer.name == name)
}

/// The peer of one of [`ENTRIES`], which are named after [`PEERS`].
pub(super) fn peer(name: &str) -> &'static Peer {
    find_peer(name).expect("every peer entry names a peer")
}

impl Peer {
    /// The parameters its registry entry declares.
    pub(super) fn parameters(&self) -> &'static [ParamSpec] {
        if self.plans_budget {
            NgOptSettings::table()
        } else {
            PeerSettings::table()
        }
    }

    /// The optimiser command with `settings`, run by the interpreter `python`, planning for
    /// `budget` evaluations where it is not 0 (NGOpt's `budget`).
    pub(super) fn command(&self, settings: &PeerSettings, budget: usize, python: &str) -> Command {
        let mut cmd = format!(
            "{} -m bosweep.adapters {}",
            shell_quoted(python),
            self.arguments
        );
        if budget > 0 {
            cmd.push_str(&format!(" --budget {budget}"));
        }
        Command::new(cmd)
            .answer(|_| settings.answer)
            .batch_capable(self.batch_capable)
    }

    /// The running optimiser with parameters `p` (resolved against this peer's entry) and
    /// `budget` (see [`Peer::command`]).
    pub(super) fn build(
        &self,
        p: &Params,
        budget: usize,
    ) -> Result<Box<dyn Algorithm>, AlgorithmError> {
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
        Ok(CommandAlgorithm::recorded_as(
            settings,
            recorded,
            Takes {
                several_objectives: self.several_objectives,
                constraints: self.constraints,
            },
        ))
    }
}

/// The interpreter of `settings`: its `python`, else `$BOSWEEP_PYTHON`, else `python3`.
pub(super) fn interpreter(settings: &PeerSettings) -> String {
    chosen_interpreter(&settings.python, std::env::var(PYTHON_ENV).ok().as_deref())
}

/// The first of `given` and `environment` that is not blank, else `python3`.
pub(super) fn chosen_interpreter(given: &str, environment: Option<&str>) -> String {
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
pub(super) fn shell_quoted(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+:@%=,".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}
