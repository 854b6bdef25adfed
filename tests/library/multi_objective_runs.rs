//! Runs on a problem of several objectives (docs/conventions.md, "Several objectives"): the
//! header and step fields, the front and its indicators recomputed here from the trace's own
//! values, the refusal of single-objective methods, and the typed API's `tell_objectives`.

use bosweep::algorithms::{self, Optimizer, RandomSearchSettings};
use bosweep::compute::CpuEngine;
use bosweep::params::ParamValue;
use bosweep::problems::{
    Domain, Objectives, Observation, Optimum, Problem, ProblemError, Sense, Step,
};
use bosweep::sweep::RunConfig;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::common::{run_to_trace, steps};

/// Schaffer's first problem with its second objective maximised: f1 = x² (minimised),
/// f2 = −(x − 2)² (maximised) on [−5, 5]. In minimisation form the front is
/// (t², (t − 2)²), t ∈ [0, 2], whose hypervolume up to (4, 4) is ∫₀⁴ (4√u − u) du = 40/3.
#[derive(Debug)]
struct Schaffer {
    domain: Domain,
    objectives: Objectives,
    /// How many values an evaluation returns (2, or a wrong count to test the check).
    returned: usize,
}

const MAX_HV: f64 = 40.0 / 3.0;

impl Schaffer {
    fn new(returned: usize) -> Self {
        let front = (0..=100)
            .map(|i| {
                let t = 2.0 * i as f64 / 100.0;
                vec![t * t, -(t - 2.0) * (t - 2.0)]
            })
            .collect();
        let objectives = Objectives::new(vec![Sense::Minimize, Sense::Maximize])
            .unwrap()
            .with_reference_point(vec![4.0, -4.0])
            .unwrap()
            .with_max_hypervolume(MAX_HV)
            .unwrap()
            .with_front(front)
            .unwrap();
        Self {
            domain: Domain::new(vec![-5.0], vec![5.0]).unwrap(),
            objectives,
            returned,
        }
    }

    fn values(x: &[f64]) -> Vec<f64> {
        vec![x[0] * x[0], -(x[0] - 2.0) * (x[0] - 2.0)]
    }
}

impl Problem for Schaffer {
    fn name(&self) -> &str {
        "schaffer"
    }

    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        Vec::new()
    }

    fn objectives(&self) -> Option<&Objectives> {
        Some(&self.objectives)
    }

    fn observe(
        &self,
        x: &[f64],
        _step: &Step,
        _rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let mut values = Self::values(x);
        values.resize(self.returned, 0.0);
        Ok(Observation::of_objectives(values, None))
    }

    fn objective_values(&self, x: &[f64], _t: usize) -> Option<Vec<f64>> {
        Some(Self::values(x))
    }

    fn objective_of_interest(&self, _x: &[f64], _t: usize) -> Option<f64> {
        None
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        None
    }
}

fn config(budget: usize) -> RunConfig {
    RunConfig {
        budget,
        init: 5,
        seed: 11,
        design_seed: 11,
        parallel: Default::default(),
    }
}

/// The step's values in minimisation form.
fn minimised(step: &Value) -> [f64; 2] {
    let v = step["objectives"].as_array().unwrap();
    [v[0].as_f64().unwrap(), -v[1].as_f64().unwrap()]
}

fn dominates(a: &[f64; 2], b: &[f64; 2]) -> bool {
    a[0] <= b[0] && a[1] <= b[1] && (a[0] < b[0] || a[1] < b[1])
}

/// The 2-D hypervolume up to `r` by sorting on the first objective.
fn hypervolume(points: &[[f64; 2]], r: [f64; 2]) -> f64 {
    let mut inside: Vec<[f64; 2]> = points
        .iter()
        .copied()
        .filter(|p| p[0] < r[0] && p[1] < r[1])
        .collect();
    inside.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    let mut volume = 0.0;
    let mut ceiling = r[1];
    for p in inside {
        if p[1] < ceiling {
            volume += (r[0] - p[0]) * (ceiling - p[1]);
            ceiling = p[1];
        }
    }
    volume
}

