//! The classic constrained two-objective problems of the evolutionary multi-objective
//! literature (Deb, "Multi-objective optimization using evolutionary algorithms", Wiley 2001,
//! §14.1), as BoTorch 0.18.1 (`botorch.test_functions.multi_objective`) states them: BNH, SRN,
//! CONSTR and OSY. Both objectives of each are minimised.

use super::ConstraintFunctions;
use crate::Domain;
use crate::functions::fixed_box;
use crate::multi_objective::MultiObjectiveFunction;

/// Writes the [`MultiObjectiveFunction`] methods the four share: two objectives, no known
/// maximal hypervolume or closed-form front, and BoTorch's reference point `$reference`.
macro_rules! two_objectives {
    ($reference:expr) => {
        fn domain(&self) -> &Domain {
            &self.domain
        }

        fn objectives(&self) -> usize {
            2
        }

        fn reference_point(&self) -> Vec<f64> {
            $reference.to_vec()
        }

        fn max_hypervolume(&self) -> Option<f64> {
            None
        }

        fn pareto_front(&self, _n: usize) -> Option<Vec<Vec<f64>>> {
            None
        }
    };
}

/// Declares a problem of this module: a struct holding its box, built by `new` and `default`.
macro_rules! fixed_box_problem {
    ($(#[$doc:meta])* $name:ident, $lower:expr, $upper:expr) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name {
            domain: Domain,
        }

        impl $name {
            /// The problem on its box.
            pub fn new() -> Self {
                Self {
                    domain: fixed_box(&$lower, &$upper),
                }
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }
    };
}

fixed_box_problem!(
    /// BNH (Binh & Korn, "MOBES: a multiobjective evolution strategy for constrained
    /// optimization problems", 1997) on `[0, 5] × [0, 3]`: `f₁ = 4x₁² + 4x₂²`,
    /// `f₂ = (x₁ − 5)² + (x₂ − 5)²`, subject to `(x₁ − 5)² + x₂² − 25 ≤ 0` and
    /// `7.7 − (x₁ − 8)² − (x₂ + 3)² ≤ 0`.
    ///
    /// BoTorch's reference point (0, 0) is a placeholder ("TODO: Determine proper reference
    /// point") that no point dominates, so every hypervolume from it would be 0. This one,
    /// (150, 55), is the true front's nadir (136, 50) plus a tenth of its range from the ideal
    /// (0, 4) (BoTorch's `infer_reference_point` rule), rounded up to two significant digits.
    Bnh,
    [0.0, 0.0],
    [5.0, 3.0]
);

impl MultiObjectiveFunction for Bnh {
    two_objectives!([150.0, 55.0]);

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2) = (x[0], x[1]);
        vec![
            4.0 * (x1 * x1 + x2 * x2),
            (x1 - 5.0).powi(2) + (x2 - 5.0).powi(2),
        ]
    }
}

impl ConstraintFunctions for Bnh {
    fn constraint_names(&self) -> Vec<String> {
        vec!["c1".into(), "c2".into()]
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2) = (x[0], x[1]);
        vec![
            (x1 - 5.0).powi(2) + x2 * x2 - 25.0,
            7.7 - (x1 - 8.0).powi(2) - (x2 + 3.0).powi(2),
        ]
    }
}

fixed_box_problem!(
    /// SRN (Srinivas & Deb, "Multiobjective optimization using nondominated sorting in genetic
    /// algorithms", Evolutionary Computation 1994) on `[−20, 20]²`:
    /// `f₁ = 2 + (x₁ − 2)² + (x₂ − 1)²`, `f₂ = 9x₁ − (x₂ − 1)²`, subject to
    /// `x₁² + x₂² − 225 ≤ 0` and `x₁ − 3x₂ + 10 ≤ 0`.
    ///
    /// BoTorch departs from the paper twice, by slips of vectorisation that every other
    /// implementation (the NSGA-II paper, jMetal, the MOEA Framework) avoids: its `f₁` is
    /// `2 + Σ(x_i − 2)²` (`x₂ − 2` for the paper's `x₂ − 1`), and its first constraint
    /// `Σ x_i⁴ ≤ 225` squares twice. Both are bugs; this follows the paper.
    ///
    /// BoTorch's reference point (0, 0) is a placeholder, as BNH's (`f₁ ≥ 2`, so every
    /// hypervolume from it would be 0). This one, (250, 25), is the true front's nadir
    /// (223.8, 2.39) plus a tenth of its range from the ideal (10.1, −217.7) (BoTorch's
    /// `infer_reference_point` rule, the front measured on a 2000 × 2000 grid of feasible
    /// points), rounded up to two significant digits.
    Srn,
    [-20.0, -20.0],
    [20.0, 20.0]
);

impl MultiObjectiveFunction for Srn {
    two_objectives!([250.0, 25.0]);

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2) = (x[0], x[1]);
        vec![
            2.0 + (x1 - 2.0).powi(2) + (x2 - 1.0).powi(2),
            9.0 * x1 - (x2 - 1.0).powi(2),
        ]
    }
}

