//! Helpers shared by the integration tests: seeded random inputs and the GPU engines under test.

#![allow(dead_code)]

use bosweep::algorithms::{
    self, Algorithm, AlgorithmSettings, Optimizer, OptimizerBuilder, OptimizerError,
};
use bosweep::compute::{CpuEngine, Engine, GpuEngine, GpuOptions, Points, Precision};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use bosweep::params::ParamValue;
use bosweep::problems::{self, Domain, Observation, Optimum, Problem, ProblemError, Sense, Step};
use bosweep::surrogate::OutputTransform;
use bosweep::sweep::{RunConfig, RunSummary, StepRecord, TraceWriter, run};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// `rows` points uniform in `[lo, hi]^dim`.
pub fn uniform_points(rng: &mut ChaCha8Rng, rows: usize, dim: usize, lo: f64, hi: f64) -> Points {
    Points::new(
        (0..rows * dim).map(|_| rng.random_range(lo..hi)).collect(),
        dim,
    )
    .unwrap()
}

pub fn uniform_values(rng: &mut ChaCha8Rng, len: usize, lo: f64, hi: f64) -> Vec<f64> {
    (0..len).map(|_| rng.random_range(lo..hi)).collect()
}

/// Whether GPU tests must fail instead of skipping: `BOSWEEP_REQUIRE_GPU=1`, as CI sets (its
/// lavapipe adapter has f64 shaders).
pub fn gpu_required() -> bool {
    std::env::var("BOSWEEP_REQUIRE_GPU").is_ok_and(|v| v == "1")
}

/// The GPU engine at `precision`, or `None` (test skipped) when no adapter exists, or, for
/// f64, when the adapter lacks SHADER_F64. With `BOSWEEP_REQUIRE_GPU=1` either fails the test
/// instead, as in CI.
pub fn gpu(precision: Precision) -> Option<GpuEngine> {
    gpu_with(GpuOptions {
        precision,
        ..Default::default()
    })
}

/// The GPU engine in f64, for the tests that compare decisions or values with the CPU's to
/// f64 accuracy: `None` (test skipped) without an adapter that has SHADER_F64, a failure
/// instead with `BOSWEEP_REQUIRE_GPU=1`.
pub fn gpu_f64() -> Option<GpuEngine> {
    gpu(Precision::F64)
}

pub fn gpu_with(options: GpuOptions) -> Option<GpuEngine> {
    match GpuEngine::new(&options) {
        Ok(engine) => Some(engine),
        Err(e) => {
            if gpu_required() {
                panic!("BOSWEEP_REQUIRE_GPU=1 but the GPU engine could not start: {e}");
            }
            eprintln!("skipping GPU test: {e}");
            None
        }
    }
}

/// Both precisions: f32, and f64 where the adapter has SHADER_F64. With
/// `BOSWEEP_REQUIRE_GPU=1` a missing adapter or a missing f64 fails the test.
pub fn gpus() -> Vec<GpuEngine> {
    match gpu(Precision::F32) {
        Some(f32_engine) => std::iter::once(f32_engine).chain(gpu_f64()).collect(),
        None => Vec::new(),
    }
}

/// How far an acquisition's values on `gpu` may be from the CPU's, relative to each value's
/// magnitude (at least 1): 1e-3 in f32, whose posteriors carry ~1e-4 relative error through a
/// log-space Monte Carlo average, and 1e-9 in f64.
pub fn acquisition_tolerance(gpu: &GpuEngine) -> f64 {
    match gpu.precision() {
        Precision::F32 => 1e-3,
        Precision::F64 => 1e-9,
    }
}

/// Largest absolute difference between two slices.
pub fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// The five stationary kernel kinds (RQ with α = 0.7), in a fixed order.
pub fn kinds() -> [bosweep::model::KernelKind; 5] {
    use bosweep::model::KernelKind;
    [
        KernelKind::SquaredExponential,
        KernelKind::Matern12,
        KernelKind::Matern32,
        KernelKind::Matern52,
        KernelKind::RationalQuadratic { alpha: 0.7 },
    ]
}

