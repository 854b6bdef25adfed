//! Sample-path maxima on the CPU: each block of candidates evaluates every path and keeps its
//! best candidate per path, so memory stays at one block's values whatever the number of
//! candidates; the blocks' bests are then merged in candidate order, so that the result is the
//! same for any thread count.
//!
//! A block's phases are one GEMM (`X/ℓ · Ωᵀ`), their cosines one vectorised loop, and the
//! prior and update sums two more GEMMs against the weights.

use rayon::prelude::*;

use super::posterior::gemm_into;
use super::scaled::KernelRows;
use super::simd::vectorized;
use super::trig::{COS_LIMIT, cos};
use crate::{EngineError, PathMaximum, Points, SamplePaths, checks};

/// Candidates per parallel task.
const PATH_BLOCK: usize = 64;

/// Per-task buffers for one block of candidates.
struct Scratch {
    /// Scaled candidates, `B × d`.
    scaled: Vec<f64>,
    /// Phases, then their cosines, `B × F`.
    phases: Vec<f64>,
    /// Kernel values, `B × n`.
    kernel: Vec<f64>,
    /// Prior sums, then the paths' values, `B × S`.
    prior: Vec<f64>,
    /// Update sums, `B × S`.
    update: Vec<f64>,
}

/// The paths bound to their training points, ready to evaluate blocks of candidates.
struct Evaluator<'a> {
    paths: &'a SamplePaths<'a>,
    rows: KernelRows<'a>,
    inv_lengthscales: Vec<f64>,
    /// `Ωᵀ`, `d × F`.
    frequencies_t: Vec<f64>,
    amplitude: f64,
}

impl<'a> Evaluator<'a> {
    fn new(paths: &'a SamplePaths<'a>) -> Self {
        let (features, dim) = (paths.features(), paths.dim());
        let omega = paths.frequencies.as_slice();
        let frequencies_t = (0..dim * features)
            .map(|i| omega[(i % features) * dim + i / features])
            .collect();
        Self {
            paths,
            rows: KernelRows::new(paths.kernel, paths.train),
            inv_lengthscales: paths
                .kernel
                .lengthscales()
                .iter()
                .map(|l| 1.0 / l)
                .collect(),
            frequencies_t,
            amplitude: paths.amplitude(),
        }
    }

    fn scratch(&self) -> Scratch {
        let p = self.paths;
        let b = PATH_BLOCK;
        Scratch {
            scaled: vec![0.0; b * p.dim()],
            phases: vec![0.0; b * p.features()],
            kernel: vec![0.0; b * p.train.rows()],
            prior: vec![0.0; b * p.paths],
            update: vec![0.0; b * p.paths],
        }
    }

    /// Every path's value at each of the `B` candidates of `block` (`B × d`), left in
    /// `scratch.prior` (`B × S`): the mean, plus the amplitude times the features' weighted
    /// sum, plus the kernel column's weighted sum.
    fn eval(&self, block: &[f64], scratch: &mut Scratch) {
        let p = self.paths;
        let (dim, features, n, s) = (p.dim(), p.features(), p.train.rows(), p.paths);
        let rows = block.len() / dim;
        for (xs, x) in scratch
            .scaled
            .chunks_exact_mut(dim)
            .zip(block.chunks_exact(dim))
        {
            for ((xs, xd), il) in xs.iter_mut().zip(x).zip(&self.inv_lengthscales) {
                *xs = xd * il;
            }
        }
        let phases = &mut scratch.phases[..rows * features];
        gemm_into(
            [rows, features, dim],
            (phases, features),
            (&scratch.scaled, dim),
            (&self.frequencies_t, features),
        );
        cosines(phases, p.phases);
        let prior = &mut scratch.prior[..rows * s];
        gemm_into(
            [rows, s, features],
            (prior, s),
            (phases, features),
            (p.prior_weights, s),
        );
        if n > 0 {
            let kernel = &mut scratch.kernel[..rows * n];
            for (k, x) in kernel.chunks_exact_mut(n).zip(block.chunks_exact(dim)) {
                self.rows.fill(x, k);
            }
            gemm_into(
                [rows, s, n],
                (&mut scratch.update[..rows * s], s),
                (kernel, n),
                (p.update_weights, s),
            );
        } else {
            scratch.update.fill(0.0);
        }
        for (v, u) in prior.iter_mut().zip(&scratch.update) {
            *v = p.mean + self.amplitude * *v + u;
        }
    }
}