impl ConstraintFunctions for Srn {
    fn constraint_names(&self) -> Vec<String> {
        vec!["c1".into(), "c2".into()]
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2) = (x[0], x[1]);
        vec![x1 * x1 + x2 * x2 - 225.0, 10.0 + x1 - 3.0 * x2]
    }
}

fixed_box_problem!(
    /// CONSTR (Deb 2001, "Constr-Ex") on BoTorch's `[0.1, 10] × [0, 5]`: `f₁ = x₁`,
    /// `f₂ = (1 + x₂)/x₁`, subject to `6 − 9x₁ − x₂ ≤ 0` and `1 − 9x₁ + x₂ ≤ 0`; reference
    /// point (10, 10), BoTorch's. Deb's box has `x₁ ≤ 1`; BoTorch's reaches 10, which extends
    /// the front to `f₁ = 10` (a choice, not a slip: its reference point matches it), and this
    /// follows BoTorch.
    Constr,
    [0.1, 0.0],
    [10.0, 5.0]
);

impl MultiObjectiveFunction for Constr {
    two_objectives!([10.0, 10.0]);

    fn values(&self, x: &[f64]) -> Vec<f64> {
        vec![x[0], (1.0 + x[1]) / x[0]]
    }
}

impl ConstraintFunctions for Constr {
    fn constraint_names(&self) -> Vec<String> {
        vec!["c1".into(), "c2".into()]
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        let (x1, x2) = (x[0], x[1]);
        vec![6.0 - 9.0 * x1 - x2, 1.0 - 9.0 * x1 + x2]
    }
}

fixed_box_problem!(
    /// OSY (Osyczka & Kundu, "A new method to solve generalized multicriteria optimization
    /// problems using the simple genetic algorithm", Structural Optimization 1995) on
    /// `[0, 10]² × [1, 5] × [0, 6] × [1, 5] × [0, 10]`:
    /// `f₁ = −(25(x₁ − 2)² + (x₂ − 2)² + (x₃ − 1)² + (x₄ − 4)² + (x₅ − 1)²)`, `f₂ = Σ x_i²`,
    /// subject to six linear and quadratic constraints; reference point (−75, 75), BoTorch's.
    Osy,
    [0.0, 0.0, 1.0, 0.0, 1.0, 0.0],
    [10.0, 10.0, 5.0, 6.0, 5.0, 10.0]
);

impl MultiObjectiveFunction for Osy {
    two_objectives!([-75.0, 75.0]);

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let f1 = 25.0 * (x[0] - 2.0).powi(2)
            + (x[1] - 2.0).powi(2)
            + (x[2] - 1.0).powi(2)
            + (x[3] - 4.0).powi(2)
            + (x[4] - 1.0).powi(2);
        vec![-f1, x.iter().map(|v| v * v).sum()]
    }
}

impl ConstraintFunctions for Osy {
    fn constraint_names(&self) -> Vec<String> {
        (1..=6).map(|j| format!("c{j}")).collect()
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        vec![
            2.0 - x[0] - x[1],
            x[0] + x[1] - 6.0,
            x[1] - x[0] - 2.0,
            x[0] - 3.0 * x[1] - 2.0,
            (x[2] - 3.0).powi(2) + x[3] - 4.0,
            4.0 - (x[4] - 3.0).powi(2) - x[5],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand at simple points.
    #[test]
    fn by_hand() {
        assert_eq!(Bnh::new().values(&[1.0, 2.0]), vec![20.0, 25.0]);
        assert_eq!(
            Bnh::new().constraint_values(&[5.0, 0.0]),
            vec![-25.0, 7.7 - 9.0 - 9.0]
        );
        assert_eq!(Srn::new().values(&[2.0, 1.0]), vec![2.0, 18.0]);
        assert_eq!(Srn::new().constraint_values(&[9.0, 12.0]), vec![0.0, -17.0]);
        assert_eq!(Constr::new().values(&[0.5, 1.0]), vec![0.5, 4.0]);
        assert_eq!(
            Constr::new().constraint_values(&[0.5, 1.0]),
            vec![0.5, -2.5]
        );
        let x = [2.0, 2.0, 1.0, 4.0, 1.0, 0.0];
        assert_eq!(Osy::new().values(&x), vec![-0.0, 26.0]);
        assert_eq!(
            Osy::new().constraint_values(&x),
            vec![-2.0, -2.0, -2.0, -6.0, 4.0, 0.0]
        );
    }

    #[test]
    fn declared_constants() {
        assert_eq!(Bnh::default().reference_point(), vec![150.0, 55.0]);
        assert_eq!(Srn::default().reference_point(), vec![250.0, 25.0]);
        assert_eq!(Constr::default().reference_point(), vec![10.0, 10.0]);
        assert_eq!(Osy::default().reference_point(), vec![-75.0, 75.0]);
        assert_eq!(Osy::default().domain().dim(), 6);
        assert!(Osy::default().max_hypervolume().is_none());
    }
}
