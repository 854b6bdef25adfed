//! BAxUS (`baxus`): runs on 30-dimensional Ackley repeat from their seed, stay in the box and
//! split their target space as the trust region collapses; over five seeds their median beats
//! random search's; the typed settings are the registry's declaration.

use bosweep::algorithms::Baxus;
use bosweep::compute::CpuEngine;
use bosweep::params::ParamValue;
use bosweep::problems;
use serde_json::Value;

use crate::common::{self, RunRequest, median, numbers, seeded_run, steps, without_timings};

/// Ackley's dimension, the budget and the initial design of every run here.
const DIM: usize = 30;
const BUDGET: usize = 60;
const INIT: usize = 10;

/// A run of `algo` with `params` on Ackley in 30 dimensions from `seed`: the trace's step lines.
fn traced(algo: &str, params: &[(&str, ParamValue)], seed: u64) -> Vec<Value> {
    let problem = problems::build("ackley", &[("dim", ParamValue::Number(DIM as f64))]).unwrap();
    let request = RunRequest {
        algo,
        params,
        problem: "ackley",
        budget: BUDGET,
        init: INIT,
        seed,
    };
    steps(seeded_run(problem.as_ref(), &CpuEngine::new(), &request).1)
}

/// 500 candidates where the default takes min(100·d, 5000), up to 3000 at d = 30: the joint
/// posterior's 3000 × 3000 factor would dominate the test's time.
fn light() -> Vec<(&'static str, ParamValue)> {
    vec![("n_candidates", ParamValue::Number(500.0))]
}

/// The lowest value of a run (Ackley is minimised).
fn lowest(lines: &[Value]) -> f64 {
    lines
        .iter()
        .map(|l| l["y"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min)
}

/// The same seed gives the same trace; every point lies in the box; the logged target
/// dimension starts at d_init = 2 (D = 30, b = 3: round(log₄ 15) = 2 splits reach 32, 2 from 30)
/// and never decreases, and with 60 evaluations the region collapses and splits at least once
/// (the failure tolerance is 1 at d = 2: split budget 40·2·3/(2·63) = 1.9 over γ = 13.36).
#[test]
fn runs_repeat_from_their_seed_stay_in_the_box_and_split() {
    let lines = traced("baxus", &light(), 1);
    assert_eq!(lines.len(), BUDGET);
    assert_eq!(
        without_timings(&lines),
        without_timings(&traced("baxus", &light(), 1)),
        "the same seed gave a different trace"
    );
    let problem = problems::build("ackley", &[("dim", ParamValue::Number(DIM as f64))]).unwrap();
    assert!(
        lines
            .iter()
            .all(|l| problem.domain().contains(&numbers(&l["x"])))
    );
    let opt: Vec<&Value> = lines[INIT..].iter().map(|l| &l["extra"]).collect();
    let dims: Vec<u64> = opt
        .iter()
        .map(|e| e["target_dim"].as_u64().unwrap())
        .collect();
    println!("target dimensions: {dims:?}");
    assert_eq!(dims[0], 2);
    assert!(dims.windows(2).all(|w| w[0] <= w[1]), "{dims:?}");
    assert!(*dims.last().unwrap() > 2, "{dims:?}");
    assert!(opt.last().unwrap()["splits"].as_u64().unwrap() >= 1);
    assert_eq!(opt[0]["failure_tolerance"], 1);
    // The run's 10 design points lie in the whole box, BAxUS's own design of as many in its
    // embedding.
    assert!(opt[..INIT].iter().all(|e| e["phase"] == "design"));
    assert_eq!(opt[INIT]["phase"], "region");
}

/// Over seeds 1 to 5, every BAxUS run's best value on 30-dimensional Ackley is below random
/// search's median (about 3 against 20.7). Ackley's optimum is the box's centre, which every
/// embedding's image holds (the target space's centre): the structure BAxUS exploits, found in
/// 2 and 8 target dimensions.
#[test]
fn beats_random_search_on_ackley_in_30_dimensions() {
    let seeds = 1..=5u64;
    let baxus: Vec<f64> = seeds
        .clone()
        .map(|s| lowest(&traced("baxus", &light(), s)))
        .collect();
    let random: Vec<f64> = seeds.map(|s| lowest(&traced("random", &[], s))).collect();
    println!("baxus {baxus:?}\nrandom {random:?}");
    let random = median(random);
    assert!(
        baxus.iter().all(|&b| b < random),
        "baxus {baxus:?}, random median {random}"
    );
}

/// With `sampler = pathwise` the runs of seeds 1 to 3 repeat from their seed and each beats
/// random search's median over them: the embedding's Thompson steps through the engine's
/// sample-path maxima.
#[test]
fn pathwise_sampling_beats_random_search_on_ackley_in_30_dimensions() {
    let mut params = light();
    params.push(("sampler", ParamValue::Text("pathwise".into())));
    let first = traced("baxus", &params, 1);
    assert_eq!(
        without_timings(&first),
        without_timings(&traced("baxus", &params, 1))
    );
    let baxus: Vec<f64> = std::iter::once(lowest(&first))
        .chain((2..=3).map(|s| lowest(&traced("baxus", &params, s))))
        .collect();
    let random = median((1..=3).map(|s| lowest(&traced("random", &[], s))).collect());
    assert!(
        baxus.iter().all(|&b| b < random),
        "baxus {baxus:?}, random median {random}"
    );
}

/// The typed settings build what the registry builds from the same keys; lengths out of order
/// are refused naming them.
#[test]
fn settings_are_the_registry_declaration() {
    common::same_parameters(&Baxus::default(), &[]);
    common::same_parameters(
        &Baxus::default().new_bins(2).budget(120),
        &[("new_bins", 2.0.into()), ("budget", 120.0.into())],
    );
    let err = common::build_error(Baxus::default().length_min(0.9));
    assert!(
        err.to_string()
            .contains("algorithm baxus: length_min = 0.9, length_init = 0.8"),
        "{err}"
    );
}
