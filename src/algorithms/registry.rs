//! Every algorithm `bosweep` can build, by kebab-case name, with its declared parameters.
//!
//! Later issues add their algorithms by appending an [`AlgorithmEntry`] to `ENTRIES`.

use super::gp_bo::{Acquisition, GpBo};
use super::uhe_bo::{self, ArmRule, FitData, UheBo};
use super::{Algorithm, AlgorithmError, RandomSearch};
use crate::params::{ParamKind, ParamSpec, ParamValue, Params};

/// One buildable algorithm.
#[derive(Debug)]
pub struct AlgorithmEntry {
    pub name: &'static str,
    /// One line for `bosweep list`.
    pub description: &'static str,
    pub parameters: &'static [ParamSpec],
    build: fn(Params) -> Result<Box<dyn Algorithm>, AlgorithmError>,
}

impl AlgorithmEntry {
    pub fn build(
        &self,
        given: &[(&str, ParamValue)],
    ) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        let params = Params::resolve("algorithm", self.name, self.parameters, given)
            .map_err(|e| AlgorithmError::Config(e.0))?;
        (self.build)(params)
    }
}

pub fn registry() -> &'static [AlgorithmEntry] {
    ENTRIES
}

/// The entry called `name`, or an error listing the known names.
pub fn find(name: &str) -> Result<&'static AlgorithmEntry, AlgorithmError> {
    ENTRIES.iter().find(|e| e.name == name).ok_or_else(|| {
        let names: Vec<_> = ENTRIES.iter().map(|e| e.name).collect();
        AlgorithmError::Config(format!(
            "unknown algorithm \"{name}\" (known: {})",
            names.join(", ")
        ))
    })
}

pub fn build(
    name: &str,
    given: &[(&str, ParamValue)],
) -> Result<Box<dyn Algorithm>, AlgorithmError> {
    find(name)?.build(given)
}

/// Parameters of the GP model and the acquisition maximiser, shared by the GP baselines.
macro_rules! gp_params {
    ($($extra:expr),* $(,)?) => {
        &[
            ParamSpec {
                name: "kernel",
                kind: ParamKind::Choice {
                    default: "matern52",
                    options: &["se", "matern12", "matern32", "matern52", "rq"],
                },
                description: "covariance kernel (ARD lengthscales)",
            },
            ParamSpec {
                name: "rq_alpha",
                kind: ParamKind::Real { default: 1.0, min: 1e-6, max: 1e6 },
                description: "shape of the rational-quadratic kernel",
            },
            ParamSpec {
                name: "fit",
                kind: ParamKind::Choice { default: "mle", options: &["mle", "map", "fixed"] },
                description: "hyperparameters: ML-II, MAP with BoTorch's Gamma priors, or fixed at the initial values",
            },
            ParamSpec {
                name: "lengthscale",
                kind: ParamKind::Real { default: 0.2, min: 1e-6, max: 1e6 },
                description: "initial (or fixed) lengthscale, in unit-cube units",
            },
            ParamSpec {
                name: "signal_var",
                kind: ParamKind::Real { default: 1.0, min: 1e-8, max: 1e8 },
                description: "initial (or fixed) signal variance, in standardised output units",
            },
            ParamSpec {
                name: "noise_var",
                kind: ParamKind::Real { default: 1e-4, min: 1e-6, max: 10.0 },
                description: "initial (or fixed) noise variance, in standardised output units",
            },
            ParamSpec {
                name: "grid_size",
                kind: ParamKind::Integer { default: 0, min: 0, max: 1 << 24 },
                description: "Sobol candidates per step; 0 = min(2^12·d, 2^20)",
            },
            ParamSpec {
                name: "top_k",
                kind: ParamKind::Integer { default: 8, min: 1, max: 1024 },
                description: "best grid points refined by L-BFGS-B",
            },
            ParamSpec {
                name: "refine",
                kind: ParamKind::Choice { default: "true", options: &["true", "false"] },
                description: "refine the best grid points with bounded L-BFGS",
            },
            ParamSpec {
                name: "max_iters",
                kind: ParamKind::Integer { default: 100, min: 1, max: 100_000 },
                description: "L-BFGS iterations per refined start",
            },
            $($extra),*
        ]
    };
}

const ENTRIES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "random",
        description: "uniform random search (uniform over the allowed set where there is one)",
        parameters: &[],
        build: |_| Ok(Box::new(RandomSearch::new())),
    },
    AlgorithmEntry {
        name: "gp-ucb",
        description: "GP upper confidence bound μ + κσ (constant κ = ucb_multiplier, or κ = √β_t of Srinivas et al.)",
        parameters: gp_params![
            ParamSpec {
                name: "beta_schedule",
                kind: ParamKind::Choice {
                    default: "constant",
                    options: &["constant", "srinivas"]
                },
                description: "constant: κ = ucb_multiplier; srinivas: κ = √β_t, β_t = 2 ln(|D| t² π² / (6δ)), |D| the grid size",
            },
            ParamSpec {
                name: "ucb_multiplier",
                kind: ParamKind::Real {
                    default: 2.0,
                    min: 0.0,
                    max: 1e6
                },
                description: "κ multiplying σ (the square root of β in the β-under-root convention)",
            },
            ParamSpec {
                name: "delta",
                kind: ParamKind::Real {
                    default: 0.1,
                    min: 1e-12,
                    max: 0.999_999
                },
                description: "confidence δ of the Srinivas schedule",
            },
        ],
        build: |p| {
            let acquisition = match p.choice("beta_schedule") {
                "srinivas" => Acquisition::UcbSrinivas {
                    delta: p.number("delta"),
                },
                _ => Acquisition::UcbMultiplier(p.number("ucb_multiplier")),
            };
            Ok(Box::new(GpBo::new(p, acquisition)?))
        },
    },
    AlgorithmEntry {
        name: "ei",
        description: "GP expected improvement over the best observation (maximised as log EI)",
        parameters: gp_params![],
        build: |p| Ok(Box::new(GpBo::new(p, Acquisition::ExpectedImprovement)?)),
    },
    AlgorithmEntry {
        name: "uhe-bo",
        description: "UHE-BO (specs/uhe-bo.md): EXP3 over pairs {random+UCB, UCB+UCB}, θ by MAP on nearest-neighbour pseudo-data, GP-UCB μ + √β σ",
        parameters: uhe_bo::PARAMETERS,
        build: |p| Ok(Box::new(UheBo::new(p, ArmRule::Exp3, FitData::Pseudo))),
    },
    AlgorithmEntry {
        name: "ra-bo",
        description: "RA-BO (UHE-BO ablation): random point at every odd step, GP-UCB at every even step, θ on pseudo-data",
        parameters: uhe_bo::PARAMETERS,
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
        description: "Random+EXP3 (UHE-BO ablation): UHE-BO's EXP3 arm schedule, θ by MAP on the real data",
        parameters: uhe_bo::PARAMETERS,
        build: |p| Ok(Box::new(UheBo::new(p, ArmRule::Exp3, FitData::Real))),
    },
    AlgorithmEntry {
        name: "map-gp-ucb",
        description: "MAP-GP-UCB (UHE-BO's baseline): GP-UCB μ + √β σ every step, θ by MAP with Gamma(1e-3, 10) priors, best observed y recommended",
        parameters: uhe_bo::PARAMETERS,
        build: |p| {
            Ok(Box::new(UheBo::new(
                p,
                ArmRule::AlwaysAcquisition,
                FitData::Real,
            )))
        },
    },
];
