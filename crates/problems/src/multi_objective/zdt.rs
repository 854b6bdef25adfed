//! ZDT1–ZDT3 of Zitzler, Deb and Thiele ("Comparison of multiobjective evolutionary algorithms:
//! empirical results", Evolutionary Computation 8(2), 2000): two objectives over `[0, 1]^d`,
//! `f_1 = x_1` and `f_2 = g · h(f_1, g)` with `g = 1 + 9/(d − 1) Σ_{i>1} x_i`, minimised. The
//! Pareto set is `x_i = 0` for `i > 1` (g = 1), where the front is `f_2 = h(f_1, 1)`.
//!
//! Reference point `(11, 11)` (BoTorch's, from Yang et al. 2019) and the maximal hypervolumes
//! BoTorch publishes, which are exact: `121 − ∫ h`, the reference box less the area below the
//! front.

use std::f64::consts::PI;

use super::MultiObjectiveFunction;
use super::front::linspace;
use crate::{Domain, ProblemError};

/// BoTorch's reference point for every ZDT function.
const REFERENCE: [f64; 2] = [11.0, 11.0];

/// `g = 1 + 9/(d − 1) Σ_{i>1} x_i`: 1 on the Pareto set, 10 at the far corner.
fn g(x: &[f64]) -> f64 {
    1.0 + 9.0 * x[1..].iter().sum::<f64>() / (x.len() - 1) as f64
}

/// Declares a ZDT function: its struct (documented by the attributes given) and its constructor.
macro_rules! zdt {
    ($(#[$doc:meta])* $name:ident, $title:literal) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name {
            domain: Domain,
        }

        impl $name {
            /// The name in listings and messages.
            const TITLE: &'static str = $title;

            #[doc = concat!($title, " in `dim ≥ 2` dimensions; an error below 2.")]
            pub fn new(dim: usize) -> Result<Self, ProblemError> {
                if dim < 2 {
                    return Err(ProblemError::config(format!(
                        "{} needs dimension ≥ 2, got {dim}",
                        Self::TITLE
                    )));
                }
                Ok(Self {
                    domain: Domain::cube(0.0, 1.0, dim)?,
                })
            }
        }
    };
}

/// Writes the [`MultiObjectiveFunction`] methods every ZDT function shares, inside its `impl`
/// block.
macro_rules! zdt_accessors {
    () => {
        fn domain(&self) -> &Domain {
            &self.domain
        }

        fn objectives(&self) -> usize {
            2
        }

        fn reference_point(&self) -> Vec<f64> {
            REFERENCE.to_vec()
        }

        fn title(&self) -> Option<String> {
            Some(Self::TITLE.to_string())
        }
    };
}

zdt!(
    /// ZDT1 (Zitzler, Deb & Thiele 2000): `h = 1 − √(f_1/g)`; a convex front
    /// `f_2 = 1 − √f_1`, `f_1 ∈ [0, 1]`. Maximal hypervolume `121 − 1/3` (BoTorch's).
    Zdt1,
    "ZDT1"
);

impl MultiObjectiveFunction for Zdt1 {
    zdt_accessors!();

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let g = g(x);
        vec![x[0], g * (1.0 - (x[0] / g).sqrt())]
    }

    fn max_hypervolume(&self) -> Option<f64> {
        Some(120.0 + 2.0 / 3.0)
    }

    fn pareto_front(&self, n: usize) -> Option<Vec<Vec<f64>>> {
        Some(
            linspace(0.0, 1.0, n)
                .into_iter()
                .map(|f1| vec![f1, 1.0 - f1.sqrt()])
                .collect(),
        )
    }
}

zdt!(
    /// ZDT2 (Zitzler, Deb & Thiele 2000): `h = 1 − (f_1/g)²`; a concave front `f_2 = 1 − f_1²`,
    /// `f_1 ∈ [0, 1]`. Maximal hypervolume `121 − 2/3` (BoTorch's).
    Zdt2,
    "ZDT2"
);

impl MultiObjectiveFunction for Zdt2 {
    zdt_accessors!();

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let g = g(x);
        vec![x[0], g * (1.0 - (x[0] / g).powi(2))]
    }

    fn max_hypervolume(&self) -> Option<f64> {
        Some(120.0 + 1.0 / 3.0)
    }

    fn pareto_front(&self, n: usize) -> Option<Vec<Vec<f64>>> {
        Some(
            linspace(0.0, 1.0, n)
                .into_iter()
                .map(|f1| vec![f1, 1.0 - f1 * f1])
                .collect(),
        )
    }
}

