//! Every candidate prior's GP posterior over the whole finite domain, conditioned on all data
//! with time stamps (the time-varying model of Ziomek, Adachi and Osborne 2025, Section 2), by
//! one of two exact paths:
//!
//! - [`PosteriorPath::Incremental`] (default), incremental exact algebra. Per kernel group it keeps
//!   `W = L⁻¹ [k_s(x_i, c) ρ^{τ−i}]` (data × candidates, for the query time τ) and per prior
//!   `z = L⁻¹ r`. Advancing τ by one scales W by `ρ = √(1 − ε)`; appending the point at
//!   candidate c needs only W's column c (`l = L⁻¹ a` *is* that column, since data points are
//!   candidates), so a step costs `O((G + P) n N)` and the Cholesky factor itself is never
//!   stored. The log evidence accumulates prequentially.
//! - [`PosteriorPath::Engine`], the reference: every step refactorises each prior's GP from
//!   scratch ([`GpState`] on `(x, t)` inputs with the [`TimeDecay`]
//!   kernel) and evaluates all priors in one batched engine call ([`Engine::posterior_batch`]).
//!   It needs each group's stationary kernel, so it serves the toy and tests, not Intel's
//!   empirical covariances.

use std::sync::Arc;

use bosweep_engine::{Engine, Points};
use bosweep_model::CandidatePriors;
use bosweep_model::{GpSpec, GpState, Noise, TimeDecay};

use bosweep_toolkit::AlgorithmError;

/// How the posteriors are computed; both are exact and agree to rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PosteriorPath {
    /// Incremental exact algebra, `O((G + P) n N)` a step (the default).
    Incremental,
    /// Every prior's GP refactorised every step through the engine (the reference; stationary
    /// kernels only).
    Engine,
}

impl bosweep_core::params::Choice for PosteriorPath {
    const WORDS: &'static [&'static str] = &["incremental", "engine"];
    const VALUES: &'static [Self] = &[Self::Incremental, Self::Engine];
}

/// One observation: the candidate index, its 1-based time stamp and the value.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Datum {
    candidate: usize,
    t: usize,
    y: f64,
}

/// The incremental state of one kernel group.
#[derive(Clone, Debug)]
struct GroupFactor {
    /// Rows of `W`, one per datum, each over all candidates.
    w: Vec<Vec<f64>>,
    /// The query time τ that `w` is expressed for.
    time: usize,
}

/// Means of the requested priors and the standard deviation of their groups, over all
/// candidates, at one query time.
#[derive(Clone, Debug, PartialEq)]
pub struct PriorPosterior {
    /// `mean[p]` over candidates, for every prior (empty for priors not requested).
    pub mean: Vec<Vec<f64>>,
    /// `std[p]` over candidates (empty for priors not requested).
    pub std: Vec<Vec<f64>>,
}

/// The posteriors of all candidate priors, conditioned on all observations so far.
#[derive(Clone, Debug)]
pub struct PriorPosteriors {
    priors: Arc<CandidatePriors>,
    noise_var: f64,
    path: PosteriorPath,
    data: Vec<Datum>,
    factors: Vec<GroupFactor>,
    /// `z^p = L⁻¹ r^p` per prior.
    z: Vec<Vec<f64>>,
    /// `ln P(D | p)` per prior (incremental path).
    log_evidence: Vec<f64>,
}

/// The point `x` with the time stamp appended as the kernel's last column.
fn with_time(x: &[f64], time: usize) -> impl Iterator<Item = f64> + '_ {
    x.iter().copied().chain([time as f64])
}

impl PriorPosteriors {
    /// `noise_std` is the known noise R (> 0, so that `K + R²I` is positive definite).
    pub fn new(
        priors: Arc<CandidatePriors>,
        noise_std: f64,
        path: PosteriorPath,
    ) -> Result<Self, AlgorithmError> {
        if !(noise_std.is_finite() && noise_std > 0.0) {
            return Err(AlgorithmError::Config(format!(
                "noise_std = {noise_std}: the unknown-prior GPs need a known noise R > 0"
            )));
        }
        if path == PosteriorPath::Engine
            && let Some(g) = priors.groups().iter().position(|g| g.stationary.is_none())
        {
            return Err(AlgorithmError::Config(format!(
                "posterior = \"engine\" needs stationary kernels, but kernel group {g} is an \
                 empirical covariance; use posterior = \"incremental\""
            )));
        }
        let p = priors.priors().len();
        Ok(Self {
            factors: vec![
                GroupFactor {
                    w: Vec::new(),
                    time: 0
                };
                priors.groups().len()
            ],
            priors,
            noise_var: noise_std * noise_std,
            path,
            data: Vec::new(),
            z: vec![Vec::new(); p],
            log_evidence: vec![0.0; p],
        })
    }