/// A kernel of `kind` on `spatial_dim` spatial columns (plus a time column when `decay` is
/// given) with random ARD lengthscales and signal variance. Uniform points in `[0,1]^d` have
/// `E‖a − b‖² = d/6`, so lengthscales `∝ √(d/6)` keep `r² = O(1)` in any dimension.
pub fn random_kernel(
    rng: &mut ChaCha8Rng,
    kind: bosweep::model::KernelKind,
    spatial_dim: usize,
    decay: Option<f64>,
) -> bosweep::model::Kernel {
    let base = (spatial_dim as f64 / 6.0).sqrt();
    let ls = (0..spatial_dim)
        .map(|_| base * rng.random_range(0.4..1.2))
        .collect();
    let k = bosweep::model::Kernel::new(kind, ls, rng.random_range(0.5..2.0)).unwrap();
    match decay {
        Some(eps) => k.with_time_decay(eps).unwrap(),
        None => k,
    }
}

/// `rows` points uniform in `[0,1]^spatial_dim`, followed (when `with_time`) by an integer
/// time column in `0..=3`, so that `Δt = 0` occurs often and every `Δt` is exact in f32.
pub fn points_maybe_timed(
    rng: &mut ChaCha8Rng,
    rows: usize,
    spatial_dim: usize,
    with_time: bool,
) -> Points {
    let dim = spatial_dim + usize::from(with_time);
    let mut data = Vec::with_capacity(rows * dim);
    for _ in 0..rows {
        data.extend((0..spatial_dim).map(|_| rng.random_range(0.0..1.0)));
        if with_time {
            data.push(f64::from(rng.random_range(0..4u32)));
        }
    }
    Points::new(data, dim).unwrap()
}

/// A smooth target function of the points plus a little seeded noise, so that GP weights stay
/// moderate.
pub fn smooth_targets(rng: &mut ChaCha8Rng, points: &Points) -> Vec<f64> {
    let scale = 3.0 / (points.dim() as f64).sqrt();
    points
        .iter()
        .map(|x| {
            let s: f64 = x.iter().sum();
            (scale * s).sin() + 0.5 * (5.0 * x[0]).cos() + 0.05 * rng.random_range(-1.0..1.0)
        })
        .collect()
}

fn is_invalid<T: std::fmt::Debug>(what: &str, r: Result<T, bosweep::compute::EngineError>) {
    match r {
        Err(bosweep::compute::EngineError::InvalidInput(_)) => {}
        other => panic!("{what}: expected InvalidInput, got {other:?}"),
    }
}

