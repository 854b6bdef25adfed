//! The DTLZ functions of Deb, Thiele, Laumanns and Zitzler ("Scalable multi-objective
//! optimization test problems", CEC 2002): m ≥ 2 objectives over `[0, 1]^d`, where the first
//! m − 1 variables place a point along the front (its position) and the last `k = d − m + 1`
//! set its distance from the front through a function `g` that is zero on the Pareto set.
//!
//! Dimensions follow BoTorch, d > m (k ≥ 2; the paper allows k = 1), so that every function here
//! is one BoTorch builds; the reference point is `(r, …, r)` with BoTorch's `_ref_val` for r.

use std::f64::consts::{FRAC_1_SQRT_2, PI};

use super::front::{linspace, simplex, sphere_orthant, sphere_orthant_hypervolume};
use super::{MultiObjectiveFunction, finite};
use crate::{Domain, ProblemError};

/// A DTLZ function's box and number of objectives, checked once for all of them.
#[derive(Debug)]
struct Layout {
    domain: Domain,
    objectives: usize,
}

impl Layout {
    fn new(title: &str, dim: usize, objectives: usize) -> Result<Self, ProblemError> {
        if objectives < 2 {
            return Err(ProblemError::config(format!(
                "{title} needs at least 2 objectives, got {objectives}"
            )));
        }
        if dim <= objectives {
            return Err(ProblemError::config(format!(
                "{title} with {objectives} objectives needs dimension > {objectives} \
                 (at least two distance variables, as BoTorch requires), got {dim}"
            )));
        }
        Ok(Self {
            domain: Domain::cube(0.0, 1.0, dim)?,
            objectives,
        })
    }

    /// `x`'s position variables (the first m − 1) and distance variables (the last k).
    fn split<'a>(&self, x: &'a [f64]) -> (&'a [f64], &'a [f64]) {
        x.split_at(self.objectives - 1)
    }
}

/// Declares a DTLZ function: its struct (documented by the attributes given), its constructor and
/// BoTorch's reference value r (the reference point is `(r, …, r)`).
macro_rules! dtlz {
    ($(#[$doc:meta])* $name:ident, $title:literal, reference: $reference:expr) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name {
            layout: Layout,
        }

        impl $name {
            /// The name in listings and messages.
            const TITLE: &'static str = $title;

            /// BoTorch's `_ref_val`: every coordinate of the reference point.
            const REFERENCE: f64 = $reference;

            #[doc = concat!(
                $title,
                " in `dim` dimensions with `objectives` objectives; an error unless ",
                "2 ≤ objectives < dim."
            )]
            pub fn new(dim: usize, objectives: usize) -> Result<Self, ProblemError> {
                Ok(Self {
                    layout: Layout::new(Self::TITLE, dim, objectives)?,
                })
            }
        }
    };
}

/// Writes the [`MultiObjectiveFunction`] methods every DTLZ function answers from its layout,
/// title and reference value, inside its `impl` block.
macro_rules! layout_accessors {
    () => {
        fn domain(&self) -> &Domain {
            &self.layout.domain
        }

        fn objectives(&self) -> usize {
            self.layout.objectives
        }

        fn reference_point(&self) -> Vec<f64> {
            vec![Self::REFERENCE; self.layout.objectives]
        }

        fn title(&self) -> Option<String> {
            Some(Self::TITLE.to_string())
        }
    };
}

/// Writes the [`MultiObjectiveFunction`] methods of the DTLZ functions whose Pareto front is the
/// unit sphere's positive orthant (DTLZ2, 3 and 4): its sample and the hypervolume it dominates
/// up to the reference point.
macro_rules! sphere_front {
    () => {
        fn max_hypervolume(&self) -> Option<f64> {
            finite(sphere_orthant_hypervolume(
                Self::REFERENCE,
                self.layout.objectives,
            ))
        }

        fn pareto_front(&self, n: usize) -> Option<Vec<Vec<f64>>> {
            Some(sphere_orthant(n, self.layout.objectives))
        }
    };
}

/// DTLZ1 and DTLZ3's `g`: `100 (k + Σ (x_i − ½)² − cos(20π (x_i − ½)))`, a Rastrigin-like
/// landscape whose many local minima hold local fronts parallel to the global one (g = 0 at
/// every `x_i = ½`).
fn rugged_g(distance: &[f64]) -> f64 {
    let sum: f64 = distance
        .iter()
        .map(|x| {
            let y = x - 0.5;
            y * y - (20.0 * PI * y).cos()
        })
        .sum();
    100.0 * (distance.len() as f64 + sum)
}

