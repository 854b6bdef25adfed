//! The (μ/μ_w, λ)-CMA-ES of Hansen's tutorial ("The CMA Evolution Strategy: A Tutorial",
//! arXiv:1604.00772, Appendix A with the Table 1 defaults, positive recombination weights
//! only): the strategy parameters, the search distribution `N(m, σ² C)`, its update from one
//! ranked generation and the stop criteria that trigger a restart. It minimises and knows
//! nothing of the box: the caller samples, repairs and ranks.

use nalgebra::{DMatrix, DVector, SymmetricEigen};
use rand::{Rng, RngExt};
use rand_distr::StandardNormal;

/// Hansen's Table 1 defaults for dimension `n` and population size `λ`.
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyParameters {
    /// Population size λ.
    pub lambda: usize,
    /// Parents μ = ⌊λ/2⌋.
    pub mu: usize,
    /// Recombination weights `w_i ∝ ln((λ+1)/2) − ln i`, `i = 1..μ`, summing to 1.
    pub weights: Vec<f64>,
    /// Variance-effective selection mass `μ_eff = 1 / Σ w_i²`.
    pub mueff: f64,
    /// Learning rate of the step-size path, `c_σ = (μ_eff + 2) / (n + μ_eff + 5)`.
    pub cs: f64,
    /// Step-size damping `d_σ = 1 + 2 max(0, √((μ_eff − 1)/(n + 1)) − 1) + c_σ`.
    pub ds: f64,
    /// Learning rate of the covariance path, `c_c = (4 + μ_eff/n) / (n + 4 + 2μ_eff/n)`.
    pub cc: f64,
    /// Rank-one learning rate `c_1 = 2 / ((n + 1.3)² + μ_eff)`.
    pub c1: f64,
    /// Rank-μ learning rate `c_μ = min(1 − c_1, 2 (μ_eff − 2 + 1/μ_eff) / ((n + 2)² + μ_eff))`.
    pub cmu: f64,
    /// `E‖N(0, I)‖ ≈ √n (1 − 1/(4n) + 1/(21n²))`.
    pub chi_n: f64,
}

impl StrategyParameters {
    /// The default population size `4 + ⌊3 ln n⌋`.
    pub fn default_lambda(n: usize) -> usize {
        4 + (3.0 * (n as f64).ln()).floor() as usize
    }

    /// The defaults for dimension `n ≥ 1` and population size `lambda ≥ 2`.
    pub fn new(n: usize, lambda: usize) -> Self {
        let nf = n as f64;
        let mu = lambda / 2;
        let raw: Vec<f64> = (1..=mu)
            .map(|i| ((lambda as f64 + 1.0) / 2.0).ln() - (i as f64).ln())
            .collect();
        let total: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / total).collect();
        let mueff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let cs = (mueff + 2.0) / (nf + mueff + 5.0);
        let ds = 1.0 + 2.0 * (((mueff - 1.0) / (nf + 1.0)).sqrt() - 1.0).max(0.0) + cs;
        let cc = (4.0 + mueff / nf) / (nf + 4.0 + 2.0 * mueff / nf);
        const ALPHA_COV: f64 = 2.0;
        let c1 = ALPHA_COV / ((nf + 1.3).powi(2) + mueff);
        let cmu = (1.0 - c1).min(
            ALPHA_COV * (mueff - 2.0 + 1.0 / mueff)
                / ((nf + 2.0).powi(2) + ALPHA_COV * mueff / 2.0),
        );
        let chi_n = nf.sqrt() * (1.0 - 1.0 / (4.0 * nf) + 1.0 / (21.0 * nf * nf));
        Self {
            lambda,
            mu,
            weights,
            mueff,
            cs,
            ds,
            cc,
            c1,
            cmu,
            chi_n,
        }
    }
}

/// Why a run of the strategy stopped (the criteria of Auger and Hansen's 2005 IPOP-CMA-ES).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// σ·p_c and σ·√C_ii below `tol_x` in every coordinate.
    TolX,
    /// The best values of the recent generations and all of the last one lie within `tol_fun`.
    TolFun,
    /// The condition number of C exceeds 1e14.
    ConditionCov,
    /// Adding 0.2 σ √C_ii to a coordinate of the mean leaves it unchanged.
    NoEffectCoord,
}

/// The search distribution `N(m, σ² C)` with its evolution paths.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    pub(super) params: StrategyParameters,
    pub(super) mean: DVector<f64>,
    sigma: f64,
    pub(super) cov: DMatrix<f64>,
    /// Eigenvectors of C (columns), `C = B D² Bᵀ`.
    basis: DMatrix<f64>,
    /// Square roots of C's eigenvalues.
    scales: DVector<f64>,
    pc: DVector<f64>,
    ps: DVector<f64>,
    /// Generations updated so far.
    generation: usize,
    /// Each generation's best value, for TolFun.
    best_values: Vec<f64>,
    /// The last generation's values, for TolFun.
    last_values: Vec<f64>,
}

