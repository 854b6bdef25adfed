//! DRBO-MMD's inner problem (Kirschner, Bogunovic, Jegelka and Krause 2020): the worst case
//! of an expectation over distributions `w` on the context grid `C̃` within an MMD ball around the
//! reference distribution `ŵ`,
//!
//! ```text
//! V(g) = min_w wᵀg   s.t.   w ≥ 0,  Σ w = 1,  (w − ŵ)ᵀ K (w − ŵ) ≤ ε²,
//! ```
//!
//! a convex program per candidate, solved as a second-order-cone program by the Clarabel interior
//! point solver with `K = R Rᵀ` from an eigen-decomposition (the Matérn/SE Gram matrix of a dense
//! grid is numerically singular, so a Cholesky factor does not exist in floating point).
//!
//! Cheap valid bounds bracket `V` without a solve and make many solves unnecessary:
//! - `V ≥ min g` (every feasible `w` is a distribution);
//! - `V ≤ min(ŵᵀg, min_j [ŵᵀg + s_j (g_j − ŵᵀg)])` with `s_j = min(1, ε/‖e_j − ŵ‖_K)`: the point
//!   `ŵ + s_j (e_j − ŵ)` of the segment towards the one-hot `e_j` is feasible.
//!
//! When the one-hot at the arg-min of g is feasible both bounds coincide and `V = min g` exactly.

use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettingsBuilder, DefaultSolver, IPSolver, SolverStatus, SupportedConeT,
};
use nalgebra::{DMatrix, SymmetricEigen};

use bosweep_engine::EngineError;

/// Eigenvalues of `K` below this fraction of the largest are dropped from the factor `R`. The
/// relaxed ball lies between the ball of radius ε and that of radius `√(ε² + 2·cut·λ_max)`
/// (`‖w − ŵ‖₂² ≤ 2` for two distributions), so the value is bracketed by the exact values at
/// the two radii: a relative change of the radius of about `cut·λ_max/ε²` ≤ 1e-7 at the
/// smallest radius of Huang et al.'s runs (n = 349). The solver's cost grows with the square of the kept rank, which a
/// smooth kernel's fast-decaying spectrum keeps well below the grid size.
const EIGEN_CUT: f64 = 1e-9;
/// Clarabel's gap and feasibility tolerances: far below the differences an L-BFGS line search
/// compares, so that the refined acquisition is not noisy.
const SOLVER_TOLERANCE: f64 = 1e-10;

/// How a value was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solve {
    /// The bounds coincide: the one-hot at the arg-min (or `ŵ` for ε = 0) is optimal.
    Bounds,
    /// Clarabel reached its tolerances.
    Solver,
    /// Clarabel failed; the value is the best feasible point of the upper bound (never above `V`
    /// by more than the bound gap, and always attained by a feasible distribution).
    Fallback,
}

/// The worst case `V(g)` and a distribution attaining it.
#[derive(Clone, Debug, PartialEq)]
pub struct WorstCase {
    /// The worst-case expectation `V(g)`.
    pub value: f64,
    /// A worst-case distribution on the grid.
    pub weights: Vec<f64>,
    /// How the value was found.
    pub solve: Solve,
}

/// The inner program for one step: the grid kernel, the reference and the radius are fixed; only
/// the UCB values `g` change from candidate to candidate.
#[derive(Clone, Debug)]
pub struct MmdProgram {
    reference: Vec<f64>,
    radius: f64,
    /// `‖e_j − ŵ‖_K` for every grid point j.
    one_hot_distance: Vec<f64>,
    /// `−Rᵀ` (r × n, column-major CSC), the SOC rows of the constraint matrix.
    factor_rows: usize,
    constraints: CscMatrix<f64>,
    rhs: Vec<f64>,
}

