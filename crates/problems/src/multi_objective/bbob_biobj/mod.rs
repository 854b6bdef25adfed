//! COCO's bi-objective suite `bbob-biobj` (Brockhoff, Auger, Hansen and Tušar, "Using
//! well-understood single-objective functions in multiobjective black-box optimization test
//! suites", Evolutionary Computation 30(2), 2022): 55 functions, each the pair `(f_a, f_b)` of
//! two bbob functions, in COCO's instances.
//!
//! Built on bosweep's COCO-faithful [`crate::bbob`], following COCO's C code
//! (`suite_biobj.c`, `suite_biobj_utilities.c`, `coco_problem_stacked_allocate`): the function
//! and instance rules are in `suite`, COCO's published best hypervolumes in `best_hypervolume`.
//! `tests/library/bbob_biobj.rs` compares values, ideal and nadir points and the best
//! hypervolumes with cocoex 2.8.2's (`benches/peers/bbob_biobj_reference.py`).

mod best_hypervolume;
mod suite;

use super::MultiObjectiveFunction;
use crate::bbob::{Bbob, FUNCTION_NAMES};
use crate::{Domain, ProblemError, TestFunction};

pub(super) use suite::{FUNCTIONS, LAST_FIXED_INSTANCE};

/// COCO's search box of the suite, `[−100, 100]^d` in every dimension (its
/// `smallest_values_of_interest` and `largest_values_of_interest`); both single-objective
/// optima lie well inside it, in bbob's `[−5, 5]^d`.
pub(super) const COCO_BOUND: f64 = 100.0;

/// The smallest box [`BbobBiobj::within`] accepts, bbob's `[−5, 5]^d`, which holds both
/// single-objective optima (every bbob optimum lies in `[−4, 4]^d`).
pub(super) const BBOB_BOUND: f64 = 5.0;

/// One bbob-biobj problem: function `function` (1–55), instance 1–15, dimension `d ≥ 2`, on
/// COCO's `[−100, 100]^d` or a smaller box [`BbobBiobj::within`], both objectives minimised.
///
/// Its objectives are bbob functions `f_a` and `f_b` at bbob instances `i_a` and `i_b`, raw (no
/// normalisation, as cocoex returns them). What it declares for the indicators:
///
/// - reference point: COCO's nadir point `(f_a(x_b*), f_b(x_a*))`, each objective at the other
///   one's optimum, which COCO also measures its hypervolume from;
/// - maximum hypervolume: COCO's best-known hypervolume for the problem, published in
///   normalised space (ideal `(f_a(x_a*), f_b(x_b*))` mapped to `(0, 0)`, nadir to `(1, 1)`),
///   times the area `(nadir_1 − ideal_1)(nadir_2 − ideal_2)` of the box between the two points,
///   which is the same hypervolume in raw values. COCO publishes it for instances 1–10 in
///   dimensions 2, 3, 5, 10, 20 and 40; elsewhere it is unknown (`None`). Being the best a
///   collection of algorithms reached, not the true front's, it can be exceeded slightly;
/// - no true front (none is known in closed form for most pairs).
#[derive(Debug)]
pub struct BbobBiobj {
    function: usize,
    instance: usize,
    objectives: [Bbob; 2],
    bbob_functions: (usize, usize),
    bbob_instances: (usize, usize),
    domain: Domain,
    ideal: [f64; 2],
    nadir: [f64; 2],
}

impl BbobBiobj {
    /// bbob-biobj function `function` (1–55), instance `instance` (1–15) in dimension `dim ≥ 2`.
    pub fn new(function: usize, instance: usize, dim: usize) -> Result<Self, ProblemError> {
        let (fa, fb) = suite::functions(function)?;
        let (ia, ib) = suite::instances(instance)?;
        let objectives = [Bbob::new(fa, ia, dim)?, Bbob::new(fb, ib, dim)?];
        let (va, xa) = optimum(&objectives[0])?;
        let (vb, xb) = optimum(&objectives[1])?;
        let ideal = [va, vb];
        let nadir = [objectives[0].value(&xb), objectives[1].value(&xa)];
        if let Some(k) = (0..2).find(|&k| nadir[k] <= ideal[k]) {
            return Err(ProblemError::config(format!(
                "bbob-biobj function = {function}, instance = {instance}, dim = {dim}: objective \
                 {} has its nadir value {} at or below its ideal value {}, so the problem has a \
                 single optimum",
                k + 1,
                nadir[k],
                ideal[k]
            )));
        }
        Ok(Self {
            function,
            instance,
            objectives,
            bbob_functions: (fa, fb),
            bbob_instances: (ia, ib),
            domain: Domain::cube(-COCO_BOUND, COCO_BOUND, dim)?,
            ideal,
            nadir,
        })
    }