/// DTLZ2, DTLZ4 and DTLZ5's `g`: `Σ (x_i − ½)²`, zero at every `x_i = ½`.
fn bowl_g(distance: &[f64]) -> f64 {
    distance.iter().map(|x| (x - 0.5).powi(2)).sum()
}

/// The linear shape, indices from 0: `f_i = s Π_{j < m−1−i} p_j · (1 − p_{m−1−i})` (no last
/// factor for `i = 0`), a point of the simplex `Σ f = s` for positions `p` in the unit cube.
fn linear(positions: &[f64], scale: f64) -> Vec<f64> {
    let m = positions.len() + 1;
    (0..m)
        .map(|i| {
            let cut = m - 1 - i;
            let f = scale * positions[..cut].iter().product::<f64>();
            if i > 0 { f * (1.0 - positions[cut]) } else { f }
        })
        .collect()
}

/// The spherical shape, indices from 0:
/// `f_i = r Π_{j < m−1−i} cos(θ_j π/2) · sin(θ_{m−1−i} π/2)` (no sine for `i = 0`), a point of
/// the sphere of radius r for angles θ in the unit cube.
fn spherical(angles: &[f64], radius: f64) -> Vec<f64> {
    let m = angles.len() + 1;
    (0..m)
        .map(|i| {
            let cut = m - 1 - i;
            let f = radius
                * angles[..cut]
                    .iter()
                    .map(|t| (t * PI / 2.0).cos())
                    .product::<f64>();
            if i > 0 {
                f * (angles[cut] * PI / 2.0).sin()
            } else {
                f
            }
        })
        .collect()
}

dtlz!(
    /// DTLZ1 (Deb et al. 2002), minimised: with `s = ½(1 + g)`,
    /// `f_1 = s x_1 ⋯ x_{m−1}`, `f_i = s x_1 ⋯ x_{m−i} (1 − x_{m−i+1})` and
    /// `f_m = s (1 − x_1)`, where `g = 100 (k + Σ_{i ≥ m} (x_i − ½)² − cos(20π(x_i − ½)))`. The
    /// Pareto front is the simplex `Σ f_i = ½`, reached at `x_i = ½` for the distance variables.
    ///
    /// Reference point `(400, …, 400)` (BoTorch's, from Yang et al. 2019). The maximal
    /// hypervolume is `400^m − (½)^m / m!`, the cube less the simplex below the front; BoTorch's
    /// `DTLZ1._max_hv` is `400^m − (½)^m`, which leaves out the simplex volume's `1/m!` and so
    /// understates the maximum (by 0.125 for m = 2): a hypervolume between the two would read
    /// as beating the true front.
    Dtlz1,
    "DTLZ1",
    reference: 400.0
);

impl MultiObjectiveFunction for Dtlz1 {
    layout_accessors!();

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let (position, distance) = self.layout.split(x);
        linear(position, 0.5 * (1.0 + rugged_g(distance)))
    }

    fn max_hypervolume(&self) -> Option<f64> {
        let m = self.layout.objectives;
        let factorial: f64 = (1..=m).map(|i| i as f64).product();
        finite(Self::REFERENCE.powi(m as i32) - 0.5f64.powi(m as i32) / factorial)
    }

    fn pareto_front(&self, n: usize) -> Option<Vec<Vec<f64>>> {
        Some(simplex(n, self.layout.objectives, 0.5))
    }
}

dtlz!(
    /// DTLZ2 (Deb et al. 2002), minimised: with `r = 1 + g` and `c_j, s_j = cos, sin(x_j π/2)`,
    /// `f_1 = r c_1 ⋯ c_{m−1}`, `f_i = r c_1 ⋯ c_{m−i} s_{m−i+1}` and `f_m = r s_1`, where
    /// `g = Σ_{i ≥ m} (x_i − ½)²`. The Pareto front is the unit sphere's positive orthant
    /// `Σ f_i² = 1`, reached at `x_i = ½` for the distance variables.
    ///
    /// Reference point `(1.1, …, 1.1)` and maximal hypervolume `1.1^m − V_m / 2^m` (`V_m` the unit
    /// ball's volume), both BoTorch's.
    Dtlz2,
    "DTLZ2",
    reference: 1.1
);

