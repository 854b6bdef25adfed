//! The multi-objective indicators (`bosweep::pareto`) against moocore 0.3.2 on fixed fronts
//! (`benches/peers/pareto_reference.py` wrote `data/pareto_reference.json`: two fronts for each
//! of 2 to 6 objectives, with dominated, repeated and out-of-box points, and two lattice fronts
//! of about 10⁴ points). Hypervolume, contributions, IGD, IGD⁺, the additive ε, the
//! non-dominated points and the Pareto ranks are moocore's; the dominated boxes add up to its
//! hypervolume.

use bosweep::pareto::{
    Front, epsilon_additive, hypervolume, hypervolume_contributions, hypervolume_improvement, igd,
    igd_plus, non_dominated, pareto_ranks, partition,
};
use serde_json::Value;

/// One front of the reference file with what moocore computed on it.
struct Case {
    name: String,
    m: usize,
    reference_point: Vec<f64>,
    points: Vec<f64>,
    reference_set: Vec<f64>,
    hypervolume: f64,
    hypervolume_pymoo: f64,
    contributions: Vec<f64>,
    igd: f64,
    igd_plus: f64,
    epsilon_additive: f64,
    non_dominated: Vec<bool>,
    pareto_rank: Vec<usize>,
}

impl Case {
    fn front(&self) -> Front<'_> {
        Front::new(&self.points, self.m).unwrap()
    }

    fn reference_set(&self) -> Front<'_> {
        Front::new(&self.reference_set, self.m).unwrap()
    }
}

fn reference() -> Value {
    serde_json::from_str(include_str!("data/pareto_reference.json")).unwrap()
}

fn cases() -> Vec<Case> {
    let json = reference();
    let rows = |c: &Value, key: &str| -> Vec<f64> {
        let rows: Vec<Vec<f64>> = serde_json::from_value(c[key].clone()).unwrap();
        rows.concat()
    };
    let numbers =
        |c: &Value, key: &str| -> Vec<f64> { serde_json::from_value(c[key].clone()).unwrap() };
    json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().unwrap().to_string(),
            m: c["m"].as_u64().unwrap() as usize,
            reference_point: numbers(c, "reference_point"),
            points: rows(c, "points"),
            reference_set: rows(c, "reference_set"),
            hypervolume: c["hypervolume"].as_f64().unwrap(),
            hypervolume_pymoo: c["hypervolume_pymoo"].as_f64().unwrap(),
            contributions: numbers(c, "contributions"),
            igd: c["igd"].as_f64().unwrap(),
            igd_plus: c["igd_plus"].as_f64().unwrap(),
            epsilon_additive: c["epsilon_additive"].as_f64().unwrap(),
            non_dominated: serde_json::from_value(c["non_dominated"].clone()).unwrap(),
            pareto_rank: serde_json::from_value(c["pareto_rank"].clone()).unwrap(),
        })
        .collect()
}

fn assert_close(got: f64, expected: f64, what: &str) {
    let error = (got - expected).abs() / expected.abs().max(f64::MIN_POSITIVE);
    assert!(
        error <= 1e-10,
        "{what}: {got} against moocore's {expected} (relative error {error:e})"
    );
}

