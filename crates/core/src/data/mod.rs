//! The two types every layer shares: the row-major point matrix that batch operations take, and
//! the error they return. They sit below `bosweep-model` and `bosweep-engine` so that neither
//! has to import the other to name them.

mod error;
mod points;

pub use error::{Blame, EngineError, Failure};
pub use points::Points;
