//! COCO's `bbob` suite: the 24 noiseless black-box optimisation benchmark functions with COCO's
//! instances, as one problem entry `bbob` (`function` 1–24, `instance` ≥ 1, `dim` ≥ 2).
//!
//! The code follows COCO's C implementation (`code-experiments/src/suite_bbob.c`, `f_*.c`,
//! `transform_*.c`, `suite_bbob_legacy_code.c`) operation for operation, so that an instance here
//! is the instance COCO's experiments and published data use: the unit tests compare with values
//! printed by cocoex 2.8.2 (`reference.rs`) to 10⁻⁹ relative.
//!
//! Instances are seeded as in `coco_get_bbob_problem`: `rseed = function + 10000·instance`, with
//! f4 on f3's and f18 on f17's seed. COCO's own suite stops at d = 40 (its legacy rotation code
//! asserts d² < 2000); the same generators serve any dimension here, up to [`MAX_DIM`].

pub(crate) mod functions;
mod gallagher;
pub(crate) mod raw;
pub(crate) mod rng;
pub(crate) mod transforms;

#[cfg(test)]
mod reference;

use bosweep_core::params::{IntegerParam, ParamSpec, Params};

use super::entry::{Entry, NOISE_STD, noisy};
use super::{Domain, Optimum, ProblemError, Sense, TestFunction};
use functions::Kind;

/// The largest dimension: building an instance costs O(d³) (Gram–Schmidt on up to two d × d
/// rotations) and every evaluation O(d²).
pub const MAX_DIM: usize = 1000;

const FUNCTION: IntegerParam = IntegerParam::new(
    "function",
    1,
    1,
    24,
    "BBOB function number f1–f24 (bosweep list bbob names them)",
);

/// The 24 functions' names as COCO's documentation of the suite gives them ("Real-Parameter
/// Black-Box Optimization Benchmarking 2009: Noiseless Functions Definitions"), f1 first.
pub const FUNCTION_NAMES: [&str; 24] = [
    "Sphere",
    "Separable Ellipsoidal",
    "Rastrigin",
    "Büche-Rastrigin",
    "Linear Slope",
    "Attractive Sector",
    "Step Ellipsoidal",
    "Rosenbrock, original",
    "Rosenbrock, rotated",
    "Ellipsoidal",
    "Discus",
    "Bent Cigar",
    "Sharp Ridge",
    "Different Powers",
    "Rastrigin, rotated",
    "Weierstrass",
    "Schaffers F7",
    "Schaffers F7, moderately ill-conditioned",
    "Composite Griewank-Rosenbrock F8F2",
    "Schwefel x·sin(x)",
    "Gallagher's Gaussian 101-me Peaks",
    "Gallagher's Gaussian 21-hi Peaks",
    "Katsuura",
    "Lunacek bi-Rastrigin",
];

const INSTANCE: IntegerParam = IntegerParam::new(
    "instance",
    1,
    1,
    1_000_000,
    "COCO instance number (seeds x_opt, f_opt and the rotations)",
);

const DIM: IntegerParam = IntegerParam::new("dim", 2, 2, MAX_DIM, "dimension d");

const PARAMETERS: &[ParamSpec] = &[
    FUNCTION.spec(),
    INSTANCE.spec(),
    DIM.spec(),
    NOISE_STD.spec(),
];

/// One instance of one BBOB function in one dimension, on `[−5, 5]^d`, minimised.
#[derive(Debug)]
pub struct Bbob {
    function: usize,
    domain: Domain,
    fopt: f64,
    kind: Kind,
}

impl Bbob {
    /// Instance `instance ≥ 1` of function `function` (1–24) in dimension `dim ≥ 2`.
    pub fn new(function: usize, instance: usize, dim: usize) -> Result<Self, ProblemError> {
        if !(1..=24).contains(&function) {
            return Err(ProblemError::config(format!(
                "bbob has functions 1–24, got function = {function}"
            )));
        }
        if instance == 0 {
            return Err(ProblemError::config(
                "bbob instances start at 1, got instance = 0",
            ));
        }
        if dim < 2 {
            return Err(ProblemError::config(format!(
                "bbob needs dimension ≥ 2, got dim = {dim}"
            )));
        }
        let base = match function {
            4 => 3,
            18 => 17,
            f => f,
        };
        let seed = (base + 10_000 * instance) as i64;
        Ok(Self {
            function,
            domain: Domain::cube(-5.0, 5.0, dim)?,
            fopt: rng::fopt(function, instance),
            kind: Kind::new(function, dim, seed),
        })
    }
}

impl TestFunction for Bbob {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn sense(&self) -> Sense {
        Sense::Minimize
    }

    fn value(&self, x: &[f64]) -> f64 {
        self.kind.value(x, self.fopt)
    }

    fn optimum(&self) -> Option<Optimum> {
        Some(Optimum {
            value: self.fopt,
            locations: vec![self.kind.location()],
        })
    }

    fn title(&self) -> Option<String> {
        Some(format!(
            "f{} {}",
            self.function,
            FUNCTION_NAMES[self.function - 1]
        ))
    }
}

fn build(params: &Params) -> Result<Bbob, ProblemError> {
    Bbob::new(FUNCTION.of(params), INSTANCE.of(params), DIM.of(params))
}