impl Distribution {
    /// `N(mean, σ0² I)` with zero paths.
    pub fn new(mean: &[f64], sigma0: f64, params: StrategyParameters) -> Self {
        let n = mean.len();
        Self {
            params,
            mean: DVector::from_column_slice(mean),
            sigma: sigma0,
            cov: DMatrix::identity(n, n),
            basis: DMatrix::identity(n, n),
            scales: DVector::from_element(n, 1.0),
            pc: DVector::zeros(n),
            ps: DVector::zeros(n),
            generation: 0,
            best_values: Vec::new(),
            last_values: Vec::new(),
        }
    }

    /// The step size σ.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }

    /// Generations updated so far.
    pub fn generation(&self) -> usize {
        self.generation
    }

    /// One sample `m + σ B D z`, `z ~ N(0, I)`.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Vec<f64> {
        let z = DVector::from_iterator(
            self.mean.len(),
            (0..self.mean.len()).map(|_| rng.sample::<f64, _>(StandardNormal)),
        );
        let y = &self.basis * z.component_mul(&self.scales);
        (&self.mean + y * self.sigma).as_slice().to_vec()
    }

    /// The update of the tutorial's Appendix A from one generation's `(point, value)` pairs,
    /// values minimised: the best μ recombine into the new mean, the paths and C adapt, σ
    /// follows the step-size path. C's eigendecomposition is refreshed every generation.
    pub fn update(&mut self, generation: &[(Vec<f64>, f64)]) {
        let n = self.mean.len();
        let p = &self.params;
        let mut ranked: Vec<&(Vec<f64>, f64)> = generation.iter().collect();
        ranked.sort_by(|a, b| a.1.total_cmp(&b.1));
        let steps: Vec<DVector<f64>> = ranked[..p.mu]
            .iter()
            .map(|(x, _)| (DVector::from_column_slice(x) - &self.mean) / self.sigma)
            .collect();
        let mut yw = DVector::zeros(n);
        for (w, y) in p.weights.iter().zip(&steps) {
            yw += y * *w;
        }
        self.mean += &yw * self.sigma;

        // C^{-1/2} y_w = B D⁻¹ Bᵀ y_w.
        let whitened = &self.basis * (self.basis.transpose() * &yw).component_div(&self.scales);
        self.ps = &self.ps * (1.0 - p.cs) + whitened * (p.cs * (2.0 - p.cs) * p.mueff).sqrt();
        let ps_norm = self.ps.norm();
        let decay = 1.0 - (1.0 - p.cs).powi(2 * (self.generation as i32 + 1));
        let h_sigma = ps_norm / decay.sqrt() < (1.4 + 2.0 / (n as f64 + 1.0)) * p.chi_n;
        let h = if h_sigma { 1.0 } else { 0.0 };
        self.pc = &self.pc * (1.0 - p.cc) + &yw * (h * (p.cc * (2.0 - p.cc) * p.mueff).sqrt());

        let delta_h = (1.0 - h) * p.cc * (2.0 - p.cc);
        let weight_sum: f64 = p.weights.iter().sum();
        let mut rank_mu = DMatrix::zeros(n, n);
        for (w, y) in p.weights.iter().zip(&steps) {
            rank_mu += y * y.transpose() * *w;
        }
        self.cov = &self.cov * (1.0 + p.c1 * delta_h - p.c1 - p.cmu * weight_sum)
            + &self.pc * self.pc.transpose() * p.c1
            + rank_mu * p.cmu;
        self.sigma *= ((p.cs / p.ds) * (ps_norm / p.chi_n - 1.0)).exp();

        self.cov = (&self.cov + self.cov.transpose()) * 0.5;
        let eigen = SymmetricEigen::new(self.cov.clone());
        self.basis = eigen.eigenvectors;
        self.scales = eigen.eigenvalues.map(|v| v.max(0.0).sqrt());
        self.generation += 1;
        self.last_values = ranked.iter().map(|(_, v)| *v).collect();
        self.best_values.push(self.last_values[0]);
    }

    /// Whether the run should stop (checked after each update): Auger and Hansen's (2005)
    /// criteria, TolFun over the last `10 + ⌈30n/λ⌉` generations.
    pub fn stop(&self, tol_x: f64, tol_fun: f64) -> Option<Stop> {
        let n = self.mean.len();
        let diag = self.cov.diagonal();
        if (0..n)
            .all(|i| self.sigma * self.pc[i].abs() < tol_x && self.sigma * diag[i].sqrt() < tol_x)
        {
            return Some(Stop::TolX);
        }
        let history = 10 + (30 * n).div_ceil(self.params.lambda);
        if self.best_values.len() >= history {
            let recent = self.best_values[self.best_values.len() - history..]
                .iter()
                .chain(&self.last_values);
            let (lo, hi) = recent.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                (lo.min(v), hi.max(v))
            });
            if hi - lo < tol_fun {
                return Some(Stop::TolFun);
            }
        }
        let (smallest, largest) = (self.scales.min(), self.scales.max());
        if smallest <= 0.0 || (largest / smallest).powi(2) > 1e14 {
            return Some(Stop::ConditionCov);
        }
        if (0..n).any(|i| self.mean[i] + 0.2 * self.sigma * diag[i].sqrt() == self.mean[i]) {
            return Some(Stop::NoEffectCoord);
        }
        None
    }
}
