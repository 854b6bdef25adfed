//! KDE and kernel-regression sums against a fixed data set: one query at a time, vectorised.
//!
//! Both operations are a sum over every data point of a Gaussian (or compact) weight of the
//! query's scaled distance, so they share [`super::scaled::KernelRows`]'s layout and tricks
//! instead of a scalar loop with libm's `exp` per (query, point) pair: the data are stored
//! dimension-major (and, for the KDE, divided by the bandwidths), the distance pass keeps one
//! tile of squared distances in registers while it walks the dimensions, and the max and `exp`
//! passes are branch-free loops over fixed-width lanes with the inlined
//! [`exp`](super::scaled::exp), so that all of them auto-vectorise. Each public evaluation is
//! dispatched at run time to AVX-512 / AVX2+FMA copies of the same portable loop.
//!
//! The squared distances are bit-for-bit those of the scalar code (the same operations, summed
//! over the dimensions in the same order, and no FMA contraction); only the order in which the
//! per-point terms are summed changes (fixed lanes, so the result does not depend on the
//! instruction set or the thread count), plus `exp`'s 2 ulp: results agree with the scalar
//! formulas to about 1e-15 relative.

use super::nearest_average;
use super::scaled::exp;
use super::simd::vectorized;
use crate::Points;
use bosweep_model::SmoothingKernel;

/// Data points per tile: the distance pass accumulates one tile's squared distances over all
/// dimensions before storing them, and the later passes run this many independent lanes.
/// (16 measured best on AVX-512 and AVX2; with 8 LLVM leaves the `exp` pass scalar, 4× slower.)
const TILE: usize = 16;

/// Data points stored dimension-major, each column padded to a whole number of tiles with +∞.
///
/// A padding point is infinitely far from every finite query: its squared distance is +∞, so
/// its Gaussian term is −∞ (weight 0) and its compact-kernel weight is 0. (A query coordinate
/// that is itself +∞, possible for the KDE's scaled queries, makes a padding term NaN, but then
/// every real term is −∞ or NaN as well and the result is −∞ before any sum is taken.)
struct Columns {
    /// Column length: the number of points rounded up to a multiple of [`TILE`].
    stride: usize,
    /// `values[d * stride + j] = scale(d, X[j, d])`.
    values: Vec<f64>,
}

impl Columns {
    fn new(data: &Points, scale: impl Fn(usize, f64) -> f64) -> Self {
        let stride = data.rows().div_ceil(TILE).max(1) * TILE;
        let mut values = vec![f64::INFINITY; stride * data.dim()];
        for (j, row) in data.iter().enumerate() {
            for (d, x) in row.iter().enumerate() {
                values[d * stride + j] = scale(d, *x);
            }
        }
        Self { stride, values }
    }

    /// A padded per-point vector: `values` followed by `pad` up to the column length.
    fn padded(&self, values: impl Iterator<Item = f64>, pad: f64) -> Vec<f64> {
        let mut out: Vec<f64> = values.collect();
        out.resize(self.stride, pad);
        out
    }

    /// The tiles' first points: `0, TILE, 2 TILE, …` up to the column length.
    fn tile_starts(&self) -> std::iter::StepBy<std::ops::Range<usize>> {
        (0..self.stride).step_by(TILE)
    }

    /// `d2[k] = Σ_d (q_d − X[j0 + k, d])²` for the tile starting at `j0`, summed over the
    /// dimensions in order from 0 (exactly as a scalar `sq_dist`).
    #[inline(always)]
    fn tile(&self, q: &[f64], j0: usize) -> [f64; TILE] {
        let mut d2 = [0.0; TILE];
        for (qd, column) in q.iter().zip(self.values.chunks_exact(self.stride)) {
            let column: &[f64; TILE] = column[j0..j0 + TILE].try_into().unwrap();
            for (acc, x) in d2.iter_mut().zip(column) {
                let z = qd - x;
                *acc += z * z;
            }
        }
        d2
    }
}

/// `max(m, t)` ignoring a NaN `t` (as `f64::max` does, `m` never being NaN), written as the
/// select that compiles to one vector `max` instruction (`f64::max` does not vectorise here).
#[inline(always)]
fn max_lane(m: f64, t: f64) -> f64 {
    if t > m { t } else { m }
}

