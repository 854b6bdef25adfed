//! The Bayesian-optimisation toolkit every method of bosweep is built from, in ask/tell form,
//! so that the runner treats every paper's algorithm alike: repeated evaluations, observed
//! contexts and time-varying allowed sets pass through [`AskContext`], [`Proposal`] and
//! [`Feedback`] without special cases.
//!
//! - [`surrogate`]: the fitted GP that predicts through an engine; [`gp_model`]: its settings
//!   and its refit at every step; [`saas_ensemble`]: the fully Bayesian SAAS model, one GP per
//!   NUTS draw;
//! - [`acquisition`]: UCB, EI and log-EI, qLogNEI, local penalisation, Sobol grids and the
//!   grid-then-refine maximiser; [`pending`]: how a batch's later points account for the
//!   pending ones;
//! - [`optimizer`]: the ask/tell [`Optimizer`], built from an algorithm's settings, and
//!   [`Method`], which makes a settings struct a registry entry ([`AlgorithmEntry`]);
//! - random search, EXP3, and the [`Requirement`] an algorithm has of a problem.
//!
//! The methods themselves (the papers' families and the baselines) are `bosweep-algorithms`.
//! Algorithms maximise: the runner hands them values already converted with
//! [`Sense::to_maximization`](bosweep_problems::Sense::to_maximization), and
//! proposals and recommendations are points in the problem's own coordinates.

pub mod acquisition;
mod algorithm;
mod entry;
mod exp3;
pub mod gp_model;
pub mod optimizer;
pub mod pending;
mod pending_rows;
mod random;
mod requirement;
pub mod saas_ensemble;
pub mod surrogate;

pub use algorithm::{
    Algorithm, AlgorithmError, AskContext, Feedback, History, Proposal, StepCost, StepLog,
    gp_memory_bytes,
};
pub use entry::AlgorithmEntry;
pub use exp3::{Exp3, exp3_gamma};
pub use gp_model::{GpSettings, fit_gp_model};
pub use optimizer::{
    AlgorithmSettings, Method, Optimizer, OptimizerBuilder, OptimizerError, RandomSearchSettings,
};
pub use pending::PendingStrategy;
pub use pending_rows::rule_out_pending_rows;
pub use random::{RandomSearch, uniform_point};
pub use requirement::{Requirement, check_fit, check_objectives};
pub use saas_ensemble::{SaasEnsemble, fit_saas_ensemble};
