//! LassoBench's synthetic data and their splits, drawn as LassoBench draws them from its seed:
//! celer's `make_correlated_data` (features with correlation `ρ^|i−j|`, made by an AR(1)
//! recursion over the columns; targets `Xw* + ε` with `‖Xw*‖ / ‖ε‖` the signal-to-noise ratio),
//! scikit-learn's `train_test_split` (15 % held out for testing) and its shuffled 5-fold
//! `KFold` over the training rows, each from a fresh numpy `RandomState(seed)`.

use super::numpy_random::LegacyRandom;
use super::solver::{Design, combination, dot};

/// The correlation of successive features.
const CORRELATION: f64 = 0.6;

/// The share of the samples held out for testing (`test_size`).
const TEST_SHARE: f64 = 0.15;

/// The folds of the cross-validation (`n_splits`).
const FOLDS: usize = 5;

/// One fold of the cross-validation: the Lasso is fitted on `train` and scored on `validation`.
#[derive(Debug)]
pub(super) struct Fold {
    pub(super) train: Design,
    pub(super) train_y: Vec<f64>,
    pub(super) validation: Design,
    pub(super) validation_y: Vec<f64>,
}

/// A synthetic benchmark's data: the folds of its training rows, the penalty range and the
/// oracle's error that values are divided by.
#[derive(Debug)]
pub(super) struct Synthetic {
    pub(super) folds: Vec<Fold>,
    /// `max_j |X_jᵀ y| / n` over the training rows: the smallest penalty that zeroes every
    /// coefficient.
    pub(super) alpha_max: f64,
    /// The mean squared error of the true coefficients on the training rows.
    pub(super) loss_oracle: f64,
    /// What the tests compare with LassoBench's.
    #[cfg(test)]
    pub(super) checks: Checks,
}

/// The intermediate results of [`Synthetic::new`] that the tests compare with LassoBench's.
#[cfg(test)]
#[derive(Debug)]
pub(super) struct Checks {
    /// The training rows' design, by columns, and targets.
    pub(super) train: Design,
    pub(super) train_y: Vec<f64>,
    /// The rows `train_test_split` held out, in its order.
    pub(super) test_rows: Vec<usize>,
    /// Each fold's validation rows, ascending.
    pub(super) validation_rows: Vec<Vec<usize>>,
}

impl Synthetic {
    /// LassoBench's `SyntheticBenchmark` with `samples` rows, `features` columns, true
    /// coefficients ±1 alternating on `support` equally spaced features, and the given
    /// signal-to-noise ratio and seed.
    pub(super) fn new(
        samples: usize,
        features: usize,
        support: usize,
        snr: f64,
        seed: u32,
    ) -> Self {
        let mut w_true = vec![0.0; features];
        let spacing = features / support;
        for (k, w) in w_true.iter_mut().step_by(spacing).take(support).enumerate() {
            *w = if k % 2 == 0 { 1.0 } else { -1.0 };
        }
        let (x, y) = correlated_data(samples, features, &w_true, snr, seed);

        let test = (TEST_SHARE * samples as f64).ceil() as usize;
        let permutation = LegacyRandom::new(seed).permutation(samples);
        let train_rows = &permutation[test..];
        let train = select_rows(&x, samples, train_rows);
        let train_y: Vec<f64> = train_rows.iter().map(|&i| y[i]).collect();
        let n = train_rows.len();

        let alpha_max = (0..features)
            .map(|j| dot(train.column(j), &train_y).abs())
            .fold(0.0, f64::max)
            / n as f64;
        let oracle = train.times(&w_true);
        let loss_oracle = oracle
            .iter()
            .zip(&train_y)
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f64>()
            / n as f64;

        let mut shuffled: Vec<usize> = (0..n).collect();
        LegacyRandom::new(seed).shuffle(&mut shuffled);
        let mut folds = Vec::with_capacity(FOLDS);
        let mut validation_rows: Vec<Vec<usize>> = Vec::with_capacity(FOLDS);
        let mut start = 0;
        for k in 0..FOLDS {
            let size = n / FOLDS + usize::from(k < n % FOLDS);
            let mut held: Vec<usize> = shuffled[start..start + size].to_vec();
            held.sort_unstable();
            start += size;
            let kept: Vec<usize> = (0..n).filter(|i| held.binary_search(i).is_err()).collect();
            let rows_of = |rows: &[usize]| select_rows(train.values(), n, rows);
            folds.push(Fold {
                train: rows_of(&kept),
                train_y: kept.iter().map(|&i| train_y[i]).collect(),
                validation: rows_of(&held),
                validation_y: held.iter().map(|&i| train_y[i]).collect(),
            });
            validation_rows.push(held);
        }
        Self {
            folds,
            alpha_max,
            loss_oracle,
            #[cfg(test)]
            checks: Checks {
                train,
                train_y,
                test_rows: permutation[..test].to_vec(),
                validation_rows,
            },
        }
    }
}

/// celer's `make_correlated_data` with given true coefficients: the design by columns, and the
/// targets.
fn correlated_data(
    samples: usize,
    features: usize,
    w_true: &[f64],
    snr: f64,
    seed: u32,
) -> (Vec<f64>, Vec<f64>) {
    let mut rng = LegacyRandom::new(seed);
    let sigma = (1.0 - CORRELATION * CORRELATION).sqrt();
    let mut u = rng.normals(samples);
    let mut x = Vec::with_capacity(samples * features);
    x.extend_from_slice(&u);
    for _ in 1..features {
        let innovation = rng.normals(samples);
        for (ui, ei) in u.iter_mut().zip(&innovation) {
            *ui *= CORRELATION;
            *ui += sigma * ei;
        }
        x.extend_from_slice(&u);
    }
    let mut y = combination(&x, samples, w_true);
    let noise = rng.normals(samples);
    let (noise_norm, signal_norm) = (dot(&noise, &noise).sqrt(), dot(&y, &y).sqrt());
    for (yi, ei) in y.iter_mut().zip(&noise) {
        *yi += ei / noise_norm * signal_norm / snr;
    }
    (x, y)
}

/// The rows `rows` (in that order) of the `samples`-row matrix stored by columns in `x`.
fn select_rows(x: &[f64], samples: usize, rows: &[usize]) -> Design {
    let columns = x
        .chunks_exact(samples)
        .flat_map(|column| rows.iter().map(move |&i| column[i]))
        .collect();
    Design::new(rows.len(), columns)
}