impl MmdProgram {
    /// The program for the grid Gram matrix `kernel` (n × n, symmetric PSD), the reference
    /// distribution `reference` (n weights summing to 1) and the radius `radius` ≥ 0.
    pub fn new(
        kernel: &DMatrix<f64>,
        reference: Vec<f64>,
        radius: f64,
    ) -> Result<Self, EngineError> {
        let n = reference.len();
        if kernel.nrows() != n || kernel.ncols() != n || n == 0 {
            return Err(EngineError::invalid(format!(
                "drbo-mmd: kernel is {}×{} but the reference has {n} weights",
                kernel.nrows(),
                kernel.ncols()
            )));
        }
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(EngineError::invalid(format!(
                "drbo-mmd: MMD radius {radius} must be finite and ≥ 0"
            )));
        }
        let sum: f64 = reference.iter().sum();
        if reference.iter().any(|w| w.is_nan() || *w < 0.0) || (sum - 1.0).abs() > 1e-9 {
            return Err(EngineError::invalid(format!(
                "drbo-mmd: the reference weights must be a distribution (sum {sum})"
            )));
        }
        let k_ref = kernel * nalgebra::DVector::from_column_slice(&reference);
        let ref_norm: f64 = reference.iter().zip(k_ref.iter()).map(|(a, b)| a * b).sum();
        let one_hot_distance = (0..n)
            .map(|j| (kernel[(j, j)] - 2.0 * k_ref[j] + ref_norm).max(0.0).sqrt())
            .collect();

