//! The weighted Lasso, solved exactly: the minimiser of `‖y − Xβ‖² / (2n) + Σ_j w_j |β_j|`.
//!
//! Coordinate descent (a full sweep, then sweeps over the nonzero coefficients until they
//! settle) runs until the duality gap is small; its support and signs, mended where they fail
//! the optimality conditions, then give the solution in closed form, `X_Sᵀ X_S β_S = X_Sᵀ y − n w_S ∘ sign(β_S)`, which is returned once it
//! satisfies every optimality condition (the signs on the support, `|X_jᵀ r| / n ≤ w_j` off it).
//! A gap alone bounds the objective, not the coefficients, and LassoBench's value is measured
//! on the coefficients: the closed form makes it the Lasso's, not a solver's tolerance's.

use nalgebra::{DMatrix, DVector};

/// Coordinate-descent sweeps at most, in all (a safety net: the problems here take hundreds).
const MAX_SWEEPS: usize = 100_000;

/// The duality gap, relative to `‖y‖² / n`, at which the support is first tried (measured on
/// LassoBench's hard benchmark: tried earlier it is wrong too often, later costs sweeps).
const FIRST_GAP: f64 = 1e-2;

/// The sweeps over the support stop when no coefficient moves by more than this times the
/// square root of the relative gap sought (a gap of ε leaves coefficients off by about √ε).
const SETTLED: f64 = 1e-2;

/// The smallest relative gap tried before the descent's own solution is returned.
const LAST_GAP: f64 = 1e-15;

/// The rounds [`closed_form`] mends a support in before the descent goes on.
const MENDING_ROUNDS: usize = 4;

/// The slack, relative to `w_j`, of the optimality condition off the support (rounding).
const KKT_SLACK: f64 = 1e-9;

/// A design matrix stored by columns, with each column's `‖X_j‖² / n`.
#[derive(Debug, Clone)]
pub(super) struct Design {
    rows: usize,
    columns: Vec<f64>,
    curvature: Vec<f64>,
}

impl Design {
    /// `columns` holds the matrix column after column, each `rows` long.
    pub(super) fn new(rows: usize, columns: Vec<f64>) -> Self {
        let curvature = columns
            .chunks_exact(rows)
            .map(|c| dot(c, c) / rows as f64)
            .collect();
        Self {
            rows,
            columns,
            curvature,
        }
    }

    pub(super) fn features(&self) -> usize {
        self.curvature.len()
    }

    /// The matrix, column after column.
    pub(super) fn values(&self) -> &[f64] {
        &self.columns
    }

    pub(super) fn column(&self, j: usize) -> &[f64] {
        &self.columns[j * self.rows..(j + 1) * self.rows]
    }

    /// `Xβ`.
    pub(super) fn times(&self, beta: &[f64]) -> Vec<f64> {
        combination(&self.columns, self.rows, beta)
    }
}

/// `Σ_j β_j X_j` of the `rows`-row matrix stored column after column in `columns`, the zero
/// coefficients skipped.
pub(super) fn combination(columns: &[f64], rows: usize, beta: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; rows];
    for (column, &b) in columns.chunks_exact(rows).zip(beta) {
        if b != 0.0 {
            axpy(b, column, &mut out);
        }
    }
    out
}

/// The weighted Lasso's minimiser for the design, targets `y` and penalties `weights` (> 0).
pub(super) fn weighted_lasso(design: &Design, y: &[f64], weights: &[f64]) -> Vec<f64> {
    let n = design.rows as f64;
    let scale = dot(y, y) / n;
    let mut beta = vec![0.0; design.features()];
    let mut residual = y.to_vec();
    let mut target = FIRST_GAP;
    let mut sweeps = 0;
    loop {
        let all: Vec<usize> = (0..design.features()).collect();
        sweep(design, weights, &all, &mut beta, &mut residual);
        sweeps += 1;
        let active: Vec<usize> = (0..beta.len()).filter(|&j| beta[j] != 0.0).collect();
        while sweeps < MAX_SWEEPS {
            sweeps += 1;
            let change = sweep(design, weights, &active, &mut beta, &mut residual);
            if change <= SETTLED * target.sqrt() {
                break;
            }
        }
        if duality_gap(design, y, weights, &beta, &residual) <= target * scale
            || sweeps >= MAX_SWEEPS
        {
            if let Some(exact) = closed_form(design, y, weights, &beta) {
                return exact;
            }
            if target <= LAST_GAP || sweeps >= MAX_SWEEPS {
                return beta;
            }
            target /= 10.0;
        }
    }
}