/// The largest of the lanes.
fn lanes_max(lanes: &[f64; TILE]) -> f64 {
    lanes.iter().copied().fold(f64::NEG_INFINITY, max_lane)
}

/// Per-thread buffers for one block of queries: allocated once, reused for every query.
pub(super) struct Scratch {
    /// The query divided by the bandwidths (KDE only).
    query: Vec<f64>,
    /// One term per (padded) data point.
    terms: Vec<f64>,
}

/// A Gaussian-product KDE bound to its data: `log p(q) = ln Σ_j w_j N(q; x_j, diag h²)`.
pub(super) struct Kde {
    bandwidths: Vec<f64>,
    /// `X[j, d] / h_d`, dimension-major.
    scaled: Columns,
    /// `ln w_j` (0 without weights; −∞ for the padding).
    log_weights: Vec<f64>,
    /// `ln Σ w_j + Σ_d ln h_d + (d/2) ln 2π`.
    log_norm: f64,
}

impl Kde {
    /// The KDE of `data` (at least one point) with positive finite `bandwidths` and optional
    /// non-negative weights with a positive sum (as checked by `checks::kde`).
    pub fn new(data: &Points, bandwidths: &[f64], weights: Option<&[f64]>) -> Self {
        let scaled = Columns::new(data, |d, x| x / bandwidths[d]);
        let log_weights = match weights {
            Some(w) => scaled.padded(w.iter().map(|w| w.ln()), f64::NEG_INFINITY),
            None => scaled.padded((0..data.rows()).map(|_| 0.0), f64::NEG_INFINITY),
        };
        let total = weights.map_or(data.rows() as f64, |w| w.iter().sum());
        let dim = data.dim() as f64;
        let log_norm = total.ln()
            + bandwidths.iter().map(|h| h.ln()).sum::<f64>()
            + 0.5 * dim * (2.0 * std::f64::consts::PI).ln();
        Self {
            bandwidths: bandwidths.to_vec(),
            scaled,
            log_weights,
            log_norm,
        }
    }

    pub fn scratch(&self) -> Scratch {
        Scratch {
            query: vec![0.0; self.bandwidths.len()],
            terms: vec![0.0; self.scaled.stride],
        }
    }

    /// `log p(q)`: `ln Σ_j exp(ln w_j − ½‖(q − x_j)/h‖²) − log_norm`, or −∞ where every term
    /// is −∞ (the query is infinitely far from every point of positive weight).
    pub fn log_density(&self, q: &[f64], scratch: &mut Scratch) -> f64 {
        vectorized(
            #[inline(always)]
            || self.log_density_portable(q, scratch),
        )
    }

    #[inline(always)]
    fn log_density_portable(&self, q: &[f64], scratch: &mut Scratch) -> f64 {
        let Scratch { query, terms } = scratch;
        for ((s, x), h) in query.iter_mut().zip(q).zip(&self.bandwidths) {
            *s = x / h;
        }
        // Pass 1: the terms ln w_j − ½ d²_j and their maximum.
        let mut top = [f64::NEG_INFINITY; TILE];
        // (Plain loops, not closures: a closure would be a function of its own, compiled
        // without the caller's target features and not always inlined. Each tile is computed
        // in registers and stored at once: interleaved stores to `terms` would have to be
        // ordered with the loads of `log_weights`, which might alias as far as LLVM knows.)
        for j0 in self.scaled.tile_starts() {
            let mut t = self.scaled.tile(query, j0);
            let lw: &[f64; TILE] = self.log_weights[j0..j0 + TILE].try_into().unwrap();
            for k in 0..TILE {
                t[k] = lw[k] - 0.5 * t[k];
                top[k] = max_lane(top[k], t[k]);
            }
            terms[j0..j0 + TILE].copy_from_slice(&t);
        }
        let top = lanes_max(&top);
        if top == f64::NEG_INFINITY {
            // Every term is −∞ (or NaN where an infinite scaled query coordinate meets an
            // infinite scaled data coordinate, which also makes every other term −∞).
            return top - self.log_norm;
        }
        // Pass 2: Σ_j exp(t_j − top), every argument ≤ 0 (NaN terms are impossible here).
        let mut sum = [0.0; TILE];
        for chunk in terms.chunks_exact(TILE) {
            for (s, t) in sum.iter_mut().zip(chunk) {
                *s += exp(t - top);
            }
        }
        top + sum.iter().sum::<f64>().ln() - self.log_norm
    }
}