/// The `bbob` family: one entry, the function and instance as parameters.
pub(crate) static ENTRIES: &[Entry] = &[Entry {
    name: "bbob",
    description: "COCO's 24 noiseless BBOB functions with COCO's instances (matches cocoex to 1e-9) on [−5, 5]^d, d ≥ 2; min f_opt of the instance",
    parameters: PARAMETERS,
    build: |p| Ok(noisy(build(p)?, p)),
}];

#[cfg(test)]
mod tests {
    use super::reference::REFERENCE;
    use super::*;
    use crate::ParamValue;

    /// The fixed point of the reference script: (1, −2, 0.5, 3, −4, 2.5, −0.5, 4, −3, 1.5) repeated.
    fn fixed_point(d: usize) -> Vec<f64> {
        const PATTERN: [f64; 10] = [1.0, -2.0, 0.5, 3.0, -4.0, 2.5, -0.5, 4.0, -3.0, 1.5];
        (0..d).map(|k| PATTERN[k % PATTERN.len()]).collect()
    }

    fn assert_close(got: f64, want: f64, what: &str) {
        let tolerance = 1e-9 * want.abs().max(1.0);
        assert!(
            (got - want).abs() <= tolerance,
            "{what}: got {got:e}, cocoex {want:e} (difference {:e})",
            got - want
        );
    }

    #[test]
    fn matches_cocoex_at_the_origin_a_fixed_point_and_the_optimum() {
        for &(f, d, i, at_origin, at_point, fopt) in REFERENCE {
            let bbob = Bbob::new(f, i, d).unwrap();
            let what = format!("f{f} d{d} i{i}");
            assert_close(
                bbob.value(&vec![0.0; d]),
                at_origin,
                &format!("{what} f(0)"),
            );
            assert_close(
                bbob.value(&fixed_point(d)),
                at_point,
                &format!("{what} f(p)"),
            );
            assert_eq!(bbob.optimum().unwrap().value, fopt, "{what} f_opt");
        }
    }

    #[test]
    fn the_reference_covers_every_function_in_dimensions_2_and_5_and_a_larger_one() {
        for f in 1..=24 {
            for d in [2, 5] {
                let instances = REFERENCE.iter().filter(|r| r.0 == f && r.1 == d).count();
                assert!(instances >= 2, "f{f} d{d}: {instances} instances");
            }
            assert!(REFERENCE.iter().any(|r| r.0 == f && r.1 >= 10), "f{f}");
        }
    }

    #[test]
    fn the_optimum_location_lies_in_the_box_and_attains_f_opt() {
        for f in 1..=24 {
            for d in [2, 3, 5, 10, 20, 40] {
                for i in [1, 2, 7, 105] {
                    let bbob = Bbob::new(f, i, d).unwrap();
                    let optimum = bbob.optimum().unwrap();
                    let [x] = optimum.locations.as_slice() else {
                        panic!("f{f}: one location expected")
                    };
                    bbob.domain().check_point(x).unwrap();
                    let gap = bbob.value(x) - optimum.value;
                    assert!(
                        gap.abs() < 1e-9,
                        "f{f} d{d} i{i}: f(x_opt) − f_opt = {gap:e}"
                    );
                }
            }
        }
    }

    #[test]
    fn no_point_of_a_random_sample_beats_f_opt() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for f in 1..=24 {
            for d in [2, 5] {
                let bbob = Bbob::new(f, 3, d).unwrap();
                let fopt = bbob.optimum().unwrap().value;
                for _ in 0..2000 {
                    let x: Vec<f64> = (0..d).map(|_| 10.0 * uniform() - 5.0).collect();
                    assert!(bbob.value(&x) >= fopt - 1e-12, "f{f} d{d} at {x:?}");
                }
            }
        }
    }

    #[test]
    fn large_dimensions_build_beyond_coco_s_40() {
        let bbob = Bbob::new(15, 1, 64).unwrap();
        let optimum = bbob.optimum().unwrap();
        assert!((bbob.value(&optimum.locations[0]) - optimum.value).abs() < 1e-9);
    }

    #[test]
    fn bad_parameters_are_refused_with_the_parameter_named() {
        let entry = crate::find("bbob").unwrap();
        for (key, value, needle) in [
            ("function", 25, "function"),
            ("function", 0, "function"),
            ("instance", 0, "instance"),
            ("dim", 1, "dim"),
        ] {
            let err = entry
                .build(&[(key, ParamValue::Number(value as f64))])
                .unwrap_err()
                .to_string();
            assert!(err.contains(needle), "{key} = {value}: {err}");
        }
    }

    #[test]
    fn the_entry_builds_the_instance_it_is_given() {
        let problem = crate::build(
            "bbob",
            &[
                ("function", ParamValue::Number(8.0)),
                ("instance", ParamValue::Number(7.0)),
                ("dim", ParamValue::Number(5.0)),
            ],
        )
        .unwrap();
        let &(.., at_origin, _, fopt) = REFERENCE
            .iter()
            .find(|r| (r.0, r.1, r.2) == (8, 5, 7))
            .unwrap();
        assert_close(
            problem.objective_of_interest(&[0.0; 5], 1).unwrap(),
            at_origin,
            "f8",
        );
        assert_eq!(problem.optimum(1).unwrap().value, fopt);
        assert_eq!(problem.dim(), 5);
        assert_eq!(problem.sense(), Sense::Minimize);
    }
}