#[test]
fn a_random_run_records_the_front_and_its_indicators() {
    let problem = Schaffer::new(2);
    let mut algorithm = algorithms::build("random", &[]).unwrap();
    let (summary, lines) = run_to_trace(
        &problem,
        algorithm.as_mut(),
        "random",
        &CpuEngine::new(),
        &config(30),
    );
    let header = &lines[0]["header"];
    assert_eq!(header["objectives"], 2);
    assert_eq!(
        header["senses"],
        serde_json::json!(["minimize", "maximize"])
    );
    assert_eq!(header["sense"], "minimize");
    assert_eq!(header["reference_point"], serde_json::json!([4.0, -4.0]));
    assert_eq!(header["max_hypervolume"].as_f64(), Some(MAX_HV));
    let steps = steps(lines);
    assert_eq!(steps.len(), 30);
    let mut seen: Vec<[f64; 2]> = Vec::new();
    let mut previous = 0.0;
    for (i, step) in steps.iter().enumerate() {
        for field in ["y", "f", "best_value", "simple_regret", "instant_regret"] {
            assert!(step[field].is_null(), "{field} at step {}", i + 1);
        }
        assert_eq!(step["recommended_x"], serde_json::json!([]));
        let x = step["x"][0].as_f64().unwrap();
        let v = minimised(step);
        assert_eq!(v, [x * x, (x - 2.0) * (x - 2.0)]);
        seen.push(v);
        // The front: exactly the steps no other step so far dominates.
        let front: Vec<usize> = step["front"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_u64().unwrap() as usize)
            .collect();
        let expected: Vec<usize> = (0..seen.len())
            .filter(|&j| !seen.iter().any(|o| dominates(o, &seen[j])))
            .map(|j| j + 1)
            .collect();
        assert_eq!(front, expected, "front at step {}", i + 1);
        let hv = step["hypervolume"].as_f64().unwrap();
        let expect = hypervolume(&seen, [4.0, 4.0]);
        assert!(
            (hv - expect).abs() <= 1e-12 * expect.max(1.0),
            "{hv} {expect}"
        );
        assert!(hv >= previous && hv <= MAX_HV);
        previous = hv;
        let log_diff = step["log_hv_difference"].as_f64().unwrap();
        assert!((log_diff - (MAX_HV - hv).log10()).abs() < 1e-12);
        // IGD+ against the 101-point front sample, recomputed.
        let igd_plus = (0..=100)
            .map(|k| {
                let t = 2.0 * k as f64 / 100.0;
                let z = [t * t, (t - 2.0) * (t - 2.0)];
                front
                    .iter()
                    .map(|&j| {
                        let a = seen[j - 1];
                        ((a[0] - z[0]).max(0.0).powi(2) + (a[1] - z[1]).max(0.0).powi(2)).sqrt()
                    })
                    .fold(f64::INFINITY, f64::min)
            })
            .sum::<f64>()
            / 101.0;
        let recorded = step["igd_plus"].as_f64().unwrap();
        assert!((recorded - igd_plus).abs() < 1e-12, "{recorded} {igd_plus}");
    }
    let front = summary.front.unwrap();
    assert_eq!(front.hypervolume, Some(previous));
    assert!(summary.best_value.is_none() && summary.recommended_x.is_empty());
    // About 6 of 30 uniform points on [−5, 5] fall in [0, 2], where the front lies: they cover
    // most of its 40/3 (10.62 with this seed).
    assert!(previous > 0.75 * MAX_HV, "{previous}");
}

#[test]
fn a_single_objective_method_is_refused_naming_both() {
    let problem = Schaffer::new(2);
    let mut algorithm = algorithms::build("ei", &[]).unwrap();
    let err = algorithms::check_pair("ei", algorithm.as_mut(), &problem)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("\"ei\" optimises one objective") && err.contains("\"schaffer\" has 2"),
        "{err}"
    );
}

#[test]
fn a_wrong_number_of_values_is_an_evaluation_error() {
    let problem = Schaffer::new(3);
    let step = Step::new(1, 1).unwrap();
    let mut rng = crate::common::rng(1);
    let err = problem.evaluate(&[0.5], &step, &mut rng).unwrap_err();
    assert!(
        err.to_string()
            .contains("3 objective value(s) returned at [0.5] for 2 objectives"),
        "{err}"
    );
    let two = Step::new(1, 2).unwrap();
    assert!(Schaffer::new(2).evaluate(&[0.5], &two, &mut rng).is_err());
}

#[test]
fn the_typed_api_takes_several_values() {
    let mut optimizer = Optimizer::builder(RandomSearchSettings::default())
        .problem(Box::new(Schaffer::new(2)))
        .init(2)
        .seed(3)
        .build()
        .unwrap();
    let x = optimizer.ask(1).unwrap().remove(0);
    let err = optimizer.tell(&x, 1.0).unwrap_err().to_string();
    assert!(
        err.contains("1 objective value(s) for a problem of 2"),
        "{err}"
    );
    optimizer
        .tell_objectives(&x, &Schaffer::values(&x))
        .unwrap();
    assert!(optimizer.recommend().is_none());
    assert!(optimizer.tell_objectives(&x, &[1.0, 2.0]).is_err());
}