impl MultiObjectiveFunction for Dtlz2 {
    layout_accessors!();

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let (position, distance) = self.layout.split(x);
        spherical(position, 1.0 + bowl_g(distance))
    }

    sphere_front!();
}

dtlz!(
    /// DTLZ3 (Deb et al. 2002): DTLZ2's objectives with DTLZ1's rugged `g`, minimised; the same
    /// Pareto front as DTLZ2 (g = 0 at `x_i = ½`), behind many local fronts.
    ///
    /// Reference point `(10⁴, …, 10⁴)` and maximal hypervolume `10^(4m) − V_m / 2^m`, both
    /// BoTorch's (its DTLZ3 inherits DTLZ2's formula). In f64 the orthant's volume is lost in the
    /// cube's from m = 4 on, where the cube's spacing, 2 at 10¹⁶, exceeds it.
    Dtlz3,
    "DTLZ3",
    reference: 10_000.0
);

impl MultiObjectiveFunction for Dtlz3 {
    layout_accessors!();

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let (position, distance) = self.layout.split(x);
        spherical(position, 1.0 + rugged_g(distance))
    }

    sphere_front!();
}

dtlz!(
    /// DTLZ4 (Deb et al. 2002): DTLZ2 with each position variable raised to the power α = 100
    /// before it becomes an angle, minimised: most of the cube maps near the front's edges, so
    /// that a method must work to spread its points. The same Pareto front as DTLZ2.
    ///
    /// Reference point `(1.1, …, 1.1)` and maximal hypervolume those of DTLZ2, as BoTorch gives
    /// them. BoTorch 0.18.1's `DTLZ4` declares α but evaluates DTLZ2's formula unchanged (its
    /// values are DTLZ2's); this is the paper's DTLZ4, pymoo's too.
    Dtlz4,
    "DTLZ4",
    reference: 1.1
);

impl Dtlz4 {
    /// The paper's exponent of the position variables.
    const ALPHA: f64 = 100.0;
}

impl MultiObjectiveFunction for Dtlz4 {
    layout_accessors!();

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let (position, distance) = self.layout.split(x);
        let angles: Vec<f64> = position.iter().map(|p| p.powf(Self::ALPHA)).collect();
        spherical(&angles, 1.0 + bowl_g(distance))
    }

    sphere_front!();
}

dtlz!(
    /// DTLZ5 (Deb et al. 2002): DTLZ2's objectives and `g` with `x_1, …, x_{m−1}` replaced by
    /// `θ_1 = x_1` and `θ_i = (1 + 2 g x_i) / (2 (1 + g))` for `1 < i < m`, minimised. On the
    /// Pareto set (g = 0) every angle but the first is ½, so the front degenerates to a curve.
    ///
    /// Reference point `(10, …, 10)`, BoTorch's. For two objectives DTLZ5 is DTLZ2 (a quarter
    /// circle, maximal hypervolume `100 − π/4`); for three the front is the curve
    /// `(cos t/√2, cos t/√2, sin t)`, `t ∈ [0, π/2]`. From four objectives on, points off the
    /// curve are Pareto-optimal too (Ishibuchi, Masuda and Nojima, "Pareto fronts of
    /// many-objective degenerate test problems", IEEE TEVC 2016), so no front is given there;
    /// BoTorch gives no maximal hypervolume for DTLZ5, nor is one given here beyond two objectives.
    Dtlz5,
    "DTLZ5",
    reference: 10.0
);

impl MultiObjectiveFunction for Dtlz5 {
    layout_accessors!();

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let (position, distance) = self.layout.split(x);
        let g = bowl_g(distance);
        let angles: Vec<f64> = position
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                if i == 0 {
                    p
                } else {
                    1.0 / (2.0 * (1.0 + g)) * (1.0 + 2.0 * g * p)
                }
            })
            .collect();
        spherical(&angles, 1.0 + g)
    }

    fn max_hypervolume(&self) -> Option<f64> {
        (self.layout.objectives == 2).then(|| sphere_orthant_hypervolume(Self::REFERENCE, 2))
    }

    fn pareto_front(&self, n: usize) -> Option<Vec<Vec<f64>>> {
        match self.layout.objectives {
            2 => Some(sphere_orthant(n, 2)),
            3 => Some(
                linspace(0.0, PI / 2.0, n)
                    .into_iter()
                    .map(|t| {
                        let c = t.cos() * FRAC_1_SQRT_2;
                        vec![c, c, t.sin()]
                    })
                    .collect(),
            ),
            _ => None,
        }
    }
}

