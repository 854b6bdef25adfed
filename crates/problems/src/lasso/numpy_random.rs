//! numpy's legacy `RandomState`, the draws LassoBench's data and splits are made of: the same
//! Mersenne Twister stream, its 53-bit doubles, its polar-method normals (with the second value
//! of each pair kept for the next call) and its shuffles, so that bosweep builds the very data
//! LassoBench does from the same seed.

use rand_mt::Mt;

/// `numpy.random.RandomState(seed)` for an integer seed (MT19937's `init_genrand`).
#[derive(Debug)]
pub(super) struct LegacyRandom {
    mt: Mt,
    /// The second normal of the last pair, returned by the next call (`has_gauss`).
    gauss: Option<f64>,
}

impl LegacyRandom {
    pub(super) fn new(seed: u32) -> Self {
        Self {
            mt: Mt::new(seed),
            gauss: None,
        }
    }

    /// `random_sample()`: 53 random bits from two 32-bit draws.
    fn next_double(&mut self) -> f64 {
        let a = f64::from(self.mt.next_u32() >> 5);
        let b = f64::from(self.mt.next_u32() >> 6);
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// One `randn()` draw (numpy's `legacy_gauss`, the polar Box–Muller method).
    pub(super) fn normal(&mut self) -> f64 {
        if let Some(kept) = self.gauss.take() {
            return kept;
        }
        loop {
            let x1 = 2.0 * self.next_double() - 1.0;
            let x2 = 2.0 * self.next_double() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// `randn(n)`.
    pub(super) fn normals(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| self.normal()).collect()
    }

    /// A uniform integer in `0..=max` (numpy's `random_interval`: masked draws, rejected above
    /// `max`).
    fn interval(&mut self, max: u32) -> u32 {
        if max == 0 {
            return 0;
        }
        let mask = u32::MAX >> max.leading_zeros();
        loop {
            let value = self.mt.next_u32() & mask;
            if value <= max {
                return value;
            }
        }
    }

    /// `shuffle(values)` in place: Fisher–Yates from the last element down.
    pub(super) fn shuffle<T>(&mut self, values: &mut [T]) {
        for i in (1..values.len()).rev() {
            let max = u32::try_from(i).expect("LassoBench's arrays are far below 2^32");
            values.swap(i, self.interval(max) as usize);
        }
    }

    /// `permutation(n)`: `0..n` shuffled.
    pub(super) fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut values: Vec<usize> = (0..n).collect();
        self.shuffle(&mut values);
        values
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `numpy.random.RandomState(42)`: `randn(3)`, then `permutation(10)` from a fresh one;
    /// `RandomState(7)`: `randn(5)`, then `permutation(1000)` from the same one (numpy 2.4.6).
    #[test]
    fn draws_are_numpy_s() {
        let mut rng = LegacyRandom::new(42);
        let normals = rng.normals(3);
        let want = [0.4967141530112327, -0.13826430117118466, 0.6476885381006925];
        assert_eq!(normals, want);
        let mut rng = LegacyRandom::new(42);
        assert_eq!(rng.permutation(10), [8, 1, 5, 0, 7, 2, 9, 4, 3, 6]);
        let mut rng = LegacyRandom::new(7);
        let want = [
            1.690525703800356,
            -0.4659373705408328,
            0.0328201636785844,
            0.40751628299650783,
            -0.7889230286257386,
        ];
        assert_eq!(rng.normals(5), want);
        assert_eq!(rng.permutation(1000)[..5], [682, 24, 853, 99, 284]);
    }
}