/// Every operation of `engine` rejects arguments that disagree with each other with
/// `EngineError::InvalidInput` (never a GPU error, never a panic).
pub fn assert_rejects_invalid_inputs(engine: &dyn bosweep::compute::Engine) {
    use bosweep::compute::PairReduction;
    use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise, SmoothingKernel};
    let p = |rows: &[&[f64]]| Points::from_rows(rows).unwrap();
    let se = |d: usize| Kernel::new(KernelKind::SquaredExponential, vec![0.5; d], 1.0).unwrap();
    let x2 = p(&[&[0.0, 0.0], &[1.0, 0.5]]);
    let x3 = p(&[&[0.0, 0.0, 0.0]]);
    let x1 = p(&[&[0.2], &[0.7]]);
    let gp = GpState::fit(
        x2.clone(),
        &[1.0, -1.0],
        GpSpec::new(se(2), Noise::Homoscedastic(0.1)),
    )
    .unwrap();
    let empty1 = Points::empty(1).unwrap();

    is_invalid(
        "cross-covariance dims (a)",
        engine.cross_covariance(&se(2), &x3, &x2),
    );
    is_invalid(
        "cross-covariance dims (b)",
        engine.cross_covariance(&se(2), &x2, &x3),
    );
    is_invalid("posterior dims", engine.posterior(&gp, &x3));
    let gp1 = GpState::fit(
        x1.clone(),
        &[0.0, 1.0],
        GpSpec::new(se(1), Noise::Homoscedastic(0.1)),
    )
    .unwrap();
    is_invalid(
        "posterior_batch dims",
        engine.posterior_batch(&[&gp, &gp1], &x2),
    );

    // pair_reduce: the GP takes 2 columns = 1 decision + 1 context column.
    let dec = p(&[&[0.1], &[0.4], &[0.9]]);
    let ctx = p(&[&[0.3], &[0.6]]);
    let inf3 = [0.0; 3];
    let tv = |delta, infimum| PairReduction::WorstCaseTv { delta, infimum };
    is_invalid(
        "pair dims",
        engine.pair_reduce(&gp, &x2, &ctx, 1.0, PairReduction::Mean),
    );
    is_invalid(
        "pair no contexts",
        engine.pair_reduce(&gp, &dec, &empty1, 1.0, PairReduction::Mean),
    );
    is_invalid(
        "pair beta NaN",
        engine.pair_reduce(&gp, &dec, &ctx, f64::NAN, PairReduction::Min),
    );
    is_invalid(
        "pair beta inf",
        engine.pair_reduce(&gp, &dec, &ctx, f64::INFINITY, PairReduction::Min),
    );
    is_invalid(
        "pair delta < 0",
        engine.pair_reduce(&gp, &dec, &ctx, 1.0, tv(-0.1, &inf3)),
    );
    is_invalid(
        "pair delta NaN",
        engine.pair_reduce(&gp, &dec, &ctx, 1.0, tv(f64::NAN, &inf3)),
    );
    is_invalid(
        "pair infimum len",
        engine.pair_reduce(&gp, &dec, &ctx, 1.0, tv(0.5, &[0.0; 2])),
    );
    is_invalid(
        "pair infimum NaN",
        engine.pair_reduce(&gp, &dec, &ctx, 1.0, tv(0.5, &[0.0, f64::NAN, 0.0])),
    );
    let timed = se(1).with_time_decay(0.1).unwrap();
    let gpt = GpState::fit(
        x2.clone(),
        &[1.0, -1.0],
        GpSpec::new(timed, Noise::Homoscedastic(0.1)),
    )
    .unwrap();
    is_invalid(
        "pair time decay",
        engine.pair_reduce(&gpt, &dec, &ctx, 1.0, PairReduction::Mean),
    );

    // KDE
    let q2 = p(&[&[0.5, 0.5]]);
    is_invalid(
        "kde bandwidth 0",
        engine.kde_log_density(&x2, &[0.1, 0.0], None, &q2),
    );
    is_invalid(
        "kde bandwidth < 0",
        engine.kde_log_density(&x2, &[-0.1, 0.1], None, &q2),
    );
    is_invalid(
        "kde bandwidth NaN",
        engine.kde_log_density(&x2, &[f64::NAN, 0.1], None, &q2),
    );
    is_invalid(
        "kde bandwidth count",
        engine.kde_log_density(&x2, &[0.1], None, &q2),
    );
    is_invalid(
        "kde weights len",
        engine.kde_log_density(&x2, &[0.1, 0.1], Some(&[1.0]), &q2),
    );
    is_invalid(
        "kde weight < 0",
        engine.kde_log_density(&x2, &[0.1, 0.1], Some(&[1.0, -1.0]), &q2),
    );
    is_invalid(
        "kde weights zero",
        engine.kde_log_density(&x2, &[0.1, 0.1], Some(&[0.0, 0.0]), &q2),
    );
    is_invalid(
        "kde empty data",
        engine.kde_log_density(&empty1, &[0.1], None, &x1),
    );
    is_invalid(
        "kde query dims",
        engine.kde_log_density(&x2, &[0.1, 0.1], None, &x3),
    );
    is_invalid(
        "kde density",
        engine.kde_density(&x2, &[0.1, 0.0], None, &q2),
    );

    // Kernel regression
    let y = [1.0, 2.0];
    let g = SmoothingKernel::Gaussian;
    is_invalid(
        "kr bandwidth 0",
        engine.kernel_regression(&x2, &y, g, 0.0, &q2),
    );
    is_invalid(
        "kr bandwidth < 0",
        engine.kernel_regression(&x2, &y, SmoothingKernel::Uniform, -1.0, &q2),
    );
    is_invalid(
        "kr bandwidth inf",
        engine.kernel_regression(&x2, &y, g, f64::INFINITY, &q2),
    );
    is_invalid(
        "kr targets len",
        engine.kernel_regression(&x2, &[1.0], g, 0.1, &q2),
    );
    is_invalid(
        "kr target NaN",
        engine.kernel_regression(&x2, &[1.0, f64::NAN], g, 0.1, &q2),
    );
    is_invalid(
        "kr empty data",
        engine.kernel_regression(&empty1, &[], g, 0.1, &x1),
    );
    is_invalid(
        "kr query dims",
        engine.kernel_regression(&x2, &y, g, 0.1, &x3),
    );

    // Nearest, top-k, arg-max
    is_invalid("nearest empty data", engine.nearest(&empty1, &x1));
    is_invalid("nearest dims", engine.nearest(&x2, &x3));
    is_invalid("top_k NaN", engine.top_k(&[1.0, f64::NAN], 1));
    is_invalid("top_k NaN, k = 0", engine.top_k(&[f64::NAN], 0));
    is_invalid("argmax NaN", engine.argmax(&[f64::NAN, 1.0]));
    is_invalid("argmax empty", engine.argmax(&[]));
}