/// Nadaraya–Watson kernel regression bound to its data and targets.
pub(super) struct Regression<'a> {
    data: &'a Points,
    targets: &'a [f64],
    kernel: SmoothingKernel,
    inv_h2: f64,
    /// The data points as given, dimension-major (distances are scaled by `inv_h2` afterwards,
    /// exactly as the scalar formula does).
    columns: Columns,
    /// The targets, padded with zeros.
    padded_targets: Vec<f64>,
}

impl<'a> Regression<'a> {
    /// Regression of `targets` (finite, one per point of the non-empty `data`) with a bandwidth
    /// whose square is a normal number (as checked by `checks::kernel_regression`).
    pub fn new(
        data: &'a Points,
        targets: &'a [f64],
        kernel: SmoothingKernel,
        bandwidth: f64,
    ) -> Self {
        let columns = Columns::new(data, |_, x| x);
        let padded_targets = columns.padded(targets.iter().copied(), 0.0);
        Self {
            data,
            targets,
            kernel,
            inv_h2: 1.0 / (bandwidth * bandwidth),
            columns,
            padded_targets,
        }
    }

    pub fn scratch(&self) -> Scratch {
        Scratch {
            query: Vec::new(),
            terms: vec![0.0; self.columns.stride],
        }
    }

    /// `(mean, ln W)` at `q`.
    ///
    /// Gaussian: weights `e_j = exp(s_j − max s)` with `s_j = −½‖q − x_j‖²/h²`, and
    /// `ln W = max s + ln Σ e_j`; where every distance overflows (`s_j = −∞` for all j) each
    /// point is equally near and gets weight 1. Compact kernels: `W = Σ Ψ(‖q − x_j‖²/h²)`, and
    /// where `W = 0` the nearest-neighbour average (ties within [`super::TIE_TOLERANCE`]) with
    /// `ln W = −∞`.
    pub fn eval(&self, q: &[f64], scratch: &mut Scratch) -> (f64, f64) {
        vectorized(
            #[inline(always)]
            || self.eval_portable(q, scratch),
        )
    }

    #[inline(always)]
    fn eval_portable(&self, q: &[f64], scratch: &mut Scratch) -> (f64, f64) {
        match self.kernel {
            SmoothingKernel::Gaussian => self.gaussian(q, &mut scratch.terms),
            SmoothingKernel::Epanechnikov => self.compact::<false>(q),
            SmoothingKernel::Uniform => self.compact::<true>(q),
        }
    }

    #[inline(always)]
    fn gaussian(&self, q: &[f64], terms: &mut [f64]) -> (f64, f64) {
        // Pass 1: s_j = −½ d²_j / h² (never NaN: finite coordinates, 0 < 1/h² < ∞) and the max.
        let mut top = [f64::NEG_INFINITY; TILE];
        let inv_h2 = self.inv_h2;
        for j0 in self.columns.tile_starts() {
            let mut s = self.columns.tile(q, j0);
            for k in 0..TILE {
                s[k] = -0.5 * s[k] * inv_h2;
                top[k] = max_lane(top[k], s[k]);
            }
            terms[j0..j0 + TILE].copy_from_slice(&s);
        }
        let top = lanes_max(&top);
        if top == f64::NEG_INFINITY {
            // Every distance overflows, so s = top = −∞ for all points: each is equally near,
            // so each gets weight 1 (the nearest-points average).
            let weighted = self.targets.iter().fold(0.0, |a, y| a + y);
            let sum = self.targets.len() as f64;
            return (weighted / sum, top + sum.ln());
        }
        // Pass 2: e_j = exp(s_j − top) ≤ 1 (exactly 1 at the max; 0 for the padding).
        let mut sum = [0.0; TILE];
        let mut weighted = [0.0; TILE];
        for (chunk, ys) in terms
            .chunks_exact(TILE)
            .zip(self.padded_targets.chunks_exact(TILE))
        {
            for k in 0..TILE {
                let e = exp(chunk[k] - top);
                sum[k] += e;
                weighted[k] += e * ys[k];
            }
        }
        let sum: f64 = sum.iter().sum();
        let weighted: f64 = weighted.iter().sum();
        (weighted / sum, top + sum.ln())
    }

