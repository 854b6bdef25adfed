//! Routing by size (`--route auto`): each call to the CPU backend or the GPU from a cost model
//! of its size ([`Work`]), fitted on the user's machine by [`calibrate`] or a conservative
//! default.

mod calibrate;
mod cost;
mod routed;
mod work;

pub use calibrate::{Calibration, LADDERS, Ladder, calibrate};
pub use cost::{CostLine, CostModel, DEFAULT_CROSSOVER, Placement, cache_dir, calibration_file};
pub use routed::RoutedEngine;
pub use work::{Family, Operation, Work};
