//! How much work one engine call is: its operation and a size in *units*, roughly the
//! floating-point work it does, so that one cost line per family of operations predicts its
//! time on each backend.

use bosweep_model::GpState;

use crate::{Points, SampleCells, SamplePaths};

/// The engine's operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// [`crate::Engine::cross_covariance`].
    CrossCovariance,
    /// [`crate::Engine::posterior_batch`] (and `posterior`).
    Posterior,
    /// [`crate::Engine::pair_reduce`].
    PairReduce,
    /// [`crate::Engine::pair_values`].
    PairValues,
    /// [`crate::Engine::kde_log_density`] (and `kde_density`).
    KdeDensity,
    /// [`crate::Engine::kernel_regression`].
    KernelRegression,
    /// [`crate::Engine::nearest`].
    Nearest,
    /// [`crate::Engine::top_k`] (and `argmax`).
    TopK,
    /// [`crate::Engine::sample_path_maxima`].
    SamplePathMaxima,
    /// [`crate::Engine::log_hypervolume_improvement`].
    HypervolumeImprovement,
}

/// Operations whose time grows alike with their units, each timed by one cost line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Kernel evaluations against a GP's training points and the triangular solves behind
    /// a posterior variance: cross-covariances, posteriors and context-pair reductions; and
    /// sample paths, whose features and kernel columns are the same per-candidate sweep over
    /// a fixed set of points (without the solve).
    Posterior,
    /// One kernel per (data point, query) pair: KDE, kernel regression, nearest neighbours;
    /// and the hypervolume improvement, one smoothed box volume per (cell, candidate draw) pair.
    PointPairs,
    /// A pass over an array of values: top-k and arg-max.
    Selection,
}

impl Family {
    /// Every family, in the order calibrations list them.
    pub const ALL: [Family; 3] = [Family::Posterior, Family::PointPairs, Family::Selection];

    /// The family's name in calibration files and messages.
    pub fn name(self) -> &'static str {
        match self {
            Family::Posterior => "posterior",
            Family::PointPairs => "point-pairs",
            Family::Selection => "selection",
        }
    }
}

impl Operation {
    /// The family whose cost line times it.
    pub fn family(self) -> Family {
        match self {
            Operation::CrossCovariance
            | Operation::Posterior
            | Operation::PairReduce
            | Operation::PairValues
            | Operation::SamplePathMaxima => Family::Posterior,
            Operation::KdeDensity
            | Operation::KernelRegression
            | Operation::Nearest
            | Operation::HypervolumeImprovement => Family::PointPairs,
            Operation::TopK => Family::Selection,
        }
    }
}

/// One call's operation and size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Work {
    /// What the call does.
    pub operation: Operation,
    /// Roughly its floating-point work: see each constructor.
    pub units: f64,
}

impl Work {
    /// `a × b` kernel evaluations in `d` dimensions: `a·b·d`.
    pub fn cross_covariance(a: &Points, b: &Points) -> Self {
        Self {
            operation: Operation::CrossCovariance,
            units: a.rows() as f64 * b.rows() as f64 * a.dim() as f64,
        }
    }

    /// Each GP's posterior at `m` candidates: `m·n·(d + n)` for its `n` training points in `d`
    /// dimensions (the cross-covariance, then a triangular solve per candidate).
    pub fn posterior(gps: &[&GpState], candidates: &Points) -> Self {
        let m = candidates.rows() as f64;
        Self {
            operation: Operation::Posterior,
            units: gps.iter().map(|gp| m * per_point(gp)).sum(),
        }
    }

    /// A posterior at every (decision, context) pair: `decisions·contexts·n·(d + n)`.
    pub fn pairs(
        operation: Operation,
        gp: &GpState,
        decisions: &Points,
        contexts: &Points,
    ) -> Self {
        Self {
            operation,
            units: decisions.rows() as f64 * contexts.rows() as f64 * per_point(gp),
        }
    }

