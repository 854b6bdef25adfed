//! Throughput of every engine operation at fixed problem sizes, and of whole BO steps: the
//! measurements behind `bosweep bench` (criterion benches in `benches/` cover the same
//! operations), here so that the command line only parses and prints, and a program can measure
//! its own engine.
//!
//! Inputs are drawn from a fixed-seed generator, each operation runs once to warm up (pipeline
//! caches, buffer allocation), then `repeats` times; the median wall time is reported with the
//! throughput in items per second and an operation count in GFLOP/s.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use bosweep_core::params::ParamValue;
use bosweep_engine::{
    CpuEngine, Engine, EngineError, ImprovementSmoothing, PairGradient, PairReduction, PairScratch,
    Points, SampleCells,
};
use bosweep_model::{GpSpec, GpState, Kernel, KernelKind, Noise, SmoothingKernel};
use bosweep_toolkit::acquisition::{PosteriorPaths, push_non_dominated_cells};
use bosweep_toolkit::{AlgorithmError, AskContext, Feedback};
use rayon::prelude::*;

/// Every operation `bosweep bench` measures, by name.
pub const OPERATIONS: [&str; 13] = [
    "cross-covariance",
    "posterior",
    "posterior-batch",
    "pair-reduce",
    "pair-gradient",
    "kde",
    "kernel-regression",
    "nearest",
    "top-k",
    "sample-paths",
    "hypervolume-improvement",
    "gp-ucb-step",
    "batch-ask",
];

/// Problem sizes to measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Seconds on any backend, lavapipe included: a smoke run.
    Quick,
    /// The CPU target sizes of the engine issue (posterior n = 1000, d = 10, m = 100 000).
    Standard,
    /// The real-GPU sizes: posterior n = 2048, d = 20, m = 2^20; KDE n = 4096, d = 8, m = 2^20;
    /// sample paths n = 100, d = 20, F = 1024, m = 2^16 and 2^20.
    Large,
}

impl Preset {
    /// The preset named `quick`, `standard` or `large`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "quick" => Some(Self::Quick),
            "standard" => Some(Self::Standard),
            "large" => Some(Self::Large),
            _ => None,
        }
    }
}

/// Sizes of one preset: training points n, input dimension d, candidates/queries m.
struct Sizes {
    posterior: (usize, usize, usize),
    batch_gps: usize,
    cross: (usize, usize, usize),
    /// (n, decision dim, context dim, decisions, samples)
    pairs: (usize, usize, usize, usize, usize),
    kde: (usize, usize, usize),
    regression: (usize, usize, usize),
    nearest: (usize, usize, usize),
    top_k: (usize, usize),
    /// (n, d, features F, paths S) of the sample-path maxima (a Thompson step's call), and the
    /// candidates m measured.
    paths: (usize, usize, usize, usize),
    paths_m: &'static [usize],
    /// (objectives m, Monte Carlo samples S, points per sample's front, candidates) of the
    /// hypervolume improvement (a qLogNEHVI grid chunk's call).
    hvi: (usize, usize, usize, usize),
    /// Observations n of the GP-UCB step measured (on Hartmann-6, d = 6).
    bo_steps: &'static [usize],
    /// Observations n before the batch ask of q = [`BATCH`] points measured (Hartmann-6).
    batch_asks: &'static [usize],
}

/// The batch size of the `batch-ask` measurement.
const BATCH: usize = 16;

/// The batch methods `batch-ask` measures: GP-UCB and EI by the Kriging believer and by local
/// penalisation.
const BATCH_METHODS: [(&str, &str); 4] = [
    ("gp-ucb", "believer"),
    ("gp-ucb", "penalize"),
    ("ei", "believer"),
    ("ei", "penalize"),
];