/// Every registered problem of several objectives at its defaults: 2000 uniform points (fixed
/// seed) never reach its maximum hypervolume nor dominate a point of its true front's sample,
/// and that sample's hypervolume approaches the maximum from below.
#[test]
fn no_random_point_beats_a_registered_front() {
    use bosweep::pareto::{Front, dominates, hypervolume};
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(20261128);
    let several: Vec<_> = bosweep::problems::registry()
        .filter_map(|e| e.build(&[]).ok())
        .filter(|p| p.objective_count() > 1)
        .collect();
    assert_eq!(several.len(), 20);
    for p in several {
        let o = p.objectives().unwrap();
        let reference = o.to_minimization(o.reference_point().unwrap());
        // On a constrained problem only feasible points count: the front is the feasible one.
        let feasible = |x: &[f64]| {
            p.constraint_values(x, 1)
                .is_none_or(|c| bosweep::problems::feasible(&c))
        };
        let values: Vec<Vec<f64>> = (0..20_000)
            .map(|_| p.domain().sample(&mut rng))
            .filter(|x| feasible(x))
            .take(2000)
            .map(|x| o.to_minimization(&p.objective_values(&x, 1).unwrap()))
            .collect();
        assert!(!values.is_empty(), "{}: no feasible point drawn", p.name());
        let flat: Vec<f64> = values.iter().flatten().copied().collect();
        let hv = hypervolume(Front::new(&flat, o.count()).unwrap(), &reference).unwrap();
        if let Some(max) = o.max_hypervolume() {
            assert!(hv < max, "{}: {hv} ≥ {max}", p.name());
        }
        if let Some(front) = o.front() {
            let front: Vec<Vec<f64>> = front.iter().map(|z| o.to_minimization(z)).collect();
            for z in &front {
                assert!(
                    !values.iter().any(|v| dominates(v, z)),
                    "{}: a random point dominates {z:?}",
                    p.name()
                );
            }
            if let Some(max) = o.max_hypervolume() {
                let flat: Vec<f64> = front.iter().flatten().copied().collect();
                let sampled =
                    hypervolume(Front::new(&flat, o.count()).unwrap(), &reference).unwrap();
                assert!(
                    sampled <= max * (1.0 + 1e-12),
                    "{}: {sampled} > {max}",
                    p.name()
                );
                assert!(
                    sampled > hv,
                    "{}: the front's sample below random points",
                    p.name()
                );
            }
        }
    }
}

/// The last step's hypervolume of `algo` on Schaffer's problem (one objective minimised, one
/// maximised, the reference point declared) after `budget` evaluations in batches of `batch`.
fn final_hypervolume(algo: &str, seed: u64, budget: usize, batch: usize) -> f64 {
    let problem = Schaffer::new(2);
    let mut algorithm = algorithms::build(algo, &[]).unwrap();
    let config = RunConfig {
        seed,
        design_seed: seed,
        parallel: bosweep::sweep::Parallel {
            batch,
            ..Default::default()
        },
        ..config(budget)
    };
    let (_, lines) = run_to_trace(
        &problem,
        algorithm.as_mut(),
        algo,
        &CpuEngine::new(),
        &config,
    );
    let last = steps(lines).pop().unwrap();
    last["hypervolume"].as_f64().unwrap()
}

/// qLogNEHVI, one point at a time and in batches of 3 (the pending points joining each
/// sample's front), covers more than 94% of the maximum hypervolume within 14 evaluations on
/// both seeds (measured 95.5–96.4%), and qLogNParEGO more than 85% (90.0–94.8%), where random
/// search's front from the same initial design covers 64–69%.
#[test]
fn qlognehvi_and_qlognparego_approach_the_front_one_point_at_a_time_and_in_batches() {
    for seed in [1, 2] {
        let random = final_hypervolume("random", seed, 14, 1);
        for batch in [1, 3] {
            let hv = final_hypervolume("qlognehvi", seed, 14, batch);
            let parego = final_hypervolume("qlognparego", seed, 14, batch);
            assert!(
                hv > 0.94 * MAX_HV && hv > random && parego > 0.85 * MAX_HV && parego > random,
                "seed {seed}, batch {batch}: HV {hv}, ParEGO {parego} (random {random}, max \
                 {MAX_HV})"
            );
        }
    }
}