/// One pass of coordinate descent over `coordinates`, keeping `residual = y − Xβ`; returns the
/// largest change of a coefficient, scaled by its column's norm and relative to the largest
/// such coefficient (0 when all are 0).
fn sweep(
    design: &Design,
    weights: &[f64],
    coordinates: &[usize],
    beta: &mut [f64],
    residual: &mut [f64],
) -> f64 {
    let n = design.rows as f64;
    let (mut change, mut size) = (0.0_f64, 0.0_f64);
    for &j in coordinates {
        let curvature = design.curvature[j];
        if curvature == 0.0 {
            continue;
        }
        let column = design.column(j);
        let rho = dot(column, residual) / n + curvature * beta[j];
        let new = soft_threshold(rho, weights[j]) / curvature;
        let delta = new - beta[j];
        if delta != 0.0 {
            axpy(-delta, column, residual);
            beta[j] = new;
        }
        change = change.max(delta.abs() * curvature.sqrt());
        size = size.max(new.abs() * curvature.sqrt());
    }
    if size == 0.0 { 0.0 } else { change / size }
}

fn soft_threshold(value: f64, threshold: f64) -> f64 {
    value.signum() * (value.abs() - threshold).max(0.0)
}

/// The primal objective less the dual's at the residual scaled into the dual's feasible set.
fn duality_gap(design: &Design, y: &[f64], weights: &[f64], beta: &[f64], residual: &[f64]) -> f64 {
    let n = design.rows as f64;
    let penalty: f64 = beta.iter().zip(weights).map(|(b, w)| w * b.abs()).sum();
    let primal = dot(residual, residual) / (2.0 * n) + penalty;
    let shrink = (0..design.features())
        .map(|j| {
            let correlation = dot(design.column(j), residual).abs() / n;
            if correlation > 0.0 {
                weights[j] / correlation
            } else {
                f64::INFINITY
            }
        })
        .fold(1.0_f64, f64::min);
    // θ = shrink · r / n; dual = ‖y‖² / (2n) − (n / 2) ‖y / n − θ‖².
    let distance: f64 = y
        .iter()
        .zip(residual)
        .map(|(yi, ri)| (yi - shrink * ri) / n)
        .map(|d| d * d)
        .sum();
    let dual = dot(y, y) / (2.0 * n) - n / 2.0 * distance;
    primal - dual
}

/// The solution from the optimality conditions on `beta`'s support and signs, if it satisfies
/// all of them. Where it does not, a few rounds mend the guess (a coefficient whose sign
/// flipped leaves the support, a zero whose condition fails joins it with its gradient's sign):
/// a solution that satisfies every condition is the Lasso's, however it was found.
fn closed_form(design: &Design, y: &[f64], weights: &[f64], beta: &[f64]) -> Option<Vec<f64>> {
    let n = design.rows as f64;
    let mut signed: Vec<(usize, f64)> = (0..beta.len())
        .filter(|&j| beta[j] != 0.0)
        .map(|j| (j, beta[j].signum()))
        .collect();
    for _ in 0..MENDING_ROUNDS {
        let solution = solve_on(design, y, weights, &signed)?;
        let kept: Vec<(usize, f64)> = signed
            .iter()
            .zip(&solution)
            .filter(|((_, sign), value)| value.signum() == *sign && **value != 0.0)
            .map(|(entry, _)| *entry)
            .collect();
        if kept.len() < signed.len() {
            signed = kept;
            continue;
        }
        let mut exact = vec![0.0; beta.len()];
        for ((j, _), value) in signed.iter().zip(&solution) {
            exact[*j] = *value;
        }
        let fitted = design.times(&exact);
        let residual: Vec<f64> = y.iter().zip(&fitted).map(|(a, b)| a - b).collect();
        let violated: Vec<(usize, f64)> = (0..beta.len())
            .filter(|&j| exact[j] == 0.0)
            .filter_map(|j| {
                let gradient = dot(design.column(j), &residual) / n;
                (gradient.abs() > weights[j] * (1.0 + KKT_SLACK)).then_some((j, gradient.signum()))
            })
            .collect();
        if violated.is_empty() {
            return Some(exact);
        }
        signed.extend(violated);
    }
    None
}

