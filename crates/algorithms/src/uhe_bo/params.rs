//! The registry entries of UHE-BO, its ablations and its baselines (their parameters are
//! declared beside the settings that read them).

use super::settings::{ADAPTIVE, EXP3_PAIRS, M_FACTOR, MCMC, PORTFOLIO, SHARED, SHRINK};
use super::{ArmRule, Estimator, FitData, UheBo};
use crate::entry::AlgorithmEntry;
use crate::requirement::Requirement;
use bosweep_core::params::ParamTable;

/// UHE-BO, its ablations and its baselines, as `bosweep` builds them by name.
pub(crate) const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "uhe-bo",
        requires: Requirement::Any,
        description: "UHE-BO (specs/uhe-bo.md): EXP3 over pairs {random+UCB, UCB+UCB}, θ by MAP on nearest-neighbour pseudo-data, GP-UCB μ + √β σ",
        parameters: ParamTable(&[SHARED, EXP3_PAIRS]),
        build: |p| Ok(Box::new(UheBo::new(p, ArmRule::Exp3, FitData::Pseudo))),
    },
    AlgorithmEntry {
        name: "ra-bo",
        requires: Requirement::Any,
        description: "RA-BO (UHE-BO ablation): random point at every odd step, GP-UCB at every even step, θ on pseudo-data",
        parameters: ParamTable(&[SHARED, &[M_FACTOR.spec()]]),
        build: |p| {
            Ok(Box::new(UheBo::new(
                p,
                ArmRule::AlwaysRandom,
                FitData::Pseudo,
            )))
        },
    },
    AlgorithmEntry {
        name: "random-exp3",
        requires: Requirement::Any,
        description: "Random+EXP3 (UHE-BO ablation): UHE-BO's EXP3 arm schedule, θ by MAP on the real data",
        parameters: ParamTable(&[SHARED, EXP3_PAIRS]),
        build: |p| Ok(Box::new(UheBo::new(p, ArmRule::Exp3, FitData::Real))),
    },
    AlgorithmEntry {
        name: "map-gp-ucb",
        requires: Requirement::Any,
        description: "MAP-GP-UCB (UHE-BO's baseline): GP-UCB μ + √β σ every step, θ by MAP with Gamma(1e-3, 10) priors, best observed y recommended",
        parameters: ParamTable(&[SHARED]),
        build: |p| {
            Ok(Box::new(UheBo::new(
                p,
                ArmRule::AlwaysAcquisition,
                FitData::Real,
            )))
        },
    },
    AlgorithmEntry {
        name: "mcmc-gp-ucb",
        requires: Requirement::Any,
        description: "MCMC-GP-UCB (UHE-BO's baseline): θ slice-sampled from its posterior (200 burn-in sweeps, 10 samples), UCB averaged over the samples",
        parameters: ParamTable(&[SHARED, MCMC]),
        build: |p| {
            Ok(Box::new(UheBo::with_estimator(
                p,
                ArmRule::AlwaysAcquisition,
                FitData::Real,
                Estimator::Mcmc,
            )))
        },
    },
    AlgorithmEntry {
        name: "a-gp-ucb",
        requires: Requirement::Any,
        description: "A-GP-UCB (Berkenkamp et al. 2019, UHE-BO's baseline): MAP lengthscales divided by a growing g(t), p(t) = t^0.9",
        parameters: ParamTable(&[SHARED, ADAPTIVE]),
        build: |p| {
            Ok(Box::new(UheBo::with_estimator(
                p,
                ArmRule::AlwaysAcquisition,
                FitData::Real,
                Estimator::AdaptiveScaling,
            )))
        },
    },
    AlgorithmEntry {
        name: "wang-de-freitas",
        requires: Requirement::Any,
        description: "Wang & de Freitas 2014 (UHE-BO's baseline): MAP under a lengthscale bound shrunk until σ(x_next) ≥ κ = 0.1",
        parameters: ParamTable(&[SHARED, SHRINK]),
        build: |p| {
            Ok(Box::new(UheBo::with_estimator(
                p,
                ArmRule::AlwaysAcquisition,
                FitData::Real,
                Estimator::ShrinkingBound,
            )))
        },
    },
    AlgorithmEntry {
        name: "portfolio",
        requires: Requirement::Any,
        description: "Portfolio (Hoffman et al. 2011, UHE-BO's baseline): EXP3 each step over {random, GP-UCB} (or GP-Hedge's {EI, PI, UCB}), reward the posterior mean at the chosen point",
        parameters: ParamTable(&[SHARED, PORTFOLIO]),
        build: |p| Ok(Box::new(UheBo::new(p, ArmRule::Portfolio, FitData::Real))),
    },
];
