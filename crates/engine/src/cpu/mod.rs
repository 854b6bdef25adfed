//! The reference backend: rayon over candidate blocks, f64 throughout.
//!
//! Work is split into fixed-size blocks from index 0, so results are bit-for-bit identical for
//! any number of threads.

mod density;
mod pairs;
mod paths;
mod posterior;
mod scaled;
mod simd;
mod trig;

pub use self::pairs::{PairGradient, PairPosterior, PairScratch};

use nalgebra::DMatrix;
use rayon::prelude::*;

use self::density::{Kde, Regression};
use self::posterior::{BLOCK, BlockPosterior};
use self::scaled::KernelRows;
use super::{
    Engine, EngineError, ImprovementSmoothing, KernelRegression, PairReduction, PathMaximum,
    Points, Posterior, SampleCells, SamplePaths, checks, log_improvement_over, worst_case_tv,
};
use bosweep_model::{GpState, Kernel, SmoothingKernel};

/// Queries per parallel task for the per-query operations (KDE, regression, nearest).
const QUERY_BLOCK: usize = 64;
/// Target number of (decision, context) pairs per block of a pair reduction.
const PAIR_BLOCK: usize = 4096;
/// Relative tolerance under which squared distances count as nearest-neighbour ties.
pub(crate) const TIE_TOLERANCE: f64 = 1e-9;

/// The rayon CPU backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuEngine;

impl CpuEngine {
    /// The CPU backend, on the calling thread's rayon pool (the global one unless the caller
    /// installs another).
    pub fn new() -> Self {
        Self
    }
}

fn sq_dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// Applies `f` to each query in parallel blocks and collects one value per query.
fn per_query<T: Send>(queries: &Points, f: impl Fn(&[f64]) -> T + Sync) -> Vec<T> {
    per_query_with(queries, || (), |_, q| f(q))
}

/// [`per_query`] with scratch space: `scratch()` is called once per block of queries, and `f`
/// reuses its value for each query of the block in turn (so no query depends on the thread
/// count, as long as `f`'s result does not depend on what the scratch held before).
fn per_query_with<S, T: Send>(
    queries: &Points,
    scratch: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &[f64]) -> T + Sync,
) -> Vec<T> {
    let rows: Vec<&[f64]> = queries.iter().collect();
    let f = &f;
    rows.par_chunks(QUERY_BLOCK)
        .flat_map_iter(|chunk| {
            let mut s = scratch();
            chunk.iter().map(move |q| f(&mut s, q))
        })
        .collect()
}

/// Nearest-neighbour average of `targets` around `q`: the `h → 0` limit of kernel regression.
fn nearest_average(data: &Points, targets: &[f64], q: &[f64]) -> f64 {
    let d2: Vec<f64> = data.iter().map(|x| sq_dist(q, x)).collect();
    let best = d2.iter().copied().fold(f64::INFINITY, f64::min);
    let limit = best * (1.0 + TIE_TOLERANCE);
    let (sum, count) = d2
        .iter()
        .zip(targets)
        .filter(|(d, _)| **d <= limit)
        .fold((0.0, 0usize), |(s, c), (_, y)| (s + y, c + 1));
    sum / count as f64
}

/// The reduction of candidate `index`'s UCB values `u` over the context points (reorders `u`).
fn reduce_pairs(u: &mut [f64], reduction: &PairReduction<'_>, index: usize) -> f64 {
    match *reduction {
        PairReduction::Mean => u.iter().sum::<f64>() / u.len() as f64,
        PairReduction::Min => u.iter().copied().fold(f64::INFINITY, f64::min),
        PairReduction::WorstCaseTv { delta, infimum } => worst_case_tv(u, delta, infimum[index]),
    }
}

impl Engine for CpuEngine {
    fn describe(&self) -> String {
        format!("cpu (rayon, {} threads, f64)", rayon::current_num_threads())
    }

    /// Bit-for-bit the same results for any thread count.
    fn identity(&self) -> String {
        "cpu (f64)".into()
    }

    fn cross_covariance(
        &self,
        kernel: &Kernel,
        a: &Points,
        b: &Points,
    ) -> Result<DMatrix<f64>, EngineError> {
        checks::cross_covariance(kernel, a, b)?;
        let rows = KernelRows::new(kernel, b);
        let n = b.rows();
        let mut out = vec![0.0; a.rows() * n];
        out.par_chunks_mut(n.max(1))
            .zip(a.as_slice().par_chunks(a.dim()))
            .for_each(|(row, x)| rows.fill(x, row));
        Ok(DMatrix::from_row_slice(a.rows(), n, &out))
    }

    fn posterior_batch(
        &self,
        gps: &[&GpState],
        candidates: &Points,
    ) -> Result<Vec<Posterior>, EngineError> {
        checks::posterior(gps, candidates)?;
        let m = candidates.rows();
        let dim = candidates.dim();
        Ok(gps
            .iter()
            .map(|gp| {
                let block = BlockPosterior::new(gp);
                let mut mean = vec![0.0; m];
                let mut variance = vec![0.0; m];
                mean.par_chunks_mut(BLOCK)
                    .zip(variance.par_chunks_mut(BLOCK))
                    .zip(candidates.as_slice().par_chunks(BLOCK * dim))
                    .for_each(|((mu, var), x)| block.eval(x, mu, var));
                Posterior { mean, variance }
            })
            .collect())
    }

