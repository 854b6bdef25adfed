//! COCO's own random generator (`coco_random.c`), which bbob-constrained draws its constraints
//! from — unlike bbob's instances, which come from the legacy BBOB 2009 generator
//! ([`crate::bbob::rng`]). Reproduced operation for operation: another generator would give
//! other constraints.

use std::f64::consts::PI;

/// The long lag of the lagged Fibonacci generator, and so the size of its state.
const LONG_LAG: usize = 607;

/// The short lag.
const SHORT_LAG: usize = 273;

/// COCO's lagged Fibonacci generator of doubles in `[0, 1)` (lags 607 and 273), seeded as
/// `coco_random_new` seeds it.
pub(super) struct CocoRandom {
    state: [f64; LONG_LAG],
    index: usize,
}

impl CocoRandom {
    /// `coco_random_new(seed)`: the state filled from `seed` by TAOCP's simple generator, the
    /// first twelve values skipped (COCO starts reading at index 12 without running the
    /// generator).
    pub(super) fn new(mut seed: u32) -> Self {
        let mut state = [0.0; LONG_LAG];
        for (i, slot) in state.iter_mut().enumerate() {
            *slot = f64::from(seed) / ((1u64 << 32) - 1) as f64;
            seed = 1_812_433_253_u32
                .wrapping_mul(seed ^ (seed >> 30))
                .wrapping_add(i as u32 + 1);
        }
        Self { state, index: 12 }
    }

    /// `coco_random_uniform`: the next value, refilling the state once it is used up.
    pub(super) fn uniform(&mut self) -> f64 {
        if self.index >= LONG_LAG {
            self.generate();
        }
        let value = self.state[self.index];
        self.index += 1;
        value
    }

    /// `coco_random_normal`: a standard normal value by Box–Muller on two uniforms.
    pub(super) fn normal(&mut self) -> f64 {
        let u1 = self.uniform();
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (2.0 * PI * u2).cos()
    }

    /// `coco_random_generate`: one pass of `x_i ← (x_i + x_{i−lag}) mod 1` over the state.
    fn generate(&mut self) {
        let wrap = |t: f64| if t >= 1.0 { t - 1.0 } else { t };
        for i in 0..SHORT_LAG {
            self.state[i] = wrap(self.state[i] + self.state[i + (LONG_LAG - SHORT_LAG)]);
        }
        for i in SHORT_LAG..LONG_LAG {
            self.state[i] = wrap(self.state[i] + self.state[i - SHORT_LAG]);
        }
        self.index = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first values follow from the seed expansion alone: value k is the seed after k
    /// steps of TAOCP's generator over 2³² − 1.
    #[test]
    fn the_first_values_are_the_expanded_seed() {
        let mut seed = 12_345_u32;
        let mut expanded = Vec::new();
        for i in 0..20u32 {
            expanded.push(f64::from(seed) / 4_294_967_295.0);
            seed = 1_812_433_253_u32
                .wrapping_mul(seed ^ (seed >> 30))
                .wrapping_add(i + 1);
        }
        let mut random = CocoRandom::new(12_345);
        for want in &expanded[12..] {
            assert_eq!(random.uniform(), *want);
        }
    }

    /// Past the state's 607 values the generator runs, and stays in `[0, 1)`.
    #[test]
    fn values_past_the_state_stay_in_the_unit_interval() {
        let mut random = CocoRandom::new(7);
        for _ in 0..5 * LONG_LAG {
            let u = random.uniform();
            assert!((0.0..1.0).contains(&u), "{u}");
        }
        let normal = random.normal();
        assert!(normal.is_finite());
    }
}