zdt!(
    /// ZDT3 (Zitzler, Deb & Thiele 2000): `h = 1 − √(f_1/g) − (f_1/g) sin(10π f_1)`; the front
    /// `f_2 = 1 − √f_1 − f_1 sin(10π f_1)` is the five pieces of that curve (over
    /// [`Zdt3::PIECES`]) that no earlier part of it dominates. Maximal hypervolume
    /// 128.77811613069076 (BoTorch's; the pieces' closed-form integral agrees to the last digit).
    ///
    /// BoTorch 0.18.1's `ZDT3` returns `h` itself as the second objective, without the paper's
    /// factor `g` (pymoo has it): the two agree on the Pareto set (g = 1) and nowhere else.
    /// This is the paper's.
    Zdt3,
    "ZDT3"
);

impl Zdt3 {
    /// The `f_1` intervals of the front's pieces: each right end a local minimum of the curve,
    /// each left end after the first where the curve comes back down to the previous piece's
    /// minimum (excluded: the point there is weakly dominated by that minimum). Refined to f64
    /// in 40-digit arithmetic from BoTorch's 10-digit values (pymoo's left end of the second,
    /// 0.182228780, drops a digit of 0.1822287280).
    pub const PIECES: [(f64, f64); 5] = [
        (0.0, 0.08300153492691163),
        (0.18222872802939977, 0.2577623633878302),
        (0.4093136748086568, 0.4538821040888302),
        (0.6183967944392658, 0.6525117038046625),
        (0.8233317983266327, 0.8518328654364139),
    ];

    /// The curve the front is drawn from, `h(f_1, 1)`.
    fn curve(f1: f64) -> f64 {
        1.0 - f1.sqrt() - f1 * (10.0 * PI * f1).sin()
    }
}

