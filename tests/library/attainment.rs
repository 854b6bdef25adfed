//! The empirical attainment surfaces (`bosweep::pareto::attainment_surfaces`) against moocore
//! 0.3.2's `eaf` on fixed random sets (`benches/peers/eaf_reference.py` wrote
//! `data/eaf_reference.json`: 1 to 21 runs of two objectives, with dominated and repeated
//! points, and coarse cases whose values tie across runs). Every level's corners must be
//! moocore's, exactly: both only sort and compare the input values.

use bosweep::pareto::{Front, attainment_surfaces};
use serde_json::Value;

#[test]
fn attainment_surfaces_equal_moocore_eaf() {
    let json: Value =
        serde_json::from_str(include_str!("data/eaf_reference.json")).expect("valid JSON");
    let cases = json["cases"].as_array().expect("a list of cases");
    assert_eq!(cases.len(), 5);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let runs: Vec<Vec<Vec<f64>>> = serde_json::from_value(case["runs"].clone()).unwrap();
        let expected: Vec<Vec<[f64; 2]>> =
            serde_json::from_value(case["surfaces"].clone()).unwrap();
        let values: Vec<Vec<f64>> = runs.iter().map(|run| run.concat()).collect();
        let fronts: Vec<Front> = values.iter().map(|v| Front::new(v, 2).unwrap()).collect();
        let surfaces = attainment_surfaces(&fronts).unwrap();
        assert_eq!(surfaces.len(), runs.len(), "{name}: one surface per level");
        for (k, (got, want)) in surfaces.iter().zip(&expected).enumerate() {
            assert!(
                !want.is_empty(),
                "{name}: moocore's level {} is empty",
                k + 1
            );
            assert_eq!(got, want, "{name}: level {}", k + 1);
        }
    }
}