/// The coefficients on the support `signed` (feature, sign) from the stationarity conditions
/// `X_Sᵀ X_S β_S = X_Sᵀ y − n w_S ∘ sign_S`; `None` where `X_S` is rank deficient.
fn solve_on(
    design: &Design,
    y: &[f64],
    weights: &[f64],
    signed: &[(usize, f64)],
) -> Option<Vec<f64>> {
    let n = design.rows as f64;
    let k = signed.len();
    if k == 0 {
        return Some(Vec::new());
    }
    let gram = DMatrix::from_fn(k, k, |a, b| {
        dot(design.column(signed[a].0), design.column(signed[b].0))
    });
    let rhs = DVector::from_fn(k, |a, _| {
        let (j, sign) = signed[a];
        dot(design.column(j), y) - n * weights[j] * sign
    });
    Some(gram.cholesky()?.solve(&rhs).as_slice().to_vec())
}

pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn axpy(alpha: f64, x: &[f64], y: &mut [f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += alpha * xi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Orthogonal columns: the solution is each coordinate's soft threshold, by hand.
    #[test]
    fn orthogonal_design_soft_thresholds_each_coordinate() {
        // Columns e1·2, e2·2, e3·2 in 4 rows: ‖X_j‖²/n = 1.
        let mut columns = vec![0.0; 12];
        for j in 0..3 {
            columns[j * 4 + j] = 2.0;
        }
        let design = Design::new(4, columns);
        let y = [3.0, -1.0, 0.2, 7.0];
        // X_jᵀy / n = (1.5, −0.5, 0.1); thresholds 0.5, 0.25, 0.5.
        let beta = weighted_lasso(&design, &y, &[0.5, 0.25, 0.5]);
        assert_eq!(beta, [1.0, -0.25, 0.0]);
    }

    /// Correlated columns: the returned solution satisfies the optimality conditions to
    /// rounding, and its objective is below that of nearby points.
    #[test]
    fn correlated_design_meets_the_optimality_conditions() {
        let rows = 8;
        let columns: Vec<f64> = (0..5 * rows)
            .map(|i| ((i * 37 % 23) as f64 - 11.0) / 7.0 + (i / rows) as f64 * 0.1)
            .collect();
        let design = Design::new(rows, columns);
        let y: Vec<f64> = (0..rows).map(|i| (i as f64 * 0.7).sin() * 3.0).collect();
        let weights = [0.05, 0.2, 0.01, 0.3, 0.1];
        let beta = weighted_lasso(&design, &y, &weights);
        let fitted = design.times(&beta);
        let residual: Vec<f64> = y.iter().zip(&fitted).map(|(a, b)| a - b).collect();
        let n = rows as f64;
        let mut nonzero = 0;
        for j in 0..5 {
            let gradient = dot(design.column(j), &residual) / n;
            if beta[j] == 0.0 {
                assert!(gradient.abs() <= weights[j] * (1.0 + 1e-9));
            } else {
                nonzero += 1;
                let stationarity = gradient - weights[j] * beta[j].signum();
                assert!(stationarity.abs() <= 1e-12, "{j}: {stationarity}");
            }
        }
        assert!(nonzero >= 2, "{beta:?}");
        let objective = |b: &[f64]| {
            let f = design.times(b);
            let r: f64 = y.iter().zip(&f).map(|(a, c)| (a - c) * (a - c)).sum();
            r / (2.0 * n)
                + b.iter()
                    .zip(&weights)
                    .map(|(b, w)| w * b.abs())
                    .sum::<f64>()
        };
        for j in 0..5 {
            for step in [-1e-4, 1e-4] {
                let mut moved = beta.clone();
                moved[j] += step;
                assert!(objective(&moved) > objective(&beta));
            }
        }
    }
}
