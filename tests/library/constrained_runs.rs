//! Runs on a constrained problem (docs/conventions.md, "Constraints"): the header and step
//! fields, the best value and regrets on feasible points only, random search's feasible-first
//! recommendation, feasibility judged on observed values where the problem cannot compute them,
//! and the refusal of methods that ignore constraints.

use bosweep::algorithms;
use bosweep::compute::CpuEngine;
use bosweep::params::ParamValue;
use bosweep::problems::{
    Constraints, Domain, Observation, Optimum, Problem, ProblemError, Sense, Step,
};
use bosweep::sweep::RunConfig;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::common::{run_to_trace, steps};

/// Minimise f(x) = x on [0, 1] subject to c(x) = 0.9 − x ≤ 0: feasible from 0.9 on, where the
/// optimum 0.9 lies. `knows_constraints` says whether the problem computes c itself (else, as
/// an external objective, feasibility is judged on what it returns); `returned` is how many
/// constraint values an evaluation returns (1, or a wrong count to test the check).
#[derive(Debug)]
struct Threshold {
    domain: Domain,
    constraints: Constraints,
    knows_constraints: bool,
    returned: usize,
}

impl Threshold {
    fn new(knows_constraints: bool, returned: usize) -> Self {
        Self {
            domain: Domain::new(vec![0.0], vec![1.0]).unwrap(),
            constraints: Constraints::named(vec!["floor".into()]).unwrap(),
            knows_constraints,
            returned,
        }
    }
}