    /// The same problem on `[−bound, bound]^d` instead of COCO's `[−100, 100]^d`, `bound` in
    /// `[5, 100]`: the box of bbob's single-objective suite at 5, where methods that spread
    /// their design over the box (a GP's Sobol design, random search) do not spend it where
    /// neither objective is of interest. Both optima stay inside, so the ideal and nadir points
    /// are unchanged; parts of the Pareto set may lie outside a small box (COCO does not
    /// promise otherwise), so its best-known hypervolume is kept as the problem's but may be
    /// out of reach.
    pub fn within(mut self, bound: f64) -> Result<Self, ProblemError> {
        if !(BBOB_BOUND..=COCO_BOUND).contains(&bound) {
            return Err(ProblemError::config(format!(
                "bbob-biobj bound = {bound}: the box [−bound, bound]^d must hold both optima and \
                 lie within COCO's, so bound must be in [{BBOB_BOUND}, {COCO_BOUND}]"
            )));
        }
        self.domain = Domain::cube(-bound, bound, self.domain.dim())?;
        Ok(self)
    }

    /// The two bbob functions `(a, b)` whose values are the two objectives.
    pub fn bbob_functions(&self) -> (usize, usize) {
        self.bbob_functions
    }

    /// The two bbob instances `(i_a, i_b)` COCO pairs for this instance.
    pub fn bbob_instances(&self) -> (usize, usize) {
        self.bbob_instances
    }

    /// The ideal point: each objective's optimal value.
    pub fn ideal(&self) -> [f64; 2] {
        self.ideal
    }

    /// The nadir point: each objective at the other one's optimum.
    pub fn nadir(&self) -> [f64; 2] {
        self.nadir
    }

    /// COCO's best-known hypervolume of the problem in its normalised objective space (ideal at
    /// `(0, 0)`, nadir at `(1, 1)`), where COCO publishes one.
    pub fn best_normalised_hypervolume(&self) -> Option<f64> {
        best_hypervolume::best_normalised_hypervolume(
            self.function,
            self.instance,
            self.domain.dim(),
        )
    }
}

/// A bbob function's optimal value and its one optimiser (every bbob instance declares both).
fn optimum(bbob: &Bbob) -> Result<(f64, Vec<f64>), ProblemError> {
    bbob.optimum()
        .and_then(|o| Some((o.value, o.locations.into_iter().next()?)))
        .ok_or_else(|| ProblemError::config(format!("{bbob:?} declares no optimum")))
}

impl MultiObjectiveFunction for BbobBiobj {
    fn domain(&self) -> &Domain {
        &self.domain
    }

    fn objectives(&self) -> usize {
        2
    }

    fn values(&self, x: &[f64]) -> Vec<f64> {
        self.objectives.iter().map(|f| f.value(x)).collect()
    }

    fn reference_point(&self) -> Vec<f64> {
        self.nadir.to_vec()
    }

    fn max_hypervolume(&self) -> Option<f64> {
        let area = (self.nadir[0] - self.ideal[0]) * (self.nadir[1] - self.ideal[1]);
        self.best_normalised_hypervolume().map(|hv| hv * area)
    }

    fn pareto_front(&self, _n: usize) -> Option<Vec<Vec<f64>>> {
        None
    }

