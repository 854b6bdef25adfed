//! How the `command` optimiser's settings become the running [`CommandAlgorithm`].

use bosweep_core::params::Params;
use bosweep_toolkit::optimizer::Method;
use bosweep_toolkit::{Algorithm, AlgorithmError, Requirement};

use super::algorithm::{CommandAlgorithm, Takes};
use super::settings::Command;

impl Method for Command {
    const NAME: &'static str = "command";
    const DESCRIPTION: &'static str = "your optimiser: a shell command speaking the JSON-lines ask/tell protocol (see docs/guide/your-own.md); needs cmd";
    const REQUIRES: Requirement = Requirement::Any;

    /// A command to run.
    fn check(&self) -> Result<(), AlgorithmError> {
        if self.cmd.trim().is_empty() {
            return Err(AlgorithmError::Config(
                "algorithm command: parameter cmd = \"\": give the command to run".into(),
            ));
        }
        Ok(())
    }

    fn into_algorithm(self, params: Params) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let everything = Takes {
            several_objectives: true,
            constraints: true,
        };
        Ok(CommandAlgorithm::recorded_as(
            self,
            params.to_list(),
            everything,
        ))
    }
}
