//! The Bayesian-optimisation methods of bosweep, each a family folder over the toolkit
//! (`bosweep-toolkit`, re-exported here whole so that one dependency gives both): the five
//! papers' algorithms with their baselines (UHE-BO, BOKE, SBO/DRBO-KDE, RAHBO, PE-GP-UCB), the
//! GP baselines (GP-UCB, EI, LogEI, qLogNEI), constrained LogEI × probability of feasibility,
//! TuRBO, BAxUS, SAASBO, CMA-ES, a user's optimiser run as a command and the peer libraries, and the
//! registry that finds them by name.
//!
//! Each method is declared by its settings struct ([`Method`]); the registry lists each
//! family's entries, built from those types.

mod baxus;
pub mod benchmark;
pub mod boke;
mod cmaes;
mod command;
mod constrained_bo;
pub mod contextual;
mod gp_bo;
mod mobo;
mod nsga2;
pub mod pe_gp_ucb;
mod peers;
pub mod rahbo;
mod registered;
mod registry;
mod saasbo;
#[cfg(test)]
mod testing;
mod turbo;
mod uhe_bo;

pub use bosweep_toolkit::*;

pub use baxus::Baxus;
pub use boke::{Boke, BokePlus, DensityExploration, GpUcbFixed, KrUcb};
pub use bosweep_model::FitChoice;
pub use cmaes::Cmaes;
pub use command::{Command, CommandAlgorithm};
pub use constrained_bo::LogEiPof;
pub use contextual::{DrboKde, DrboMmd, DrboMmdMinimax, SboKde, StableOpt};
pub use gp_bo::{Acquisition, Ei, GpBo, GpUcb, LogEi, QLogNei, SaasboMap, UcbSchedule};
pub use mobo::{QLogNParEgoSettings, QLogNehvi};
pub use nsga2::Nsga2;
pub use pe_gp_ucb::{
    FullyBayesGpUcb, MleGpUcb, OracleGpUcb, PeGpUcb, RegretBalancing, UnknownPriorSettings,
};
pub use peers::{PEERS, PYTHON_ENV, Peer, Preflight, find_peer, preflight};
pub use rahbo::{GpUcbHetero, Rahbo, RahboKnownVar, RahboModels, RahboRisk, RahboUs};
pub use registered::Registered;
pub use registry::{build, check_pair, find, registry};
pub use saasbo::Saasbo;
pub use turbo::{Scbo, ThompsonSampler, Turbo};
pub use uhe_bo::{
    AGpUcb, AveragedUcb, Exp3PairSettings, GammaSchedule, MapGpUcb, McmcGpUcb, PairedExp3,
    Portfolio, PortfolioArms, ProbabilityOfImprovement, PseudoData, RaBo, RandomExp3, RewardClip,
    RewardScaling, ThetaLoss, UheBo, UheGpSettings, WangDeFreitas, adaptive_scale, log_posterior,
    pseudo_labels, theta_from_log, uhe_gamma,
};