/// Distinguishes the trace files of runs made by tests running at the same time.
static RUN_COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// What [`traced_run`] runs: an algorithm with its parameters on a problem with defaults.
pub struct RunRequest<'a> {
    pub algo: &'a str,
    pub params: &'a [(&'a str, ParamValue)],
    pub problem: &'a str,
    pub budget: usize,
    pub init: usize,
    pub seed: u64,
}

/// Runs `request` through the run loop on `engine` and returns the summary and the trace lines
/// (header first).
pub fn traced_run(engine: &dyn Engine, request: &RunRequest<'_>) -> (RunSummary, Vec<Value>) {
    let problem = problems::build(request.problem, &[]).unwrap();
    seeded_run(problem.as_ref(), engine, request)
}

/// [`traced_run`] on a `problem` already built (with parameters of its own); the request's
/// problem name is not read.
pub fn seeded_run(
    problem: &dyn Problem,
    engine: &dyn Engine,
    request: &RunRequest<'_>,
) -> (RunSummary, Vec<Value>) {
    let mut algorithm = algorithms::build(request.algo, request.params).unwrap();
    let config = RunConfig {
        budget: request.budget,
        init: request.init,
        seed: request.seed,
        design_seed: request.seed,
        parallel: Default::default(),
    };
    run_to_trace(problem, algorithm.as_mut(), request.algo, engine, &config)
}

/// Runs `algorithm` (named `algo` in the trace) on `problem` with `config` on `engine`, through
/// a trace file of its own that is removed afterwards, and returns the summary and the trace
/// lines (header first): what every test of a whole run reads back.
pub fn run_to_trace(
    problem: &dyn Problem,
    algorithm: &mut dyn Algorithm,
    algo: &str,
    engine: &dyn Engine,
    config: &RunConfig,
) -> (RunSummary, Vec<Value>) {
    let unique = RUN_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("bosweep-runs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{unique}-{algo}-{}.jsonl", problem.name()));
    let mut trace = TraceWriter::create(&path).unwrap();
    let summary = run(problem, algorithm, algo, engine, config, &mut trace).unwrap();
    drop(trace);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (summary, lines)
}

/// The step lines of a trace, without its header.
pub fn steps(mut lines: Vec<Value>) -> Vec<Value> {
    lines.remove(0);
    lines
}

/// The trace without the wall-clock fields, which are the only ones a rerun may change.
pub fn without_timings(lines: &[Value]) -> Vec<Value> {
    lines
        .iter()
        .map(|l| {
            let mut l = l.clone();
            if let Some(o) = l.as_object_mut() {
                for field in StepRecord::TIMINGS {
                    o.remove(field);
                }
            }
            l
        })
        .collect()
}

/// Runs `algo` (with `params`) on `problem` on the CPU and returns the summary and the trace
/// lines (header first).
pub fn cpu_run(
    algo: &str,
    params: &[(&str, ParamValue)],
    problem: &str,
    budget: usize,
    init: usize,
    seed: u64,
) -> (RunSummary, Vec<Value>) {
    let request = RunRequest {
        algo,
        params,
        problem,
        budget,
        init,
        seed,
    };
    traced_run(&CpuEngine::new(), &request)
}

/// `|a − b| / |b|`, the relative error of `a` against the reference `b` (a zero reference
/// makes any difference infinite).
pub fn rel_err(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(f64::MIN_POSITIVE)
}

/// The median of `v` (the mean of the middle two of an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// Small acquisition grids for the GP algorithms, which keep debug-build runs short.
pub fn fast_acquisition() -> Vec<(&'static str, ParamValue)> {
    vec![
        ("grid_size", ParamValue::Number(256.0)),
        ("top_k", ParamValue::Number(2.0)),
        ("max_iters", ParamValue::Number(20.0)),
    ]
}

