//! An objective that the program hosting bosweep supplies as a function, registered under a name
//! for as long as the host wants: the Python package's `bosweep.sweep(config, objectives=...)`
//! registers each Python callable so that `[[problem]] name = "callable"` with `function = NAME`
//! evaluates it in-process.

use std::fmt;
use std::sync::{Arc, Mutex};

use rand_chacha::ChaCha8Rng;

use super::command::{
    BOUNDS, CONSTRAINTS, OBJECTIVES, REFERENCE_POINT, SENSE, SENSES, box_parameters, objectives_of,
    objectives_parameters, parse_bounds,
};
use super::entry::Entry;
use super::{
    Constraints, Domain, Objectives, Observation, Optimum, Problem, ProblemError, Sense, Step,
};
use bosweep_core::params::{ParamValue, Params, TextParam};

/// A function of the host program: the value (or values) at `x`, or why there are none.
pub trait HostFunction: Send + Sync {
    /// The objective's value at `x` (one, or one per objective of a problem of several) and
    /// the constraint values it returned beside them (empty where it returned none), or a
    /// message saying why it has none; the message becomes an evaluation error.
    fn evaluate(&self, x: &[f64]) -> Result<(Vec<f64>, Vec<f64>), String>;
}

type Registered = Vec<(String, Arc<dyn HostFunction>)>;

/// The functions registered now, by name.
static FUNCTIONS: Mutex<Registered> = Mutex::new(Vec::new());

fn functions() -> std::sync::MutexGuard<'static, Registered> {
    FUNCTIONS.lock().unwrap_or_else(|p| p.into_inner())
}

/// Keeps `name` registered; dropping it unregisters the name.
#[must_use = "the function is unregistered when the registration is dropped"]
pub struct Registration {
    name: String,
}

impl Drop for Registration {
    fn drop(&mut self) {
        functions().retain(|(n, _)| *n != self.name);
    }
}

/// Registers `function` under `name` until the returned [`Registration`] is dropped. A name
/// registered already (by another sweep running in this process) is refused.
pub fn register_function(
    name: &str,
    function: Arc<dyn HostFunction>,
) -> Result<Registration, ProblemError> {
    if name.trim().is_empty() {
        return Err(ProblemError::config(
            "callable objective: the function's name is empty",
        ));
    }
    let mut registered = functions();
    if registered.iter().any(|(n, _)| n == name) {
        return Err(ProblemError::config(format!(
            "callable objective \"{name}\": a function of this name is registered already (by \
             a sweep still running in this process); give it another name"
        )));
    }
    registered.push((name.to_owned(), function));
    Ok(Registration {
        name: name.to_owned(),
    })
}

fn registered(name: &str) -> Option<Arc<dyn HostFunction>> {
    functions()
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, f)| f.clone())
}

/// The problem: a registered function over a box, evaluated once per repeat.
pub struct CallableObjective {
    name: String,
    function: Arc<dyn HostFunction>,
    domain: Domain,
    sense: Sense,
    /// What the function declares when it returns several objectives' values; `None` for one.
    objectives: Option<Objectives>,
    /// The constraints whose values it returns beside the objectives; `None` for none.
    constraints: Option<Constraints>,
}

impl fmt::Debug for CallableObjective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallableObjective")
            .field("name", &self.name)
            .field("domain", &self.domain)
            .field("sense", &self.sense)
            .finish_non_exhaustive()
    }
}

const FUNCTION: TextParam = TextParam::new(
    "function",
    "",
    "the name the host program registered the function under (Python: a key of \
     bosweep.sweep's objectives)",
);