dtlz!(
    /// DTLZ7 (Deb et al. 2002): `f_i = x_i` for `i < m` and
    /// `f_m = (1 + g) (m − Σ_{i<m} f_i/(1 + g) · (1 + sin(3π f_i)))` with
    /// `g = 1 + 9/k Σ_{i ≥ m} x_i`, minimised: the Pareto set is at `x_i = 0` for the distance
    /// variables (g = 1), and the front falls into `2^(m−1)` disconnected pieces.
    ///
    /// Reference point `(15, …, 15)`, BoTorch's. Neither BoTorch nor this module gives the
    /// front's pieces or its hypervolume, which are known only numerically.
    Dtlz7,
    "DTLZ7",
    reference: 15.0
);

impl MultiObjectiveFunction for Dtlz7 {
    layout_accessors!();

    fn values(&self, x: &[f64]) -> Vec<f64> {
        let (position, distance) = self.layout.split(x);
        let g = 1.0 + 9.0 / distance.len() as f64 * distance.iter().sum::<f64>();
        let h = self.layout.objectives as f64
            - position
                .iter()
                .map(|f| f / (1.0 + g) * (1.0 + (3.0 * PI * f).sin()))
                .sum::<f64>();
        let mut f = position.to_vec();
        f.push((1.0 + g) * h);
        f
    }

    fn max_hypervolume(&self) -> Option<f64> {
        None
    }

    fn pareto_front(&self, _n: usize) -> Option<Vec<Vec<f64>>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{assert_hypervolume_converges, assert_mutually_nondominated};
    use super::*;

    /// A point of the Pareto set: positions from a fixed pattern, distance variables at `at`.
    fn pareto_point(dim: usize, objectives: usize, at: f64) -> Vec<f64> {
        (0..dim)
            .map(|i| {
                if i < objectives - 1 {
                    [0.13, 0.71, 0.42, 0.96, 0.05][i % 5]
                } else {
                    at
                }
            })
            .collect()
    }

    fn functions(dim: usize, m: usize) -> Vec<Box<dyn MultiObjectiveFunction>> {
        vec![
            Box::new(Dtlz1::new(dim, m).unwrap()),
            Box::new(Dtlz2::new(dim, m).unwrap()),
            Box::new(Dtlz3::new(dim, m).unwrap()),
            Box::new(Dtlz4::new(dim, m).unwrap()),
            Box::new(Dtlz5::new(dim, m).unwrap()),
            Box::new(Dtlz7::new(dim, m).unwrap()),
        ]
    }

    #[test]
    fn constructors_reject_too_few_objectives_or_dimensions() {
        let few = Dtlz2::new(5, 1).unwrap_err().to_string();
        assert_eq!(few, "DTLZ2 needs at least 2 objectives, got 1");
        let narrow = Dtlz1::new(3, 3).unwrap_err().to_string();
        assert!(narrow.starts_with("DTLZ1 with 3 objectives needs dimension > 3"));
        assert!(narrow.ends_with("got 3"), "{narrow}");
        assert!(Dtlz7::new(0, 2).is_err());
        assert!(Dtlz5::new(3, 2).is_ok());
    }

    #[test]
    fn every_function_reports_its_shape() {
        for (dim, m) in [(3, 2), (6, 3), (7, 4)] {
            for f in functions(dim, m) {
                assert_eq!(f.domain().dim(), dim);
                assert_eq!(f.objectives(), m);
                assert_eq!(f.senses().len(), m);
                assert_eq!(f.reference_point().len(), m);
                assert_eq!(f.values(&vec![0.3; dim]).len(), m);
                assert!(f.title().unwrap().starts_with("DTLZ"));
            }
        }
    }

    #[test]
    fn dtlz1_on_its_pareto_set_sums_to_one_half() {
        for (dim, m) in [(3, 2), (6, 3), (9, 5)] {
            let f = Dtlz1::new(dim, m)
                .unwrap()
                .values(&pareto_point(dim, m, 0.5));
            assert!((f.iter().sum::<f64>() - 0.5).abs() < 1e-15, "{f:?}");
            assert!(f.iter().all(|&v| v >= 0.0));
        }
    }

