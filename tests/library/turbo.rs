//! TuRBO-1 (`turbo`): runs on Branin and Hartmann-6 repeat from their seed, stay in the box and
//! improve on their initial design; synchronous batches give distinct points and count the
//! region once per batch; the GPU backend chooses what the CPU chooses; the typed settings are
//! the registry's declaration. SCBO (`scbo`, and `turbo` on a constrained problem) repeats
//! from its seed and ends feasible; the pathwise sampler is refused on constraints.

use bosweep::algorithms::{self, Optimizer, ThompsonSampler, Turbo};
use bosweep::compute::{CpuEngine, Engine};
use bosweep::params::ParamValue;
use bosweep::problems;
use bosweep::sweep::{Parallel, RunConfig};
use serde_json::Value;

use crate::common::{self, gpu_f64, median, numbers, run_to_trace, steps, without_timings};

/// What one traced run is: its budget, initial design and seed, and its batches.
#[derive(Clone, Copy)]
struct Setup {
    budget: usize,
    init: usize,
    seed: u64,
    batch: usize,
}

/// A run of `turbo` with `params` on `problem` (its defaults) on `engine`: the trace's step
/// lines.
fn traced(
    engine: &dyn Engine,
    problem: &str,
    params: &[(&str, ParamValue)],
    setup: Setup,
) -> Vec<Value> {
    let problem = problems::build(problem, &[]).unwrap();
    let mut algorithm = algorithms::build("turbo", params).unwrap();
    let config = RunConfig {
        budget: setup.budget,
        init: setup.init,
        seed: setup.seed,
        design_seed: setup.seed,
        parallel: Parallel {
            batch: setup.batch,
            ..Parallel::default()
        },
    };
    let (_, lines) = run_to_trace(
        problem.as_ref(),
        algorithm.as_mut(),
        "turbo",
        engine,
        &config,
    );
    steps(lines)
}

