//! Bound-constrained minimisation by projected L-BFGS (L-BFGS-B style).
//!
//! Each iteration:
//! 1. stops when the projected gradient `P(x − g) − x` has ∞-norm ≤ `gtol`;
//! 2. fixes the *active* variables, those on a bound with the gradient pushing outwards, and
//!    computes the quasi-Newton direction on the *free* ones by the L-BFGS two-loop recursion over
//!    the stored pairs restricted to the free coordinates (pairs with `sᵀy ≤ 0` there are
//!    skipped; steepest descent when no pair is usable or the result is not a descent direction);
//! 3. backtracks (halving) along the projected path `x(α) = P(x + αd)` until the Armijo condition
//!    `f(x(α)) ≤ f(x) + c₁ gᵀ(x(α) − x)` holds with `gᵀ(x(α) − x) < 0`;
//! 4. stores `(s, y)` when `sᵀy > 0` and stops when the relative decrease of `f` is ≤ `ftol`.
//!
//! This is the projected-quasi-Newton variant (Bertsekas 1982; Kim, Sra & Dhillon 2010) rather
//! than Byrd et al.'s generalised Cauchy point + subspace minimisation: simpler, and equally
//! suited to the few-dimensional, smooth acquisition landscapes it refines.

use std::collections::VecDeque;

/// Options of [`minimize`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LbfgsbOptions {
    /// Stored correction pairs `m`.
    pub memory: usize,
    /// Maximum iterations (line searches).
    pub max_iters: usize,
    /// Stop when `‖P(x − g) − x‖_∞ ≤ gtol`.
    pub gtol: f64,
    /// Stop when `f_k − f_{k+1} ≤ ftol · max(|f_k|, |f_{k+1}|, 1)`; 0 disables the test (steps
    /// that leave `f` unchanged in f64 but follow the gradient are then still taken).
    pub ftol: f64,
    /// Halvings of the step before the line search gives up.
    pub max_backtracks: usize,
}

impl Default for LbfgsbOptions {
    fn default() -> Self {
        Self {
            memory: 10,
            max_iters: 200,
            gtol: 1e-8,
            ftol: 1e-12,
            max_backtracks: 40,
        }
    }
}

/// Why [`minimize`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The projected gradient met [`LbfgsbOptions::gtol`].
    ProjectedGradient,
    /// One iteration's decrease met [`LbfgsbOptions::ftol`].
    FunctionChange,
    /// The iteration limit was reached.
    MaxIterations,
    /// No decrease found along the projected path, even by steepest descent.
    LineSearch,
    /// The objective returned a non-finite value at the start point.
    NonFinite,
}

/// The result of [`minimize`]: the best point found and its value and gradient.
#[derive(Clone, Debug, PartialEq)]
pub struct LbfgsbResult {
    /// The best point found, inside the box.
    pub x: Vec<f64>,
    /// The objective at `x`.
    pub f: f64,
    /// The objective's gradient at `x`.
    pub gradient: Vec<f64>,
    /// Iterations run.
    pub iterations: usize,
    /// Calls of the objective.
    pub evaluations: usize,
    /// Why it stopped.
    pub termination: Termination,
}

const ARMIJO_C1: f64 = 1e-4;

fn dot(a: &[f64], b: &[f64], mask: &[bool]) -> f64 {
    a.iter()
        .zip(b)
        .zip(mask)
        .filter(|(_, m)| **m)
        .map(|((x, y), _)| x * y)
        .sum()
}

/// The L-BFGS direction `−H g` on the free coordinates (0 on the others).
fn two_loop(g: &[f64], free: &[bool], pairs: &VecDeque<(Vec<f64>, Vec<f64>)>) -> Vec<f64> {
    let mut q: Vec<f64> = g
        .iter()
        .zip(free)
        .map(|(g, f)| if *f { *g } else { 0.0 })
        .collect();
    let mut used = Vec::with_capacity(pairs.len()); // (index, ρ, a), newest first
    for (j, (s, y)) in pairs.iter().enumerate().rev() {
        let sy = dot(s, y, free);
        if sy > 0.0 {
            let a = dot(s, &q, free) / sy;
            for i in (0..q.len()).filter(|&i| free[i]) {
                q[i] -= a * y[i];
            }
            used.push((j, 1.0 / sy, a));
        }
    }
    let gamma = used.first().map_or(1.0, |&(j, rho, _)| {
        let y = &pairs[j].1;
        1.0 / (rho * dot(y, y, free))
    });
    q.iter_mut().for_each(|v| *v *= gamma);
    for &(j, rho, a) in used.iter().rev() {
        let (s, y) = &pairs[j];
        let b = rho * dot(y, &q, free);
        for i in (0..q.len()).filter(|&i| free[i]) {
            q[i] += s[i] * (a - b);
        }
    }
    q.iter_mut().for_each(|v| *v = -*v);
    q
}

