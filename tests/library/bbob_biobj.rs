//! bosweep's `bbob-biobj` against COCO's own (`benches/peers/bbob_biobj_reference.py` wrote
//! `data/bbob_biobj_reference.json` with cocoex 2.8.2): every function in dimension 2 and eleven
//! of them in dimensions 3–40, over instances 1, 7, 12 and 15. The pairs of bbob functions and
//! instances are COCO's, the objective values, ideal and nadir points agree to 1e-10 relative,
//! and the best-known hypervolume declared is the one COCO's logger measures against, converted
//! from COCO's normalised objective space.

use bosweep::problems::multi_objective::{BbobBiobj, MultiObjectiveFunction};
use bosweep::problems::{ParamValue, Sense};
use serde_json::Value;

/// One problem with what cocoex gives for it.
struct Case {
    function: usize,
    dim: usize,
    instance: usize,
    bbob_functions: (usize, usize),
    bbob_instances: (usize, usize),
    ideal: [f64; 2],
    nadir: [f64; 2],
    x: Vec<Vec<f64>>,
    values: Vec<[f64; 2]>,
    /// The reference value of COCO's logger: the best-known normalised hypervolume, or the
    /// placeholder 1.0 for instances 11–15.
    best_hv: f64,
}

fn cases() -> Vec<Case> {
    let json: Value = serde_json::from_str(include_str!("data/bbob_biobj_reference.json")).unwrap();
    json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let field = |key: &str| -> Value { c[key].clone() };
            let number = |key: &str| c[key].as_u64().unwrap() as usize;
            let pair =
                |key: &str| -> (usize, usize) { serde_json::from_value(field(key)).unwrap() };
            let point = |key: &str| -> [f64; 2] { serde_json::from_value(field(key)).unwrap() };
            Case {
                function: number("function"),
                dim: number("dim"),
                instance: number("instance"),
                bbob_functions: pair("bbob_functions"),
                bbob_instances: pair("bbob_instances"),
                ideal: point("ideal"),
                nadir: point("nadir"),
                x: serde_json::from_value(field("x")).unwrap(),
                values: serde_json::from_value(field("values")).unwrap(),
                best_hv: c["best_hv"].as_f64().unwrap(),
            }
        })
        .collect()
}

fn assert_close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-10 * want.abs().max(1.0),
        "{what}: got {got:e}, cocoex {want:e}"
    );
}

#[test]
fn the_reference_covers_every_function_and_coco_s_dimensions() {
    let cases = cases();
    for f in 1..=55 {
        assert!(cases.iter().any(|c| c.function == f), "f{f}");
    }
    for d in [2, 3, 5, 10, 20, 40] {
        assert!(cases.iter().any(|c| c.dim == d), "d{d}");
    }
    assert!(cases.iter().any(|c| c.instance <= 10));
    assert!(cases.iter().any(|c| c.instance > 10));
}

/// The values at every point, and the ideal and nadir points, are cocoex's.
#[test]
fn values_ideal_and_nadir_are_coco_s() {
    let mut checked = 0;
    for case in cases() {
        let what = format!("f{} i{} d{}", case.function, case.instance, case.dim);
        let p = BbobBiobj::new(case.function, case.instance, case.dim).unwrap();
        assert_eq!(p.bbob_functions(), case.bbob_functions, "{what}");
        assert_eq!(p.bbob_instances(), case.bbob_instances, "{what}");
        assert_eq!(p.domain().lower(), vec![-100.0; case.dim], "{what}");
        assert_eq!(p.domain().upper(), vec![100.0; case.dim], "{what}");
        for k in 0..2 {
            assert_close(p.ideal()[k], case.ideal[k], &format!("{what} ideal {k}"));
            assert_close(p.nadir()[k], case.nadir[k], &format!("{what} nadir {k}"));
        }
        for (x, want) in case.x.iter().zip(&case.values) {
            let got = p.values(x);
            for k in 0..2 {
                assert_close(got[k], want[k], &format!("{what} f{k} at {x:?}"));
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} values");
}

/// Where COCO has a best-known hypervolume (instances 1–10) it is the one declared, scaled by
/// the ideal–nadir box; where its logger has the placeholder 1.0 none is declared.
#[test]
fn the_maximum_hypervolume_is_coco_s_best_known_in_raw_values() {
    for case in cases() {
        let what = format!("f{} i{} d{}", case.function, case.instance, case.dim);
        let p = BbobBiobj::new(case.function, case.instance, case.dim).unwrap();
        if case.instance <= 10 {
            let normalised = p.best_normalised_hypervolume().unwrap();
            assert!(
                (normalised - case.best_hv).abs() <= 1e-14,
                "{what}: {normalised} vs COCO's {}",
                case.best_hv
            );
            let area = (case.nadir[0] - case.ideal[0]) * (case.nadir[1] - case.ideal[1]);
            assert_close(p.max_hypervolume().unwrap(), case.best_hv * area, &what);
        } else {
            assert_eq!(case.best_hv, 1.0, "{what}: COCO's placeholder");
            assert_eq!(p.max_hypervolume(), None, "{what}");
        }
    }
}

/// The registry's `bbob-biobj` declares the nadir as reference point and the converted maximum.
#[test]
fn the_registry_entry_declares_nadir_and_maximum() {
    let case = cases()
        .into_iter()
        .find(|c| (c.function, c.dim, c.instance) == (20, 5, 7))
        .unwrap();
    let number = |v: usize| ParamValue::Number(v as f64);
    let problem = bosweep::problems::build(
        "bbob-biobj",
        &[
            ("function", number(20)),
            ("instance", number(7)),
            ("dim", number(5)),
        ],
    )
    .unwrap();
    let objectives = problem.objectives().unwrap();
    assert_eq!(objectives.senses(), &[Sense::Minimize; 2]);
    let reference = objectives.reference_point().unwrap();
    assert_close(reference[0], case.nadir[0], "nadir 0");
    assert_close(reference[1], case.nadir[1], "nadir 1");
    let area = (case.nadir[0] - case.ideal[0]) * (case.nadir[1] - case.ideal[1]);
    assert_close(
        objectives.max_hypervolume().unwrap(),
        case.best_hv * area,
        "max hv",
    );
    let values = problem.objective_values(&case.x[0], 1).unwrap();
    assert_close(values[0], case.values[0][0], "f1");
    assert_close(values[1], case.values[0][1], "f2");
    let err = bosweep::problems::build("bbob-biobj", &[("instance", number(16))])
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("instance"), "{err}");
}