impl MultiObjectiveFunction for Zdt3 {
    zdt_accessors!();

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let g = g(x);
        let ratio = x[0] / g;
        vec![
            x[0],
            g * (1.0 - ratio.sqrt() - ratio * (10.0 * PI * x[0]).sin()),
        ]
    }

    fn max_hypervolume(&self) -> Option<f64> {
        Some(128.77811613069076)
    }

    /// `n` points shared among the pieces as BoTorch shares them (`n / 5` each, the first
    /// `n mod 5` pieces one more), evenly spaced in `f_1` over each piece: the first piece with
    /// both ends, the others without their (dominated) left end.
    fn pareto_front(&self, n: usize) -> Option<Vec<Vec<f64>>> {
        let pieces = Self::PIECES.len();
        let mut front = Vec::with_capacity(n);
        for (j, &(left, right)) in Self::PIECES.iter().enumerate() {
            let count = n / pieces + usize::from(j < n % pieces);
            let f1s = if j == 0 {
                linspace(left, right, count)
            } else {
                linspace(left, right, count + 1).split_off(1)
            };
            front.extend(f1s.into_iter().map(|f1| vec![f1, Self::curve(f1)]));
        }
        Some(front)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{assert_hypervolume_converges, assert_mutually_nondominated};
    use super::*;

    fn functions(dim: usize) -> Vec<Box<dyn MultiObjectiveFunction>> {
        vec![
            Box::new(Zdt1::new(dim).unwrap()),
            Box::new(Zdt2::new(dim).unwrap()),
            Box::new(Zdt3::new(dim).unwrap()),
        ]
    }

    /// The front's equation, in the order of [`functions`].
    fn fronts() -> [fn(f64) -> f64; 3] {
        [|f1| 1.0 - f1.sqrt(), |f1| 1.0 - f1 * f1, Zdt3::curve]
    }

    #[test]
    fn constructors_reject_one_dimension() {
        assert_eq!(
            Zdt2::new(1).unwrap_err().to_string(),
            "ZDT2 needs dimension ≥ 2, got 1"
        );
        assert!(Zdt3::new(0).is_err());
        assert_eq!(Zdt1::new(30).unwrap().domain().dim(), 30);
    }

    #[test]
    fn on_the_pareto_set_the_values_lie_on_the_front() {
        for dim in [2, 4, 30] {
            for (f, front) in functions(dim).iter().zip(fronts()) {
                for f1 in [0.0, 0.08, 0.3, 0.62, 1.0] {
                    let mut x = vec![0.0; dim];
                    x[0] = f1;
                    let values = f.values(&x);
                    assert_eq!(values[0], f1);
                    assert!((values[1] - front(f1)).abs() < 1e-15, "{values:?}");
                }
            }
        }
    }

    /// Off the Pareto set `f_2 = g · h(f_1, g)`: at `x = (¼, 1, …, 1)`, g = 10.
    #[test]
    fn off_the_pareto_set_g_scales_the_second_objective() {
        let x = [0.25, 1.0, 1.0, 1.0];
        let r: f64 = 0.025;
        let want = [
            10.0 * (1.0 - r.sqrt()),
            10.0 * (1.0 - r * r),
            10.0 * (1.0 - r.sqrt() - r * (2.5 * PI).sin()),
        ];
        for (f, want) in functions(4).iter().zip(want) {
            let got = f.values(&x)[1];
            assert!((got - want).abs() < 1e-14, "{got} vs {want}");
        }
    }

    #[test]
    fn every_function_reports_its_shape() {
        for f in functions(5) {
            assert_eq!(f.objectives(), 2);
            assert_eq!(f.reference_point(), vec![11.0, 11.0]);
            assert!(f.title().unwrap().starts_with("ZDT"));
        }
    }

    #[test]
    fn fronts_lie_on_their_curves_and_dominate_no_one_another() {
        for (f, front) in functions(3).iter().zip(fronts()) {
            for n in [0, 1, 7, 501] {
                let points = f.pareto_front(n).unwrap();
                assert_eq!(points.len(), n);
                for p in &points {
                    assert!((0.0..=1.0).contains(&p[0]));
                    assert!((p[1] - front(p[0])).abs() < 1e-15, "{p:?}");
                }
                assert_mutually_nondominated(&points);
            }
        }
        let zdt3 = Zdt3::new(3).unwrap().pareto_front(500).unwrap();
        for p in zdt3 {
            assert!(
                Zdt3::PIECES.iter().any(|&(a, b)| (a..=b).contains(&p[0])),
                "{p:?} is in no piece"
            );
        }
    }

    /// The pieces' ends are what they claim: right ends stationary points of the curve, left
    /// ends at the previous piece's minimum.
    #[test]
    fn zdt3_pieces_end_where_the_curve_turns_and_returns() {
        let slope = |x: f64| {
            -0.5 / x.sqrt() - (10.0 * PI * x).sin() - 10.0 * PI * x * (10.0 * PI * x).cos()
        };
        for (j, &(left, right)) in Zdt3::PIECES.iter().enumerate() {
            assert!(
                slope(right).abs() < 1e-12,
                "piece {j}: slope {}",
                slope(right)
            );
            if j > 0 {
                let previous = Zdt3::curve(Zdt3::PIECES[j - 1].1);
                assert!((Zdt3::curve(left) - previous).abs() < 1e-15, "piece {j}");
            }
        }
    }

    /// BoTorch's published maximum is the pieces' hypervolume in closed form:
    /// `∫ h = f − ⅔ f^{3/2} − sin(cf)/c² + f cos(cf)/c` with c = 10π, each gap between pieces a
    /// rectangle at the previous minimum.
    #[test]
    fn zdt3_maximal_hypervolume_is_the_pieces_integral() {
        let c = 10.0 * PI;
        let antiderivative =
            |f: f64| f - 2.0 / 3.0 * f.powf(1.5) - (c * f).sin() / (c * c) + f * (c * f).cos() / c;
        let r = REFERENCE[0];
        let pieces = Zdt3::PIECES;
        let mut hv = 0.0;
        for (j, &(a, b)) in pieces.iter().enumerate() {
            hv += r * (b - a) - (antiderivative(b) - antiderivative(a));
            let next = pieces.get(j + 1).map_or(r, |p| p.0);
            hv += (next - b) * (r - Zdt3::curve(b));
        }
        let published = Zdt3::new(2).unwrap().max_hypervolume().unwrap();
        assert!(
            (hv - published).abs() < 1e-13 * published,
            "{hv} vs {published}"
        );
    }

    #[test]
    fn maximal_hypervolumes_match_a_dense_front() {
        for f in functions(2) {
            let front = f.pareto_front(20_000).unwrap();
            let max = f.max_hypervolume().unwrap();
            assert_hypervolume_converges(&front, &f.reference_point(), max);
        }
    }
}