        let eigen = SymmetricEigen::new(kernel.clone());
        let top = eigen.eigenvalues.iter().fold(0.0f64, |m, v| m.max(*v));
        let kept: Vec<usize> = (0..n)
            .filter(|&k| eigen.eigenvalues[k] > EIGEN_CUT * top)
            .collect();
        // Rows: Σw = 1 (zero cone), −w ≤ 0 (non-negative cone), then the SOC
        // (ε, Rᵀ(w − ŵ)): s₀ = ε − 0·w, s_k = −Rᵀŵ − (−Rᵀ) w.
        let r = kept.len();
        let rows = 1 + n + 1 + r;
        let (mut ri, mut ci, mut vals) = (Vec::new(), Vec::new(), Vec::new());
        for j in 0..n {
            ri.push(0);
            ci.push(j);
            vals.push(1.0);
            ri.push(1 + j);
            ci.push(j);
            vals.push(-1.0);
            for (row, &k) in kept.iter().enumerate() {
                let entry = eigen.eigenvalues[k].sqrt() * eigen.eigenvectors[(j, k)];
                if entry != 0.0 {
                    ri.push(2 + n + row);
                    ci.push(j);
                    vals.push(-entry);
                }
            }
        }
        let constraints = CscMatrix::new_from_triplets(rows, n, ri, ci, vals);
        let mut rhs = vec![0.0; rows];
        rhs[0] = 1.0;
        rhs[1 + n] = radius;
        for (row, &k) in kept.iter().enumerate() {
            let projection: f64 = (0..n)
                .map(|j| eigen.eigenvectors[(j, k)] * reference[j])
                .sum();
            rhs[2 + n + row] = -eigen.eigenvalues[k].sqrt() * projection;
        }
        Ok(Self {
            reference,
            radius,
            one_hot_distance,
            factor_rows: r,
            constraints,
            rhs,
        })
    }

    /// Points of the context grid.
    pub fn grid_size(&self) -> usize {
        self.reference.len()
    }

    /// The MMD radius ε.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// A Clarabel solver for cost `g`, set up so that the cost can be updated in place.
    fn new_solver(&self, g: &[f64]) -> Result<DefaultSolver<f64>, EngineError> {
        let n = self.grid_size();
        let settings = DefaultSettingsBuilder::default()
            .verbose(false)
            .tol_gap_abs(SOLVER_TOLERANCE)
            .tol_gap_rel(SOLVER_TOLERANCE)
            .tol_feas(SOLVER_TOLERANCE)
            .max_iter(100)
            .presolve_enable(false)
            .input_sparse_dropzeros(false)
            .build()
            .map_err(|e| EngineError::invalid(format!("drbo-mmd: solver settings: {e:?}")))?;
        let cones = [
            SupportedConeT::ZeroConeT(1),
            SupportedConeT::NonnegativeConeT(n),
            SupportedConeT::SecondOrderConeT(1 + self.factor_rows),
        ];
        let quadratic = CscMatrix::zeros((n, n));
        DefaultSolver::new(
            &quadratic,
            g,
            &self.constraints,
            &self.rhs,
            &cones,
            settings,
        )
        .map_err(|e| EngineError::invalid(format!("drbo-mmd: solver setup: {e}")))
    }

    /// Valid bounds `(lower, upper)` on `V(g)` (module docs), with the feasible distribution
    /// attaining `upper`.
    pub fn bounds(&self, g: &[f64]) -> (f64, f64, Vec<f64>) {
        let expectation: f64 = self.reference.iter().zip(g).map(|(w, v)| w * v).sum();
        let lower = g.iter().copied().fold(f64::INFINITY, f64::min);
        let (mut upper, mut best_j, mut best_s) = (expectation, 0, 0.0);
        for (j, (&gj, &dist)) in g.iter().zip(&self.one_hot_distance).enumerate() {
            let s = if dist <= self.radius {
                1.0
            } else {
                self.radius / dist
            };
            let value = if s >= 1.0 {
                gj
            } else {
                expectation + s * (gj - expectation)
            };
            if value < upper {
                (upper, best_j, best_s) = (value, j, s);
            }
        }
        let mut weights: Vec<f64> = self.reference.iter().map(|w| (1.0 - best_s) * w).collect();
        weights[best_j] += best_s;
        // The attained value can only be below the true minimum by rounding.
        (lower.min(upper), upper, weights)
    }

    /// `V(g)`, exactly when the bounds meet, else by Clarabel.
    pub fn solve(&self, g: &[f64]) -> Result<WorstCase, EngineError> {
        self.solve_with(g, &mut None)
    }

    /// [`MmdProgram::solve`] reusing `cache`'s Clarabel solver (set up on its first use): only
    /// the cost vector changes between candidates, so the constraint data, its equilibration and
    /// the KKT system's symbolic factorisation are built once per cache.
    pub fn solve_with(
        &self,
        g: &[f64],
        cache: &mut Option<DefaultSolver<f64>>,
    ) -> Result<WorstCase, EngineError> {
        let n = self.grid_size();
        if g.len() != n || g.iter().any(|v| !v.is_finite()) {
            return Err(EngineError::invalid(format!(
                "drbo-mmd: {} UCB values (finite: {}) for a grid of {n}",
                g.len(),
                g.iter().all(|v| v.is_finite())
            )));
        }
        let (lower, upper, weights) = self.bounds(g);
        let scale = g.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        if upper - lower <= 1e-14 * scale || self.radius == 0.0 {
            return Ok(WorstCase {
                value: upper,
                weights,
                solve: Solve::Bounds,
            });
        }
        let solver = match cache {
            Some(solver) => {
                solver
                    .update_q(&g.to_vec())
                    .map_err(|e| EngineError::invalid(format!("drbo-mmd: solver update: {e}")))?;
                solver
            }
            None => cache.insert(self.new_solver(g)?),
        };
        solver.solve();
        let solution = &solver.solution;
        match solution.status {
            SolverStatus::Solved | SolverStatus::AlmostSolved => {
                // Clamp rounding-level negatives; the value is that of the returned point, kept
                // inside the valid bracket.
                let w: Vec<f64> = solution.x.iter().map(|v| v.max(0.0)).collect();
                let total: f64 = w.iter().sum();
                let w: Vec<f64> = w.iter().map(|v| v / total).collect();
                let value: f64 = w.iter().zip(g).map(|(a, b)| a * b).sum();
                Ok(WorstCase {
                    value: value.clamp(lower, upper),
                    weights: w,
                    solve: Solve::Solver,
                })
            }
            _ => Ok(WorstCase {
                value: upper,
                weights,
                solve: Solve::Fallback,
            }),
        }
    }
}

