use thiserror::Error;

/// Who must act on a failure. The command line maps it to the exit code (docs/conventions.md: 2
/// for bad input or usage, 1 for a failure while running), so every error type states it once,
/// by implementing [`Failure`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blame {
    /// The user's input: an unknown name, a malformed file, a value out of range.
    Input,
    /// Something failed while running: I/O, the GPU, an objective that crashed.
    Running,
}

/// An error that knows whether the input or the run is to blame.
pub trait Failure: std::error::Error {
    /// Who is to blame: the exit code and the Python exception follow from it.
    fn blame(&self) -> Blame;
}

/// Why an engine operation could not produce its result.
#[derive(Debug, Error)]
pub enum EngineError {
    /// The caller's inputs are inconsistent or out of range.
    #[error("{0}")]
    InvalidInput(String),
    /// The GPU could not be used or failed while running.
    #[error("GPU error: {0}")]
    Gpu(String),
}

impl EngineError {
    /// [`EngineError::InvalidInput`] with `msg`.
    pub fn invalid(msg: impl Into<String>) -> Self {
        Self::InvalidInput(msg.into())
    }

    /// [`EngineError::Gpu`] with `msg`.
    pub fn gpu(msg: impl Into<String>) -> Self {
        Self::Gpu(msg.into())
    }
}

impl Failure for EngineError {
    fn blame(&self) -> Blame {
        match self {
            Self::InvalidInput(_) => Blame::Input,
            Self::Gpu(_) => Blame::Running,
        }
    }
}
