//! Every algorithm `bosweep` can build, by kebab-case name, with its declared parameters.
//!
//! Each paper's module exports its own `ENTRIES` slice; [`FAMILIES`] lists them in listing
//! order, so that adding a paper touches one line here.

use super::gp_bo::{Acquisition, GpBo};
use super::{Algorithm, AlgorithmError, RandomSearch, Requirement, pe_gp_ucb, uhe_bo};
use bosweep_core::params::{ParamKind, ParamSpec, ParamValue, Params};

/// One buildable algorithm.
#[derive(Debug)]
pub struct AlgorithmEntry {
    pub name: &'static str,
    /// One line for `bosweep list`.
    pub description: &'static str,
    pub parameters: &'static [ParamSpec],
    /// The kind of problem it runs on, checked before any run ([`super::check_pair`]).
    pub requires: Requirement,
    pub(super) build: fn(Params) -> Result<Box<dyn Algorithm>, AlgorithmError>,
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

/// Every family of algorithms, in listing order.
const FAMILIES: &[&[AlgorithmEntry]] = &[
    BASELINES,
    uhe_bo::ENTRIES,
    super::rahbo::ENTRIES,
    pe_gp_ucb::ENTRIES,
    super::boke::ENTRIES,
    super::contextual::ENTRIES,
];

/// All algorithms, in listing order.
pub fn registry() -> impl Iterator<Item = &'static AlgorithmEntry> + Clone {
    FAMILIES.iter().flat_map(|family| family.iter())
}

/// The entry called `name`, or an error listing the known names.
pub fn find(name: &str) -> Result<&'static AlgorithmEntry, AlgorithmError> {
    registry().find(|e| e.name == name).ok_or_else(|| {
        let names: Vec<_> = registry().map(|e| e.name).collect();
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
                kind: ParamKind::Choice { default: "map", options: &["map", "map-dsp", "mle", "fixed"] },
                description: "hyperparameters: ML-II, MAP with BoTorch's Gamma priors, MAP with BoTorch's dimension-scaled priors (Hvarfner et al. 2024), or fixed at the initial values",
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
                name: "min_noise_var",
                kind: ParamKind::Real { default: 1e-6, min: 1e-12, max: 1.0 },
                description: "lower bound of the fitted noise variance, in standardised output units (BoTorch: 1e-4)",
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

/// Algorithms every paper compares against.
const BASELINES: &[AlgorithmEntry] = &[
    AlgorithmEntry {
        name: "random",
        requires: Requirement::Any,
        description: "uniform random search (uniform over the allowed set where there is one)",
        parameters: &[],
        build: |_| Ok(Box::new(RandomSearch::new())),
    },
    AlgorithmEntry {
        name: "gp-ucb",
        requires: Requirement::Any,
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
        requires: Requirement::Any,
        description: "GP expected improvement over the best observation (maximised as log EI)",
        parameters: gp_params![],
        build: |p| Ok(Box::new(GpBo::new(p, Acquisition::ExpectedImprovement)?)),
    },
];
