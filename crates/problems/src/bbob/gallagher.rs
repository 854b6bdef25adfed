//! Gallagher's Gaussian peaks (f21 with 101 peaks, f22 with 21), built as in `f_gallagher.c`:
//! peak heights, conditionings and centres all come from the legacy generator, and the sorts
//! that turn random numbers into permutations follow COCO's `qsort` on (value, index) pairs.

use super::rng::{Matrix, rotation, unif};
use super::transforms::{osz, penalty};

/// One Gallagher instance.
#[derive(Debug)]
pub struct Gallagher {
    rotation: Matrix,
    /// Peak centres in rotated coordinates, `centres[peak][coordinate]`.
    centres: Vec<Vec<f64>>,
    /// Per-peak diagonal conditionings: `c_i^(k/(d−1) − ½)` with the exponents `k` in the order
    /// of a random permutation per peak (the `C_i` of the BBOB definition).
    scales: Vec<Vec<f64>>,
    heights: Vec<f64>,
    /// The global optimum: the centre of the tallest peak, in the original coordinates.
    xopt: Vec<f64>,
}

/// The indices `0..n` ordered by `values` ascending: COCO's `qsort` of (value, index) pairs.
/// `qsort` is not stable, so exact ties could differ; the legacy generator's draws practically
/// never tie.
fn order(values: &[f64]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    idx.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    idx
}

impl Gallagher {
    /// `peaks` is 101 (f21) or 21 (f22); `seed` is the instance's `rseed`.
    pub fn new(seed: i64, d: usize, peaks: usize) -> Self {
        const MAX_CONDITION: f64 = 1000.0;
        let (first_condition, b, c) = if peaks == 101 {
            (MAX_CONDITION.sqrt(), 10.0, 5.0)
        } else {
            (MAX_CONDITION, 9.8, 4.9)
        };
        let rotation = rotation(seed, d);

        let perm = order(&unif(peaks - 1, seed));
        let span = (peaks - 2) as f64;
        let mut conditions = vec![first_condition];
        let mut heights = vec![10.0];
        for i in 1..peaks {
            conditions.push(MAX_CONDITION.powf(perm[i - 1] as f64 / span));
            heights.push((i - 1) as f64 / span * (9.1 - 1.1) + 1.1);
        }

        let scales = (0..peaks)
            .map(|i| {
                let perm = order(&unif(d, seed + 1000 * i as i64));
                perm.iter()
                    .map(|&k| conditions[i].powf(k as f64 / (d as f64 - 1.0) - 0.5))
                    .collect()
            })
            .collect();

        let r = unif(d * peaks, seed);
        let xopt = (0..d).map(|i| 0.8 * (b * r[i] - c)).collect();
        let centres = (0..peaks)
            .map(|j| {
                (0..d)
                    .map(|i| {
                        let v = (0..d)
                            .fold(0.0, |acc, k| acc + rotation[i][k] * (b * r[j * d + k] - c));
                        if j == 0 { v * 0.8 } else { v }
                    })
                    .collect()
            })
            .collect();
        Self {
            rotation,
            centres,
            scales,
            heights,
            xopt,
        }
    }

    pub fn xopt(&self) -> &[f64] {
        &self.xopt
    }

    /// The value before the instance's f_opt is added.
    pub fn value(&self, x: &[f64]) -> f64 {
        let d = x.len();
        let fac = -0.5 / d as f64;
        let pen = penalty(x);
        let rotated: Vec<f64> = self
            .rotation
            .iter()
            .map(|row| row.iter().zip(x).fold(0.0, |acc, (r, x)| acc + r * x))
            .collect();
        let best = self
            .centres
            .iter()
            .zip(&self.scales)
            .zip(&self.heights)
            .fold(0.0, |best: f64, ((centre, scale), height)| {
                let q = (0..d).fold(0.0, |acc, j| {
                    let t = rotated[j] - centre[j];
                    acc + scale[j] * t * t
                });
                let peak = height * (fac * q).exp();
                if best >= peak { best } else { peak }
            });
        let t = osz(10.0 - best);
        t * t + pen
    }
}