    /// One kernel per (data point, query) pair in `d` dimensions: `data·queries·d`.
    pub fn point_pairs(operation: Operation, data: &Points, queries: &Points) -> Self {
        Self {
            operation,
            units: data.rows() as f64 * queries.rows() as f64 * data.dim() as f64,
        }
    }

    /// `S` sample paths at `m` candidates: `m·S·(F + n)·d`, a cross-covariance of the
    /// candidates against the `F` features and `n` training points per path.
    pub fn sample_paths(paths: &SamplePaths<'_>, candidates: &Points) -> Self {
        let per_candidate = (paths.features() + paths.train.rows()) * candidates.dim();
        Self {
            operation: Operation::SamplePathMaxima,
            units: candidates.rows() as f64 * paths.paths as f64 * per_candidate as f64,
        }
    }

    /// Every candidate's draw against each of its sample's cells in `m` objectives:
    /// `candidates · cells · m` (each sample's candidates meet that sample's cells only).
    pub fn hypervolume_improvement(cells: &SampleCells, draws: &[f64]) -> Self {
        let per_sample_draw = (cells.m() * cells.samples()).max(1);
        let candidates = (draws.len() / per_sample_draw) as f64;
        Self {
            operation: Operation::HypervolumeImprovement,
            units: candidates * cells.cells() as f64 * cells.m() as f64,
        }
    }

    /// A pass over `len` values.
    pub fn selection(len: usize) -> Self {
        Self {
            operation: Operation::TopK,
            units: len as f64,
        }
    }
}

/// A posterior's work per candidate: `n·(d + n)`.
fn per_point(gp: &GpState) -> f64 {
    let n = gp.train().rows() as f64;
    n * (gp.train().dim() as f64 + n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep_model::{GpSpec, Kernel, KernelKind, Noise};

    fn points(n: usize, d: usize) -> Points {
        Points::new((0..n * d).map(|i| i as f64 / (n * d) as f64).collect(), d).unwrap()
    }

    #[test]
    fn units_count_each_operations_work() {
        let kernel = Kernel::new(KernelKind::SquaredExponential, vec![0.5; 3], 1.0).unwrap();
        let spec = GpSpec::new(kernel, Noise::Homoscedastic(1e-2));
        // 5 training points in 3-D: 5 · (3 + 5) = 40 per candidate.
        let gp = GpState::fit(points(5, 3), &[0.0, 1.0, 2.0, 3.0, 4.0], spec).unwrap();
        let candidates = points(7, 3);
        assert_eq!(
            Work::posterior(&[&gp, &gp], &candidates).units,
            2.0 * 7.0 * 40.0
        );
        assert_eq!(
            Work::cross_covariance(&points(4, 3), &candidates).units,
            4.0 * 7.0 * 3.0
        );
        // Decisions in 2-D and contexts in 1-D make the GP's 3-D inputs.
        let pairs = Work::pairs(Operation::PairReduce, &gp, &points(6, 2), &points(9, 1));
        assert_eq!(pairs.units, 6.0 * 9.0 * 40.0);
        assert_eq!(pairs.operation.family(), Family::Posterior);
        let kde = Work::point_pairs(Operation::KdeDensity, &points(10, 2), &points(3, 2));
        assert_eq!(
            (kde.units, kde.operation.family()),
            (60.0, Family::PointPairs)
        );
        assert_eq!(Work::selection(11).units, 11.0);
        // 2 paths of 4 features through the 5 training points, at 7 candidates in 3-D.
        let (frequencies, phases) = (points(4, 3), [0.0; 4]);
        let paths = SamplePaths {
            kernel: gp.kernel(),
            frequencies: &frequencies,
            phases: &phases,
            prior_weights: &[0.0; 8],
            train: gp.train(),
            update_weights: &[0.0; 10],
            mean: 0.0,
            paths: 2,
        };
        let work = Work::sample_paths(&paths, &candidates);
        assert_eq!(work.units, 7.0 * 2.0 * (4.0 + 5.0) * 3.0);
        assert_eq!(work.operation.family(), Family::Posterior);
    }
}
