//! Surrogate models: covariance kernels, exact GPs, kernel density estimates and kernel
//! regression. Their batch evaluation lives in [`crate::compute`].

mod gp;
mod kde;
mod kernel;
mod smoothing;

pub use gp::{GpState, Noise};
pub use kde::BandwidthRule;
pub use kernel::{Kernel, KernelKind, TimeDecay};
pub use smoothing::SmoothingKernel;
