//! The regression data sets of BOKE's tuning tasks, and the fixed 5-fold split.
//!
//! The paper tunes on California Housing and Wine Quality, neither of which can be downloaded at
//! run time nor is bundled with scikit-learn, so a shipped regression set stands in for them:
//! `crates/problems/data/boke/diabetes.csv` is scikit-learn's `load_diabetes` data (442 patients,
//! 10 raw baseline variables, disease progression after one year), as scikit-learn ships it. A
//! second set, Friedman #1 (scikit-learn's `make_friedman1`), is generated here deterministically,
//! so that the tasks have two panels like the paper's Fig. 9.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use super::trees::Table;
use crate::ProblemError;

const DIABETES: &str = include_str!("../../../data/boke/diabetes.csv");

/// Rows and seed of the generated Friedman #1 set.
const FRIEDMAN_ROWS: usize = 500;
const FRIEDMAN_SEED: u64 = 1;
/// scikit-learn's `KFold(5, shuffle=True, random_state=0)`, with our own generator: the split is
/// fixed, but not scikit-learn's permutation.
pub const FOLDS: usize = 5;
const FOLD_SEED: u64 = 0;

/// A data set the tuning tasks can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dataset {
    /// scikit-learn's diabetes regression set (442 rows, 10 features), shipped as CSV.
    Diabetes,
    /// Friedman #1 (500 rows, 10 features of which 5 matter), generated from a fixed seed.
    Friedman1,
}

impl Dataset {
    /// The `dataset` parameter's accepted names, in variant order.
    pub(crate) const NAMES: &'static [&'static str] = &["diabetes", "friedman1"];

    /// The whole data set as one table: parsed from the shipped file, or generated.
    pub fn load(self) -> Result<Table, ProblemError> {
        match self {
            Self::Diabetes => parse_csv(DIABETES, "crates/problems/data/boke/diabetes.csv"),
            Self::Friedman1 => Ok(friedman1(FRIEDMAN_ROWS, FRIEDMAN_SEED)),
        }
    }
}

/// A CSV with a header line, numeric columns, the target last.
fn parse_csv(text: &str, file: &str) -> Result<Table, ProblemError> {
    let mut lines = text.lines();
    let header = lines
        .next()
        .ok_or_else(|| ProblemError::config(format!("{file}: empty")))?;
    let columns = header.split(',').count();
    let features = columns - 1;
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for (n, line) in lines.enumerate() {
        let values: Vec<f64> = line
            .split(',')
            .map(|v| v.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| ProblemError::config(format!("{file} line {}: {e}", n + 2)))?;
        if values.len() != columns {
            return Err(ProblemError::config(format!(
                "{file} line {}: {} values, expected {columns}",
                n + 2,
                values.len()
            )));
        }
        x.extend_from_slice(&values[..features]);
        y.push(values[features]);
    }
    Ok(Table { x, y, features })
}

/// Friedman #1: 10 uniform features on [0, 1], of which the first five matter,
/// `y = 10 sin(π x₁x₂) + 20 (x₃ − ½)² + 10 x₄ + 5 x₅ + ε`, `ε ~ N(0, 1)`.
pub fn friedman1(rows: usize, seed: u64) -> Table {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let features = 10;
    let mut x = Vec::with_capacity(rows * features);
    let mut y = Vec::with_capacity(rows);
    for _ in 0..rows {
        let row: Vec<f64> = (0..features).map(|_| rng.random::<f64>()).collect();
        let noise: f64 = rng.sample(StandardNormal);
        y.push(friedman1_mean(&row) + noise);
        x.extend(row);
    }
    Table { x, y, features }
}

/// The noise-free Friedman #1 response.
pub fn friedman1_mean(row: &[f64]) -> f64 {
    10.0 * (std::f64::consts::PI * row[0] * row[1]).sin()
        + 20.0 * (row[2] - 0.5).powi(2)
        + 10.0 * row[3]
        + 5.0 * row[4]
}

/// Train/test index pairs of a fixed shuffled 5-fold split; as in scikit-learn, the first
/// `rows mod 5` folds get one extra row.
pub fn kfold(rows: usize) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut order: Vec<usize> = (0..rows).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(FOLD_SEED));
    let mut start = 0;
    (0..FOLDS)
        .map(|f| {
            let len = rows / FOLDS + usize::from(f < rows % FOLDS);
            let test = order[start..start + len].to_vec();
            let train = order[..start]
                .iter()
                .chain(&order[start + len..])
                .copied()
                .collect();
            start += len;
            (train, test)
        })
        .collect()
}

/// scikit-learn's `r2_score`: `1 − SSE / SST`, SST about the mean of `truth`.
pub fn r2_score(truth: &[f64], predicted: &[f64]) -> f64 {
    let mean = truth.iter().sum::<f64>() / truth.len() as f64;
    let sse: f64 = truth
        .iter()
        .zip(predicted)
        .map(|(t, p)| (t - p).powi(2))
        .sum();
    let sst: f64 = truth.iter().map(|t| (t - mean).powi(2)).sum();
    1.0 - sse / sst
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diabetes_is_scikit_learns_raw_table() {
        let t = Dataset::Diabetes.load().unwrap();
        assert_eq!((t.rows(), t.features), (442, 10));
        // First row and target of sklearn's diabetes_data_raw / diabetes_target.
        assert_eq!(
            &t.x[..10],
            &[59.0, 2.0, 32.1, 101.0, 157.0, 93.2, 38.0, 4.0, 4.8598, 87.0]
        );
        assert_eq!(t.y[0], 151.0);
        let mean = t.y.iter().sum::<f64>() / 442.0;
        assert!((mean - 152.133484).abs() < 1e-6, "{mean}");
    }

    #[test]
    fn friedman1_is_deterministic_and_follows_its_formula() {
        let (a, b) = (friedman1(50, 7), friedman1(50, 7));
        assert_eq!((a.x.clone(), a.y.clone()), (b.x, b.y));
        assert_eq!(friedman1_mean(&[0.5, 1.0, 0.5, 0.0, 0.0]), 10.0);
        // The noise is N(0, 1): residual variance near 1.
        let t = friedman1(2000, 3);
        let var = (0..t.rows())
            .map(|i| (t.y[i] - friedman1_mean(&t.x[i * 10..i * 10 + 10])).powi(2))
            .sum::<f64>()
            / 2000.0;
        assert!((var - 1.0).abs() < 0.1, "{var}");
    }

    #[test]
    fn kfold_partitions_the_rows() {
        let folds = kfold(442);
        let sizes: Vec<usize> = folds.iter().map(|(_, test)| test.len()).collect();
        assert_eq!(sizes, [89, 89, 88, 88, 88]);
        let mut seen = vec![0; 442];
        for (train, test) in &folds {
            assert_eq!(train.len() + test.len(), 442);
            for &i in test {
                seen[i] += 1;
                assert!(!train.contains(&i));
            }
        }
        assert!(seen.iter().all(|&s| s == 1));
    }

    #[test]
    fn r2_of_the_mean_is_zero_and_of_the_truth_one() {
        let y = [1.0, 2.0, 4.0];
        assert_eq!(r2_score(&y, &y), 1.0);
        assert!(r2_score(&y, &[7.0 / 3.0; 3]).abs() < 1e-15);
        // SSE 1 + 0 + 1 = 2, SST 14/3: 1 − 6/14.
        assert!((r2_score(&y, &[2.0, 2.0, 3.0]) - (1.0 - 6.0 / 14.0)).abs() < 1e-15);
    }
}
