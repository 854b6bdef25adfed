//! A run of several objectives' final non-dominated set, read from its trace: the points of the
//! steps the last step's `front` names, with the header's senses and reference point, all in
//! minimisation form (each maximised objective negated, as every indicator is computed). What
//! the report draws in objective space ([`super::fronts`]) starts from it.

use serde_json::Value;

use super::steps::{RunSteps, parse_sense};
use bosweep_problems::Sense;

/// A run's final non-dominated set, as the last step's `front` names it, and the header's
/// senses and reference point, all in minimisation form.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FinalFront {
    pub senses: Vec<Sense>,
    pub reference_point: Option<Vec<f64>>,
    /// The points, row by row, each of `senses.len()` values.
    pub points: Vec<Vec<f64>>,
}

/// `value` of an objective of `sense` in minimisation form, or back (negation is its own
/// inverse).
pub(crate) fn flip(value: f64, sense: Sense) -> f64 {
    match sense {
        Sense::Minimize => value,
        Sense::Maximize => -value,
    }
}

/// The final non-dominated set of a run of several objectives (its header has `objectives`),
/// `None` for a run of one. An error says which header field or step is wrong: the `senses`
/// missing or not one recognised sense per objective, a `reference_point` of the wrong length,
/// or a `front` naming a step that is not in the trace or lacks its `objectives`.
pub(crate) fn final_front(run: &RunSteps) -> Result<Option<FinalFront>, String> {
    let Some(m) = run.header.get("objectives") else {
        return Ok(None);
    };
    let m =
        m.as_u64().filter(|&m| m >= 2).ok_or_else(|| {
            format!("header: objectives: expected a count of at least 2, found {m}")
        })? as usize;
    let senses: Vec<Sense> = match run.header.get("senses").and_then(Value::as_array) {
        Some(list) if list.len() == m => list
            .iter()
            .map(|s| s.as_str().and_then(parse_sense))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("header: senses: expected {m} of minimize/maximize"))?,
        _ => {
            let found = run
                .header
                .get("senses")
                .map_or("nothing".into(), Value::to_string);
            return Err(format!(
                "header: senses: expected a list of {m} senses, found {found}"
            ));
        }
    };
    let reference_point = match run.header.get("reference_point") {
        None | Some(Value::Null) => None,
        Some(value) => {
            let point: Option<Vec<f64>> = value
                .as_array()
                .and_then(|v| v.iter().map(Value::as_f64).collect());
            match point {
                Some(p) if p.len() == m && p.iter().all(|v| v.is_finite()) => {
                    Some(p.iter().zip(&senses).map(|(v, s)| flip(*v, *s)).collect())
                }
                _ => {
                    return Err(format!(
                        "header: reference_point: expected {m} finite numbers, found {value}"
                    ));
                }
            }
        }
    };
    let Some(last) = run.steps.last() else {
        return Ok(None);
    };
    let mut points = Vec::with_capacity(last.front.len());
    for &iter in &last.front {
        let step = iter
            .checked_sub(1)
            .and_then(|i| run.steps.get(i))
            .filter(|s| s.iter == iter)
            .ok_or_else(|| {
                format!(
                    "step {}: front: names step {iter}, which is not in the trace",
                    last.iter
                )
            })?;
        if step.objectives.len() != m {
            return Err(format!(
                "step {iter}: objectives: expected {m} values, found {}",
                step.objectives.len()
            ));
        }
        points.push(
            step.objectives
                .iter()
                .zip(&senses)
                .map(|(v, s)| flip(*v, *s))
                .collect(),
        );
    }
    Ok(Some(FinalFront {
        senses,
        reference_point,
        points,
    }))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::StepRecord;
    use crate::plan::{RunSpec, Setting};
    use serde_json::json;

    /// A step `iter` with `objectives` and a final `front`; the hypervolume `hv`.
    fn step(iter: usize, objectives: &[f64], front: &[usize], hv: f64) -> StepRecord {
        serde_json::from_value(json!({
            "iter": iter, "phase": "init", "x": [0.5], "y": null, "objectives": objectives,
            "repeats": 1, "evals": iter, "context": null, "t": null, "f": null,
            "best_value": null, "hypervolume": hv, "recommended_x": [],
            "instant_regret": null, "cumulative_regret": null, "simple_regret": null,
            "model_seconds": 0.0, "acq_seconds": 0.0, "front": front,
        }))
        .unwrap()
    }

    /// A random-search run of ZDT1, replicate `replicate` (the report's tests share it).
    pub(in crate::report) fn spec(replicate: usize) -> RunSpec {
        RunSpec {
            index: replicate,
            algorithm: Setting::new("random", vec![]),
            problem: Setting::new("zdt1", vec![]),
            replicate,
            budget: 3,
            init: 1,
            seed: replicate as u64,
            design_seed: replicate as u64,
            parallel: Default::default(),
        }
    }

    /// A run of three steps in senses (min, max) whose last front is steps 1 and 3.
    fn run(header: serde_json::Value, last_front: &[usize]) -> RunSteps {
        RunSteps {
            spec: spec(0),
            header: header.as_object().unwrap().clone(),
            steps: vec![
                step(1, &[1.0, 2.0], &[1], 1.0),
                step(2, &[3.0, 1.0], &[1], 1.0),
                step(3, &[0.5, 4.0], last_front, 2.0),
            ],
        }
    }

    fn header() -> serde_json::Value {
        json!({"objectives": 2, "senses": ["minimize", "maximize"], "reference_point": [11, -1]})
    }

    #[test]
    fn the_final_front_is_the_last_steps_front_in_minimisation_form() {
        let front = final_front(&run(header(), &[1, 3])).unwrap().unwrap();
        assert_eq!(front.senses, [Sense::Minimize, Sense::Maximize]);
        assert_eq!(front.reference_point, Some(vec![11.0, 1.0]));
        assert_eq!(front.points, [vec![1.0, -2.0], vec![0.5, -4.0]]);
        // One objective: no front.
        let one = json!({"sense": "minimize"});
        assert_eq!(final_front(&run(one, &[])).unwrap(), None);
    }

    #[test]
    fn a_trace_that_does_not_give_its_front_is_an_error_naming_the_field() {
        let error = final_front(&run(header(), &[1, 9])).unwrap_err();
        assert_eq!(
            error,
            "step 3: front: names step 9, which is not in the trace"
        );
        let no_senses = json!({"objectives": 2});
        let error = final_front(&run(no_senses, &[1])).unwrap_err();
        assert_eq!(
            error,
            "header: senses: expected a list of 2 senses, found nothing"
        );
        let short = json!({"objectives": 2, "senses": ["min", "max"], "reference_point": [1]});
        let error = final_front(&run(short, &[1])).unwrap_err();
        assert_eq!(
            error,
            "header: reference_point: expected 2 finite numbers, found [1]"
        );
    }
}
