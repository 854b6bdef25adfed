//! Baseline BO through the run loop: reproducibility, the trace schema of docs/conventions.md,
//! GP-UCB against random search, and CPU/GPU agreement.

use crate::common;

use bosweep::compute::{CpuEngine, Engine};
use bosweep::params::ParamValue;
use bosweep::sweep::RunSummary;
use common::{RunRequest, required_parameters, runs_without_python, without_timings};
use serde_json::Value;

/// Runs `algo` with its defaults on `problem` (see [`common::traced_run`]).
fn traced_run(
    engine: &dyn Engine,
    algo: &str,
    problem: &str,
    budget: usize,
    init: usize,
    seed: u64,
) -> (RunSummary, Vec<Value>) {
    common::traced_run(
        engine,
        &RunRequest {
            algo,
            params: &[],
            problem,
            budget,
            init,
            seed,
        },
    )
}

#[test]
fn same_seed_gives_the_same_trace_on_the_cpu() {
    let cpu = CpuEngine::new();
    for algo in ["random", "gp-ucb", "ei", "logei"] {
        let (_, a) = traced_run(&cpu, algo, "branin", 14, 5, 3);
        let (_, b) = traced_run(&cpu, algo, "branin", 14, 5, 3);
        assert_eq!(without_timings(&a), without_timings(&b), "{algo}");
        let (_, c) = traced_run(&cpu, algo, "branin", 14, 5, 4);
        assert_ne!(
            without_timings(&a)[1..],
            without_timings(&c)[1..],
            "{algo}: seeds 3 and 4 agree"
        );
    }
}

#[test]
fn trace_follows_the_conventions() {
    let cpu = CpuEngine::new();
    let (summary, lines) = traced_run(&cpu, "gp-ucb", "branin", 12, 4, 1);
    let header = &lines[0]["header"];
    for key in [
        "algorithm",
        "algorithm_parameters",
        "problem",
        "problem_parameters",
        "seed",
        "device",
        "bosweep_version",
    ] {
        assert!(!header[key].is_null(), "header lacks {key}");
    }
    assert_eq!(header["algorithm_parameters"]["ucb_multiplier"], 2.0);
    let steps = &lines[1..];
    assert_eq!(steps.len(), 12);
    let optimum = 5.0 / (4.0 * std::f64::consts::PI);
    let mut cumulative = 0.0;
    let mut best = f64::INFINITY;
    for (i, s) in steps.iter().enumerate() {
        for key in [
            "iter",
            "phase",
            "x",
            "y",
            "repeats",
            "evals",
            "context",
            "t",
            "f",
            "best_value",
            "recommended_x",
            "instant_regret",
            "cumulative_regret",
            "simple_regret",
            "model_seconds",
            "acq_seconds",
            "extra",
        ] {
            assert!(s.get(key).is_some(), "step {i} lacks {key}");
        }
        assert_eq!(s["iter"], i + 1);
        assert_eq!(s["phase"], if i < 4 { "init" } else { "opt" });
        assert_eq!(s["evals"], i + 1);
        assert!(s["t"].is_null() && s["context"].is_null());
        let f = s["f"].as_f64().unwrap();
        assert_eq!(f, s["y"].as_f64().unwrap(), "noise-free: y is f");
        let instant = s["instant_regret"].as_f64().unwrap();
        assert!((instant - (f - optimum)).abs() < 1e-12 && instant >= 0.0);
        cumulative += instant;
        assert!((s["cumulative_regret"].as_f64().unwrap() - cumulative).abs() < 1e-9);
        best = best.min(f);
        assert_eq!(s["best_value"].as_f64().unwrap(), best);
        assert!(s["simple_regret"].as_f64().unwrap() >= 0.0);
    }
    assert_eq!(summary.evals, 12);
    assert_eq!(
        summary.cumulative_regret.unwrap(),
        steps[11]["cumulative_regret"].as_f64().unwrap()
    );
}

