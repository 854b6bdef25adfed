//! Surrogate models: covariance kernels, exact GPs, kernel density estimates and kernel
//! regression. Their batch evaluation lives in `bosweep-engine`.

mod candidate_priors;
mod dense;
mod fit;
mod fit_choice;
mod gp;
mod kde;
mod kernel;
pub mod likelihood;
mod log_prior;
mod log_space;
mod point_gradient;
mod prior;
mod priors;
mod saas_nuts;
mod saas_posterior;
mod saas_prior;
mod slice_sampler;
mod smoothing;

pub use candidate_priors::{CandidatePrior, CandidatePriors, KernelGroup};
pub use dense::{JITTER_LADDER, jittered_cholesky, largest_jitter};
pub use fit::{FitMode, FitOptions, FitResult, MeanSpec, NoiseSpec, WarmStart, fit_gp};
pub use fit_choice::{FitChoice, UnknownFit};
pub use gp::{AppendOutcome, GpSpec, GpState, Noise};
pub use kde::{BandwidthRule, sample_clipped};
pub use kernel::scaled_coordinates;
pub use kernel::{Kernel, KernelFamily, KernelKind, MAX_SCALED_COORDINATE, TimeDecay};
pub use likelihood::{LmlGradient, LogMarginalLikelihood, log_marginal_likelihood};
pub use log_prior::{LogHyperparameters, LogPrior};
pub use log_space::Bounds;
pub use point_gradient::{PointPosterior, PointScratch};
pub use prior::{NormalPrior, Prior, PriorSpace, ln_gamma};
pub use priors::Priors;
pub use saas_nuts::{NutsSchedule, SaasSamples, sample_saas_posterior};
pub use saas_posterior::{MIN_NOISE, SaasHyperparameters, SaasPosterior, Unrepresentable};
pub use saas_prior::{SaasLogDensity, SaasPrior};
pub use slice_sampler::SliceSampler;
pub use smoothing::{BandwidthScale, BandwidthSchedule, SmoothingKernel};