/// Minimises `f` over the box `[lo, hi]` from `x0` (projected into the box first).
/// `fg(x)` returns `f(x)` and its gradient; its errors are passed through.
///
/// # Panics
/// When `x0`, `lo`, `hi` differ in length or some `lo_i > hi_i`.
pub fn minimize<E>(
    mut fg: impl FnMut(&[f64]) -> Result<(f64, Vec<f64>), E>,
    x0: &[f64],
    lo: &[f64],
    hi: &[f64],
    options: &LbfgsbOptions,
) -> Result<LbfgsbResult, E> {
    let n = x0.len();
    assert!(
        lo.len() == n && hi.len() == n,
        "minimize: x0, lo, hi lengths differ"
    );
    assert!(lo.iter().zip(hi).all(|(l, h)| l <= h), "minimize: lo > hi");
    let project = |i: usize, v: f64| v.clamp(lo[i], hi[i]);
    let mut x: Vec<f64> = (0..n).map(|i| project(i, x0[i])).collect();
    let (mut f, mut g) = fg(&x)?;
    let result = |x, f, g, iterations, evaluations, termination| LbfgsbResult {
        x,
        f,
        gradient: g,
        iterations,
        evaluations,
        termination,
    };
    if !f.is_finite() {
        return Ok(result(x, f, g, 0, 1, Termination::NonFinite));
    }
    let mut evaluations = 1;
    let mut pairs: VecDeque<(Vec<f64>, Vec<f64>)> = VecDeque::with_capacity(options.memory);
    let mut termination = Termination::MaxIterations;
    let mut iter = 0;
    while iter < options.max_iters {
        let pg = (0..n)
            .map(|i| (project(i, x[i] - g[i]) - x[i]).abs())
            .fold(0.0, f64::max);
        if pg <= options.gtol {
            termination = Termination::ProjectedGradient;
            break;
        }
        let free: Vec<bool> = (0..n)
            .map(|i| {
                lo[i] < hi[i] && !((x[i] <= lo[i] && g[i] > 0.0) || (x[i] >= hi[i] && g[i] < 0.0))
            })
            .collect();
        let mut d = two_loop(&g, &free, &pairs);
        let descent = dot(&g, &d, &free) < 0.0; // false for NaN too
        if !descent || pairs.is_empty() {
            // Steepest descent, scaled so that the first trial moves at most one unit.
            pairs.clear();
            let gmax = (0..n)
                .filter(|&i| free[i])
                .map(|i| g[i].abs())
                .fold(0.0, f64::max);
            let scale = if gmax > 1.0 { 1.0 / gmax } else { 1.0 };
            d = (0..n)
                .map(|i| if free[i] { -g[i] * scale } else { 0.0 })
                .collect();
        }
        // Backtracking along the projected path.
        let mut alpha = 1.0;
        let mut accepted = None;
        for _ in 0..=options.max_backtracks {
            let xt: Vec<f64> = (0..n).map(|i| project(i, x[i] + alpha * d[i])).collect();
            let decrease: f64 = (0..n).map(|i| g[i] * (xt[i] - x[i])).sum();
            if xt == x {
                break;
            }
            if decrease < 0.0 {
                let (ft, gt) = fg(&xt)?;
                evaluations += 1;
                if ft.is_finite() && ft <= f + ARMIJO_C1 * decrease {
                    accepted = Some((xt, ft, gt));
                    break;
                }
            }
            alpha *= 0.5;
        }
        let Some((xt, ft, gt)) = accepted else {
            if pairs.is_empty() {
                termination = Termination::LineSearch;
                break;
            }
            pairs.clear(); // retry this iteration by steepest descent
            continue;
        };
        iter += 1;
        let s: Vec<f64> = (0..n).map(|i| xt[i] - x[i]).collect();
        let y: Vec<f64> = (0..n).map(|i| gt[i] - g[i]).collect();
        if s.iter().zip(&y).map(|(a, b)| a * b).sum::<f64>() > 0.0 && options.memory > 0 {
            if pairs.len() == options.memory {
                pairs.pop_front();
            }
            pairs.push_back((s, y));
        }
        let f_old = f;
        (x, f, g) = (xt, ft, gt);
        if options.ftol > 0.0 && f_old - f <= options.ftol * f_old.abs().max(f.abs()).max(1.0) {
            termination = Termination::FunctionChange;
            break;
        }
    }
    Ok(result(x, f, g, iter, evaluations, termination))
}