/// Whether the tests that run every registered algorithm run `name`: all but the peer
/// libraries', which need the bosweep Python package and the library installed
/// (crates/python/tests/test_adapters.py runs them).
pub fn runs_without_python(name: &str) -> bool {
    bosweep::algorithms::find_peer(name).is_none()
}

/// The parameters an algorithm cannot be built without, for the tests that build every
/// registered algorithm: the `command` optimiser's command, the worked Python example of
/// `sweeps/examples` (so those tests need `python3`, which `.ci/test` installs).
pub fn required_parameters(name: &str) -> Vec<(&'static str, ParamValue)> {
    if name == "command" {
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("sweeps/examples/random_search.py");
        vec![(
            "cmd",
            ParamValue::Text(format!("python3 '{}'", script.display())),
        )]
    } else {
        Vec::new()
    }
}

/// The `q` points a batch asks for from an optimiser over the unit square built from `builder`
/// (its settings, sense and seed) once it has been told `f` at its 6-point initial design: the
/// batch tests' common start.
pub fn batch_after_design(
    builder: OptimizerBuilder,
    f: impl Fn(&[f64]) -> f64,
    q: usize,
) -> Vec<Vec<f64>> {
    let mut opt = builder
        .bounds(&[(0.0, 1.0), (0.0, 1.0)])
        .init(6)
        .build()
        .unwrap();
    for x in opt.ask(6).unwrap() {
        opt.tell(&x, f(&x)).unwrap();
    }
    opt.ask(q).unwrap()
}

/// The error an optimiser of `settings` over [0, 1] is refused with: how the settings tests see
/// a parameter's check.
pub fn build_error(settings: impl AlgorithmSettings + 'static) -> OptimizerError {
    Optimizer::builder(settings)
        .bounds(&[(0.0, 1.0)])
        .build()
        .err()
        .unwrap()
}

/// Asserts that no two of `points` lie within `min_distance` of each other (Euclidean), naming
/// `what` the points are where two do.
pub fn assert_apart(points: &[Vec<f64>], min_distance: f64, what: &str) {
    for (i, a) in points.iter().enumerate() {
        for b in &points[..i] {
            let distance = a.iter().zip(b).map(|(u, v)| (u - v).powi(2)).sum::<f64>();
            assert!(
                distance.sqrt() > min_distance,
                "{what}: {a:?} within {min_distance} of {b:?}"
            );
        }
    }
}

/// A maximisation problem without parameters made of plain functions, for the tests of what the
/// run loop and the optimisers do with a problem's answers: an exact objective over finite
/// allowed sets, or an objective that fails the way an external command can.
#[derive(Debug)]
pub struct TestProblem {
    /// The problem's name in traces and messages.
    pub name: &'static str,
    /// The box of its points.
    pub domain: Domain,
    /// What an evaluation at `x` returns: [`observed_exactly`], or a failure.
    pub observe: fn(&TestProblem, &[f64], &Step) -> Result<Observation, ProblemError>,
    /// The noise-free objective, where the problem tells it (`None`: a black box).
    pub objective: Option<fn(&[f64]) -> f64>,
    /// The allowed sets, taken in turn by the step number `t` (`sets[t % sets.len()]`); none:
    /// the whole box.
    pub sets: Vec<Points>,
    /// Whether the problem tells its optimum (the allowed set's best point) or, like an unknown
    /// black box, does not.
    pub knows_optimum: bool,
}

/// A [`TestProblem`]'s objective at `x`, observed without noise.
pub fn observed_exactly(
    problem: &TestProblem,
    x: &[f64],
    _step: &Step,
) -> Result<Observation, ProblemError> {
    Ok(Observation::new(
        vec![(problem.objective.unwrap())(x)],
        None,
    ))
}

