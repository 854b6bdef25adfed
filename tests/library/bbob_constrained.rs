//! bosweep's `bbob-constrained` against COCO's own (`benches/peers/bbob_constrained_reference.py`
//! wrote `data/bbob_constrained_reference.json` with cocoex 2.8.2): every function in dimension 2
//! and eleven of them in dimensions 3–40, over instances 1, 6, 12 and 15. The objective and
//! every constraint agree with cocoex's `problem(x)` and `problem.constraint(x)` to 1e-10
//! relative (measured: see `objective_and_constraints_are_coco_s`), and the optimum declared is
//! COCO's: its x_opt, and the objective there, feasible.

use bosweep::problems::constrained::{BbobConstrained, ConstraintFunctions};
use bosweep::problems::{ParamValue, Sense, TestFunction, feasible};
use serde_json::Value;

/// One problem with what cocoex gives for it.
struct Case {
    function: usize,
    dim: usize,
    instance: usize,
    constraints_count: usize,
    /// COCO's `best_parameter`, printed with 16 decimals.
    xopt: Vec<f64>,
    /// cocoex's objective at that point.
    optimum: f64,
    x: Vec<Vec<f64>>,
    objective: Vec<f64>,
    constraints: Vec<Vec<f64>>,
}

impl Case {
    fn what(&self) -> String {
        format!("f{} i{} d{}", self.function, self.instance, self.dim)
    }

    fn problem(&self) -> BbobConstrained {
        BbobConstrained::new(self.function, self.instance, self.dim).unwrap()
    }
}

fn cases() -> Vec<Case> {
    let json: Value =
        serde_json::from_str(include_str!("data/bbob_constrained_reference.json")).unwrap();
    json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let field = |key: &str| -> Value { c[key].clone() };
            let number = |key: &str| c[key].as_u64().unwrap() as usize;
            Case {
                function: number("function"),
                dim: number("dim"),
                instance: number("instance"),
                constraints_count: number("constraints_count"),
                xopt: serde_json::from_value(field("xopt")).unwrap(),
                optimum: c["optimum"].as_f64().unwrap(),
                x: serde_json::from_value(field("x")).unwrap(),
                objective: serde_json::from_value(field("objective")).unwrap(),
                constraints: serde_json::from_value(field("constraints")).unwrap(),
            }
        })
        .collect()
}

/// The error of `got` relative to cocoex's `want`, absolute below 1.
fn error(got: f64, want: f64) -> f64 {
    (got - want).abs() / want.abs().max(1.0)
}

const TOLERANCE: f64 = 1e-10;

#[test]
fn the_reference_covers_every_function_and_coco_s_dimensions() {
    let cases = cases();
    for f in 1..=54 {
        assert!(cases.iter().any(|c| c.function == f && c.dim == 2), "f{f}");
    }
    for d in [2, 3, 5, 10, 20, 40] {
        assert!(cases.iter().any(|c| c.dim == d), "d{d}");
    }
    for i in [1, 6, 12, 15] {
        assert!(cases.iter().any(|c| c.instance == i), "i{i}");
    }
}

