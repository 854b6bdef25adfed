//! The library's integration tests, in one binary (linking each file separately dominated the
//! test command's time): the engines against their references and each other, the models, the
//! acquisitions, every paper's algorithms and problems, and the registry-wide reliability checks.
//!
//! Run one file's tests with its module name as the filter, e.g.
//! `cargo test --test library gpu_parity:: -- --nocapture`.

mod common;

mod acquisition;
mod analytic_gradients;
mod attainment;
mod batch;
mod baxus;
mod bbob_biobj;
mod bbob_constrained;
mod bo;
mod boke;
mod botorch_model;
mod cmaes;
mod coalesce;
mod constrained_runs;
mod engine_reference;
#[cfg(feature = "fault-injection")]
mod faults;
mod fuzz_regressions;
mod gp_fit;
mod gpu_parity;
mod layers;
mod logei_pof;
mod multi_objective_problems;
mod multi_objective_runs;
mod optimizer;
mod parallel_runs;
mod pareto;
mod pathwise;
mod pe_gp_ucb;
mod problems;
mod qlognehvi;
mod qlognehvi_constrained;
mod qlognei;
mod qlognei_constrained;
mod rahbo;
mod reliability;
mod routing;
mod rover;
mod saas_fully_bayesian;
mod saas_map;
mod sbo_drbo_kde;
mod turbo;
mod uhe_bo;
mod uhe_bo_baselines;
