//! C2-DTLZ2 (Jain & Deb, "An evolutionary many-objective optimization algorithm using
//! reference-point based nondominated sorting approach, part II", IEEE Trans. Evolutionary
//! Computation 2014, §VI-A): DTLZ2 whose front is cut by one constraint.

use std::f64::consts::FRAC_PI_4;

use super::ConstraintFunctions;
use crate::multi_objective::{Dtlz2, MultiObjectiveFunction};
use crate::{Domain, ProblemError};

/// Jain and Deb's radius of the feasible caps: 0.2 for two objectives, 0.4 for three, 0.5
/// beyond (pymoo's `C2DTLZ2` takes the same).
fn radius(objectives: usize) -> f64 {
    match objectives {
        2 => 0.2,
        3 => 0.4,
        _ => 0.5,
    }
}

/// DTLZ2 in `d` dimensions with `m` objectives, feasible only near the front's m corners and
/// its centre, as Jain and Deb (and pymoo) define it:
/// `c = min(min_i [(f_i − 1)² + Σ_{j≠i} f_j² − r²], Σ_i (f_i − 1/√m)² − r²) ≤ 0`: every cap
/// is a ball of radius r (0.2, 0.4 or 0.5 by m, as below) about a corner of the front or its
/// centre.
///
/// BoTorch 0.18.1's `C2DTLZ2` departs from the paper: it subtracts `r²` once per term of each
/// sum, so that its central cap has radius `√m r` and its corner caps `√(m − 1) r`, and it takes
/// r = 0.2 for every m. This follows the paper, and agrees with pymoo 0.6's `C2DTLZ2` to 1e-15
/// at the points of `benches/peers/constrained_problems_reference.py`. The reference point (1.1, …, 1.1) is
/// BoTorch's; BoTorch's maximal hypervolume 0.3996406 is an NSGA-II estimate on its own,
/// wider caps. With two objectives the feasible front is three arcs of the unit circle, and
/// its hypervolume from (1.1, 1.1) is exact in closed form (0.38233); for more objectives none
/// is declared.
#[derive(Debug)]
pub struct C2Dtlz2 {
    dtlz2: Dtlz2,
}

impl C2Dtlz2 {
    /// C2-DTLZ2 in `dim` dimensions with `objectives` objectives; an error unless
    /// `2 ≤ objectives < dim`.
    pub fn new(dim: usize, objectives: usize) -> Result<Self, ProblemError> {
        Ok(Self {
            dtlz2: Dtlz2::new(dim, objectives)?,
        })
    }

    /// The exact two-objective hypervolume from `(R, R)`, `R ≥ 1`: the feasible front is the
    /// arcs of the unit circle within chord r of each corner and of the centre
    /// (`2 − 2 cos δ ≤ r²` for the angle δ from it); the region not dominated below `R` is, in
    /// order of increasing `f₁`, the area under each arc (`∫ √(1 − x²)`) and the rectangles
    /// under the steps between arcs.
    fn two_objective_hypervolume(reference: f64) -> f64 {
        let r = radius(2);
        let cap = (1.0 - r * r / 2.0).acos();
        let (corner, centre) = (cap, cap);
        let arcs = [
            (0.0, corner.sin()),
            ((FRAC_PI_4 + centre).cos(), (FRAC_PI_4 - centre).cos()),
            (corner.cos(), 1.0),
        ];
        let area_to = |x: f64| (x * (1.0 - x * x).max(0.0).sqrt() + x.asin()) / 2.0;
        let mut under = 0.0;
        for (k, &(a, b)) in arcs.iter().enumerate() {
            under += area_to(b) - area_to(a);
            if let Some(&(next, _)) = arcs.get(k + 1) {
                under += (next - b) * (1.0 - b * b).sqrt();
            }
        }
        reference * reference - under
    }
}

impl MultiObjectiveFunction for C2Dtlz2 {
    fn domain(&self) -> &Domain {
        self.dtlz2.domain()
    }

    fn objectives(&self) -> usize {
        self.dtlz2.objectives()
    }

    fn values(&self, x: &[f64]) -> Vec<f64> {
        self.dtlz2.values(x)
    }

    fn reference_point(&self) -> Vec<f64> {
        self.dtlz2.reference_point()
    }

    fn max_hypervolume(&self) -> Option<f64> {
        (self.objectives() == 2).then(|| Self::two_objective_hypervolume(self.reference_point()[0]))
    }

    fn pareto_front(&self, _n: usize) -> Option<Vec<Vec<f64>>> {
        None
    }
}

impl ConstraintFunctions for C2Dtlz2 {
    fn constraint_names(&self) -> Vec<String> {
        vec!["caps".into()]
    }

    fn constraint_values(&self, x: &[f64]) -> Vec<f64> {
        let f = self.values(x);
        let r = radius(f.len());
        let corners = (0..f.len())
            .map(|i| {
                let others: f64 = (0..f.len()).filter(|&j| j != i).map(|j| f[j] * f[j]).sum();
                (f[i] - 1.0).powi(2) + others - r * r
            })
            .fold(f64::INFINITY, f64::min);
        let centre_value = 1.0 / (f.len() as f64).sqrt();
        let centre = f.iter().map(|v| (v - centre_value).powi(2)).sum::<f64>() - r * r;
        vec![corners.min(centre)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::multi_objective::test_support::{assert_hypervolume_converges, hypervolume_2d};

    /// At `x₁ = 0` (the front's corner (1, 0), `g = 0` with the rest at ½) the corner cap holds:
    /// `c = (1 − 1)² + 0 − r² = −r²`; at `x₁ = ¼` the point (cos π/8, sin π/8) is in no cap; at
    /// `x₁ = ½` the centre's holds with `c = −r²`; with three objectives r is 0.4.
    #[test]
    fn caps_by_hand() {
        let f = C2Dtlz2::new(4, 2).unwrap();
        let r2 = radius(2) * radius(2);
        let c = f.constraint_values(&[0.0, 0.5, 0.5, 0.5])[0];
        assert!((c + r2).abs() < 1e-15, "{c}");
        assert!(f.constraint_values(&[0.25, 0.5, 0.5, 0.5])[0] > 0.0);
        let centre = f.constraint_values(&[0.5, 0.5, 0.5, 0.5])[0];
        assert!((centre + r2).abs() < 1e-15, "{centre}");
        let three = C2Dtlz2::new(5, 3).unwrap();
        let corner = three.constraint_values(&[0.0, 0.0, 0.5, 0.5, 0.5])[0];
        assert!((corner + 0.16).abs() < 1e-15, "{corner}");
    }

    /// The closed form agrees with a dense sample of the feasible part of the unit circle.
    #[test]
    fn the_two_objective_hypervolume_converges() {
        let f = C2Dtlz2::new(12, 2).unwrap();
        let max = f.max_hypervolume().unwrap();
        let n = 200_000;
        let front: Vec<Vec<f64>> = (0..=n)
            .map(|k| {
                let x1 = k as f64 / n as f64;
                let mut x = vec![0.5; 12];
                x[0] = x1;
                x
            })
            .filter(|x| f.constraint_values(x)[0] <= 0.0)
            .map(|x| f.values(&x))
            .collect();
        assert!(hypervolume_2d(&front, &[1.1, 1.1]) <= max);
        assert_hypervolume_converges(&front, &[1.1, 1.1], max);
        assert!((max - 0.38233).abs() < 1e-5, "{max}");
        assert!(C2Dtlz2::new(12, 3).unwrap().max_hypervolume().is_none());
    }
}
