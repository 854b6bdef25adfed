//! The check, before anything runs, that a peer's interpreter has the bosweep package and the
//! library.

use std::process::{Command as ProcessCommand, Stdio};

use bosweep_core::params::{ParamValue, Params, Settings};
use bosweep_toolkit::AlgorithmError;

use super::methods::{PYTHON_ENV, find_peer, interpreter, shell_quoted};
use super::settings::PeerSettings;

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