    /// Epanechnikov, or Uniform where `UNIFORM`.
    #[inline(always)]
    fn compact<const UNIFORM: bool>(&self, q: &[f64]) -> (f64, f64) {
        let mut w_sum = [0.0; TILE];
        let mut wy_sum = [0.0; TILE];
        let inv_h2 = self.inv_h2;
        let kernel = if UNIFORM {
            SmoothingKernel::Uniform
        } else {
            SmoothingKernel::Epanechnikov
        };
        for j0 in self.columns.tile_starts() {
            let d2 = self.columns.tile(q, j0);
            let ys: &[f64; TILE] = self.padded_targets[j0..j0 + TILE].try_into().unwrap();
            for k in 0..TILE {
                let w = kernel.weight(d2[k] * inv_h2);
                w_sum[k] += w;
                wy_sum[k] += w * ys[k];
            }
        }
        let w: f64 = w_sum.iter().sum();
        if w > 0.0 {
            (wy_sum.iter().sum::<f64>() / w, w.ln())
        } else {
            (
                nearest_average(self.data, self.targets, q),
                f64::NEG_INFINITY,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Kde, Regression};
    use crate::{CpuEngine, Engine, Points};
    use bosweep_model::SmoothingKernel;

    /// SplitMix64: a fixed-seed source of uniform numbers for the tests.
    struct Rng(u64);

    impl Rng {
        fn uniform(&mut self) -> f64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as f64 / u64::MAX as f64
        }

        fn points(&mut self, n: usize, d: usize, lo: f64, hi: f64) -> Points {
            Points::new(
                (0..n * d)
                    .map(|_| lo + (hi - lo) * self.uniform())
                    .collect(),
                d,
            )
            .unwrap()
        }
    }

    /// The straightforward scalar KDE: libm `exp`, point by point.
    fn kde_reference(data: &Points, h: &[f64], weights: Option<&[f64]>, q: &[f64]) -> f64 {
        let terms: Vec<f64> = data
            .iter()
            .enumerate()
            .map(|(j, x)| {
                let lw = weights.map_or(0.0, |w| w[j].ln());
                let d2: f64 = (0..q.len())
                    .map(|d| (q[d] / h[d] - x[d] / h[d]).powi(2))
                    .sum();
                lw - 0.5 * d2
            })
            .collect();
        let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if top == f64::NEG_INFINITY {
            return top;
        }
        let total = weights.map_or(data.rows() as f64, |w| w.iter().sum());
        let log_norm = total.ln()
            + h.iter().map(|h| h.ln()).sum::<f64>()
            + 0.5 * q.len() as f64 * (2.0 * std::f64::consts::PI).ln();
        top + terms.iter().map(|t| (t - top).exp()).sum::<f64>().ln() - log_norm
    }

    /// The straightforward scalar Nadaraya–Watson `(mean, ln W)`.
    fn regression_reference(
        data: &Points,
        y: &[f64],
        kernel: SmoothingKernel,
        h: f64,
        q: &[f64],
    ) -> (f64, f64) {
        let d2: Vec<f64> = data
            .iter()
            .map(|x| x.iter().zip(q).map(|(a, b)| (a - b) * (a - b)).sum())
            .collect();
        let nearest = || {
            let best = d2.iter().copied().fold(f64::INFINITY, f64::min);
            let ties: Vec<f64> = (0..y.len())
                .filter(|&j| d2[j] <= best * (1.0 + 1e-9))
                .map(|j| y[j])
                .collect();
            ties.iter().sum::<f64>() / ties.len() as f64
        };
        // Scaled by 1/h² as the engine has always done: Epanechnikov's 1 − z² amplifies the
        // last-bit difference from dividing by h² where z² is close to 1.
        let inv_h2 = 1.0 / (h * h);
        if kernel == SmoothingKernel::Gaussian {
            let s: Vec<f64> = d2.iter().map(|d| -0.5 * d * inv_h2).collect();
            let top = s.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if top == f64::NEG_INFINITY {
                return (y.iter().sum::<f64>() / y.len() as f64, top);
            }
            let e: Vec<f64> = s.iter().map(|s| (s - top).exp()).collect();
            let w: f64 = e.iter().sum();
            let wy: f64 = e.iter().zip(y).map(|(e, y)| e * y).sum();
            (wy / w, top + w.ln())
        } else {
            let k: Vec<f64> = d2.iter().map(|d| kernel.weight(d * inv_h2)).collect();
            let w: f64 = k.iter().sum();
            if w > 0.0 {
                (k.iter().zip(y).map(|(k, y)| k * y).sum::<f64>() / w, w.ln())
            } else {
                (nearest(), f64::NEG_INFINITY)
            }
        }
    }

    /// Equal to 1e-13 relative (absolute below 1), or the same infinity.
    fn assert_close(got: f64, want: f64, what: &str) {
        if want.is_infinite() {
            assert_eq!(got, want, "{what}");
        } else {
            let tol = 1e-13 * want.abs().max(1.0);
            assert!((got - want).abs() <= tol, "{what}: {got} vs {want}");
        }
    }

    const KERNELS: [SmoothingKernel; 3] = [
        SmoothingKernel::Gaussian,
        SmoothingKernel::Epanechnikov,
        SmoothingKernel::Uniform,
    ];

    #[test]
    fn kde_matches_the_scalar_reference() {
        let cpu = CpuEngine::new();
        let mut rng = Rng(7);
        for d in [1, 3, 8] {
            for n in [1, 2, 15, 16, 17, 100, 301] {
                let data = rng.points(n, d, -1.0, 2.0);
                let queries = rng.points(70, d, -1.5, 2.5);
                let h: Vec<f64> = (0..d).map(|_| 0.05 + 0.5 * rng.uniform()).collect();
                // Some weights are exactly zero (ln w = −∞), one always positive.
                let w: Vec<f64> = (0..n)
                    .map(|j| {
                        if j % 4 == 3 {
                            0.0
                        } else {
                            3.0 * rng.uniform() + 0.01
                        }
                    })
                    .collect();
                for weights in [None, Some(w.as_slice())] {
                    let got = cpu.kde_log_density(&data, &h, weights, &queries).unwrap();
                    assert_eq!(got.len(), queries.rows());
                    for (q, g) in queries.iter().zip(&got) {
                        let want = kde_reference(&data, &h, weights, q);
                        assert!(want.is_finite() && want < 10.0, "{want}");
                        assert_close(*g, want, &format!("d={d} n={n} w={}", weights.is_some()));
                    }
                }
            }
        }
    }

    #[test]
    fn kde_hand_values() {
        let cpu = CpuEngine::new();
        let half_ln_2pi = 0.5 * (2.0 * std::f64::consts::PI).ln();
        // One point at 0, h = 1, query at 1: ln N(1; 0, 1) = −½ − ½ ln 2π.
        let one = Points::new(vec![0.0], 1).unwrap();
        let q = Points::new(vec![1.0, 0.0], 1).unwrap();
        let got = cpu.kde_log_density(&one, &[1.0], None, &q).unwrap();
        assert_close(got[0], -0.5 - half_ln_2pi, "N(1)");
        assert_close(got[1], -half_ln_2pi, "N(0)");
        // Weights 1 and 3 at 0 and 2 (h = 1), query at 0: (e^0 + 3 e^{−2}) / 4 / √(2π).
        let two = Points::new(vec![0.0, 2.0], 1).unwrap();
        let got = cpu
            .kde_log_density(&two, &[1.0], Some(&[1.0, 3.0]), &q)
            .unwrap();
        let want = ((1.0 + 3.0 * (-2.0f64).exp()) / 4.0).ln() - half_ln_2pi;
        assert_close(got[1], want, "weighted");
    }

    /// A query so far away that every term e^{−½d²} underflows without the max shift: the
    /// log-density stays finite and exact.
    #[test]
    fn kde_far_query_underflowing_every_term() {
        let cpu = CpuEngine::new();
        let mut rng = Rng(11);
        for d in [1, 3, 8] {
            let data = rng.points(37, d, 0.0, 1.0);
            let h = vec![0.01; d];
            let far = Points::new(vec![1e3; d], d).unwrap();
            let w: Vec<f64> = (0..37).map(|_| rng.uniform() + 0.1).collect();
            for weights in [None, Some(w.as_slice())] {
                let got = cpu.kde_log_density(&data, &h, weights, &far).unwrap()[0];
                let want = kde_reference(&data, &h, weights, far.row(0));
                assert!(want.is_finite() && want < -1e9, "{want}");
                assert_close(got, want, "far query");
            }
            // One point: exactly −½‖(q − x)/h‖² − ln h^d − (d/2) ln 2π.
            let single = Points::new(data.row(0).to_vec(), d).unwrap();
            let got = cpu.kde_log_density(&single, &h, None, &far).unwrap()[0];
            let d2: f64 = data
                .row(0)
                .iter()
                .map(|x| (1e3 / 0.01 - x / 0.01).powi(2))
                .sum();
            let want = -0.5 * d2
                - d as f64 * 0.01f64.ln()
                - 0.5 * d as f64 * (2.0 * std::f64::consts::PI).ln();
            assert_close(got, want, "single point");
        }
    }

    /// Distances that overflow to +∞ give −∞, never NaN: both ‖q − x‖² overflowing and the
    /// scaled coordinates `q/h`, `x/h` themselves overflowing (∞ − ∞ inside the distance).
    #[test]
    fn kde_overflowing_distances_give_minus_infinity() {
        let cpu = CpuEngine::new();
        let data = Points::new(vec![1e200, -1e200, 1e200, 1e200], 2).unwrap();
        let q = Points::new(vec![-1e200, 1e200, 0.0, 0.0], 2).unwrap();
        let got = cpu.kde_log_density(&data, &[1.0, 1.0], None, &q).unwrap();
        assert_eq!(got, vec![f64::NEG_INFINITY; 2]);
        // The only point with weight is infinitely far; the near one has weight 0.
        let data = Points::new(vec![0.0, 1e200], 1).unwrap();
        let q = Points::new(vec![-1e200], 1).unwrap();
        let got = cpu
            .kde_log_density(&data, &[1.0], Some(&[0.0, 1.0]), &q)
            .unwrap();
        assert_eq!(got, vec![f64::NEG_INFINITY]);
        let data = Points::new(vec![1e10, 0.0, 5.0], 1).unwrap();
        let q = Points::new(vec![1e10, 2.0], 1).unwrap();
        let got = cpu.kde_log_density(&data, &[1e-300], None, &q).unwrap();
        assert_eq!(got[0], f64::NEG_INFINITY);
        assert_eq!(got[1], f64::NEG_INFINITY);
    }

    #[test]
    fn regression_matches_the_scalar_reference() {
        let cpu = CpuEngine::new();
        let mut rng = Rng(13);
        for kernel in KERNELS {
            for d in [1, 3, 8] {
                for n in [1, 2, 15, 16, 17, 100, 301] {
                    let data = rng.points(n, d, 0.0, 1.0);
                    let queries = rng.points(70, d, -0.2, 1.2);
                    let y: Vec<f64> = (0..n).map(|_| 10.0 * rng.uniform() - 5.0).collect();
                    // Wide enough that the compact kernels usually see some points, narrow
                    // enough that they often see none and fall back to the nearest average.
                    for h in [0.02, 0.3, 2.0] {
                        let got = cpu
                            .kernel_regression(&data, &y, kernel, h, &queries)
                            .unwrap();
                        for (i, q) in queries.iter().enumerate() {
                            let (mean, log_w) = regression_reference(&data, &y, kernel, h, q);
                            let what = format!("{kernel:?} d={d} n={n} h={h} query {i}");
                            assert!(mean.abs() <= 5.0, "{what}: {mean}");
                            assert_close(got.mean[i], mean, &what);
                            assert_close(got.log_weight_sum[i], log_w, &what);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn regression_hand_values_and_edge_cases() {
        let cpu = CpuEngine::new();
        let data = Points::new(vec![0.0, 1.0, 3.0], 1).unwrap();
        let y = [1.0, 2.0, 4.0];
        // Uniform at z² = 1 exactly counts; Epanechnikov there weighs 0.
        let q = Points::new(vec![0.5], 1).unwrap();
        let uni = cpu
            .kernel_regression(&data, &y, SmoothingKernel::Uniform, 0.5, &q)
            .unwrap();
        assert_eq!((uni.mean[0], uni.log_weight_sum[0]), (1.5, 2f64.ln()));
        let epa = cpu
            .kernel_regression(&data, &y, SmoothingKernel::Epanechnikov, 0.5, &q)
            .unwrap();
        assert_eq!(epa.mean[0], 1.5);
        assert_eq!(epa.log_weight_sum[0], f64::NEG_INFINITY);
        // Epanechnikov with h = 1 at 0.5: weights 0.75, 0.75 → mean 1.5, W = 1.5.
        let epa = cpu
            .kernel_regression(&data, &y, SmoothingKernel::Epanechnikov, 1.0, &q)
            .unwrap();
        assert_eq!(epa.mean[0], 1.5);
        assert_close(epa.log_weight_sum[0], 1.5f64.ln(), "Epanechnikov W");
        // Empty neighbourhood: nearest average (2.9 → 4; 2.0 ties 1.0 and 3.0 → 3).
        let q = Points::new(vec![2.9, 2.0], 1).unwrap();
        for kernel in [SmoothingKernel::Epanechnikov, SmoothingKernel::Uniform] {
            let kr = cpu.kernel_regression(&data, &y, kernel, 0.05, &q).unwrap();
            assert_eq!(kr.mean, vec![4.0, 3.0]);
            assert_eq!(kr.log_weight_sum, vec![f64::NEG_INFINITY; 2]);
        }
        // Gaussian, one point: mean y, ln W = −½ d²/h².
        let one = Points::new(vec![1.0], 1).unwrap();
        let kr = cpu
            .kernel_regression(&one, &[7.0], SmoothingKernel::Gaussian, 0.5, &q)
            .unwrap();
        assert_eq!(kr.mean, vec![7.0, 7.0]);
        assert_close(kr.log_weight_sum[0], -0.5 * 1.9 * 1.9 / 0.25, "one point");
        // Gaussian far query: every weight underflows unshifted; the nearest points dominate.
        let far = Points::new(vec![1e4], 1).unwrap();
        let kr = cpu
            .kernel_regression(&data, &y, SmoothingKernel::Gaussian, 1e-3, &far)
            .unwrap();
        assert_eq!(kr.mean[0], 4.0);
        assert_close(kr.log_weight_sum[0], -0.5 * 9997.0f64.powi(2) / 1e-6, "far");
        // Every distance overflows: each point weighs 1.
        let huge = Points::new(vec![1e200, 1e200, -1e200, 1e200], 2).unwrap();
        let q = Points::new(vec![-1e200, -1e200], 2).unwrap();
        let kr = cpu
            .kernel_regression(&huge, &[1.0, 4.0], SmoothingKernel::Gaussian, 1.0, &q)
            .unwrap();
        assert_eq!(kr.mean, vec![2.5]);
        assert_eq!(kr.log_weight_sum, vec![f64::NEG_INFINITY]);
        let kr = cpu
            .kernel_regression(&huge, &[1.0, 4.0], SmoothingKernel::Uniform, 1.0, &q)
            .unwrap();
        assert_eq!(kr.mean, vec![2.5]);
        assert_eq!(kr.log_weight_sum, vec![f64::NEG_INFINITY]);
    }

    /// The dispatched SIMD copy and the portable loop give the same bits (same operations in
    /// the same order), and so do 1 and 3 threads.
    #[test]
    fn results_do_not_depend_on_instruction_set_or_threads() {
        let mut rng = Rng(17);
        let (n, d) = (203, 5);
        let data = rng.points(n, d, 0.0, 1.0);
        let queries = rng.points(300, d, 0.0, 1.0);
        let h: Vec<f64> = (0..d).map(|_| 0.1 + 0.2 * rng.uniform()).collect();
        let w: Vec<f64> = (0..n).map(|_| rng.uniform()).collect();
        let y: Vec<f64> = (0..n).map(|_| rng.uniform()).collect();
        let kde = Kde::new(&data, &h, Some(&w));
        let mut scratch = kde.scratch();
        for q in queries.iter() {
            let a = kde.log_density(q, &mut scratch);
            let b = kde.log_density_portable(q, &mut scratch);
            assert_eq!(a.to_bits(), b.to_bits());
        }
        for kernel in KERNELS {
            let regression = Regression::new(&data, &y, kernel, 0.15);
            let mut scratch = regression.scratch();
            for q in queries.iter() {
                let (m1, w1) = regression.eval(q, &mut scratch);
                let (m2, w2) = regression.eval_portable(q, &mut scratch);
                assert_eq!((m1.to_bits(), w1.to_bits()), (m2.to_bits(), w2.to_bits()));
            }
        }
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let cpu = CpuEngine::new();
                let kde = cpu.kde_log_density(&data, &h, None, &queries).unwrap();
                let kr = cpu
                    .kernel_regression(&data, &y, SmoothingKernel::Gaussian, 0.15, &queries)
                    .unwrap();
                (kde, kr)
            })
        };
        assert_eq!(run(1), run(3));
    }
}
