//! A finite set of candidate spatio-temporal GP priors over a finite domain: the model class of
//! the unknown-prior bandits (Ziomek, Adachi & Osborne, AISTATS 2025, Section 2). Time-varying
//! problems define theirs and hand it to an algorithm through `Problem::candidate_priors` (in
//! `bosweep-problems`).

use nalgebra::DMatrix;

use super::kernel::Kernel;
use bosweep_core::data::{EngineError, Points};

/// Priors that share one spatial covariance and one forgetting rate ε: their posteriors share
/// one factorisation and one variance, so a set of priors that differ only in their means
/// costs one Cholesky factor.
#[derive(Clone, Debug)]
pub struct KernelGroup {
    /// `k_s(c_i, c_j)` over the whole domain, `N × N`: any positive semi-definite matrix, so that
    /// an empirical sensor covariance (Intel) is as valid as a stationary kernel (toy).
    pub spatial: DMatrix<f64>,
    /// The forgetting rate of the factor `(1 − ε)^{|t − t'|/2}`.
    pub epsilon: f64,
    /// The stationary kernel `spatial` was computed from, when there is one: it lets the
    /// from-scratch reference path run through the engine's batched GP posterior.
    pub stationary: Option<Kernel>,
}

/// One candidate prior: a mean over the domain and the kernel group it belongs to.
#[derive(Clone, Debug)]
pub struct CandidatePrior {
    /// A human-readable name (`prior 2`, `2004-03-04`).
    pub label: String,
    /// `m^p(c)` at every domain point (the toy's and Intel's means do not depend on t).
    pub mean: Vec<f64>,
    /// Index of its kernel in [`CandidatePriors::groups`].
    pub group: usize,
}

/// The finite domain `X`, its kernel groups and the candidate priors `U`.
#[derive(Clone, Debug)]
pub struct CandidatePriors {
    candidates: Points,
    groups: Vec<KernelGroup>,
    priors: Vec<CandidatePrior>,
    horizon: usize,
    true_prior: Option<usize>,
}

impl CandidatePriors {
    /// Checks shapes: `N × N` symmetric finite spatial matrices, ε in [0, 1], means of length
    /// `N`, valid group indices, at least one prior, a horizon ≥ 1.
    pub fn new(
        candidates: Points,
        groups: Vec<KernelGroup>,
        priors: Vec<CandidatePrior>,
        horizon: usize,
        true_prior: Option<usize>,
    ) -> Result<Self, EngineError> {
        let n = candidates.rows();
        if n == 0 || priors.is_empty() || horizon == 0 {
            return Err(EngineError::invalid(format!(
                "a prior set needs candidates, priors and a horizon (got {n}, {}, {horizon})",
                priors.len()
            )));
        }
        for (g, group) in groups.iter().enumerate() {
            let s = &group.spatial;
            if s.nrows() != n || s.ncols() != n {
                return Err(EngineError::invalid(format!(
                    "kernel group {g}: spatial covariance is {}×{}, the domain has {n} points",
                    s.nrows(),
                    s.ncols()
                )));
            }
            if s.iter().any(|v| !v.is_finite()) || (s - s.transpose()).amax() > 1e-9 * s.amax() {
                return Err(EngineError::invalid(format!(
                    "kernel group {g}: spatial covariance must be finite and symmetric"
                )));
            }
            if !(0.0..=1.0).contains(&group.epsilon) {
                return Err(EngineError::invalid(format!(
                    "kernel group {g}: epsilon {} must lie in [0, 1]",
                    group.epsilon
                )));
            }
        }
        for prior in &priors {
            if prior.mean.len() != n || prior.mean.iter().any(|v| !v.is_finite()) {
                return Err(EngineError::invalid(format!(
                    "prior {}: the mean needs {n} finite values, got {}",
                    prior.label,
                    prior.mean.len()
                )));
            }
            if prior.group >= groups.len() {
                return Err(EngineError::invalid(format!(
                    "prior {}: kernel group {} does not exist ({} groups)",
                    prior.label,
                    prior.group,
                    groups.len()
                )));
            }
        }
        if let Some(p) = true_prior.filter(|p| *p >= priors.len()) {
            return Err(EngineError::invalid(format!(
                "true prior {p} is not among the {} priors",
                priors.len()
            )));
        }
        Ok(Self {
            candidates,
            groups,
            priors,
            horizon,
            true_prior,
        })
    }

    /// The whole domain `X`, one point per row.
    pub fn candidates(&self) -> &Points {
        &self.candidates
    }

    /// The kernels the priors share, each with the priors that use it.
    pub fn groups(&self) -> &[KernelGroup] {
        &self.groups
    }

    /// Every candidate prior, in its index order.
    pub fn priors(&self) -> &[CandidatePrior] {
        &self.priors
    }

    /// The planned horizon `T` (it enters `β_t` through the union bound over prediction times).
    pub fn horizon(&self) -> usize {
        self.horizon
    }

    /// The prior the problem's function is drawn from, where there is one (the toy's prior 2).
    pub fn true_prior(&self) -> Option<usize> {
        self.true_prior
    }

    /// The set restricted to the priors `keep` (in that order), with only their kernel groups:
    /// the oracle runs PE-GP-UCB with `U = {p*}`.
    pub fn subset(&self, keep: &[usize]) -> Result<Self, EngineError> {
        let mut groups = Vec::new();
        let mut group_of = vec![None; self.groups.len()];
        let mut priors = Vec::new();
        for &p in keep {
            let prior = self.priors.get(p).ok_or_else(|| {
                EngineError::invalid(format!(
                    "prior {p} is not among the {} priors",
                    self.priors.len()
                ))
            })?;
            let g = *group_of[prior.group].get_or_insert_with(|| {
                groups.push(self.groups[prior.group].clone());
                groups.len() - 1
            });
            priors.push(CandidatePrior {
                group: g,
                ..prior.clone()
            });
        }
        let true_prior = self
            .true_prior
            .and_then(|t| keep.iter().position(|&p| p == t));
        Self::new(
            self.candidates.clone(),
            groups,
            priors,
            self.horizon,
            true_prior,
        )
    }
}
