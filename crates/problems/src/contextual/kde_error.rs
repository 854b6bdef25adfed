//! How far a KDE of observed contexts is from the true context law (Huang et al. 2024, SBO-KDE,
//! App. E, Table 2): the L1 distance `∫|p̂ − p|` (twice the total variation) between
//! the Gaussian KDE of `n` unclipped draws, with the algorithms' bandwidth rule, and the law's
//! density, averaged over independent runs. A re-simulation matches the paper's table
//! with the integral over `[−0.5, 1.5]` and "±" read as the standard error.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::law::Marginal;
use super::{hartmann_mixture, normal};
use bosweep_core::stats::describe;
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::BandwidthRule;

/// The interval the L1 distance is integrated over: the one with which a re-simulation matches
/// the paper's Table 2.
pub const L1_INTERVAL: (f64, f64) = (-0.5, 1.5);
/// Trapezoid nodes over [`L1_INTERVAL`]: a spacing of 5e-5, 400 nodes per standard deviation of
/// the sharpest mixture component (0.02).
const L1_NODES: usize = 40_001;

/// The two context laws of Table 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableLaw {
    /// Hartmann's N(0.5, 0.1²).
    Normal,
    /// Complicated Hartmann's eight-component mixture, drawn unclipped as the paper's code does.
    Mixture,
}

impl TableLaw {
    /// The law named `normal` or `mixture`, as the CLI spells it; `None` for any other name.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "normal" => Some(Self::Normal),
            "mixture" => Some(Self::Mixture),
            _ => None,
        }
    }

    /// The law as a univariate marginal, unclipped.
    pub fn marginal(self) -> Marginal {
        match self {
            Self::Normal => normal(0.5, 0.1),
            Self::Mixture => hartmann_mixture(),
        }
    }
}

/// A law's density on the integration grid over [`L1_INTERVAL`], computed once and shared by
/// every KDE compared with it.
struct LawOnGrid {
    nodes: Points,
    density: Vec<f64>,
    step: f64,
}

impl LawOnGrid {
    fn new(law: &Marginal) -> Result<Self, EngineError> {
        let (lo, hi) = L1_INTERVAL;
        let step = (hi - lo) / (L1_NODES - 1) as f64;
        let nodes: Vec<f64> = (0..L1_NODES).map(|i| lo + step * i as f64).collect();
        let density = nodes.iter().map(|c| law.pdf(*c)).collect();
        Ok(Self {
            nodes: Points::new(nodes, 1)?,
            density,
            step,
        })
    }

    /// `∫|p̂ − p|` for the Gaussian KDE of the 1-D `data` with bandwidth `h` (evaluated by
    /// `engine` on the grid, trapezoid rule).
    pub fn l1_distance(
        &self,
        engine: &dyn Engine,
        data: &Points,
        h: f64,
    ) -> Result<f64, EngineError> {
        let estimate = engine.kde_density(data, &[h], None, &self.nodes)?;
        let gap: Vec<f64> = estimate
            .iter()
            .zip(&self.density)
            .map(|(e, p)| (e - p).abs())
            .collect();
        let inner: f64 = gap[1..L1_NODES - 1].iter().sum();
        Ok(self.step * (inner + 0.5 * (gap[0] + gap[L1_NODES - 1])))
    }
}

/// One row of Table 2: the L1 distance's mean and standard error over `runs` runs.
#[derive(Clone, Debug, PartialEq)]
pub struct KdeErrorRow {
    /// Draws per KDE (the table's `#Samples`).
    pub samples: usize,
    /// Independent draw sets averaged over.
    pub runs: usize,
    /// Mean L1 distance over the runs.
    pub mean: f64,
    /// Standard error of that mean (the sample standard deviation over `√runs`).
    pub standard_error: f64,
}

/// The memory [`kde_error_table`] needs for KDEs of `samples` draws: the draws, the sorted copy
/// the bandwidth rule takes its quantiles from, and the copy an engine takes of them (f64 each,
/// 24 bytes a draw), so that a caller can refuse a size that cannot fit before drawing any.
pub fn kde_error_memory_bytes(samples: usize) -> u64 {
    (samples as u64).saturating_mul(24)
}

/// Table 2 for `law`: for each sample size, `runs` independent sets of unclipped draws, each
/// with its own KDE under `rule`. Sample size `n` draws from its own stream seeded by `(seed, n)`,
/// so a row does not depend on which other sizes are asked for.
pub fn kde_error_table(
    engine: &dyn Engine,
    law: TableLaw,
    sample_sizes: &[usize],
    runs: usize,
    rule: BandwidthRule,
    seed: u64,
) -> Result<Vec<KdeErrorRow>, EngineError> {
    if runs < 2 {
        return Err(EngineError::invalid(format!(
            "a standard error needs at least 2 runs, got {runs}"
        )));
    }
    let marginal = law.marginal();
    let grid = LawOnGrid::new(&marginal)?;
    sample_sizes
        .iter()
        .map(|&n| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (n as u64).rotate_left(32));
            let distances = (0..runs)
                .map(|_| {
                    let data = Points::new((0..n).map(|_| marginal.sample(&mut rng)).collect(), 1)?;
                    let h = rule.bandwidths(&data)?[0];
                    grid.l1_distance(engine, &data, h)
                })
                .collect::<Result<Vec<f64>, EngineError>>()?;
            let (mean, standard_error) = describe(&distances)
                .and_then(|d| Some((d.mean, d.se?)))
                .expect("at least 2 runs give a mean and a standard error");
            Ok(KdeErrorRow {
                samples: n,
                runs,
                mean,
                standard_error,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep_engine::CpuEngine;

    #[test]
    fn one_point_kde_of_the_law_itself_is_at_distance_zero() {
        let grid = LawOnGrid::new(&normal(0.5, 0.1)).unwrap();
        let data = Points::new(vec![0.5], 1).unwrap();
        let d = grid.l1_distance(&CpuEngine::new(), &data, 0.1).unwrap();
        assert!(d < 1e-9, "{d}");
    }

    #[test]
    fn shifted_normal_is_at_the_closed_form_distance() {
        // ∫|N(0.6, 0.1²) − N(0.5, 0.1²)| = 4Φ(0.5) − 2 = 0.765_849_845_096…; the trapezoid
        // rule's error is ~1.5e-8, from the kink of |p̂ − p| at 0.55.
        let grid = LawOnGrid::new(&normal(0.5, 0.1)).unwrap();
        let data = Points::new(vec![0.6], 1).unwrap();
        let d = grid.l1_distance(&CpuEngine::new(), &data, 0.1).unwrap();
        assert!((d - 0.765_849_845_096).abs() < 5e-8, "{d}");
    }

    #[test]
    fn one_run_is_refused() {
        let error = kde_error_table(
            &CpuEngine::new(),
            TableLaw::Normal,
            &[10],
            1,
            BandwidthRule::Silverman,
            0,
        )
        .unwrap_err();
        assert!(error.to_string().contains("at least 2 runs"), "{error}");
    }
}