/// The check: on Branin with 10 fixed seeds, GP-UCB's median final simple regret after
/// 50 evaluations is below random search's.
#[test]
fn gp_ucb_beats_random_search_on_branin() {
    let cpu = CpuEngine::new();
    let median = |algo: &str| {
        let mut regrets: Vec<f64> = (0..10)
            .map(|seed| {
                traced_run(&cpu, algo, "branin", 50, 10, seed)
                    .0
                    .simple_regret
                    .unwrap()
            })
            .collect();
        regrets.sort_by(f64::total_cmp);
        (regrets[4] + regrets[5]) / 2.0
    };
    let (ucb, random) = (median("gp-ucb"), median("random"));
    assert!(
        ucb < random,
        "GP-UCB median regret {ucb} not below random's {random}"
    );
    assert!(ucb < 1e-2, "GP-UCB median regret {ucb}");
}

/// Same decisions on both backends, up to ties: compared with the GPU in f64, where the
/// posteriors agree to ~1e-14 (f32 rounding can reorder near-tied grid points).
#[test]
fn cpu_and_gpu_make_the_same_decisions() {
    let Some(gpu) = common::gpu_f64() else {
        return;
    };
    let cpu = CpuEngine::new();
    for algo in ["gp-ucb", "ei", "logei"] {
        let (_, a) = traced_run(&cpu, algo, "branin", 12, 5, 2);
        let (_, b) = traced_run(&gpu, algo, "branin", 12, 5, 2);
        for (s, t) in a[1..].iter().zip(&b[1..]) {
            let (x, y): (Vec<f64>, Vec<f64>) = (
                serde_json::from_value(s["x"].clone()).unwrap(),
                serde_json::from_value(t["x"].clone()).unwrap(),
            );
            let gap = x
                .iter()
                .zip(&y)
                .map(|(p, q)| (p - q).abs())
                .fold(0.0, f64::max);
            assert!(gap < 1e-4, "{algo} step {}: {x:?} vs {y:?}", s["iter"]);
        }
    }
}

/// LogEI is EI on BoTorch's default model (both take BoTorch's maximiser): given EI's model
/// (its kernel, outputscale, fit, start and noise floor), a LogEI run makes EI's decisions step
/// for step; with its own defaults it fits other hyperparameters.
#[test]
fn logei_is_ei_on_botorchs_default_model() {
    let cpu = CpuEngine::new();
    let run = |algo, params: &[(&str, ParamValue)]| {
        let request = RunRequest {
            algo,
            params,
            problem: "hartmann3",
            budget: 14,
            init: 6,
            seed: 5,
        };
        let (_, trace) = common::traced_run(&cpu, &request);
        trace[1..]
            .iter()
            .map(|step| (step["x"].clone(), step["extra"]["lengthscales"].clone()))
            .collect::<Vec<_>>()
    };
    let eis_model = [
        ("kernel", ParamValue::Text("matern52".into())),
        ("outputscale", ParamValue::Text("true".into())),
        ("fit", ParamValue::Text("map".into())),
        ("start_at_prior_mode", ParamValue::Text("false".into())),
        ("min_noise_var", ParamValue::Number(1e-6)),
    ];
    let ei = run("ei", &[]);
    assert_eq!(run("logei", &eis_model), ei);
    let log_ei = run("logei", &[]);
    assert_eq!(log_ei[..6], ei[..6], "the initial design is shared");
    assert_ne!(
        log_ei[6].1, ei[6].1,
        "BoTorch's priors fit other lengthscales"
    );
}

/// Without an initial design the GP methods have nothing to fit: their first point is drawn
/// uniformly (from the allowed set where there is one), as random search draws it, and the
/// model takes over from the second step, on a box and on a finite, time-varying set alike.
#[test]
fn gp_methods_start_without_an_initial_design() {
    let cpu = CpuEngine::new();
    for problem in ["branin", "pe-toy"] {
        for algo in ["gp-ucb", "ei", "logei", "qlognei"] {
            let (summary, trace) = traced_run(&cpu, algo, problem, 4, 0, 3);
            assert_eq!(summary.steps, 4, "{algo} on {problem}");
            let (_, random) = traced_run(&cpu, "random", problem, 1, 0, 3);
            assert_eq!(trace[1]["phase"], "opt", "{algo} on {problem}");
            assert_eq!(trace[1]["x"], random[1]["x"], "{algo} on {problem}");
            assert!(
                trace[2]["extra"]["lengthscales"].is_array(),
                "{algo} on {problem}: the second step is the model's"
            );
        }
    }
}