    #[test]
    fn dtlz2_3_4_on_their_pareto_set_lie_on_the_unit_sphere() {
        for (dim, m) in [(3, 2), (6, 3), (9, 5)] {
            let x = pareto_point(dim, m, 0.5);
            for f in [
                Dtlz2::new(dim, m).unwrap().values(&x),
                Dtlz3::new(dim, m).unwrap().values(&x),
                Dtlz4::new(dim, m).unwrap().values(&x),
            ] {
                let norm = f.iter().map(|v| v * v).sum::<f64>();
                assert!((norm - 1.0).abs() < 1e-14, "{f:?}");
            }
        }
    }

    /// Off the Pareto set the point lies on a larger sphere: at `x_i = 0` every cosine is 1, so
    /// g = 100 k (1 + ¼ − 1) = 25 k.
    #[test]
    fn dtlz3_off_its_pareto_set_lies_on_a_larger_sphere() {
        let f = Dtlz3::new(6, 3).unwrap().values(&pareto_point(6, 3, 0.0));
        let radius = f.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!(
            (radius - (1.0 + 100.0 * 4.0 * 0.25)).abs() < 1e-10,
            "{radius}"
        );
    }

    /// DTLZ4 is DTLZ2 on the positions raised to the 100th power: the check that α is applied,
    /// which BoTorch 0.18.1's DTLZ4 does not.
    #[test]
    fn dtlz4_is_dtlz2_on_the_positions_to_the_hundredth() {
        let x: [f64; 6] = [0.993, 0.998, 0.3, 0.7, 0.55, 0.1];
        let mut powered = x;
        for v in &mut powered[..2] {
            *v = v.powf(100.0);
        }
        assert_eq!(
            Dtlz4::new(6, 3).unwrap().values(&x),
            Dtlz2::new(6, 3).unwrap().values(&powered)
        );
        assert_ne!(
            Dtlz4::new(6, 3).unwrap().values(&x),
            Dtlz2::new(6, 3).unwrap().values(&x)
        );
    }

    #[test]
    fn dtlz5_with_two_objectives_is_dtlz2() {
        for x in [[0.2, 0.9, 0.4, 0.1], [0.77, 0.5, 0.5, 0.5]] {
            assert_eq!(
                Dtlz5::new(4, 2).unwrap().values(&x),
                Dtlz2::new(4, 2).unwrap().values(&x)
            );
        }
    }

    /// On DTLZ5's Pareto set (g = 0) every angle but the first is ½, whatever the positions:
    /// the point lies on the curve `(cos t/√2, cos t/√2, sin t)` for three objectives.
    #[test]
    fn dtlz5_on_its_pareto_set_lies_on_the_curve() {
        for x1 in [0.0, 0.3, 0.9] {
            let f = Dtlz5::new(6, 3)
                .unwrap()
                .values(&[0.37, x1, 0.5, 0.5, 0.5, 0.5]);
            let t = 0.37 * PI / 2.0;
            let want = [t.cos() * FRAC_1_SQRT_2, t.cos() * FRAC_1_SQRT_2, t.sin()];
            for (got, want) in f.iter().zip(want) {
                assert!((got - want).abs() < 1e-15, "{f:?}");
            }
        }
    }

    /// On DTLZ7's Pareto set (distance variables 0, g = 1) the last objective is
    /// `2 (m − Σ f_i/2 · (1 + sin 3π f_i))`.
    #[test]
    fn dtlz7_on_its_pareto_set() {
        let x = pareto_point(7, 4, 0.0);
        let f = Dtlz7::new(7, 4).unwrap().values(&x);
        assert_eq!(f[..3], x[..3]);
        let h = 4.0
            - x[..3]
                .iter()
                .map(|v| v / 2.0 * (1.0 + (3.0 * PI * v).sin()))
                .sum::<f64>();
        assert!((f[3] - 2.0 * h).abs() < 1e-14, "{f:?}");
    }

