//! Why a problem could not be built or evaluated.

use thiserror::Error;

use bosweep_core::data::{Blame, Failure};

/// A problem's failure, split by who must act on it: bad configuration (the user's input, exit
/// code 2 at the CLI), a point or step the problem cannot take (the caller's mistake), or an
/// evaluation that failed while running (e.g. an external command crashed, exit code 1).
#[derive(Debug, Error)]
pub enum ProblemError {
    /// Unknown problem or parameter, a parameter value out of range, an invalid box.
    #[error("{0}")]
    Config(String),
    /// A point of the wrong dimension, not finite, outside the domain or the allowed set; an
    /// invalid step.
    #[error("{0}")]
    InvalidPoint(String),
    /// The objective itself failed: it could not run, or returned too few or non-finite values.
    #[error("evaluation failed: {0}")]
    Evaluation(String),
}

impl Failure for ProblemError {
    fn blame(&self) -> Blame {
        match self {
            Self::Config(_) => Blame::Input,
            Self::InvalidPoint(_) | Self::Evaluation(_) => Blame::Running,
        }
    }
}

impl From<bosweep_core::params::ParamError> for ProblemError {
    fn from(e: bosweep_core::params::ParamError) -> Self {
        Self::Config(e.0)
    }
}

impl ProblemError {
    /// A [`ProblemError::Config`] with this message.
    pub fn config(msg: impl Into<String>) -> Self {
        Self::Config(msg.into())
    }

    /// A [`ProblemError::InvalidPoint`] with this message.
    pub fn invalid_point(msg: impl Into<String>) -> Self {
        Self::InvalidPoint(msg.into())
    }

    /// A [`ProblemError::Evaluation`] with this message.
    pub fn evaluation(msg: impl Into<String>) -> Self {
        Self::Evaluation(msg.into())
    }
}