fn build_callable(params: &Params) -> Result<Box<dyn Problem>, ProblemError> {
    let name = |param: &str, value: &str, why: &str| {
        ProblemError::config(format!(
            "problem callable: parameter {param} = \"{value}\": {why}"
        ))
    };
    let function_name = FUNCTION.of(params);
    let function = registered(function_name).ok_or_else(|| {
        let known: Vec<String> = functions()
            .iter()
            .map(|(n, _)| format!("\"{n}\""))
            .collect();
        let known = if known.is_empty() {
            "none is (callable objectives come from a host program: in Python, \
             bosweep.sweep(config, objectives={NAME: function}))"
                .to_owned()
        } else {
            format!("registered: {}", known.join(", "))
        };
        name(
            "function",
            function_name,
            &format!("no function of this name is registered; {known}"),
        )
    })?;
    let bounds = BOUNDS.of(params);
    let domain = parse_bounds(bounds).map_err(|why| name("bounds", bounds, &why))?;
    let sense = SENSE.of(params);
    let objectives =
        objectives_of(params, sense).map_err(|(param, value, why)| name(param, value, &why))?;
    let constraints = match CONSTRAINTS.of(params) {
        0 => None,
        k => Some(Constraints::new(k)?),
    };
    Ok(Box::new(CallableObjective {
        name: function_name.to_owned(),
        function,
        domain,
        sense: objectives.as_ref().map_or(sense, |o| o.senses()[0]),
        objectives,
        constraints,
    }))
}

/// The registry's entry: `[[problem]] name = "callable"` in a sweep config.
pub(super) const ENTRIES: &[Entry] = &[Entry {
    name: "callable",
    description: "your function, called in-process: registered by the program hosting bosweep \
                  (Python: bosweep.sweep(..., objectives={NAME: f})); needs function and bounds",
    parameters: &[
        FUNCTION.spec(),
        BOUNDS.spec(),
        SENSE.spec(),
        OBJECTIVES.spec(),
        SENSES.spec(),
        REFERENCE_POINT.spec(),
        CONSTRAINTS.spec(),
    ],
    build: build_callable,
}];

impl Problem for CallableObjective {
    problem_accessors!(
        self,
        name: "callable",
        domain: &self.domain,
        sense: self.sense,
        parameters: {
            let [bounds, sense] = box_parameters(&self.domain, self.sense);
            let mut parameters = vec![
                ("function".into(), ParamValue::from(self.name.as_str())),
                bounds,
                sense,
            ];
            parameters.extend(self.objectives.as_ref().map(objectives_parameters).into_iter().flatten());
            parameters.extend(self.constraints.as_ref().map(|c| {
                ("constraints".to_owned(), ParamValue::Number(c.count() as f64))
            }));
            parameters
        },
    );