impl Problem for Threshold {
    fn name(&self) -> &str {
        "threshold"
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

    fn observe(
        &self,
        x: &[f64],
        _step: &Step,
        _rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        Ok(Observation::new(vec![x[0]], None).with_constraints(vec![0.9 - x[0]; self.returned]))
    }

    fn objective_of_interest(&self, x: &[f64], _t: usize) -> Option<f64> {
        Some(x[0])
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        Some(Optimum {
            value: 0.9,
            locations: vec![vec![0.9]],
        })
    }

    fn constraints(&self) -> Option<&Constraints> {
        Some(&self.constraints)
    }

    fn constraint_values(&self, x: &[f64], _t: usize) -> Option<Vec<f64>> {
        self.knows_constraints.then(|| vec![0.9 - x[0]])
    }
}

fn config(budget: usize) -> RunConfig {
    RunConfig {
        budget,
        init: 4,
        seed: 3,
        design_seed: 3,
        parallel: Default::default(),
    }
}

fn number(step: &Value, field: &str) -> Option<f64> {
    step[field].as_f64()
}

/// Random search, judged on the problem's values or on the observed ones: every step's
/// feasibility, best feasible value and regrets recomputed here from its `x`.
#[test]
fn a_random_run_reports_feasible_points_only() {
    for knows_constraints in [true, false] {
        let problem = Threshold::new(knows_constraints, 1);
        let mut algorithm = algorithms::build("random", &[]).unwrap();
        let (summary, lines) = run_to_trace(
            &problem,
            algorithm.as_mut(),
            "random",
            &CpuEngine::new(),
            &config(40),
        );
        assert_eq!(
            lines[0]["header"]["constraints"],
            serde_json::json!(["floor"])
        );
        let steps = steps(lines);
        let mut best: Option<f64> = None;
        let mut least_violation = f64::INFINITY;
        let (mut infeasible_before_first, mut feasible_seen) = (0, false);
        for (i, step) in steps.iter().enumerate() {
            let at = format!("step {}", i + 1);
            let x = step["x"][0].as_f64().unwrap();
            assert_eq!(step["constraints"], serde_json::json!([0.9 - x]), "{at}");
            let feasible = x >= 0.9;
            assert_eq!(step["feasible"], Value::Bool(feasible), "{at}");
            if feasible {
                feasible_seen = true;
                best = Some(best.map_or(x, |b: f64| b.min(x)));
                assert!((number(step, "instant_regret").unwrap() - (x - 0.9)).abs() < 1e-15);
            } else {
                assert!(step["instant_regret"].is_null(), "{at}");
                infeasible_before_first += usize::from(!feasible_seen);
                least_violation = least_violation.min(0.9 - x);
            }
            assert_eq!(number(step, "best_value"), best, "{at}");
            assert!(step["cumulative_regret"].is_null(), "{at}");
            // Feasible first: the best feasible point, else the least violating one.
            let recommended = step["recommended_x"][0].as_f64().unwrap();
            match best {
                Some(b) => {
                    assert_eq!(recommended, b, "{at}");
                    assert_eq!(step["recommended_feasible"], Value::Bool(true), "{at}");
                    let regret = number(step, "simple_regret").unwrap();
                    assert!((regret - (b - 0.9)).abs() < 1e-15, "{at}");
                }
                None => {
                    assert_eq!(0.9 - recommended, least_violation, "{at}");
                    assert_eq!(step["recommended_feasible"], Value::Bool(false), "{at}");
                    assert!(step["simple_regret"].is_null(), "{at}");
                }
            }
        }
        assert!(infeasible_before_first > 0 && feasible_seen);
        assert_eq!(summary.best_value, best);
        assert_eq!(summary.recommended_feasible, Some(true));
        assert_eq!(summary.cumulative_regret, None);
    }
}

#[test]
fn methods_that_ignore_constraints_are_refused_and_counts_are_checked() {
    let problem = Threshold::new(true, 1);
    let engine = CpuEngine::new();
    let dir = std::env::temp_dir().join(format!("bosweep-constrained-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("refused.jsonl");
    let mut trace = bosweep::sweep::TraceWriter::create(&path).unwrap();
    let mut ei = algorithms::build("ei", &[]).unwrap();
    let err = bosweep::sweep::run(
        &problem,
        ei.as_mut(),
        "ei",
        &engine,
        &config(10),
        &mut trace,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("algorithm \"ei\" ignores black-box constraints")
            && err.contains("problem \"threshold\" has 1"),
        "{err}"
    );
    // Two constraint values for one declared constraint: an error naming the problem and point.
    let wrong = Threshold::new(true, 2);
    let mut random = algorithms::build("random", &[]).unwrap();
    drop(trace);
    let mut trace = bosweep::sweep::TraceWriter::create(&path).unwrap();
    let err = bosweep::sweep::run(
        &wrong,
        random.as_mut(),
        "random",
        &engine,
        &config(10),
        &mut trace,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("threshold: 2 constraint value(s) returned at")
            && err.contains("for 1 constraints"),
        "{err}"
    );
    drop(trace);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The registered Gramacy problem runs under random search with its two named constraints.
#[test]
fn constrained_gramacy_runs_from_the_registry() {
    let problem = bosweep::problems::build("constrained-gramacy", &[]).unwrap();
    assert_eq!(problem.constraint_count(), 2);
    let mut algorithm = algorithms::build("random", &[]).unwrap();
    let (_, lines) = run_to_trace(
        problem.as_ref(),
        algorithm.as_mut(),
        "random",
        &CpuEngine::new(),
        &config(20),
    );
    assert_eq!(
        lines[0]["header"]["constraints"],
        serde_json::json!(["c1", "c2"])
    );
    for step in steps(lines) {
        let c: Vec<f64> = step["constraints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(step["feasible"], Value::Bool(c.iter().all(|&v| v <= 0.0)));
    }
}

/// The typed API on a constrained box: `tell_constrained` takes the constraint values, a plain
/// `tell` is refused for lacking them, the recommendation is feasible first, and an algorithm
/// that ignores constraints is refused when built.
#[test]
fn the_typed_api_takes_constraint_values() {
    use bosweep::algorithms::{Optimizer, RandomSearchSettings};
    let mut optimizer = Optimizer::builder(RandomSearchSettings::default())
        .bounds(&[(0.0, 1.0)])
        .constraints(1)
        .init(3)
        .seed(5)
        .build()
        .unwrap();
    let mut told: Vec<(f64, f64)> = Vec::new();
    for _ in 0..12 {
        let x = optimizer.ask(1).unwrap().remove(0);
        if told.is_empty() {
            let err = optimizer.tell(&x, x[0]).unwrap_err().to_string();
            assert!(
                err.contains(
                    "0 constraint value(s) for 1 constraint(s) (tell_constrained takes them)"
                ),
                "{err}"
            );
            let nan = optimizer
                .tell_constrained(&x, x[0], &[f64::NAN])
                .unwrap_err()
                .to_string();
            assert!(
                nan.contains("constraint value NaN (must be finite)"),
                "{nan}"
            );
        }
        // Minimise x subject to 0.7 − x ≤ 0.
        optimizer.tell_constrained(&x, x[0], &[0.7 - x[0]]).unwrap();
        told.push((x[0], 0.7 - x[0]));
        let feasible: Vec<f64> = told.iter().filter(|t| t.1 <= 0.0).map(|t| t.0).collect();
        let expected = match feasible.iter().copied().reduce(f64::min) {
            Some(best) => best,
            None => told.iter().map(|t| t.0).reduce(f64::max).unwrap(),
        };
        assert_eq!(optimizer.recommend(), Some(&[expected][..]));
    }
    assert!(told.iter().any(|t| t.1 <= 0.0) && told.iter().any(|t| t.1 > 0.0));
    let ei = Optimizer::builder(bosweep::algorithms::LogEi::default())
        .bounds(&[(0.0, 1.0)])
        .constraints(2)
        .build()
        .err()
        .unwrap()
        .to_string();
    assert!(ei.contains("ignores black-box constraints"), "{ei}");
}
