//! `bosweep calibrate`: both backends timed on a ladder of sizes per family of operations, a
//! cost line fitted per backend and family, and the crossovers where the GPU's line drops
//! below the CPU's.

use std::time::Instant;

use super::cost::{CostLine, CostModel};
use super::work::{Family, Work};
use crate::{Engine, EngineError, Points};
use bosweep_model::{GpSpec, GpState, Kernel, KernelKind, Noise};

/// The sizes timed: per family, the (training or data points, candidates or queries) pairs,
/// and the lengths of the value arrays searched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ladder {
    /// As `--ladder` names it.
    pub name: &'static str,
    /// (training points, candidates) of a posterior in 4-D.
    pub posterior: &'static [(usize, usize)],
    /// (data points, queries) of a KDE in 2-D.
    pub point_pairs: &'static [(usize, usize)],
    /// Lengths of the arrays a top-k searches.
    pub selection: &'static [usize],
}

/// The ladders `bosweep calibrate --ladder` offers: `tiny` (seconds, for tests and software
/// GPUs), `quick` and `standard` (the sizes of a sweep's calls, up to 512 training points at
/// 65 536 candidates).
pub const LADDERS: [Ladder; 3] = [
    Ladder {
        name: "tiny",
        posterior: &[(8, 64), (16, 256), (32, 1024)],
        point_pairs: &[(64, 64), (256, 256), (512, 1024)],
        selection: &[256, 4096, 16384],
    },
    Ladder {
        name: "quick",
        posterior: &[(16, 1024), (64, 4096), (128, 16384), (256, 16384)],
        point_pairs: &[(256, 1024), (1024, 4096), (4096, 16384)],
        selection: &[1024, 65536, 1 << 20],
    },
    Ladder {
        name: "standard",
        posterior: &[
            (16, 1024),
            (64, 4096),
            (128, 16384),
            (256, 65536),
            (512, 65536),
        ],
        point_pairs: &[(256, 1024), (1024, 16384), (4096, 65536), (16384, 65536)],
        selection: &[1024, 65536, 1 << 20, 1 << 23],
    },
];

/// The timings and the model fitted to them.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// Per size timed: its family, units, and the CPU's and the GPU's median seconds.
    pub samples: Vec<(Family, f64, f64, f64)>,
    /// Per family, the CPU's and the GPU's fitted lines.
    pub lines: Vec<(Family, CostLine, CostLine)>,
    /// The crossovers of those lines.
    pub model: CostModel,
}

/// Times `cpu` and `gpu` on `ladder` (the median of `repeats` calls after one warm-up call each)
/// and fits the model.
pub fn calibrate(
    cpu: &dyn Engine,
    gpu: &dyn Engine,
    ladder: &Ladder,
    repeats: usize,
) -> Result<Calibration, EngineError> {
    let mut samples = Vec::new();
    for &(n, m) in ladder.posterior {
        let gp = training(n, 4)?;
        let candidates = points(m, 4, 7)?;
        let call = |e: &dyn Engine| e.posterior(&gp, &candidates).map(drop);
        let units = Work::posterior(&[&gp], &candidates).units;
        samples.push(timed(Family::Posterior, units, cpu, gpu, repeats, call)?);
    }
    for &(n, m) in ladder.point_pairs {
        let (data, queries) = (points(n, 2, 3)?, points(m, 2, 5)?);
        let call = |e: &dyn Engine| {
            e.kde_log_density(&data, &[0.1, 0.1], None, &queries)
                .map(drop)
        };
        let units = Work::point_pairs(super::Operation::KdeDensity, &data, &queries).units;
        samples.push(timed(Family::PointPairs, units, cpu, gpu, repeats, call)?);
    }
    for &len in ladder.selection {
        let values: Vec<f64> = (0..len).map(|i| quasi(i, 11)).collect();
        let call = |e: &dyn Engine| e.top_k(&values, 8).map(drop);
        samples.push(timed(
            Family::Selection,
            len as f64,
            cpu,
            gpu,
            repeats,
            call,
        )?);
    }
    let mut lines = Vec::new();
    let mut crossovers = [None; 3];
    for (k, family) in Family::ALL.into_iter().enumerate() {
        let of = |pick: fn(&(Family, f64, f64, f64)) -> f64| -> Vec<(f64, f64)> {
            samples
                .iter()
                .filter(|s| s.0 == family)
                .map(|s| (s.1, pick(s)))
                .collect()
        };
        let fit = |pick| {
            CostLine::fit(&of(pick)).ok_or_else(|| {
                EngineError::invalid(format!(
                    "calibration ladder {}: {} needs two sizes at least",
                    ladder.name,
                    family.name()
                ))
            })
        };
        let (c, g) = (fit(|s| s.2)?, fit(|s| s.3)?);
        crossovers[k] = CostLine::crossover(c, g);
        lines.push((family, c, g));
    }
    Ok(Calibration {
        samples,
        lines,
        model: CostModel {
            crossovers,
            source: format!("calibrated on ladder {}", ladder.name),
        },
    })
}

/// One size's sample: the median seconds of `call` on each backend.
fn timed(
    family: Family,
    units: f64,
    cpu: &dyn Engine,
    gpu: &dyn Engine,
    repeats: usize,
    call: impl Fn(&dyn Engine) -> Result<(), EngineError>,
) -> Result<(Family, f64, f64, f64), EngineError> {
    let median = |engine: &dyn Engine| -> Result<f64, EngineError> {
        call(engine)?;
        let mut times = (0..repeats.max(1))
            .map(|_| {
                let start = Instant::now();
                call(engine).map(|()| start.elapsed().as_secs_f64())
            })
            .collect::<Result<Vec<f64>, _>>()?;
        times.sort_by(f64::total_cmp);
        Ok(times[times.len() / 2])
    };
    Ok((family, units, median(cpu)?, median(gpu)?))
}

/// `n` points in `[0, 1]^d`, spread by a low-discrepancy sequence offset by `salt`.
fn points(n: usize, d: usize, salt: usize) -> Result<Points, EngineError> {
    let data = (0..n * d).map(|i| quasi(i, salt)).collect();
    Points::new(data, d)
}

/// The `i`-th value of a golden-ratio sequence, offset by `salt`.
fn quasi(i: usize, salt: usize) -> f64 {
    ((i + salt) as f64 * 0.618_033_988_749_894_9).fract()
}

/// A GP on `n` points in `d` dimensions with a fixed squared-exponential kernel.
fn training(n: usize, d: usize) -> Result<GpState, EngineError> {
    let train = points(n, d, 1)?;
    let targets: Vec<f64> = (0..n).map(|i| quasi(i, 13)).collect();
    let kernel = Kernel::new(KernelKind::SquaredExponential, vec![0.3; d], 1.0)?;
    GpState::fit(
        train,
        &targets,
        GpSpec::new(kernel, Noise::Homoscedastic(1e-4)),
    )
}