/// Replaces each phase `θ` of a block's rows (`phases`, `B × F`) by `cos(θ + b_f)`; libm's
/// where a phase is beyond [`COS_LIMIT`] (lengthscales tiny beside the candidates' spread).
fn cosines(phases: &mut [f64], offsets: &[f64]) {
    let features = offsets.len();
    let fast = vectorized(
        #[inline(always)]
        || {
            let mut largest: f64 = 0.0;
            for row in phases.chunks_exact_mut(features) {
                for (t, b) in row.iter_mut().zip(offsets) {
                    *t += b;
                    largest = largest.max(t.abs());
                }
            }
            if largest > COS_LIMIT {
                return false;
            }
            for t in phases.iter_mut() {
                *t = cos(*t);
            }
            true
        },
    );
    if !fast {
        phases.iter_mut().for_each(|t| *t = t.cos());
    }
}

/// Whether `candidate` beats `best`: a larger value, or an equal one at a lower row; a NaN value
/// never does.
fn beats(candidate: PathMaximum, best: Option<PathMaximum>) -> bool {
    match best {
        None => !candidate.value.is_nan(),
        Some(b) => {
            candidate.value > b.value || (candidate.value == b.value && candidate.index < b.index)
        }
    }
}

/// See [`crate::Engine::sample_path_maxima`].
pub(super) fn sample_path_maxima(
    paths: &SamplePaths<'_>,
    candidates: &Points,
    excluded: &[usize],
) -> Result<Vec<PathMaximum>, EngineError> {
    checks::sample_paths(paths, candidates, excluded)?;
    let mut excluded = excluded.to_vec();
    excluded.sort_unstable();
    let evaluator = Evaluator::new(paths);
    let dim = candidates.dim();
    let s = paths.paths;
    let blocks: Vec<Vec<Option<PathMaximum>>> = candidates
        .as_slice()
        .par_chunks(PATH_BLOCK * dim)
        .enumerate()
        .map_init(
            || evaluator.scratch(),
            |scratch, (b, block)| {
                evaluator.eval(block, scratch);
                let mut best = vec![None; s];
                for (r, values) in scratch
                    .prior
                    .chunks_exact(s)
                    .take(block.len() / dim)
                    .enumerate()
                {
                    let index = b * PATH_BLOCK + r;
                    if excluded.binary_search(&index).is_ok() {
                        continue;
                    }
                    for (best, &value) in best.iter_mut().zip(values) {
                        let here = PathMaximum { index, value };
                        if beats(here, *best) {
                            *best = Some(here);
                        }
                    }
                }
                best
            },
        )
        .collect();
    let mut best = vec![None; s];
    for block in blocks {
        for (best, here) in best.iter_mut().zip(block) {
            if let Some(here) = here
                && beats(here, *best)
            {
                *best = Some(here);
            }
        }
    }
    best.into_iter()
        .enumerate()
        .map(|(path, best)| {
            best.ok_or_else(|| {
                EngineError::invalid(format!("sample path {path} is NaN at every candidate"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep_model::{Kernel, KernelKind};

    /// A fixed pseudo-random sequence in `[-1, 1)`, so that the test needs no generator.
    fn values(len: usize, salt: u64) -> Vec<f64> {
        let mut state = salt.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 11) as f64 / (1u64 << 52) as f64 - 1.0
            })
            .collect()
    }

    fn points(rows: usize, dim: usize, salt: u64) -> Points {
        Points::new(values(rows * dim, salt), dim).unwrap()
    }

    /// Every path's value at `x`, term by term from the definition with the kernel's own
    /// `eval`.
    fn naive(p: &SamplePaths<'_>, x: &[f64]) -> Vec<f64> {
        let ls = p.kernel.lengthscales();
        let f = p.features() as f64;
        let amplitude = (2.0 * p.kernel.signal_variance() / f).sqrt();
        (0..p.paths)
            .map(|s| {
                let mut value = p.mean;
                for (i, omega) in p.frequencies.iter().enumerate() {
                    let theta: f64 = p.phases[i]
                        + omega
                            .iter()
                            .zip(x)
                            .zip(ls)
                            .map(|((o, x), l)| o * x / l)
                            .sum::<f64>();
                    value += amplitude * p.prior_weights[i * p.paths + s] * theta.cos();
                }
                for (j, xj) in p.train.iter().enumerate() {
                    value += p.kernel.eval(x, xj) * p.update_weights[j * p.paths + s];
                }
                value
            })
            .collect()
    }

    /// The reference against the definition on tiny inputs, for each kernel with a spectral
    /// density (and phases beyond the inlined cosine's range): the same arg-max per path (with and without exclusions) and its value to f64
    /// rounding (the terms are summed in another order and the kernel's exp is inlined).
    #[test]
    fn maxima_match_a_naive_evaluation() {
        // The last lengthscales put the phases beyond the inlined cosine's range, where libm's
        // takes over.
        let kernels = [
            (KernelKind::SquaredExponential, [0.7, 1.3, 0.4]),
            (KernelKind::Matern32, [0.7, 1.3, 0.4]),
            (KernelKind::Matern52, [0.7, 1.3, 0.4]),
            (KernelKind::Matern52, [1e-7, 2e-7, 0.4]),
        ];
        for (k, (kind, lengthscales)) in kernels.into_iter().enumerate() {
            let (dim, features, n, s, m) = (3, 7, 5, 3, 600);
            let salt = 10 * k as u64;
            let kernel = Kernel::new(kind, lengthscales.to_vec(), 1.7).unwrap();
            let frequencies = points(features, dim, salt + 1);
            let phases: Vec<f64> = values(features, salt + 2)
                .iter()
                .map(|v| 3.0 * v + 3.0)
                .collect();
            let prior_weights = values(features * s, salt + 3);
            let train = points(n, dim, salt + 4);
            let update_weights = values(n * s, salt + 5);
            let paths = SamplePaths {
                kernel: &kernel,
                frequencies: &frequencies,
                phases: &phases,
                prior_weights: &prior_weights,
                train: &train,
                update_weights: &update_weights,
                mean: 0.25,
                paths: s,
            };
            let candidates = points(m, dim, salt + 6);
            let all: Vec<Vec<f64>> = candidates.iter().map(|x| naive(&paths, x)).collect();
            let excluded_sets: [&[usize]; 2] = [&[], &[0, 17, 599, 17]];
            for excluded in excluded_sets {
                let got = sample_path_maxima(&paths, &candidates, excluded).unwrap();
                assert_eq!(got.len(), s);
                for (path, best) in got.iter().enumerate() {
                    let (want_index, want_value) = (0..m)
                        .filter(|i| !excluded.contains(i))
                        .map(|i| (i, all[i][path]))
                        .fold((usize::MAX, f64::NEG_INFINITY), |b, c| {
                            if c.1 > b.1 { c } else { b }
                        });
                    assert_eq!(best.index, want_index, "{kind:?} path {path} {excluded:?}");
                    let err = (best.value - want_value).abs() / (1.0 + want_value.abs());
                    // Phases near 1e7 carry 1e7·ε ≈ 2e-9 of rounding in each cosine's argument,
                    // which the GEMM and the naive sum round differently.
                    let tol = if lengthscales[0] < 1e-3 { 1e-8 } else { 1e-13 };
                    assert!(
                        err < tol,
                        "{kind:?} path {path}: {} vs {want_value}",
                        best.value
                    );
                }
            }
            // More than one block: the arg-max is the same with blocks merged in any order.
            assert!(m > PATH_BLOCK);
        }
    }

    #[test]
    fn ties_go_to_the_lowest_row_and_bad_input_is_refused() {
        let kernel = Kernel::new(KernelKind::SquaredExponential, vec![1.0], 1.0).unwrap();
        let frequencies = points(2, 1, 1);
        let train = points(0, 1, 2);
        let paths = SamplePaths {
            kernel: &kernel,
            frequencies: &frequencies,
            phases: &[0.0, 1.0],
            prior_weights: &[0.0, 0.0],
            train: &train,
            update_weights: &[],
            mean: 2.0,
            paths: 1,
        };
        // Zero weights: every candidate has the mean; the first one not excluded wins.
        let candidates = points(5, 1, 3);
        let got = sample_path_maxima(&paths, &candidates, &[0, 1]).unwrap();
        assert_eq!(
            got,
            [PathMaximum {
                index: 2,
                value: 2.0
            }]
        );

        let message = |r: Result<Vec<PathMaximum>, EngineError>| r.unwrap_err().to_string();
        let all: Vec<usize> = (0..5).collect();
        assert!(
            message(sample_path_maxima(&paths, &candidates, &all)).contains("no candidate left")
        );
        assert!(
            message(sample_path_maxima(&paths, &candidates, &[5]))
                .contains("excluded candidate 5 of 5")
        );
        let rq = Kernel::new(KernelKind::RationalQuadratic { alpha: 1.0 }, vec![1.0], 1.0).unwrap();
        let bad = SamplePaths {
            kernel: &rq,
            ..paths
        };
        assert!(message(sample_path_maxima(&bad, &candidates, &[])).contains("spectral density"));
        let bad = SamplePaths {
            prior_weights: &[0.0],
            ..paths
        };
        assert!(
            message(sample_path_maxima(&bad, &candidates, &[]))
                .contains("1 prior weights given, expected 2")
        );
        let bad = SamplePaths {
            phases: &[0.0, f64::NAN],
            ..paths
        };
        assert!(
            message(sample_path_maxima(&bad, &candidates, &[])).contains("phases value 1 is NaN")
        );
        let wide = points(5, 2, 4);
        assert!(
            message(sample_path_maxima(&paths, &wide, &[])).contains("candidates have 2 columns")
        );
    }
}