/// Runs with one seed start from the same initial design whatever the algorithm, so that
/// methods are compared on paired designs.
#[test]
fn algorithms_share_the_initial_design_of_a_seed() {
    let engine = CpuEngine::new();
    let init_points = |algo: &str| {
        let request = RunRequest {
            algo,
            params: &[],
            problem: "branin",
            budget: 6,
            init: 4,
            seed: 11,
        };
        let (_, lines) = common::traced_run(&engine, &request);
        lines[1..5]
            .iter()
            .map(|l| l["x"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(init_points("random"), init_points("gp-ucb"));
    assert_eq!(init_points("random"), init_points("boke"));
}

/// A problem that counts its evaluation steps, so that a [`Spy`] engine knows how many
/// observations the algorithm has been told at any moment (the runner tells each step right
/// after evaluating it, before asking for the recommendation).
#[derive(Debug)]
struct Counted {
    inner: Box<dyn bosweep::problems::Problem>,
    steps: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl bosweep::problems::Problem for Counted {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn domain(&self) -> &bosweep::problems::Domain {
        self.inner.domain()
    }
    fn sense(&self) -> bosweep::problems::Sense {
        self.inner.sense()
    }
    fn parameters(&self) -> Vec<(String, ParamValue)> {
        self.inner.parameters()
    }
    fn observe(
        &self,
        x: &[f64],
        step: &bosweep::problems::Step,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Result<bosweep::problems::Observation, bosweep::problems::ProblemError> {
        let observation = self.inner.observe(x, step, rng)?;
        self.steps.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(observation)
    }
    fn objective_of_interest(&self, x: &[f64], t: usize) -> Option<f64> {
        self.inner.objective_of_interest(x, t)
    }
    fn objectives(&self) -> Option<&bosweep::problems::Objectives> {
        self.inner.objectives()
    }
    fn objective_values(&self, x: &[f64], t: usize) -> Option<Vec<f64>> {
        self.inner.objective_values(x, t)
    }
    fn optimum(&self, t: usize) -> Option<bosweep::problems::Optimum> {
        self.inner.optimum(t)
    }
    fn allowed_set(&self, t: usize) -> Option<&bosweep::compute::Points> {
        self.inner.allowed_set(t)
    }
    fn time_varying(&self) -> bool {
        self.inner.time_varying()
    }
    fn context_domain(&self) -> Option<&bosweep::problems::Domain> {
        self.inner.context_domain()
    }
    fn candidate_priors(&self) -> Option<std::sync::Arc<bosweep::model::CandidatePriors>> {
        self.inner.candidate_priors()
    }
    fn risk_aversion(&self) -> Option<f64> {
        self.inner.risk_aversion()
    }
    fn noise_variance(&self) -> Option<bosweep::problems::NoiseVariance> {
        self.inner.noise_variance()
    }
}

/// The CPU engine, noting every model it is asked to score with fewer data points than the
/// observations told so far: GPs in posteriors and pair reductions, and kernel-regression data.
struct Spy {
    cpu: CpuEngine,
    steps: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    stale: std::sync::Mutex<Vec<String>>,
    /// A-GP-UCB checks its lengthscales by predicting the newest observation from all the
    /// others (`uhe_bo::adaptive_scale`): one candidate, a model missing exactly that point.
    predicts_newest_from_the_rest: bool,
}

impl Spy {
    fn check(&self, operation: &str, rows: usize) {
        self.check_query(operation, rows, usize::MAX);
    }

    fn check_query(&self, operation: &str, rows: usize, candidates: usize) {
        let told = self.steps.load(std::sync::atomic::Ordering::SeqCst);
        let leave_newest_out = self.predicts_newest_from_the_rest && rows + 1 == told;
        if rows < told && !(leave_newest_out && candidates == 1) {
            self.stale.lock().unwrap().push(format!(
                "{operation} with a model of {rows} points after {told} observations"
            ));
        }
    }
}

impl Engine for Spy {
    fn describe(&self) -> String {
        self.cpu.describe()
    }
    fn cross_covariance(
        &self,
        kernel: &bosweep::model::Kernel,
        a: &bosweep::compute::Points,
        b: &bosweep::compute::Points,
    ) -> Result<nalgebra::DMatrix<f64>, bosweep::compute::EngineError> {
        self.cpu.cross_covariance(kernel, a, b)
    }
    fn posterior_batch(
        &self,
        gps: &[&bosweep::model::GpState],
        candidates: &bosweep::compute::Points,
    ) -> Result<Vec<bosweep::compute::Posterior>, bosweep::compute::EngineError> {
        for gp in gps {
            self.check_query("posterior", gp.train().rows(), candidates.rows());
        }
        self.cpu.posterior_batch(gps, candidates)
    }
    fn pair_reduce(
        &self,
        gp: &bosweep::model::GpState,
        decisions: &bosweep::compute::Points,
        contexts: &bosweep::compute::Points,
        beta: f64,
        reduction: bosweep::compute::PairReduction<'_>,
    ) -> Result<Vec<f64>, bosweep::compute::EngineError> {
        self.check("pair reduction", gp.train().rows());
        self.cpu
            .pair_reduce(gp, decisions, contexts, beta, reduction)
    }
    fn kde_log_density(
        &self,
        data: &bosweep::compute::Points,
        bandwidths: &[f64],
        weights: Option<&[f64]>,
        queries: &bosweep::compute::Points,
    ) -> Result<Vec<f64>, bosweep::compute::EngineError> {
        self.cpu.kde_log_density(data, bandwidths, weights, queries)
    }
    fn kernel_regression(
        &self,
        data: &bosweep::compute::Points,
        targets: &[f64],
        kernel: bosweep::model::SmoothingKernel,
        bandwidth: f64,
        queries: &bosweep::compute::Points,
    ) -> Result<bosweep::compute::KernelRegression, bosweep::compute::EngineError> {
        self.check("kernel regression", data.rows());
        self.cpu
            .kernel_regression(data, targets, kernel, bandwidth, queries)
    }
    fn nearest(
        &self,
        data: &bosweep::compute::Points,
        queries: &bosweep::compute::Points,
    ) -> Result<Vec<usize>, bosweep::compute::EngineError> {
        self.cpu.nearest(data, queries)
    }
    fn top_k(&self, values: &[f64], k: usize) -> Result<Vec<usize>, bosweep::compute::EngineError> {
        self.cpu.top_k(values, k)
    }
    fn sample_path_maxima(
        &self,
        paths: &bosweep::compute::SamplePaths<'_>,
        candidates: &bosweep::compute::Points,
        excluded: &[usize],
    ) -> Result<Vec<bosweep::compute::PathMaximum>, bosweep::compute::EngineError> {
        self.check_query("sample paths", paths.train.rows(), candidates.rows());
        self.cpu.sample_path_maxima(paths, candidates, excluded)
    }
    fn log_hypervolume_improvement(
        &self,
        cells: &bosweep::compute::SampleCells,
        draws: &[f64],
        smoothing: bosweep::compute::ImprovementSmoothing,
    ) -> Result<Vec<f64>, bosweep::compute::EngineError> {
        self.cpu
            .log_hypervolume_improvement(cells, draws, smoothing)
    }
}

/// A problem each algorithm runs on, and the evaluations per step.
fn problem_for(name: &str) -> (&'static str, usize) {
    match name {
        "sbo-kde" | "drbo-kde" | "drbo-mmd-minimax" | "drbo-mmd" | "stableopt" => ("newsvendor", 1),
        "rahbo" | "rahbo-known-var" | "rahbo-us" | "gp-ucb-hetero" => ("sine-hetero", 3),
        "pe-gp-ucb" | "regret-balancing" | "mle-gp-ucb" | "fully-bayes-gp-ucb"
        | "oracle-gp-ucb" => ("pe-toy", 1),
        // Methods for several objectives only.
        "qlognehvi" | "qlognparego" => ("branin-currin", 1),
        _ => ("branin", 1),
    }
}

fn light_parameters(
    entry: &bosweep::algorithms::AlgorithmEntry,
) -> Vec<(&'static str, ParamValue)> {
    let context_grid = entry.name.starts_with("drbo-mmd");
    let light: [(&'static str, f64); 10] = [
        ("grid_size", if context_grid { 16.0 } else { 256.0 }),
        ("top_k", 2.0),
        ("max_iters", 20.0),
        ("raw_samples", 64.0),
        ("restarts", 2.0),
        ("samples", 64.0),
        ("infimum_points", 32.0),
        ("mcmc_burn_in", 20.0),
        ("mcmc_samples", 3.0),
        ("k", 3.0),
    ];
    light
        .into_iter()
        .filter(|(name, _)| entry.parameters().iter().any(|p| p.name == *name))
        .map(|(name, v)| (name, ParamValue::Number(v)))
        .chain(required_parameters(entry.name))
        .collect()
}

/// Issue 15: no algorithm scores its recommendation (or its next point) by a model that is
/// missing observations it has been told. Before the fix GP-UCB, EI and the contextual methods
/// recommended from the model fitted in `ask`, which had not seen the newest observation.
#[test]
fn no_recommendation_is_scored_by_a_model_missing_observations() {
    use bosweep::sweep::{RunConfig, TraceWriter, run};
    let mut checked = 0;
    for entry in bosweep::algorithms::registry().filter(|e| runs_without_python(e.name)) {
        let (problem_name, repeats) = problem_for(entry.name);
        let steps = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let problem = Counted {
            inner: bosweep::problems::build(problem_name, &[]).unwrap(),
            steps: steps.clone(),
        };
        let spy = Spy {
            cpu: CpuEngine::new(),
            steps,
            stale: std::sync::Mutex::new(Vec::new()),
            predicts_newest_from_the_rest: entry.name == "a-gp-ucb",
        };
        let mut algorithm = entry.build(&light_parameters(entry)).unwrap();
        let init = if problem_name == "pe-toy" { 0 } else { 5 };
        let config = RunConfig {
            budget: (init + 4) * repeats,
            init,
            seed: 1,
            design_seed: 1,
            parallel: Default::default(),
        };
        let mut trace = TraceWriter::to_writer(Box::new(std::io::sink()));
        run(
            &problem,
            algorithm.as_mut(),
            entry.name,
            &spy,
            &config,
            &mut trace,
        )
        .unwrap_or_else(|e| panic!("{} on {problem_name}: {e}", entry.name));
        let stale = spy.stale.into_inner().unwrap();
        assert!(
            stale.is_empty(),
            "{} on {problem_name}: {stale:?}",
            entry.name
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} algorithms checked");
}

/// Issue 15: ML-II ran lengthscales to the bounds of the unit-cube box [1e-3, 1e3] on small
/// designs (every Hartmann-6 run of docs/studies/fit-default.md). The default fit is MAP with
/// BoTorch's priors, which keeps them inside; `fit=mle` still shows the failure it avoids.
#[test]
fn default_fit_keeps_lengthscales_off_their_bounds() {
    let cpu = CpuEngine::new();
    let at_bound_steps = |lines: &[Value]| {
        lines[1..]
            .iter()
            .filter(|l| l["phase"] == "opt")
            .filter(|l| {
                // Hartmann-6's box is the unit cube: original lengthscales are unit-cube ones.
                l["extra"]["lengthscales"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|v| !(1.01e-3..0.99e3).contains(&v.as_f64().unwrap()))
            })
            .count()
    };
    let mut mle_at_bounds = 0;
    for algo in ["gp-ucb", "ei"] {
        for seed in 1..=3 {
            let run = |fit: Option<&str>| {
                let mut params = common::fast_acquisition();
                params.extend(fit.map(|f| ("fit", ParamValue::from(f))));
                let request = RunRequest {
                    algo,
                    params: &params,
                    problem: "hartmann6",
                    budget: 20,
                    init: 10,
                    seed,
                };
                common::traced_run(&cpu, &request).1
            };
            let default = run(None);
            assert_eq!(default[0]["header"]["algorithm_parameters"]["fit"], "map");
            assert_eq!(at_bound_steps(&default), 0, "{algo} seed {seed}");
            mle_at_bounds += at_bound_steps(&run(Some("mle")));
        }
    }
    assert!(
        mle_at_bounds >= 10,
        "ML-II at a bound in {mle_at_bounds} steps"
    );
}

/// GP-UCB's fit starts at the previous step's optimum: with `warm_start` the random starts run
/// while there are at most `restarts_until` observations and the warm start alone after; without
/// it every step fits from 1 + `fit_restarts` starts. The trace records both per step.
#[test]
fn warm_started_fits_drop_their_random_starts_past_the_threshold() {
    let cpu = CpuEngine::new();
    let run = |warm: bool| {
        let mut params = common::fast_acquisition();
        params.push((
            "warm_start",
            ParamValue::from(if warm { "true" } else { "false" }),
        ));
        params.push(("restarts_until", ParamValue::from(12.0)));
        params.push(("fit_restarts", ParamValue::from(2.0)));
        let request = RunRequest {
            algo: "gp-ucb",
            params: &params,
            problem: "branin",
            budget: 18,
            init: 8,
            seed: 4,
        };
        common::traced_run(&cpu, &request).1
    };
    let starts_and_evaluations = |lines: &[Value]| -> Vec<(usize, u64, u64)> {
        lines[1..]
            .iter()
            .filter(|l| l["phase"] == "opt")
            .map(|l| {
                (
                    l["evals"].as_u64().unwrap() as usize - 1,
                    l["extra"]["fit_starts"].as_u64().unwrap(),
                    l["extra"]["fit_evaluations"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    let warm = starts_and_evaluations(&run(true));
    let cold = starts_and_evaluations(&run(false));
    assert_eq!(warm.len(), 10);
    for (observed, starts, _) in &warm {
        // The first fit has no previous optimum: the initial values and the random starts.
        let expected = if *observed <= 12 { 3 } else { 1 };
        assert_eq!(*starts, expected, "{observed} observations: {warm:?}");
    }
    assert!(cold.iter().all(|(_, starts, _)| *starts == 3), "{cold:?}");
    let evaluations = |steps: &[(usize, u64, u64)]| steps.iter().map(|s| s.2).sum::<u64>();
    assert!(
        evaluations(&warm) < evaluations(&cold),
        "warm {warm:?} cold {cold:?}"
    );
}

/// The CPU engine, counting the operations that reach it.
#[derive(Default)]
struct Counting {
    cpu: CpuEngine,
    calls: std::sync::atomic::AtomicUsize,
}

impl bosweep::compute::EngineLayer for Counting {
    fn inner(&self) -> &dyn Engine {
        &self.cpu
    }

    fn dispatch<T>(
        &self,
        _gps: &[&bosweep::model::GpState],
        _work: &bosweep::compute::Work,
        op: impl Fn(&dyn Engine) -> Result<T, bosweep::compute::EngineError>,
    ) -> Result<T, bosweep::compute::EngineError> {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        op(&self.cpu)
    }
}

/// L-BFGS refinement of the grid maxima runs on the f64 reference engine the run hands in
/// (`AskContext::reference`), the grid on the run's engine; no algorithm makes its own.
#[test]
fn refinement_runs_on_the_reference_engine_the_run_hands_in() {
    use bosweep::algorithms::{AskContext, Feedback};
    use rand::SeedableRng;
    let calls_of = |algorithm: &str, grid: &str, refine: &str| {
        let mut algo = bosweep::algorithms::build(
            algorithm,
            &[(grid, 64.0.into()), ("refine", refine.into())],
        )
        .unwrap();
        let domain = bosweep::problems::Domain::new(vec![0.0, 0.0], vec![1.0, 1.0]).unwrap();
        for (t, x) in [[0.1, 0.2], [0.8, 0.3], [0.4, 0.9], [0.6, 0.6], [0.2, 0.7]]
            .iter()
            .enumerate()
        {
            let y = -(x[0] - 0.3f64).powi(2) - (x[1] - 0.6f64).powi(2);
            algo.tell(&Feedback {
                x,
                y,
                repeats: &[y],
                context: None,
                t: t + 1,
                objectives: &[],
                constraints: &[],
            })
            .unwrap();
        }
        let (engine, reference) = (Counting::default(), Counting::default());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        algo.ask(&mut AskContext {
            engine: &engine,
            reference: &reference,
            domain: &domain,
            allowed: None,
            t: 6,
            pending: &[],
            rng: &mut rng,
        })
        .unwrap();
        let count = |e: &Counting| e.calls.load(std::sync::atomic::Ordering::SeqCst);
        (count(&engine), count(&reference))
    };
    // `ei` and `logei` ascend on the acquisition's analytic gradient, computed in f64 on the
    // CPU with no engine call; the methods below ascend on central differences.
    for (algorithm, grid) in [
        ("gp-ucb", "grid_size"),
        ("map-gp-ucb", "grid_size"),
        ("gp-ucb-fixed", "candidates"),
    ] {
        let (on_engine, on_reference) = calls_of(algorithm, grid, "true");
        assert!(on_engine > 0, "{algorithm}: the grid ran elsewhere");
        assert!(
            on_reference > 0,
            "{algorithm}: refinement missed the reference engine"
        );
        let (_, reference) = calls_of(algorithm, grid, "false");
        assert_eq!(reference, 0, "{algorithm}: refine = false still refined");
    }
}