impl Problem for TestProblem {
    fn name(&self) -> &str {
        self.name
    }

    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Maximize
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        Vec::new()
    }

    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        _rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        (self.observe)(self, x, step)
    }

    fn objective_of_interest(&self, x: &[f64], _t: usize) -> Option<f64> {
        self.objective.map(|f| f(x))
    }

    fn optimum(&self, t: usize) -> Option<Optimum> {
        let f = self.objective.filter(|_| self.knows_optimum)?;
        let set = self.allowed_set(t).unwrap();
        let best = (0..set.rows())
            .map(|i| set.row(i))
            .max_by(|a, b| f(a).total_cmp(&f(b)))
            .unwrap()
            .to_vec();
        Some(Optimum {
            value: f(&best),
            locations: vec![best],
        })
    }

    fn allowed_set(&self, t: usize) -> Option<&Points> {
        (!self.sets.is_empty()).then(|| &self.sets[t % self.sets.len()])
    }
}

/// The contextual problems of the SBO-KDE and DRBO-KDE paper (tested in
/// `tests/library/sbo_drbo_kde.rs`), named once for that file and for the classic problems'
/// tests, which leave them out.
pub const CONTEXTUAL_PROBLEMS: [&str; 6] = [
    "ackley-ctx",
    "ackley-ctx4",
    "branin-ctx",
    "hartmann-ctx",
    "hartmann-mixture-ctx",
    "newsvendor",
];

/// The numbers of a JSON array (a trace's `x`, an algorithm's weights), which must all be
/// numbers.
pub fn numbers(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("{value} is not an array"))
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

/// A GP over `dim` inputs without data, whose posterior is its prior: mean `mean`, variance
/// s²/`lambda` (its noise variance, 0.1, meets no point).
pub fn prior_gp(kernel: Kernel, dim: usize, mean: f64, lambda: f64) -> GpState {
    let spec = GpSpec::new(kernel, Noise::Homoscedastic(0.1))
        .mean(mean)
        .lambda(lambda);
    GpState::fit(Points::empty(dim).unwrap(), &[], spec).unwrap()
}

/// The algorithm `settings` build, and the one the registry builds from `keys`, record the same
/// parameters (the trace header's `algorithm_parameters`).
pub fn same_parameters(settings: &dyn AlgorithmSettings, keys: &[(&str, ParamValue)]) {
    let typed = settings.build().unwrap().parameters();
    let registry = algorithms::build(settings.name(), keys)
        .unwrap()
        .parameters();
    assert_eq!(typed, registry, "{}", settings.name());
}

/// A GP of BoTorch's on `train` and targets `y` as a reference script wrote it (`held`: its
/// RBF `lengthscales`, `signal_var`, `noise_var`, constant `mean` and its Standardize's
/// `standardize_mean` and `standardize_std`): bosweep's GpState on the standardised targets
/// with those numbers, and the standardisation, checked against BoTorch's to 1e-14.
pub fn held_gp(train: &Points, y: &[f64], held: &Value) -> (GpState, OutputTransform) {
    let number = |key: &str| held[key].as_f64().unwrap();
    let output = OutputTransform::standardize(y);
    assert!((output.mean - number("standardize_mean")).abs() < 1e-14);
    assert!((output.std / number("standardize_std") - 1.0).abs() < 1e-14);
    let z: Vec<f64> = y.iter().map(|v| output.forward(*v)).collect();
    let lengthscales: Vec<f64> = serde_json::from_value(held["lengthscales"].clone()).unwrap();
    let kernel = Kernel::new(
        KernelKind::SquaredExponential,
        lengthscales,
        number("signal_var"),
    )
    .unwrap();
    let spec = GpSpec::new(kernel, Noise::Homoscedastic(number("noise_var"))).mean(number("mean"));
    (GpState::fit(train.clone(), &z, spec).unwrap(), output)
}

/// Each of `gps` with its standardisation, as the acquisitions read outcome models.
pub fn outcome_models<'a>(
    gps: &'a [GpState],
    outputs: &[OutputTransform],
) -> Vec<bosweep::acquisition::ObjectiveModel<'a>> {
    gps.iter()
        .zip(outputs)
        .map(|(gp, output)| bosweep::acquisition::ObjectiveModel {
            gp,
            output: *output,
        })
        .collect()
}

/// The largest error of `got` against `expected`, relative to each expected value's magnitude
/// or `floor` where that is smaller.
pub fn largest_error(got: &[f64], expected: &[f64], floor: f64) -> f64 {
    assert_eq!(got.len(), expected.len());
    got.iter()
        .zip(expected)
        .map(|(g, e)| (g - e).abs() / e.abs().max(floor))
        .fold(0.0, f64::max)
}