/// The lowest `y` (both problems are minimised) among the steps of `phase`.
fn lowest(lines: &[Value], phase: &str) -> f64 {
    lines
        .iter()
        .filter(|l| l["phase"] == phase)
        .map(|l| l["y"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min)
}

/// On Branin (2-d, 30 evaluations from 6 design points) and Hartmann-6 (40 from 12) the same
/// seed gives the same trace, every point lies in the box, and the algorithm's best beats the
/// initial design's.
#[test]
fn runs_repeat_from_their_seed_stay_in_the_box_and_improve_on_the_design() {
    let cpu = CpuEngine::new();
    for (problem, budget, init) in [("branin", 30, 6), ("hartmann6", 40, 12)] {
        let setup = Setup {
            budget,
            init,
            seed: 1,
            batch: 1,
        };
        let lines = traced(&cpu, problem, &[], setup);
        assert_eq!(lines.len(), budget);
        assert_eq!(
            without_timings(&lines),
            without_timings(&traced(&cpu, problem, &[], setup)),
            "{problem}: the same seed gave a different trace"
        );
        let domain = problems::build(problem, &[]).unwrap().domain().clone();
        assert!(lines.iter().all(|l| domain.contains(&numbers(&l["x"]))));
        let (design, found) = (lowest(&lines, "init"), lowest(&lines, "opt"));
        println!("{problem}: design best {design}, turbo best {found}");
        assert!(found < design, "{problem}: {found} against {design}");
        let last = &lines[budget - 1]["extra"];
        assert_eq!(last["batch"], 1);
        assert!(last["length"].as_f64().unwrap() > 0.0);
    }
}

/// In batches of 4 on Branin every point is new, the trace reports the batch size and the
/// failure tolerance ⌈max(4/4, 2/4)⌉ = 1, and the side length changes only between batches.
#[test]
fn batches_of_four_are_distinct_points_and_count_once_per_batch() {
    let setup = Setup {
        budget: 26,
        init: 6,
        seed: 2,
        batch: 4,
    };
    let lines = traced(&CpuEngine::new(), "branin", &[], setup);
    let xs: Vec<Vec<f64>> = lines.iter().map(|l| numbers(&l["x"])).collect();
    for (i, x) in xs.iter().enumerate() {
        assert!(!xs[..i].contains(x), "step {} repeats {x:?}", i + 1);
    }
    let opt: Vec<&Value> = lines
        .iter()
        .filter(|l| l["phase"] == "opt")
        .map(|l| &l["extra"])
        .collect();
    assert_eq!(opt.len(), 20);
    // A batch's four asks are logged as they were made, on one region: the same length. The
    // batch size is learnt during the first batch's asks (1, 2, 3, 4 pending + 1).
    for (i, batch) in opt.chunks(4).enumerate() {
        assert!(batch.iter().all(|e| e["length"] == batch[0]["length"]));
        assert!(batch.iter().any(|e| e["batch"] == 4), "batch {i}");
        if i > 0 {
            assert!(
                batch
                    .iter()
                    .all(|e| e["batch"] == 4 && e["failure_tolerance"] == 1)
            );
        }
    }
}

/// `Optimizer::ask(4)` hands out four distinct points inside the box, batch after batch.
#[test]
fn optimizer_batches_are_distinct_and_inside_the_box() {
    let mut opt = Optimizer::builder(Turbo::default().n_candidates(100))
        .bounds(&[(-2.0, 2.0), (0.0, 5.0), (1.0, 3.0)])
        .seed(7)
        .init(6)
        .minimize()
        .build()
        .unwrap();
    let f = |x: &[f64]| (x[0] - 0.5).powi(2) + (x[1] - 1.0).powi(2) + (x[2] - 2.5).powi(2);
    for x in opt.ask(6).unwrap() {
        opt.tell(&x, f(&x)).unwrap();
    }
    let mut seen: Vec<Vec<f64>> = Vec::new();
    for _ in 0..4 {
        let batch = opt.ask(4).unwrap();
        assert_eq!(batch.len(), 4);
        for x in &batch {
            assert!(!seen.contains(x), "{x:?} asked twice");
            assert!((-2.0..=2.0).contains(&x[0]) && (0.0..=5.0).contains(&x[1]));
            assert!((1.0..=3.0).contains(&x[2]));
            seen.push(x.clone());
        }
        for x in &batch {
            opt.tell(x, f(x)).unwrap();
        }
    }
}

/// The GPU backend in f64 (skipped without one, unless `BOSWEEP_REQUIRE_GPU=1`) makes the
/// CPU's choices: the same points in the first steps on Branin.
#[test]
fn the_gpu_backend_chooses_the_cpus_points() {
    let Some(gpu) = gpu_f64() else {
        return;
    };
    let setup = Setup {
        budget: 12,
        init: 6,
        seed: 3,
        batch: 1,
    };
    let points = |engine: &dyn Engine| -> Vec<Value> {
        traced(engine, "branin", &[], setup)
            .iter()
            .map(|l| l["x"].clone())
            .collect()
    };
    assert_eq!(points(&gpu), points(&CpuEngine::new()));
}

/// With `sampler = pathwise` on 20-dimensional Levy (40 evaluations from 10 design points)
/// over 2^14 candidates, more than the exact sampler's joint posterior takes in a test's time,
/// every run of seeds 1 to 3 ends below random search's median over the same seeds.
#[test]
fn pathwise_sampling_over_2_pow_14_candidates_beats_random_search_in_20_dimensions() {
    let cpu = CpuEngine::new();
    let params = [
        ("sampler", ParamValue::Text("pathwise".into())),
        ("n_candidates", ParamValue::Number(16384.0)),
    ];
    let run = |algo: &str, params: &[(&str, ParamValue)], seed: u64| {
        let problem = problems::build("levy", &[("dim", ParamValue::Number(20.0))]).unwrap();
        let mut algorithm = algorithms::build(algo, params).unwrap();
        let config = RunConfig {
            budget: 40,
            init: 10,
            seed,
            design_seed: seed,
            parallel: Parallel::default(),
        };
        let (_, lines) = run_to_trace(problem.as_ref(), algorithm.as_mut(), algo, &cpu, &config);
        steps(lines)
            .iter()
            .map(|l| l["y"].as_f64().unwrap())
            .fold(f64::INFINITY, f64::min)
    };
    let turbo: Vec<f64> = (1..=3).map(|s| run("turbo", &params, s)).collect();
    let random = median((1..=3).map(|s| run("random", &[], s)).collect());
    println!("turbo pathwise {turbo:?}, random median {random}");
    assert!(
        turbo.iter().all(|&t| t < random),
        "turbo {turbo:?}, random median {random}"
    );
}

/// The typed settings build what the registry builds from the same keys; lengths out of order
/// are refused naming them, and so are more candidates than the exact sampler takes.
#[test]
fn settings_are_the_registry_declaration() {
    common::same_parameters(&Turbo::default(), &[]);
    common::same_parameters(
        &Turbo::default().n_candidates(300).length_max(1.2),
        &[("n_candidates", 300.0.into()), ("length_max", 1.2.into())],
    );
    let err = common::build_error(Turbo::default().length_min(0.9));
    assert!(
        err.to_string()
            .contains("algorithm turbo: length_min = 0.9, length_init = 0.8"),
        "{err}"
    );
    common::same_parameters(
        &Turbo::default()
            .sampler(ThompsonSampler::Pathwise)
            .n_candidates(1 << 20)
            .n_features(512),
        &[
            ("sampler", ParamValue::Text("pathwise".into())),
            ("n_candidates", 1048576.0.into()),
            ("n_features", 512.0.into()),
        ],
    );
    let err = common::build_error(Turbo::default().n_candidates(20_001));
    assert!(
        err.to_string()
            .contains("n_candidates = 20001 with sampler = exact"),
        "{err}"
    );
}

/// SCBO on Gramacy et al.'s constrained problem (budget 30, 8 design points, seed 4, 256
/// candidates): the same trace twice, the timings aside; a feasible point found and recommended,
/// the recommendation the best feasible point evaluated; and `turbo` runs it too.
#[test]
fn scbo_on_constrained_gramacy_repeats_and_ends_feasible() {
    let params = [("n_candidates", ParamValue::from(256.0))];
    for algo in ["scbo", "turbo"] {
        let run = || common::cpu_run(algo, &params, "constrained-gramacy", 30, 8, 4);
        let (_, first) = run();
        let (_, second) = run();
        assert_eq!(without_timings(&first), without_timings(&second));
        let steps = steps(first);
        let last = steps.last().unwrap();
        assert_eq!(
            last["recommended_feasible"],
            Value::Bool(true),
            "{algo}: {last}"
        );
        let best = steps
            .iter()
            .filter(|s| s["feasible"] == Value::Bool(true))
            .min_by(|a, b| {
                a["y"]
                    .as_f64()
                    .unwrap()
                    .total_cmp(&b["y"].as_f64().unwrap())
            })
            .unwrap();
        assert_eq!(last["recommended_x"], best["x"], "{algo}");
        // The region's steps after the design were many feasible ones.
        let feasible = steps[8..]
            .iter()
            .filter(|s| s["feasible"] == Value::Bool(true))
            .count();
        assert!(feasible >= 5, "{algo}: {feasible} feasible of 22");
    }
}

/// The pathwise sampler keeps each path's maximum only, which a constrained draw cannot use:
/// `turbo sampler=pathwise` on a constrained problem is refused before the run, naming both.
#[test]
fn pathwise_turbo_is_refused_on_constraints() {
    let mut algorithm =
        algorithms::build("turbo", &[("sampler", ParamValue::from("pathwise"))]).unwrap();
    let problem = problems::build("constrained-gramacy", &[]).unwrap();
    let error = algorithm.prepare(problem.as_ref()).unwrap_err().to_string();
    assert!(
        error.contains("sampler = pathwise") && error.contains("constrained-gramacy"),
        "{error}"
    );
}