    /// The candidate priors.
    pub fn priors(&self) -> &CandidatePriors {
        &self.priors
    }

    /// The number of observations.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether nothing has been observed.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    fn decay(&self, group: usize) -> TimeDecay {
        TimeDecay {
            epsilon: self.priors.groups()[group].epsilon,
        }
    }

    /// Scales the group's W from its query time to `t ≥` that time.
    fn advance(&mut self, group: usize, t: usize) -> Result<(), AlgorithmError> {
        let factor = &self.factors[group];
        if t < factor.time {
            return Err(AlgorithmError::Config(format!(
                "time went backwards: step {t} after step {}",
                factor.time
            )));
        }
        let scale = self.decay(group).factor((t - factor.time) as f64);
        let factor = &mut self.factors[group];
        if scale != 1.0 {
            for row in &mut factor.w {
                row.iter_mut().for_each(|v| *v *= scale);
            }
        }
        factor.time = t;
        Ok(())
    }

    /// Conditions every prior on `y` observed at candidate `candidate` at step `t` (no earlier
    /// than any previous observation).
    pub fn observe(&mut self, candidate: usize, t: usize, y: f64) -> Result<(), AlgorithmError> {
        let n_candidates = self.priors.candidates().rows();
        if candidate >= n_candidates || !y.is_finite() {
            return Err(AlgorithmError::Config(format!(
                "observation at candidate {candidate} with value {y} (need a candidate below \
                 {n_candidates} and a finite value)"
            )));
        }
        if let Some(last) = self.data.last()
            && t < last.t
        {
            return Err(AlgorithmError::Config(format!(
                "observation at step {t} after one at step {}",
                last.t
            )));
        }
        for g in 0..self.factors.len() {
            self.advance(g, t)?;
            let spatial = &self.priors.groups()[g].spatial;
            let factor = &self.factors[g];
            let l: Vec<f64> = factor.w.iter().map(|row| row[candidate]).collect();
            let d2 = spatial[(candidate, candidate)] + self.noise_var
                - l.iter().map(|v| v * v).sum::<f64>();
            if d2.is_nan() || d2 <= 0.0 {
                return Err(AlgorithmError::Config(format!(
                    "the predictive variance at candidate {candidate} is {d2}: the kernel is not \
                     positive semi-definite"
                )));
            }
            let d = d2.sqrt();
            let mut row: Vec<f64> = spatial.row(candidate).iter().copied().collect();
            for (li, wi) in l.iter().zip(&factor.w) {
                row.iter_mut().zip(wi).for_each(|(r, w)| *r -= li * w);
            }
            row.iter_mut().for_each(|r| *r /= d);
            for (p, prior) in self.priors.priors().iter().enumerate() {
                if prior.group != g {
                    continue;
                }
                let residual = y - prior.mean[candidate];
                let projected: f64 = l.iter().zip(&self.z[p]).map(|(a, b)| a * b).sum();
                let z_new = (residual - projected) / d;
                self.z[p].push(z_new);
                self.log_evidence[p] +=
                    -0.5 * (2.0 * std::f64::consts::PI * d2).ln() - 0.5 * z_new * z_new;
            }
            self.factors[g].w.push(row);
        }
        self.data.push(Datum { candidate, t, y });
        Ok(())
    }

    /// Posterior means and standard deviations at query time `t` of the priors with
    /// `wanted[p]`, over all candidates.
    pub fn posterior(
        &mut self,
        engine: &dyn Engine,
        t: usize,
        wanted: &[bool],
    ) -> Result<PriorPosterior, AlgorithmError> {
        match self.path {
            PosteriorPath::Incremental => self.incremental_posterior(t, wanted),
            PosteriorPath::Engine => self.engine_posterior(engine, t, wanted).map(|(p, _)| p),
        }
    }

    fn incremental_posterior(
        &mut self,
        t: usize,
        wanted: &[bool],
    ) -> Result<PriorPosterior, AlgorithmError> {
        let n_candidates = self.priors.candidates().rows();
        let n_priors = self.priors.priors().len();
        let mut mean = vec![Vec::new(); n_priors];
        let mut std = vec![Vec::new(); n_priors];
        for g in 0..self.factors.len() {
            let members: Vec<usize> = (0..n_priors)
                .filter(|&p| wanted[p] && self.priors.priors()[p].group == g)
                .collect();
            if members.is_empty() {
                continue;
            }
            self.advance(g, t)?;
            let spatial = &self.priors.groups()[g].spatial;
            let w = &self.factors[g].w;
            let mut var: Vec<f64> = (0..n_candidates).map(|c| spatial[(c, c)]).collect();
            for row in w {
                var.iter_mut().zip(row).for_each(|(v, x)| *v -= x * x);
            }
            let sd: Vec<f64> = var.iter().map(|v| v.max(0.0).sqrt()).collect();
            for &p in &members {
                let mut m = self.priors.priors()[p].mean.clone();
                for (row, z) in w.iter().zip(&self.z[p]) {
                    m.iter_mut().zip(row).for_each(|(a, x)| *a += z * x);
                }
                mean[p] = m;
                std[p] = sd.clone();
            }
        }
        Ok(PriorPosterior { mean, std })
    }

    /// The reference path: each wanted prior's GP refactorised from scratch, all evaluated by
    /// one batched engine call; also returns each wanted prior's log evidence.
    fn engine_posterior(
        &self,
        engine: &dyn Engine,
        t: usize,
        wanted: &[bool],
    ) -> Result<(PriorPosterior, Vec<f64>), AlgorithmError> {
        let candidates = self.priors.candidates();
        let dim = candidates.dim();
        let train = Points::new(
            self.data
                .iter()
                .flat_map(|d| with_time(candidates.row(d.candidate), d.t))
                .collect(),
            dim + 1,
        )?;
        let queries = Points::new(
            candidates.iter().flat_map(|x| with_time(x, t)).collect(),
            dim + 1,
        )?;
        let n_priors = self.priors.priors().len();
        let mut states = Vec::new();
        let mut which = Vec::new();
        for p in (0..n_priors).filter(|&p| wanted[p]) {
            let prior = &self.priors.priors()[p];
            let group = &self.priors.groups()[prior.group];
            let kernel = group
                .stationary
                .clone()
                .expect("checked at construction")
                .with_time_decay(group.epsilon)?;
            let residuals: Vec<f64> = self
                .data
                .iter()
                .map(|d| d.y - prior.mean[d.candidate])
                .collect();
            states.push(GpState::fit(
                train.clone(),
                &residuals,
                GpSpec::new(kernel, Noise::Homoscedastic(self.noise_var)),
            )?);
            which.push(p);
        }
        let refs: Vec<&GpState> = states.iter().collect();
        let posteriors = engine.posterior_batch(&refs, &queries)?;
        let mut mean = vec![Vec::new(); n_priors];
        let mut std = vec![Vec::new(); n_priors];
        let mut evidence = vec![f64::NAN; n_priors];
        for ((&p, post), state) in which.iter().zip(posteriors).zip(&states) {
            let prior_mean = &self.priors.priors()[p].mean;
            mean[p] = post
                .mean
                .iter()
                .zip(prior_mean)
                .map(|(a, m)| a + m)
                .collect();
            std[p] = post.std().collect();
            evidence[p] = state.log_marginal_likelihood();
        }
        Ok((PriorPosterior { mean, std }, evidence))
    }

    /// `ln P(D | p)` for every prior, given all observations so far.
    pub fn log_evidence(&self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        match self.path {
            PosteriorPath::Incremental => Ok(self.log_evidence.clone()),
            PosteriorPath::Engine => {
                let t = self.data.last().map_or(1, |d| d.t);
                let all = vec![true; self.priors.priors().len()];
                Ok(self.engine_posterior(engine, t, &all)?.1)
            }
        }
    }
}