    /// One call per repeat; the first failure, or a value that is not finite, stops the run.
    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        _rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let fail = |why: String| {
            ProblemError::evaluation(format!(
                "callable objective \"{}\" at {x:?}: {why}",
                self.name
            ))
        };
        let m = self.objectives.as_ref().map_or(1, Objectives::count);
        let k = self.constraints.as_ref().map_or(0, Constraints::count);
        let mut values = Vec::with_capacity(step.repeats());
        for _ in 0..step.repeats() {
            let (returned, constraints) = self.function.evaluate(x).map_err(fail)?;
            if returned.len() != m {
                return Err(fail(format!(
                    "returned {} value(s) for {m} objective(s)",
                    returned.len()
                )));
            }
            if constraints.len() != k {
                let expected = match k {
                    0 => "none declared (constraints = 0)".to_owned(),
                    k => format!("{k} declared: return (objectives, constraints)"),
                };
                return Err(fail(format!(
                    "returned {} constraint value(s), {expected}",
                    constraints.len()
                )));
            }
            if let Some(v) = returned.iter().chain(&constraints).find(|v| !v.is_finite()) {
                return Err(fail(format!("returned {v} (must be a finite number)")));
            }
            if self.objectives.is_some() {
                return Ok(Observation::of_objectives(returned, None).with_constraints(constraints));
            }
            if self.constraints.is_some() {
                // A constrained point is evaluated once: its constraints are those values'.
                return Ok(Observation::new(returned, None).with_constraints(constraints));
            }
            values.extend(returned);
        }
        Ok(Observation::new(values, None))
    }

    fn objectives(&self) -> Option<&Objectives> {
        self.objectives.as_ref()
    }

    fn constraints(&self) -> Option<&Constraints> {
        self.constraints.as_ref()
    }

    /// Unknown: the function may be noisy, and calling it again would cost an evaluation.
    fn objective_of_interest(&self, _x: &[f64], _t: usize) -> Option<f64> {
        None
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    struct Sphere;

    impl HostFunction for Sphere {
        fn evaluate(&self, x: &[f64]) -> Result<(Vec<f64>, Vec<f64>), String> {
            if x[0] > 0.9 {
                return Err("ValueError: too far".into());
            }
            Ok((vec![x.iter().map(|v| v * v).sum()], Vec::new()))
        }
    }

    fn build(function: &str) -> Result<Box<dyn Problem>, ProblemError> {
        super::super::build(
            "callable",
            &[
                ("function", ParamValue::from(function)),
                ("bounds", ParamValue::from("-1:1,-1:1")),
            ],
        )
    }

    #[test]
    fn a_registered_function_is_evaluated_per_repeat_until_unregistered() {
        let registration = register_function("sphere-test", Arc::new(Sphere)).unwrap();
        let problem = build("sphere-test").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let observed = problem
            .observe(&[0.5, -0.25], &Step::new(1, 3).unwrap(), &mut rng)
            .unwrap();
        assert_eq!(observed.repeats, vec![0.3125; 3]);
        let failed = problem
            .observe(&[0.95, 0.0], &Step::new(2, 1).unwrap(), &mut rng)
            .unwrap_err()
            .to_string();
        assert!(
            failed.contains("\"sphere-test\" at [0.95, 0.0]: ValueError: too far"),
            "{failed}"
        );
        let again = register_function("sphere-test", Arc::new(Sphere));
        assert!(
            again
                .err()
                .unwrap()
                .to_string()
                .contains("registered already")
        );
        drop(registration);
        let gone = build("sphere-test").unwrap_err().to_string();
        assert!(
            gone.contains("parameter function = \"sphere-test\": no function of this name"),
            "{gone}"
        );
    }

    /// `x₁ + x₂` subject to `0.5 − x₁ ≤ 0`, returned as a pair.
    struct Floor;

    impl HostFunction for Floor {
        fn evaluate(&self, x: &[f64]) -> Result<(Vec<f64>, Vec<f64>), String> {
            Ok((vec![x[0] + x[1]], vec![0.5 - x[0]]))
        }
    }

    /// A function declared with `constraints = 1` observes its constraint values; one whose
    /// count differs from what it returns is an error saying what to return.
    #[test]
    fn a_constrained_function_returns_its_constraint_values() {
        let _registration = register_function("floor-test", Arc::new(Floor)).unwrap();
        let with = |k: f64| {
            super::super::build(
                "callable",
                &[
                    ("function", ParamValue::from("floor-test")),
                    ("bounds", ParamValue::from("0:1,0:1")),
                    ("constraints", ParamValue::Number(k)),
                ],
            )
            .unwrap()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let problem = with(1.0);
        assert_eq!(problem.constraint_count(), 1);
        let observed = problem
            .evaluate(&[0.25, 0.5], &Step::new(1, 1).unwrap(), &mut rng)
            .unwrap();
        assert_eq!((observed.y, observed.constraints), (0.75, vec![0.25]));
        let undeclared = with(0.0)
            .evaluate(&[0.25, 0.5], &Step::new(1, 1).unwrap(), &mut rng)
            .unwrap_err()
            .to_string();
        assert!(
            undeclared.contains("returned 1 constraint value(s), none declared (constraints = 0)"),
            "{undeclared}"
        );
        let two = with(2.0)
            .evaluate(&[0.25, 0.5], &Step::new(1, 1).unwrap(), &mut rng)
            .unwrap_err()
            .to_string();
        assert!(
            two.contains("2 declared: return (objectives, constraints)"),
            "{two}"
        );
    }
}