/// The `k` largest worst-case values among candidates whose UCB rows are `rows` (row-major,
/// `B × n`), solving as few programs as the bounds allow: a candidate whose upper bound is below
/// the k-th largest lower bound, or below the k-th best exact value found so far (candidates are
/// solved in decreasing order of their upper bound), cannot be among the k best. Returns
/// `(index, value)` pairs, best first (ties to the lower index), and the number of solves.
pub fn screened_top_k(
    program: &MmdProgram,
    rows: &[f64],
    k: usize,
) -> Result<(Vec<(usize, f64)>, usize), EngineError> {
    let n = program.grid_size();
    let count = rows.len() / n;
    let bounds: Vec<(f64, f64)> = rows
        .chunks(n)
        .map(|g| {
            let (lo, hi, _) = program.bounds(g);
            (lo, hi)
        })
        .collect();
    let k = k.min(count);
    if k == 0 {
        return Ok((Vec::new(), 0));
    }
    let mut lowers: Vec<f64> = bounds.iter().map(|b| b.0).collect();
    lowers.sort_by(|a, b| b.total_cmp(a));
    let lower_cut = lowers[k - 1];
    let mut order: Vec<usize> = (0..count).filter(|&i| bounds[i].1 >= lower_cut).collect();
    order.sort_by(|&a, &b| bounds[b].1.total_cmp(&bounds[a].1).then(a.cmp(&b)));
    let mut best: Vec<(usize, f64)> = Vec::with_capacity(k + 1);
    let mut solves = 0;
    let mut cache = None;
    for i in order {
        if best.len() == k && bounds[i].1 < best[k - 1].1 {
            break;
        }
        let worst = program.solve_with(&rows[i * n..(i + 1) * n], &mut cache)?;
        solves += usize::from(worst.solve != Solve::Bounds);
        best.push((i, worst.value));
        best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        best.truncate(k);
    }
    Ok((best, solves))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(radius: f64) -> MmdProgram {
        // Gaussian kernel on 5 grid points, reference concentrated on the middle.
        let xs: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
        let kernel = DMatrix::from_fn(5, 5, |a, b| (-(xs[a] - xs[b]).powi(2) / 0.08).exp());
        MmdProgram::new(&kernel, vec![0.1, 0.2, 0.4, 0.2, 0.1], radius).unwrap()
    }

    #[test]
    fn radius_zero_gives_the_reference_expectation() {
        let g = [3.0, 1.0, 2.0, 5.0, 4.0];
        let v = program(0.0).solve(&g).unwrap();
        assert!((v.value - (0.3 + 0.2 + 0.8 + 1.0 + 0.4)).abs() < 1e-14);
    }

    #[test]
    fn large_radius_gives_the_minimum() {
        let g = [3.0, 1.0, 2.0, 5.0, 4.0];
        let v = program(10.0).solve(&g).unwrap();
        assert_eq!(v.value, 1.0);
        assert_eq!(v.solve, Solve::Bounds);
    }

    #[test]
    fn solver_value_lies_within_the_bounds_and_is_feasible() {
        let g = [3.0, 1.0, 2.0, 5.0, 4.0];
        let p = program(0.2);
        let (lo, hi, _) = p.bounds(&g);
        let v = p.solve(&g).unwrap();
        assert_eq!(v.solve, Solve::Solver);
        assert!(lo <= v.value && v.value <= hi, "{lo} {} {hi}", v.value);
        assert!(
            v.value < hi - 1e-3,
            "the solver improves on the segment bound"
        );
        assert!((v.weights.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_reused_solver_gives_the_fresh_solver_values() {
        let p = program(0.2);
        let mut cache = None;
        for shift in 0..6 {
            let g: Vec<f64> = (0..5)
                .map(|j| ((j + shift) as f64 * 1.3).sin() + 0.1 * shift as f64)
                .collect();
            let fresh = p.solve(&g).unwrap().value;
            let reused = p.solve_with(&g, &mut cache).unwrap().value;
            assert!((fresh - reused).abs() < 1e-8, "{fresh} vs {reused}");
        }
    }

    #[test]
    fn bad_inputs_are_errors() {
        let k = DMatrix::identity(2, 2);
        assert!(MmdProgram::new(&k, vec![0.5, 0.5, 0.0], 0.1).is_err());
        assert!(MmdProgram::new(&k, vec![0.7, 0.7], 0.1).is_err());
        assert!(MmdProgram::new(&k, vec![0.5, 0.5], f64::NAN).is_err());
        assert!(program(0.1).solve(&[1.0, f64::NAN, 0.0, 0.0, 0.0]).is_err());
    }
}
