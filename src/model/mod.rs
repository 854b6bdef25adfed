//! Surrogate models: covariance kernels, exact GPs, kernel density estimates and kernel
//! regression. Their batch evaluation lives in [`crate::compute`].

mod fit;
mod gp;
mod gp_model;
mod kde;
mod kernel;
pub(crate) mod likelihood;
mod priors;
mod slice_sampler;
mod smoothing;

pub use fit::{Bounds, FitMode, FitOptions, FitResult, MeanSpec, NoiseSpec, fit_gp};
pub use gp::{AppendOutcome, GpState, Noise};
pub use gp_model::{GpModel, InputTransform, ModelOptions, OutputTransform};
pub use kde::{BandwidthRule, sample_clipped};
pub use kernel::{Kernel, KernelKind, TimeDecay};
pub use likelihood::{LmlGradient, LogMarginalLikelihood, log_marginal_likelihood};
pub use priors::{Prior, PriorSpace, Priors, ln_gamma};
pub use slice_sampler::SliceSampler;
pub use smoothing::{BandwidthScale, BandwidthSchedule, SmoothingKernel};