    fn title(&self) -> Option<String> {
        let (a, b) = self.bbob_functions;
        Some(format!(
            "f{} {} / {}",
            self.function,
            FUNCTION_NAMES[a - 1],
            FUNCTION_NAMES[b - 1]
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// f1 pairs two spheres, `‖x − x_a‖² + f_a` and `‖x − x_b‖² + f_b`: the nadir is the ideal
    /// moved by `‖x_a − x_b‖²` in both objectives, and the normalised front is
    /// `(1 − √u)²`, whose hypervolume from (1, 1) is 1 − 1/6 = 5/6, the value COCO's best front
    /// approaches.
    #[test]
    fn two_spheres_by_hand() {
        let p = BbobBiobj::new(1, 1, 3).unwrap();
        let xa = p.objectives[0].optimum().unwrap().locations.remove(0);
        let xb = p.objectives[1].optimum().unwrap().locations.remove(0);
        let gap: f64 = xa.iter().zip(&xb).map(|(a, b)| (a - b).powi(2)).sum();
        let [ia, ib] = p.ideal();
        let [na, nb] = p.nadir();
        assert!((na - ia - gap).abs() < 1e-9 * gap, "{na} {ia} {gap}");
        assert!((nb - ib - gap).abs() < 1e-9 * gap, "{nb} {ib} {gap}");
        let normalised = p.best_normalised_hypervolume().unwrap();
        assert!((normalised - 5.0 / 6.0).abs() < 1e-6, "{normalised}");
        let hv = p.max_hypervolume().unwrap();
        assert!((hv - normalised * gap * gap).abs() < 1e-9 * hv);
        assert_eq!(p.reference_point(), vec![na, nb]);
        assert_eq!(p.values(&xa)[0], ia);
        assert_eq!(p.values(&xb), vec![na, ib]);
    }

    #[test]
    fn the_box_title_and_components_are_coco_s() {
        let p = BbobBiobj::new(19, 9, 5).unwrap();
        assert_eq!(p.bbob_functions(), (2, 21));
        assert_eq!(p.bbob_instances(), (19, 21));
        assert_eq!(p.domain().lower(), &[-100.0; 5][..]);
        assert_eq!(p.domain().upper(), &[100.0; 5][..]);
        assert_eq!(
            p.title().unwrap(),
            "f19 Separable Ellipsoidal / Gallagher's Gaussian 101-me Peaks"
        );
    }

    #[test]
    fn a_smaller_box_keeps_the_optima_and_refuses_one_without_them() {
        let coco = BbobBiobj::new(20, 3, 4).unwrap();
        let small = BbobBiobj::new(20, 3, 4).unwrap().within(5.0).unwrap();
        assert_eq!(small.domain().lower(), &[-5.0; 4][..]);
        assert_eq!(small.domain().upper(), &[5.0; 4][..]);
        assert_eq!(small.ideal(), coco.ideal());
        assert_eq!(small.nadir(), coco.nadir());
        assert_eq!(small.max_hypervolume(), coco.max_hypervolume());
        for bound in [4.9, 100.5, f64::NAN] {
            let err = BbobBiobj::new(20, 3, 4)
                .unwrap()
                .within(bound)
                .unwrap_err()
                .to_string();
            assert!(err.contains("bound") && err.contains("[5, 100]"), "{err}");
        }
    }

    /// Instances 11–15 and dimensions outside COCO's six have no published hypervolume, but
    /// still their reference point.
    #[test]
    fn the_maximum_is_declared_only_where_coco_publishes_it() {
        assert!(
            BbobBiobj::new(7, 10, 20)
                .unwrap()
                .max_hypervolume()
                .is_some()
        );
        for (i, d) in [(11, 2), (15, 5), (1, 4), (3, 64)] {
            let p = BbobBiobj::new(7, i, d).unwrap();
            assert_eq!(p.max_hypervolume(), None, "i{i} d{d}");
            assert_eq!(p.reference_point(), p.nadir().to_vec());
        }
    }

    #[test]
    fn bad_parameters_are_refused_with_the_value() {
        for (f, i, d, needle) in [
            (0, 1, 2, "function = 0"),
            (56, 1, 2, "function = 56"),
            (1, 0, 2, "instance = 0"),
            (1, 16, 2, "instance = 16"),
            (1, 1, 1, "dim = 1"),
        ] {
            let err = BbobBiobj::new(f, i, d).unwrap_err().to_string();
            assert!(err.contains(needle), "{needle}: {err}");
        }
    }
}
