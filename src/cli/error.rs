//! Errors of the command line and their exit codes (docs/conventions.md: 0 success, 1 a failure
//! while running, 2 bad input or usage).

use std::fmt;

use bosweep::data::{Blame, Failure};

/// A failed command: bad input or usage (exit 2) or a failure while running (exit 1).
#[derive(Debug)]
pub enum CliError {
    /// Bad input or usage: unknown name, malformed file, invalid value. Exit code 2.
    Usage(String),
    /// A failure while running: I/O error, GPU lost. Exit code 1.
    Runtime(String),
}

impl CliError {
    pub fn usage(msg: impl Into<String>) -> Self {
        Self::Usage(msg.into())
    }

    pub fn runtime(msg: impl Into<String>) -> Self {
        Self::Runtime(msg.into())
    }

    pub fn exit_code(&self) -> i32 {
        match self {
            Self::Usage(_) => 2,
            Self::Runtime(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(m) | Self::Runtime(m) => f.write_str(m),
        }
    }
}

/// Every library error converts the same way: its [`Failure::blame`] picks the exit code and its
/// message is kept as it is.
impl<E: Failure> From<E> for CliError {
    fn from(e: E) -> Self {
        let message = e.to_string();
        match e.blame() {
            Blame::Input => Self::Usage(message),
            Blame::Running => Self::Runtime(message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep::algorithms::AlgorithmError;
    use bosweep::compute::EngineError;
    use bosweep::problems::ProblemError;
    use bosweep::sweep::{RunError, SweepError};

    #[test]
    fn the_blame_of_the_innermost_cause_picks_the_exit_code() {
        let code = |e: CliError| e.exit_code();
        let config = RunError::Problem(ProblemError::config("problem x: unknown"));
        assert_eq!(code(config.into()), 2);
        let crashed = RunError::Problem(ProblemError::evaluation("exit status 3"));
        assert_eq!(code(crashed.into()), 1);
        // An input the engine refuses in the middle of a run is the algorithm's doing.
        let mid_run = RunError::Algorithm(AlgorithmError::Engine(EngineError::invalid("NaN")));
        assert_eq!(code(mid_run.into()), 1);
        assert_eq!(code(EngineError::invalid("bad --bandwidth").into()), 2);
        assert_eq!(code(EngineError::gpu("device lost").into()), 1);
    }

    #[test]
    fn io_failures_keep_their_cause_and_print_without_the_os_error_number() {
        let e = SweepError::Io {
            what: "write".into(),
            path: "out/manifest.json".into(),
            source: std::io::Error::from_raw_os_error(28),
        };
        assert!(std::error::Error::source(&e).is_some());
        let message = CliError::from(e).to_string();
        assert_eq!(
            message,
            "cannot write out/manifest.json: No space left on device"
        );
    }
}