impl Preset {
    fn sizes(self) -> Sizes {
        match self {
            Self::Quick => Sizes {
                posterior: (200, 5, 4096),
                batch_gps: 4,
                cross: (1024, 200, 5),
                pairs: (64, 2, 1, 128, 256),
                kde: (512, 4, 4096),
                regression: (512, 4, 4096),
                nearest: (512, 4, 4096),
                top_k: (1 << 16, 16),
                paths: (100, 20, 1024, 1),
                paths_m: &[1 << 12],
                hvi: (2, 128, 20, 1024),
                bo_steps: &[50],
                batch_asks: &[50],
            },
            Self::Standard => Sizes {
                posterior: (1000, 10, 100_000),
                batch_gps: 11,
                cross: (10_000, 1000, 10),
                pairs: (200, 3, 1, 1024, 1024),
                kde: (4096, 8, 65_536),
                regression: (2000, 4, 65_536),
                nearest: (2000, 4, 65_536),
                top_k: (1 << 22, 64),
                paths: (100, 20, 1024, 1),
                paths_m: &[1 << 12, 1 << 14, 1 << 16],
                hvi: (3, 128, 30, 1 << 12),
                bo_steps: &[100, 500, 1000],
                batch_asks: &[100, 500],
            },
            Self::Large => Sizes {
                posterior: (2048, 20, 1 << 20),
                batch_gps: 11,
                cross: (1 << 16, 2048, 20),
                pairs: (500, 3, 1, 1 << 14, 1024),
                kde: (4096, 8, 1 << 20),
                regression: (4096, 8, 1 << 20),
                nearest: (4096, 8, 1 << 20),
                top_k: (1 << 22, 64),
                paths: (100, 20, 1024, 1),
                paths_m: &[1 << 16, 1 << 20],
                hvi: (3, 128, 50, 1 << 16),
                bo_steps: &[100, 500, 1000],
                batch_asks: &[100, 500],
            },
        }
    }
}

/// One measured operation.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The operation's name, one of [`OPERATIONS`].
    pub operation: &'static str,
    /// The sizes measured, as `n=… d=… m=…`.
    pub size: String,
    /// Median wall seconds of one call.
    pub seconds: f64,
    /// Candidates, pairs or queries per second.
    pub items_per_second: f64,
    /// Floating-point operations per second, by the counts documented in `flops_*`; `None` for
    /// top-k, which does comparisons.
    pub gflops: Option<f64>,
}

fn points(rng: &mut ChaCha8Rng, rows: usize, dim: usize) -> Points {
    Points::new((0..rows * dim).map(|_| rng.random::<f64>()).collect(), dim)
        .expect("uniform coordinates are finite")
}

/// A GP on `n` random points of dimension `d` with a Matérn-5/2 kernel.
fn random_gp(rng: &mut ChaCha8Rng, n: usize, d: usize) -> Result<GpState, EngineError> {
    let train = points(rng, n, d);
    let y: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.5; d], 1.0)?;
    GpState::fit(train, &y, GpSpec::new(kernel, Noise::Homoscedastic(1e-4)))
}

/// Flops of one smoothed cell side: the fat softplus's and the fat minimum's arithmetic, their
/// exp and logs counted as 10 each.
const FLOPS_HVI_SIDE: f64 = 60.0;

/// Each of `samples` fronts of `front` points spread over the positive unit sphere (all
/// mutually non-dominated, maximised above the origin), cut into its non-dominated cells.
fn random_sample_cells(
    rng: &mut ChaCha8Rng,
    m: usize,
    samples: usize,
    front: usize,
) -> Result<SampleCells, EngineError> {
    let mut cells = SampleCells::new(m);
    for _ in 0..samples {
        let mut points = Vec::with_capacity(front * m);
        for _ in 0..front {
            let direction: Vec<f64> = (0..m).map(|_| rng.random::<f64>() + 1e-3).collect();
            let norm = direction.iter().map(|v| v * v).sum::<f64>().sqrt();
            points.extend(direction.iter().map(|v| v / norm));
        }
        push_non_dominated_cells(&mut cells, &points, &vec![0.0; m])?;
    }
    Ok(cells)
}

/// Median seconds of `repeats` calls after one warm-up call.
fn time<T>(
    repeats: usize,
    mut f: impl FnMut() -> Result<T, EngineError>,
) -> Result<f64, EngineError> {
    f()?;
    let mut times = Vec::with_capacity(repeats);
    for _ in 0..repeats.max(1) {
        let start = Instant::now();
        std::hint::black_box(f()?);
        times.push(start.elapsed().as_secs_f64());
    }
    Ok(median(times))
}