    fn pair_reduce(
        &self,
        gp: &GpState,
        decisions: &Points,
        contexts: &Points,
        beta: f64,
        reduction: PairReduction<'_>,
    ) -> Result<Vec<f64>, EngineError> {
        checks::pairs(gp, decisions, contexts, beta, &reduction)?;
        if let Ok(pairs) = PairPosterior::new(gp, contexts) {
            let mut out = vec![0.0; decisions.rows()];
            out.par_iter_mut().enumerate().for_each_init(
                || (PairScratch::default(), vec![0.0; contexts.rows()]),
                |(scratch, ucb), (i, o)| {
                    pairs.ucb(decisions.row(i), beta, scratch, ucb);
                    *o = reduce_pairs(ucb, &reduction, i);
                },
            );
            return Ok(out);
        }
        let samples = contexts.rows();
        let per_block = (PAIR_BLOCK / samples).max(1);
        let block = BlockPosterior::new(gp);
        let joint_dim = gp.train().dim();
        let mut out = vec![0.0; decisions.rows()];
        out.par_chunks_mut(per_block)
            .enumerate()
            .for_each(|(b, out)| {
                let first = b * per_block;
                let pairs = out.len() * samples;
                let mut joint = Vec::with_capacity(pairs * joint_dim);
                for i in first..first + out.len() {
                    for c in contexts.iter() {
                        joint.extend_from_slice(decisions.row(i));
                        joint.extend_from_slice(c);
                    }
                }
                let mut mean = vec![0.0; pairs];
                let mut var = vec![0.0; pairs];
                for ((mu, v), x) in mean
                    .chunks_mut(BLOCK)
                    .zip(var.chunks_mut(BLOCK))
                    .zip(joint.chunks(BLOCK * joint_dim))
                {
                    block.eval(x, mu, v);
                }
                let mut ucb: Vec<f64> = mean
                    .iter()
                    .zip(&var)
                    .map(|(m, v)| m + beta * v.sqrt())
                    .collect();
                for (r, (o, u)) in out.iter_mut().zip(ucb.chunks_mut(samples)).enumerate() {
                    *o = reduce_pairs(u, &reduction, first + r);
                }
            });
        Ok(out)
    }

    /// Through [`PairPosterior`]: each decision's kernel block against every context sample at
    /// once, the joint points never built.
    fn pair_values(
        &self,
        gp: &GpState,
        decisions: &Points,
        contexts: &Points,
        beta: f64,
    ) -> Result<Vec<f64>, EngineError> {
        checks::pair_values(gp, decisions, contexts, beta)?;
        let pairs = PairPosterior::new(gp, contexts)?;
        let mut out = vec![0.0; decisions.rows() * contexts.rows()];
        out.par_chunks_mut(contexts.rows())
            .enumerate()
            .for_each_init(PairScratch::default, |scratch, (i, row)| {
                pairs.ucb(decisions.row(i), beta, scratch, row)
            });
        Ok(out)
    }

    fn kde_log_density(
        &self,
        data: &Points,
        bandwidths: &[f64],
        weights: Option<&[f64]>,
        queries: &Points,
    ) -> Result<Vec<f64>, EngineError> {
        checks::kde(data, bandwidths, weights, queries)?;
        let kde = Kde::new(data, bandwidths, weights);
        Ok(per_query_with(
            queries,
            || kde.scratch(),
            |scratch, q| kde.log_density(q, scratch),
        ))
    }

    fn kernel_regression(
        &self,
        data: &Points,
        targets: &[f64],
        kernel: SmoothingKernel,
        bandwidth: f64,
        queries: &Points,
    ) -> Result<KernelRegression, EngineError> {
        checks::kernel_regression(data, targets, bandwidth, queries)?;
        let regression = Regression::new(data, targets, kernel, bandwidth);
        let rows: Vec<(f64, f64)> = per_query_with(
            queries,
            || regression.scratch(),
            |scratch, q| regression.eval(q, scratch),
        );
        let (mean, log_weight_sum) = rows.into_iter().unzip();
        Ok(KernelRegression {
            mean,
            log_weight_sum,
        })
    }

    fn nearest(&self, data: &Points, queries: &Points) -> Result<Vec<usize>, EngineError> {
        checks::nearest(data, queries)?;
        Ok(per_query(queries, |q| {
            let mut best = (f64::INFINITY, 0);
            for (i, x) in data.iter().enumerate() {
                let d = sq_dist(q, x);
                if d < best.0 {
                    best = (d, i);
                }
            }
            best.1
        }))
    }

    fn sample_path_maxima(
        &self,
        paths: &SamplePaths<'_>,
        candidates: &Points,
        excluded: &[usize],
    ) -> Result<Vec<PathMaximum>, EngineError> {
        paths::sample_path_maxima(paths, candidates, excluded)
    }

    /// One value per (candidate, sample), each a pass over the sample's cells; fixed blocks of
    /// values, so the result does not depend on the thread count.
    fn log_hypervolume_improvement(
        &self,
        cells: &SampleCells,
        draws: &[f64],
        smoothing: ImprovementSmoothing,
    ) -> Result<Vec<f64>, EngineError> {
        checks::hypervolume_improvement(cells, draws, smoothing)?;
        let (m, samples) = (cells.m(), cells.samples());
        Ok(draws
            .par_chunks(m)
            .with_min_len(QUERY_BLOCK)
            .enumerate()
            .map(|(k, y)| log_improvement_over(cells.sample(k % samples), y, smoothing))
            .collect())
    }

    fn top_k(&self, values: &[f64], k: usize) -> Result<Vec<usize>, EngineError> {
        checks::values(values)?;
        let order = |a: &usize, b: &usize| values[*b].total_cmp(&values[*a]).then(a.cmp(b));
        let mut idx: Vec<usize> = (0..values.len()).collect();
        let k = k.min(values.len());
        if k == 0 {
            return Ok(Vec::new());
        }
        if k < idx.len() {
            idx.select_nth_unstable_by(k - 1, order);
            idx.truncate(k);
        }
        idx.sort_unstable_by(order);
        Ok(idx)
    }
}
