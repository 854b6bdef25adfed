//! How NSGA-II breeds, in the unit cube, as pymoo 0.6 does it: simulated binary crossover (Deb
//! & Agrawal 1995, with the bounded spread of Deb & Goyal 1996) and polynomial mutation.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Differences below this are one value to SBX, which then leaves the coordinate alone.
const SBX_EPS: f64 = 1e-14;

/// Two children of `p1` and `p2` by simulated binary crossover with index `eta`: each
/// coordinate is crossed with probability ½ and its children swapped with probability ½
/// (pymoo's `prob_var` and `prob_bin`), then clamped to `[0, 1]`.
pub(super) fn sbx(p1: &[f64], p2: &[f64], eta: f64, rng: &mut ChaCha8Rng) -> (Vec<f64>, Vec<f64>) {
    let (mut c1, mut c2) = (p1.to_vec(), p2.to_vec());
    for k in 0..p1.len() {
        let crossed = rng.random::<f64>() < 0.5;
        if !crossed || (p1[k] - p2[k]).abs() <= SBX_EPS {
            continue;
        }
        let (y1, y2) = if p1[k] < p2[k] {
            (p1[k], p2[k])
        } else {
            (p2[k], p1[k])
        };
        let delta = y2 - y1;
        let u = rng.random::<f64>();
        let spread = |beta: f64| {
            let alpha = 2.0 - beta.powf(-(eta + 1.0));
            if u <= 1.0 / alpha {
                (u * alpha).powf(1.0 / (eta + 1.0))
            } else {
                (1.0 / (2.0 - u * alpha)).powf(1.0 / (eta + 1.0))
            }
        };
        let low = 0.5 * ((y1 + y2) - spread(1.0 + 2.0 * y1 / delta) * delta);
        let high = 0.5 * ((y1 + y2) + spread(1.0 + 2.0 * (1.0 - y2) / delta) * delta);
        // The smaller parent's child is the lower one, then a coin swaps them.
        let (mut a, mut b) = if p1[k] < p2[k] {
            (low, high)
        } else {
            (high, low)
        };
        if rng.random::<f64>() < 0.5 {
            std::mem::swap(&mut a, &mut b);
        }
        c1[k] = a.clamp(0.0, 1.0);
        c2[k] = b.clamp(0.0, 1.0);
    }
    (c1, c2)
}

/// `x` with each coordinate mutated with probability `prob` by polynomial mutation of index
/// `eta`, within `[0, 1]`.
pub(super) fn polynomial_mutation(x: &mut [f64], eta: f64, prob: f64, rng: &mut ChaCha8Rng) {
    let power = 1.0 / (eta + 1.0);
    for v in x.iter_mut() {
        if rng.random::<f64>() >= prob {
            continue;
        }
        let u = rng.random::<f64>();
        let shift = if u <= 0.5 {
            let base = 2.0 * u + (1.0 - 2.0 * u) * (1.0 - *v).powf(eta + 1.0);
            base.powf(power) - 1.0
        } else {
            let base = 2.0 * (1.0 - u) + 2.0 * (u - 0.5) * v.powf(eta + 1.0);
            1.0 - base.powf(power)
        };
        *v = (*v + shift).clamp(0.0, 1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn children_stay_in_the_cube_and_keep_the_parents_mean() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (p1, p2) = (vec![0.2, 0.9, 0.5], vec![0.6, 0.1, 0.5]);
        let mut mean_gap = 0.0;
        for _ in 0..2000 {
            let (c1, c2) = sbx(&p1, &p2, 15.0, &mut rng);
            for k in 0..3 {
                assert!((0.0..=1.0).contains(&c1[k]) && (0.0..=1.0).contains(&c2[k]));
            }
            // Equal parents' coordinate is never touched.
            assert_eq!((c1[2], c2[2]), (0.5, 0.5));
            // Away from the bounds the children's mean is the parents' (SBX is symmetric).
            mean_gap += (c1[0] + c2[0]) / 2.0 - 0.4;
        }
        assert!((mean_gap / 2000.0).abs() < 5e-3, "{mean_gap}");
        let mut x = vec![0.0, 1.0, 0.5];
        for _ in 0..100 {
            polynomial_mutation(&mut x, 20.0, 1.0, &mut rng);
            assert!(x.iter().all(|v| (0.0..=1.0).contains(v)));
        }
        let mut y = vec![0.3; 4];
        polynomial_mutation(&mut y, 20.0, 0.0, &mut rng);
        assert_eq!(y, vec![0.3; 4]);
    }
}
