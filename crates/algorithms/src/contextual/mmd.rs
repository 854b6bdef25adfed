//! DRBO-MMD-MinimaxApprox (Tay, Foo, Urano, Leong and Low 2022): the worst case of the
//! UCB expectation over an MMD ball around the empirical context distribution on a grid, replaced
//! by a closed-form minimax approximation.

use nalgebra::{DMatrix, DVector};

use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::{GpState, Kernel};

/// The grid `C̃`: the Cartesian product of `⌈size^{1/Dc}⌉` equally spaced points per coordinate
/// of the unit cube (the paper's construction; the reference code's `stack` puts the points on
/// the diagonal instead).
pub fn context_grid(size: usize, dim: usize) -> Result<Points, EngineError> {
    let per_axis = (size as f64).powf(1.0 / dim as f64).ceil() as usize;
    // Guard the rounding of the root (e.g. 1000^{1/3} = 9.999…): the smallest k with k^d ≥ size.
    let per_axis = (1..=per_axis.max(1))
        .find(|k| k.pow(dim as u32) >= size)
        .unwrap_or(per_axis.max(1));
    let axis: Vec<f64> = if per_axis == 1 {
        vec![0.5]
    } else {
        (0..per_axis)
            .map(|i| i as f64 / (per_axis - 1) as f64)
            .collect()
    };
    let total = per_axis.pow(dim as u32);
    let mut data = Vec::with_capacity(total * dim);
    for index in 0..total {
        let mut rest = index;
        for _ in 0..dim {
            data.push(axis[rest % per_axis]);
            rest /= per_axis;
        }
    }
    Points::new(data, dim)
}

/// What the minimax approximation needs besides the UCB values on the grid.
#[derive(Clone, Debug)]
pub struct MmdBall {
    /// The grid (unit-cube context coordinates).
    pub grid: Points,
    /// `ŵ`: empirical frequencies of the observed contexts' nearest grid points.
    pub reference: Vec<f64>,
    /// `K_c`: the GP's kernel restricted to the context coordinates, on the grid.
    pub kernel: DMatrix<f64>,
    /// `δ` (MMD units).
    pub radius: f64,
    /// `K_c ŵ` and `ŵᵀ K_c ŵ`, so that `‖e_j − ŵ‖²_K = K_jj − 2 (K_c ŵ)_j + ŵᵀ K_c ŵ` costs O(1)
    /// per candidate instead of a quadratic form over the grid.
    kernel_reference: Vec<f64>,
    reference_norm: f64,
}

impl MmdBall {
    /// The ball for `gp` (inputs: `decision_dim` decision columns, then the context), the observed
    /// contexts `observed` (unit cube) and the grid.
    pub fn new(
        engine: &dyn Engine,
        gp: &GpState,
        decision_dim: usize,
        grid: Points,
        observed: &Points,
        radius: f64,
    ) -> Result<Self, EngineError> {
        let full = gp.kernel();
        let context_kernel = Kernel::new(
            full.kind(),
            full.lengthscales()[decision_dim..].to_vec(),
            full.signal_variance(),
        )?;
        let mut reference = vec![0.0; grid.rows()];
        for j in engine.nearest(&grid, observed)? {
            reference[j] += 1.0 / observed.rows() as f64;
        }
        let kernel = engine.cross_covariance(&context_kernel, &grid, &grid)?;
        Ok(Self::from_parts(grid, reference, kernel, radius))
    }

    /// The ball from its grid, reference weights `ŵ`, grid kernel matrix `K_c` and radius.
    pub fn from_parts(
        grid: Points,
        reference: Vec<f64>,
        kernel: DMatrix<f64>,
        radius: f64,
    ) -> Self {
        let kernel_reference = (&kernel * DVector::from_column_slice(&reference))
            .as_slice()
            .to_vec();
        let reference_norm = reference
            .iter()
            .zip(&kernel_reference)
            .map(|(w, k)| w * k)
            .sum();
        Self {
            grid,
            reference,
            kernel,
            radius,
            kernel_reference,
            reference_norm,
        }
    }

    /// The minimax approximation of `min_{w: MMD(w, ŵ) ≤ δ} wᵀg` for the UCB values `g` on the
    /// grid: with `g_min = g_j°`, `E = ŵᵀg`, `ε* = ‖w° − ŵ‖_K` (w° one-hot at j°) and
    /// `τ = (g_min − E)/ε*`, the value is `(E + δτ + g_min)/2` for `δ ≤ ε*` and `g_min` beyond
    /// (with Tay et al.'s reference expectation `ŵᵀg` rather than their code's uniform mean).
    pub fn minimax(&self, g: &[f64]) -> f64 {
        self.minimax_with_weights(g).0
    }

    /// [`MmdBall::minimax`] and its weights `∂value/∂g_j` (the arg-min `j°` and `ε*` held fixed,
    /// as they are piecewise constant): `ŵ_j (1 − δ/ε*)/2 + [j = j°] (1 + δ/ε*)/2` inside the
    /// ball, one-hot at `j°` beyond it.
    pub fn minimax_with_weights(&self, g: &[f64]) -> (f64, Vec<f64>) {
        let (j, g_min) = g
            .iter()
            .copied()
            .enumerate()
            .fold(
                (0, f64::INFINITY),
                |b, (i, v)| if v < b.1 { (i, v) } else { b },
            );
        let mut weights = vec![0.0; g.len()];
        let expectation: f64 = self.reference.iter().zip(g).map(|(w, v)| w * v).sum();
        let quad = self.kernel[(j, j)] - 2.0 * self.kernel_reference[j] + self.reference_norm;
        let epsilon = quad.max(0.0).sqrt();
        if epsilon <= 0.0 || self.radius > epsilon {
            weights[j] = 1.0;
            return (g_min, weights);
        }
        let ratio = self.radius / epsilon;
        for (w, r) in weights.iter_mut().zip(&self.reference) {
            *w = 0.5 * r * (1.0 - ratio);
        }
        weights[j] += 0.5 * (1.0 + ratio);
        let tau = (g_min - expectation) / epsilon;
        ((expectation + self.radius * tau + g_min) / 2.0, weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_is_a_cartesian_product() {
        let g = context_grid(100, 2).unwrap();
        assert_eq!(g.rows(), 100);
        assert_eq!(g.row(0), &[0.0, 0.0]);
        assert_eq!(g.row(99), &[1.0, 1.0]);
        assert_eq!(context_grid(1024, 4).unwrap().rows(), 1296);
        assert_eq!(context_grid(100, 4).unwrap().rows(), 256);
        assert_eq!(context_grid(1000, 3).unwrap().rows(), 1000);
    }

    #[test]
    fn minimax_interpolates_between_reference_and_minimum() {
        let ball = MmdBall::from_parts(
            Points::new(vec![0.0, 1.0], 1).unwrap(),
            vec![0.0, 1.0],
            DMatrix::identity(2, 2),
            0.0,
        );
        // g = (1, 3): g_min = 1 at j° = 0, E = 3, ε* = √2, τ = −√2.
        assert!((ball.minimax(&[1.0, 3.0]) - 2.0).abs() < 1e-15);
        let far = MmdBall {
            radius: 2.0,
            ..ball.clone()
        };
        assert_eq!(far.minimax(&[1.0, 3.0]), 1.0);
        let edge = MmdBall {
            radius: 2f64.sqrt(),
            ..ball
        };
        assert!((edge.minimax(&[1.0, 3.0]) - 1.0).abs() < 1e-15);
    }
}