/// Every objective and constraint value is cocoex's, and so is the number of constraints.
#[test]
fn objective_and_constraints_are_coco_s() {
    let (mut worst_objective, mut worst_constraint) = (0.0_f64, 0.0_f64);
    let mut checked = 0;
    for case in cases() {
        let what = case.what();
        let p = case.problem();
        assert_eq!(p.domain().lower(), vec![-5.0; case.dim], "{what}");
        assert_eq!(p.domain().upper(), vec![5.0; case.dim], "{what}");
        assert_eq!(p.constraint_names().len(), case.constraints_count, "{what}");
        for ((x, &objective), constraints) in
            case.x.iter().zip(&case.objective).zip(&case.constraints)
        {
            let e = error(p.value(x), objective);
            assert!(
                e <= TOLERANCE,
                "{what} f at {x:?}: {} vs cocoex {objective} ({e:e})",
                p.value(x)
            );
            worst_objective = worst_objective.max(e);
            let got = p.constraint_values(x);
            assert_eq!(got.len(), constraints.len(), "{what}");
            for (j, (&g, &want)) in got.iter().zip(constraints).enumerate() {
                let e = error(g, want);
                assert!(
                    e <= TOLERANCE,
                    "{what} c{} at {x:?}: {g} vs cocoex {want} ({e:e})",
                    j + 1
                );
                worst_constraint = worst_constraint.max(e);
                checked += 1;
            }
            assert_eq!(feasible(&got), feasible(constraints), "{what} at {x:?}");
        }
    }
    eprintln!(
        "bbob-constrained vs cocoex: largest error {worst_objective:e} (objective), \
         {worst_constraint:e} (constraints) over {checked} constraint values"
    );
    assert!(checked > 5000, "{checked} constraint values");
}

/// The optimum declared is COCO's x_opt and the objective there, feasible, with every active
/// constraint at 0.
#[test]
fn the_optimum_is_coco_s_and_feasible() {
    let mut worst = 0.0_f64;
    for case in cases() {
        let what = case.what();
        let p = case.problem();
        let optimum = p.optimum().unwrap();
        let [x] = optimum.locations.as_slice() else {
            panic!("{what}: one location expected")
        };
        assert_eq!(x, p.xopt(), "{what}");
        for (got, want) in x.iter().zip(&case.xopt) {
            assert!(
                (got - want).abs() <= 1e-15,
                "{what}: x_opt {x:?} vs COCO's {:?}",
                case.xopt
            );
        }
        let e = error(optimum.value, case.optimum);
        worst = worst.max(e);
        assert!(
            e <= TOLERANCE,
            "{what}: optimum {} vs cocoex {} ({e:e})",
            optimum.value,
            case.optimum
        );
        let c = p.constraint_values(x);
        assert!(feasible(&c), "{what}: {c:?}");
        let zeros = c.iter().filter(|&&v| v == 0.0).count();
        assert_eq!(zeros, p.active_constraints(), "{what}: {c:?}");
    }
    eprintln!("bbob-constrained vs cocoex: largest error {worst:e} (optimum)");
}

/// The registry's `bbob-constrained` builds the same problem, with its constraints; bad
/// parameters are errors naming the parameter, never panics.
#[test]
fn the_registry_entry_builds_coco_s_problem_and_refuses_bad_parameters() {
    let case = cases()
        .into_iter()
        .find(|c| (c.function, c.dim, c.instance) == (48, 5, 6))
        .unwrap();
    let number = |v: usize| ParamValue::Number(v as f64);
    let problem = bosweep::problems::build(
        "bbob-constrained",
        &[
            ("function", number(48)),
            ("instance", number(6)),
            ("dim", number(5)),
        ],
    )
    .unwrap();
    assert_eq!(problem.sense(), Sense::Minimize);
    assert_eq!(problem.dim(), 5);
    assert_eq!(
        problem.constraints().unwrap().count(),
        case.constraints_count
    );
    let x = &case.x[1];
    let e = error(
        problem.objective_of_interest(x, 1).unwrap(),
        case.objective[1],
    );
    assert!(e <= TOLERANCE, "{e:e}");
    let values = problem.constraint_values(x, 1).unwrap();
    for (g, want) in values.iter().zip(&case.constraints[1]) {
        assert!(error(*g, *want) <= TOLERANCE, "{g} vs {want}");
    }
    assert!(error(problem.optimum(1).unwrap().value, case.optimum) <= TOLERANCE);
    for (key, value) in [
        ("function", 0),
        ("function", 55),
        ("dim", 0),
        ("dim", 1),
        ("instance", 0),
    ] {
        let err = bosweep::problems::build("bbob-constrained", &[(key, number(value))])
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains(key), "{key} = {value}: {err}");
    }
}