/// The median of a non-empty set of timings (the upper one of an even count).
fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Flops of one kernel value between d-dimensional points: difference, square and add per
/// dimension, plus the profile (counted as 10).
fn flops_kernel(d: usize) -> f64 {
    (3 * d + 10) as f64
}

/// Flops of one posterior (mean and variance) from n training points: the kernel row, the
/// triangular product ‖L⁻¹k‖² (n² multiply-adds halved by the triangle, so n² flops), the mean.
fn flops_posterior(n: usize, d: usize) -> f64 {
    n as f64 * flops_kernel(d) + (n * n) as f64 + 2.0 * n as f64
}

/// Flops of one (decision, context) pair of the refinement's value and gradient: the kernel
/// value and slope, the solve `(K + λΣ)⁻¹k` as a dense product (2n²), σ, the mean and the
/// gradient's accumulation.
fn flops_pair_gradient(n: usize, d: usize) -> f64 {
    n as f64 * (flops_kernel(d) + 6.0) + 2.0 * (n * n) as f64
}

/// Flops of one sample path at one candidate: per feature the phase `ωᵀx + b` (2d) and its
/// cosine (counted as 10) and the weighted sum (2); per training point a kernel value and the
/// update's multiply-add.
fn flops_sample_path(features: usize, n: usize, d: usize) -> f64 {
    features as f64 * (2 * d + 12) as f64 + n as f64 * (flops_kernel(d) + 2.0)
}

