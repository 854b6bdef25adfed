use thiserror::Error;

/// Why an engine operation could not produce its result.
#[derive(Debug, Error)]
pub enum EngineError {
    /// The caller's inputs are inconsistent or out of range (exit code 2 at the CLI).
    #[error("invalid input: {0}")]
    InvalidInput(String),
    /// The GPU could not be used or failed while running (exit code 1 at the CLI).
    #[error("GPU error: {0}")]
    Gpu(String),
}

impl EngineError {
    pub fn invalid(msg: impl Into<String>) -> Self {
        Self::InvalidInput(msg.into())
    }

    pub fn gpu(msg: impl Into<String>) -> Self {
        Self::Gpu(msg.into())
    }
}