#[test]
fn the_reference_file_covers_two_to_six_objectives() {
    let cases = cases();
    let objectives: Vec<usize> = cases.iter().map(|c| c.m).collect();
    assert_eq!(objectives, [2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    for case in &cases {
        // Every front holds dominated points and points that add nothing.
        assert!(case.non_dominated.contains(&false), "{}", case.name);
        assert!(case.contributions.contains(&0.0), "{}", case.name);
    }
}

#[test]
fn hypervolume_and_contributions_are_moocores() {
    for case in cases() {
        let name = &case.name;
        let volume = hypervolume(case.front(), &case.reference_point).unwrap();
        assert_close(volume, case.hypervolume, &format!("{name}: hypervolume"));
        assert_close(
            volume,
            case.hypervolume_pymoo,
            &format!("{name}: pymoo's hypervolume"),
        );
        let contributions = hypervolume_contributions(case.front(), &case.reference_point).unwrap();
        assert_eq!(contributions.len(), case.contributions.len());
        for (i, (got, expected)) in contributions.iter().zip(&case.contributions).enumerate() {
            // A contribution is a difference of hypervolumes: its rounding scales with them.
            let error = (got - expected).abs();
            assert!(
                error <= 1e-10 * expected.abs() + 1e-14 * case.hypervolume,
                "{name}: point {i} contributes {got}, moocore says {expected}"
            );
            assert_eq!(*got == 0.0, *expected == 0.0, "{name}: point {i}");
        }
    }
}

#[test]
fn distance_indicators_are_moocores() {
    for case in cases() {
        let name = &case.name;
        let (a, r) = (case.front(), case.reference_set());
        assert_close(igd(a, r).unwrap(), case.igd, &format!("{name}: IGD"));
        assert_close(
            igd_plus(a, r).unwrap(),
            case.igd_plus,
            &format!("{name}: IGD+"),
        );
        assert_close(
            epsilon_additive(a, r).unwrap(),
            case.epsilon_additive,
            &format!("{name}: additive epsilon"),
        );
    }
}

#[test]
fn non_dominated_points_and_ranks_are_moocores() {
    for case in cases() {
        let expected: Vec<usize> = (0..case.non_dominated.len())
            .filter(|&i| case.non_dominated[i])
            .collect();
        assert_eq!(non_dominated(case.front()), expected, "{}", case.name);
        assert_eq!(
            pareto_ranks(case.front()),
            case.pareto_rank,
            "{}",
            case.name
        );
    }
}

/// The dominated boxes add up to moocore's hypervolume; over the non-dominated cells, each
/// reference-set point's improvement is what adding it does to the hypervolume.
#[test]
fn the_boxes_add_up_to_moocores_hypervolume() {
    for case in cases() {
        let name = &case.name;
        let boxes = partition(case.front(), &case.reference_point).unwrap();
        assert_close(
            boxes.dominated.volume(),
            case.hypervolume,
            &format!("{name}: boxes"),
        );
        for y in case.reference_set.chunks(case.m) {
            let mut with = case.points.clone();
            with.extend_from_slice(y);
            let after = hypervolume(Front::new(&with, case.m).unwrap(), &case.reference_point);
            let expected = after.unwrap() - case.hypervolume;
            let got = hypervolume_improvement(&boxes.non_dominated, y).unwrap();
            assert!(
                (got - expected).abs() <= 1e-12 * case.hypervolume,
                "{name}: improvement of {y:?}: {got} against {expected}"
            );
        }
    }
}

/// The points i/k with integer coordinates summing to k, in lexicographic order (the script
/// builds them the same way).
fn lattice(k: usize, m: usize) -> Vec<f64> {
    fn extend(k: usize, m: usize, prefix: &mut Vec<usize>, out: &mut Vec<f64>) {
        let used: usize = prefix.iter().sum();
        if prefix.len() == m - 1 {
            out.extend(
                prefix
                    .iter()
                    .chain([&(k - used)])
                    .map(|&i| i as f64 / k as f64),
            );
            return;
        }
        for i in 0..=k - used {
            prefix.push(i);
            extend(k, m, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    extend(k, m, &mut Vec::new(), &mut out);
    out
}

/// About 10⁴ points on a grid of the linear front in 2 and 3 objectives, every coordinate
/// shared by many points: moocore's hypervolume, and the exact one, Πr − C(k + m − 1, m)/kᵐ
/// (a point x ≥ 0 is dominated unless Σ⌊k·xⱼ⌋ < k).
#[test]
fn large_lattices_have_moocores_and_the_exact_hypervolume() {
    let json = reference();
    for lattice_case in json["lattices"].as_array().unwrap() {
        let m = lattice_case["m"].as_u64().unwrap() as usize;
        let k = lattice_case["k"].as_u64().unwrap() as usize;
        let reference_point: Vec<f64> =
            serde_json::from_value(lattice_case["reference_point"].clone()).unwrap();
        let values = lattice(k, m);
        assert!(
            values.len() / m > 9_000,
            "k = {k}: {} points",
            values.len() / m
        );
        let volume = hypervolume(Front::new(&values, m).unwrap(), &reference_point).unwrap();
        let expected = lattice_case["hypervolume"].as_f64().unwrap();
        assert_close(volume, expected, &format!("lattice k = {k}, m = {m}"));
        let cubes: f64 = (1..=m).map(|j| (k + j - 1) as f64 / j as f64).product();
        let exact = reference_point.iter().product::<f64>() - cubes / (k as f64).powi(m as i32);
        assert_close(volume, exact, &format!("lattice k = {k}, m = {m}, exact"));
    }
}