/// Runs the operations named in `only` (all when empty) at `preset` sizes on `engine`.
pub fn run(
    engine: &dyn Engine,
    preset: Preset,
    only: &[String],
    repeats: usize,
) -> Result<Vec<Measurement>, EngineError> {
    let sz = preset.sizes();
    let mut rng = ChaCha8Rng::seed_from_u64(20261121);
    let mut out = Vec::new();
    let wanted = |op: &str| only.is_empty() || only.iter().any(|o| o == op);
    let mut record =
        |operation: &'static str, size: String, seconds: f64, items: usize, flops: Option<f64>| {
            out.push(Measurement {
                operation,
                size,
                seconds,
                items_per_second: items as f64 / seconds,
                gflops: flops.map(|f| f / seconds / 1e9),
            });
        };

    if wanted("cross-covariance") {
        let (m, n, d) = sz.cross;
        let (a, b) = (points(&mut rng, m, d), points(&mut rng, n, d));
        let kernel = Kernel::new(KernelKind::Matern52, vec![0.5; d], 1.0)?;
        let secs = time(repeats, || engine.cross_covariance(&kernel, &a, &b))?;
        record(
            "cross-covariance",
            format!("m={m} n={n} d={d}"),
            secs,
            m,
            Some((m * n) as f64 * flops_kernel(d)),
        );
    }
    if wanted("posterior") || wanted("posterior-batch") {
        let (n, d, m) = sz.posterior;
        let gp = random_gp(&mut rng, n, d)?;
        let cand = points(&mut rng, m, d);
        if wanted("posterior") {
            let secs = time(repeats, || engine.posterior(&gp, &cand))?;
            record(
                "posterior",
                format!("n={n} d={d} m={m}"),
                secs,
                m,
                Some(m as f64 * flops_posterior(n, d)),
            );
        }
        if wanted("posterior-batch") {
            let p = sz.batch_gps;
            let nb = n / 4;
            let gps: Vec<GpState> = (0..p)
                .map(|_| random_gp(&mut rng, nb, d))
                .collect::<Result<_, _>>()?;
            let refs: Vec<&GpState> = gps.iter().collect();
            let mb = m / 4;
            let cand = cand.slice_rows(0, mb);
            let secs = time(repeats, || engine.posterior_batch(&refs, &cand))?;
            record(
                "posterior-batch",
                format!("P={p} n={nb} d={d} m={mb}"),
                secs,
                p * mb,
                Some((p * mb) as f64 * flops_posterior(nb, d)),
            );
        }
    }
    if wanted("pair-reduce") {
        let (n, dx, dc, m, samples) = sz.pairs;
        let gp = random_gp(&mut rng, n, dx + dc)?;
        let (dec, ctx) = (points(&mut rng, m, dx), points(&mut rng, samples, dc));
        let infimum = vec![-10.0; m];
        let reduction = PairReduction::WorstCaseTv {
            delta: 0.2,
            infimum: &infimum,
        };
        let secs = time(repeats, || {
            engine.pair_reduce(&gp, &dec, &ctx, 1.5, reduction)
        })?;
        let pairs = m * samples;
        record(
            "pair-reduce",
            format!("n={n} dx={dx} dc={dc} m={m} M={samples} (TV)"),
            secs,
            pairs,
            Some(pairs as f64 * flops_posterior(n, dx + dc)),
        );
    }
    if wanted("pair-gradient") {
        // The L-BFGS refinement of SBO-KDE: the sample-average UCB and its gradient at one
        // decision per call, decisions spread over the threads as the restarts are. On the CPU
        // whatever the backend (the refinement always runs there).
        let (n, dx, dc, m, samples) = sz.pairs;
        let evaluations = (m / 4).max(1);
        let gp = random_gp(&mut rng, n, dx + dc)?;
        let (dec, ctx) = (
            points(&mut rng, evaluations, dx),
            points(&mut rng, samples, dc),
        );
        let gradient = PairGradient::new(&gp, &ctx)?;
        let mean = |u: &[f64]| {
            let w = 1.0 / u.len() as f64;
            (u.iter().sum::<f64>() * w, vec![w; u.len()])
        };
        let secs = time(repeats, || {
            Ok((0..evaluations)
                .into_par_iter()
                .map_init(PairScratch::default, |scratch, i| {
                    gradient
                        .reduce_with_gradient(dec.row(i), 1.5, false, scratch, mean)
                        .0
                })
                .sum::<f64>())
        })?;
        let pairs = evaluations * samples;
        record(
            "pair-gradient",
            format!("n={n} dx={dx} dc={dc} evaluations={evaluations} M={samples} (mean)"),
            secs,
            pairs,
            Some(pairs as f64 * flops_pair_gradient(n, dx + dc)),
        );
    }
    if wanted("kde") {
        let (n, d, m) = sz.kde;
        let (data, q) = (points(&mut rng, n, d), points(&mut rng, m, d));
        let h = vec![0.1; d];
        let secs = time(repeats, || engine.kde_log_density(&data, &h, None, &q))?;
        record(
            "kde",
            format!("n={n} d={d} m={m}"),
            secs,
            m,
            Some((m * n) as f64 * flops_kernel(d)),
        );
    }
    if wanted("kernel-regression") {
        let (n, d, m) = sz.regression;
        let (data, q) = (points(&mut rng, n, d), points(&mut rng, m, d));
        let y: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
        // Gaussian (BOKE's default) and a compact kernel, whose weights are selects, not `exp`.
        for (kernel, h, label) in [
            (SmoothingKernel::Gaussian, 0.1, ""),
            (SmoothingKernel::Epanechnikov, 0.3, " epanechnikov"),
        ] {
            let secs = time(repeats, || {
                engine.kernel_regression(&data, &y, kernel, h, &q)
            })?;
            record(
                "kernel-regression",
                format!("n={n} d={d} m={m}{label}"),
                secs,
                m,
                Some((m * n) as f64 * flops_kernel(d)),
            );
        }
    }
    if wanted("nearest") {
        let (n, d, m) = sz.nearest;
        let (data, q) = (points(&mut rng, n, d), points(&mut rng, m, d));
        let secs = time(repeats, || engine.nearest(&data, &q))?;
        record(
            "nearest",
            format!("n={n} d={d} m={m}"),
            secs,
            m,
            Some((m * n * 3 * d) as f64),
        );
    }
    if wanted("top-k") {
        let (len, k) = sz.top_k;
        let values: Vec<f64> = (0..len).map(|_| rng.random::<f64>()).collect();
        let secs = time(repeats, || engine.top_k(&values, k))?;
        record("top-k", format!("len={len} k={k}"), secs, len, None);
    }
    if wanted("sample-paths") {
        let (n, d, features, s) = sz.paths;
        let gp = random_gp(&mut rng, n, d)?;
        let paths = PosteriorPaths::draw(&gp, features, s, &mut rng)?;
        for &m in sz.paths_m {
            let cand = points(&mut rng, m, d);
            let secs = time(repeats, || paths.maxima(engine, &cand, &[]))?;
            record(
                "sample-paths",
                format!("n={n} d={d} m={m} F={features} S={s}"),
                secs,
                m * s,
                Some((m * s) as f64 * flops_sample_path(features, n, d)),
            );
        }
    }
    if wanted("hypervolume-improvement") {
        let (m, samples, front, candidates) = sz.hvi;
        let cells = random_sample_cells(&mut rng, m, samples, front)?;
        let draws: Vec<f64> = (0..candidates * samples * m)
            .map(|_| 1.2 * rng.random::<f64>())
            .collect();
        let smoothing = ImprovementSmoothing::BOTORCH;
        let secs = time(repeats, || {
            engine.log_hypervolume_improvement(&cells, &draws, smoothing)
        })?;
        let per_draw = cells.cells() as f64 / samples as f64;
        record(
            "hypervolume-improvement",
            format!(
                "m={m} S={samples} front={front} cells/sample={per_draw:.0} candidates={candidates}"
            ),
            secs,
            candidates * samples,
            Some((candidates * m) as f64 * cells.cells() as f64 * FLOPS_HVI_SIDE),
        );
    }
    if wanted("gp-ucb-step") {
        for &n in sz.bo_steps {
            let step = time_bo_step(engine, n, repeats, &mut rng)?;
            record(
                "gp-ucb-step",
                format!(
                    "n={n} d=6: fit {:.3} s + acquisition {:.3} s (cold fit {:.3} s)",
                    step.fit, step.acquisition, step.cold_fit
                ),
                step.seconds,
                1,
                None,
            );
        }
    }
    if wanted("batch-ask") {
        for &n in sz.batch_asks {
            for (algorithm, pending) in BATCH_METHODS {
                let ask = time_batch_ask(engine, algorithm, pending, n, repeats, &mut rng)?;
                record(
                    "batch-ask",
                    format!(
                        "q={BATCH} n={n} d=6 {algorithm} {pending}: first {:.3} s, later {:.3} s each",
                        ask.first, ask.later
                    ),
                    ask.seconds,
                    BATCH,
                    None,
                );
            }
        }
    }
    Ok(out)
}

