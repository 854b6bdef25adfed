//! Errors of the command line and their exit codes (`../shared/conventions.md`).

use std::fmt;

use crate::compute::EngineError;
use crate::io::CsvError;

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

impl std::error::Error for CliError {}

impl From<EngineError> for CliError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::InvalidInput(m) => Self::Usage(m),
            EngineError::Gpu(m) => Self::Runtime(format!("GPU error: {m}")),
        }
    }
}

/// A malformed or unreadable input file is bad input, even when the cause is an I/O error: the
/// user named a file that cannot serve.
impl From<CsvError> for CliError {
    fn from(e: CsvError) -> Self {
        Self::Usage(e.to_string())
    }
}