    #[test]
    fn fronts_lie_on_their_surfaces_and_dominate_no_one_another() {
        for m in [2, 3, 4] {
            let dim = m + 3;
            let simplex = Dtlz1::new(dim, m).unwrap().pareto_front(300).unwrap();
            assert_eq!(simplex.len(), 300);
            for f in &simplex {
                assert!((f.iter().sum::<f64>() - 0.5).abs() < 1e-15, "{f:?}");
                assert!(f.iter().all(|&v| v >= 0.0));
            }
            assert_mutually_nondominated(&simplex);
            for front in [
                Dtlz2::new(dim, m).unwrap().pareto_front(300).unwrap(),
                Dtlz3::new(dim, m).unwrap().pareto_front(300).unwrap(),
                Dtlz4::new(dim, m).unwrap().pareto_front(300).unwrap(),
            ] {
                assert_eq!(front.len(), 300);
                for f in &front {
                    let norm = f.iter().map(|v| v * v).sum::<f64>();
                    assert!((norm - 1.0).abs() < 1e-15, "{f:?}");
                    assert!(f.iter().all(|&v| v >= 0.0));
                }
                assert_mutually_nondominated(&front);
            }
        }
        let curve = Dtlz5::new(6, 3).unwrap().pareto_front(200).unwrap();
        assert_eq!(curve.len(), 200);
        for f in &curve {
            assert_eq!(f[0], f[1]);
            let norm = f.iter().map(|v| v * v).sum::<f64>();
            assert!((norm - 1.0).abs() < 1e-15, "{f:?}");
        }
        assert_mutually_nondominated(&curve);
        assert_eq!(Dtlz5::new(6, 2).unwrap().pareto_front(5).unwrap().len(), 5);
        assert!(Dtlz5::new(7, 4).unwrap().pareto_front(5).is_none());
        assert!(Dtlz7::new(7, 4).unwrap().pareto_front(5).is_none());
    }

    /// The front's points are values the function takes: DTLZ2 at positions whose angles give
    /// the sampled direction, on the Pareto set.
    #[test]
    fn front_points_are_attained() {
        let f = Dtlz2::new(4, 2).unwrap();
        for p in f.pareto_front(20).unwrap() {
            let angle = p[1].atan2(p[0]) / (PI / 2.0);
            let values = f.values(&[angle, 0.5, 0.5, 0.5]);
            assert!((values[0] - p[0]).abs() < 1e-14 && (values[1] - p[1]).abs() < 1e-14);
        }
    }

    #[test]
    fn maximal_hypervolumes_match_a_dense_front_for_two_objectives() {
        let dtlz1 = Dtlz1::new(3, 2).unwrap();
        let dtlz2 = Dtlz2::new(3, 2).unwrap();
        let dtlz5 = Dtlz5::new(3, 2).unwrap();
        let functions: [&dyn MultiObjectiveFunction; 3] = [&dtlz1, &dtlz2, &dtlz5];
        for f in functions {
            let front = f.pareto_front(20_000).unwrap();
            let max = f.max_hypervolume().unwrap();
            assert_hypervolume_converges(&front, &f.reference_point(), max);
        }
    }

    /// The closed forms: DTLZ1's simplex volume `(½)^m / m!` (where BoTorch's formula has
    /// `(½)^m`), and the sphere orthant's `V_m / 2^m` for DTLZ2–DTLZ4.
    #[test]
    fn maximal_hypervolumes_in_closed_form() {
        let pi = PI;
        let dtlz1 = Dtlz1::new(6, 3).unwrap().max_hypervolume().unwrap();
        assert_eq!(dtlz1, 400f64.powi(3) - 0.125 / 6.0);
        assert_eq!(
            Dtlz1::new(3, 2).unwrap().max_hypervolume(),
            Some(159_999.875)
        );
        let dtlz2 = Dtlz2::new(6, 3).unwrap().max_hypervolume().unwrap();
        assert!(
            (dtlz2 - (1.1f64.powi(3) - pi / 6.0)).abs() < 1e-15,
            "{dtlz2}"
        );
        let dtlz4 = Dtlz4::new(7, 4).unwrap().max_hypervolume().unwrap();
        assert!((dtlz4 - (1.1f64.powi(4) - pi * pi / 32.0)).abs() < 1e-15);
        assert_eq!(
            Dtlz3::new(3, 2).unwrap().max_hypervolume(),
            Some(1e8 - pi / 4.0)
        );
        assert_eq!(
            Dtlz5::new(3, 2).unwrap().max_hypervolume(),
            Some(100.0 - pi / 4.0)
        );
        assert_eq!(Dtlz5::new(6, 3).unwrap().max_hypervolume(), None);
        assert_eq!(Dtlz7::new(6, 3).unwrap().max_hypervolume(), None);
        // 10⁴ to the 80th overflows: no maximum rather than an infinite one.
        assert_eq!(Dtlz3::new(81, 80).unwrap().max_hypervolume(), None);
    }
}