/// The error of an algorithm in a benchmark, as the engine's.
fn as_engine(e: AlgorithmError) -> EngineError {
    match e {
        AlgorithmError::Engine(e) => e,
        AlgorithmError::Config(m) | AlgorithmError::External(m) => EngineError::invalid(m),
    }
}

/// Tells `algorithm` the (negated, maximised) Hartmann-6 value of a uniform point.
fn observe_uniform(
    algorithm: &mut dyn crate::Algorithm,
    problem: &dyn bosweep_problems::Problem,
    rng: &mut ChaCha8Rng,
) -> Result<(), EngineError> {
    let x = problem.domain().sample(rng);
    let y = -problem
        .objective_of_interest(&x, 1)
        .expect("Hartmann-6 is known");
    let feedback = Feedback {
        x: &x,
        y,
        repeats: &[y],
        context: None,
        t: 1,
        objectives: &[],
        constraints: &[],
    };
    algorithm.tell(&feedback).map_err(as_engine)
}

/// A problem and an algorithm that has been told some of its points.
type Told = (
    Box<dyn bosweep_problems::Problem>,
    Box<dyn crate::Algorithm>,
);

/// Hartmann-6 and the algorithm `name` (with `given` parameters) told `n` uniform points of it.
fn told_on_hartmann6(
    name: &str,
    given: &[(&str, ParamValue)],
    n: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Told, EngineError> {
    let problem = bosweep_problems::build("hartmann6", &[])
        .map_err(|e| EngineError::invalid(e.to_string()))?;
    let mut algorithm = crate::build(name, given).map_err(as_engine)?;
    for _ in 0..n {
        observe_uniform(algorithm.as_mut(), problem.as_ref(), rng)?;
    }
    Ok((problem, algorithm))
}

/// Seconds of one batch ask.
struct BatchAsk {
    /// Median seconds of the whole batch.
    seconds: f64,
    /// Mean seconds of the batch's first ask (the fit and one acquisition).
    first: f64,
    /// Mean seconds of each later ask (the pending points taken in, one acquisition).
    later: f64,
}

/// Median seconds of asking a batch of [`BATCH`] points of `algorithm` with the pending-point
/// strategy `pending` (default settings otherwise) after `n` uniform observations of
/// Hartmann-6; each timed batch follows one more observation, as in a run.
fn time_batch_ask(
    engine: &dyn Engine,
    algorithm: &str,
    pending: &str,
    n: usize,
    repeats: usize,
    rng: &mut ChaCha8Rng,
) -> Result<BatchAsk, EngineError> {
    let (problem, mut algorithm) =
        told_on_hartmann6(algorithm, &[("pending", pending.into())], n, rng)?;
    let reference = CpuEngine::new();
    let (mut times, mut first, mut later) = (Vec::new(), 0.0, 0.0);
    for r in 0..=repeats.max(1) {
        observe_uniform(algorithm.as_mut(), problem.as_ref(), rng)?;
        let mut batch: Vec<Vec<f64>> = Vec::with_capacity(BATCH);
        let start = Instant::now();
        let mut first_ask = 0.0;
        for i in 0..BATCH {
            let mut ctx = AskContext {
                engine,
                reference: &reference,
                domain: problem.domain(),
                allowed: None,
                t: n + 2 + r,
                pending: &batch,
                rng,
            };
            let proposal = algorithm.ask(&mut ctx).map_err(as_engine)?;
            if i == 0 {
                first_ask = start.elapsed().as_secs_f64();
            }
            batch.push(proposal.x);
        }
        let total = start.elapsed().as_secs_f64();
        // The first batch warms up (the first fit starts cold): not timed.
        if r > 0 {
            times.push(total);
            first += first_ask;
            later += (total - first_ask) / (BATCH - 1) as f64;
        }
    }
    let calls = times.len() as f64;
    Ok(BatchAsk {
        seconds: median(times),
        first: first / calls,
        later: later / calls,
    })
}

/// Seconds of GP-UCB steps: the median step, the mean fit and acquisition within it, and the
/// first (cold) fit.
struct BoStep {
    seconds: f64,
    fit: f64,
    cold_fit: f64,
    acquisition: f64,
}

/// Median seconds of one GP-UCB step (default settings: MAP fit, warm-started from the previous
/// step's optimum, then the default grid and refinement) after `n` uniform observations of
/// Hartmann-6, and the mean seconds of its fit and acquisition. As in a run, every timed step
/// follows one more observation (the steps are at n + 1, …, n + repeats); the warm-up step, the
/// first fit of the run, is not timed, but its fit (from scratch, with the random starts) is
/// reported as `cold_fit`.
fn time_bo_step(
    engine: &dyn Engine,
    n: usize,
    repeats: usize,
    rng: &mut ChaCha8Rng,
) -> Result<BoStep, EngineError> {
    let (problem, mut algorithm) = told_on_hartmann6("gp-ucb", &[], n, rng)?;
    let reference = CpuEngine::new();
    let step = |algorithm: &mut Box<dyn crate::Algorithm>, rng: &mut ChaCha8Rng, t: usize| {
        let mut ctx = AskContext {
            engine,
            reference: &reference,
            domain: problem.domain(),
            allowed: None,
            t,
            pending: &[],
            rng,
        };
        algorithm.ask(&mut ctx).map_err(as_engine)
    };
    step(&mut algorithm, rng, n + 1)?;
    let cold_fit = algorithm.take_cost().model_seconds;
    let repeats = repeats.max(1);
    let mut times = Vec::with_capacity(repeats);
    for r in 0..repeats {
        observe_uniform(algorithm.as_mut(), problem.as_ref(), rng)?;
        let start = Instant::now();
        std::hint::black_box(step(&mut algorithm, rng, n + 2 + r)?);
        times.push(start.elapsed().as_secs_f64());
    }
    let cost = algorithm.take_cost();
    let calls = repeats as f64;
    Ok(BoStep {
        seconds: median(times),
        fit: cost.model_seconds / calls,
        cold_fit,
        acquisition: cost.acq_seconds / calls,
    })
}
