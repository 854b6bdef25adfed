//! RAHBO's random-forest tuning task (Makarova et al. 2021, App. A.7) on a shipped stand-in for the
//! credit-card fraud data (`crates/problems/data/rahbo/fraud_standin.csv`, made by the script
//! beside it; the Kaggle data cannot be shipped or downloaded).
//!
//! A configuration `(n_estimators, max_features, max_depth)` from Table 1's integer grid trains one
//! random forest (scikit-learn's defaults: bootstrap, Gini, `min_samples_split = 2`, grown to
//! `max_depth`) on the first half of the transactions in time; its values are
//! `balanced_accuracy − 1` on the 5 consecutive time folds of the second half (as in the authors'
//! reference code), one fold per repeat, so the paper's `k = 5`. The forest's seed comes from the
//! run's generator (the reference code fixes no `random_state`), which adds training noise to the
//! fold noise. Splits are searched over 32 quantile bins per feature, a histogram forest, so that
//! a run stays cheap.

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::{Domain, Observation, Optimum, ParamValue, Params, Problem, ProblemError, Sense, Step};
use bosweep_engine::Points;

const DATA: &str = include_str!("../../data/rahbo/fraud_standin.csv");
const FOLDS: usize = 5;
const BINS: usize = 32;
/// Table 1: `n_estimators ∈ [1, 100]`, `max_features ∈ [5, 28]`, `max_depth ∈ [1, 15]`.
const LOWER: [f64; 3] = [1.0, 5.0, 1.0];
const UPPER: [f64; 3] = [100.0, 28.0, 15.0];

/// Feature bins and labels of one split of the data.
#[derive(Debug)]
struct Binned {
    /// Row-major, one bin per feature.
    bins: Vec<u8>,
    labels: Vec<bool>,
    features: usize,
}

impl Binned {
    fn rows(&self) -> usize {
        self.labels.len()
    }

    fn row(&self, i: usize) -> &[u8] {
        &self.bins[i * self.features..(i + 1) * self.features]
    }
}

/// The balanced accuracy of `predicted` against `truth`: the mean recall over the classes present
/// in `truth` (scikit-learn's definition).
pub fn balanced_accuracy(truth: &[bool], predicted: &[bool]) -> f64 {
    let mut recalls = Vec::new();
    for class in [false, true] {
        let total = truth.iter().filter(|t| **t == class).count();
        if total > 0 {
            let hit = truth
                .iter()
                .zip(predicted)
                .filter(|(t, p)| **t == class && **p == class)
                .count();
            recalls.push(hit as f64 / total as f64);
        }
    }
    recalls.iter().sum::<f64>() / recalls.len().max(1) as f64
}

enum Node {
    Leaf(f64),
    Split {
        feature: usize,
        /// Rows with bin ≤ this go left.
        bin: u8,
        left: Box<Node>,
        right: Box<Node>,
    },
}

impl Node {
    fn predict(&self, row: &[u8]) -> f64 {
        match self {
            Self::Leaf(p) => *p,
            Self::Split {
                feature,
                bin,
                left,
                right,
            } => {
                if row[*feature] <= *bin {
                    left.predict(row)
                } else {
                    right.predict(row)
                }
            }
        }
    }
}

struct TreeBuilder<'a> {
    data: &'a Binned,
    weights: Vec<u32>,
    max_features: usize,
    max_depth: usize,
}

/// Weighted Gini impurity times the weight: `w·(1 − p₀² − p₁²)`.
fn gini_mass(w0: f64, w1: f64) -> f64 {
    let w = w0 + w1;
    if w == 0.0 {
        0.0
    } else {
        w - (w0 * w0 + w1 * w1) / w
    }
}

impl TreeBuilder<'_> {
    fn grow(&self, rows: Vec<usize>, depth: usize, rng: &mut ChaCha8Rng) -> Node {
        let (mut w0, mut w1) = (0.0, 0.0);
        for &i in &rows {
            let w = self.weights[i] as f64;
            if self.data.labels[i] {
                w1 += w
            } else {
                w0 += w
            }
        }
        let leaf = Node::Leaf(w1 / (w0 + w1));
        if depth >= self.max_depth || w0 == 0.0 || w1 == 0.0 || w0 + w1 < 2.0 {
            return leaf;
        }
        let parent = gini_mass(w0, w1);
        let mut order: Vec<usize> = (0..self.data.features).collect();
        order.shuffle(rng);
        let mut best: Option<(f64, usize, u8)> = None;
        for (tried, &feature) in order.iter().enumerate() {
            // scikit-learn inspects more than max_features only while no valid split is found.
            if tried >= self.max_features && best.is_some() {
                break;
            }
            let mut hist = [[0.0f64; 2]; BINS];
            for &i in &rows {
                let b = self.data.row(i)[feature] as usize;
                hist[b][self.data.labels[i] as usize] += self.weights[i] as f64;
            }
            let (mut l0, mut l1) = (0.0, 0.0);
            for (b, h) in hist.iter().enumerate().take(BINS - 1) {
                l0 += h[0];
                l1 += h[1];
                let (r0, r1) = (w0 - l0, w1 - l1);
                if l0 + l1 == 0.0 || r0 + r1 == 0.0 {
                    continue;
                }
                let child = gini_mass(l0, l1) + gini_mass(r0, r1);
                if child < parent - 1e-12 && best.is_none_or(|(c, _, _)| child < c) {
                    best = Some((child, feature, b as u8));
                }
            }
        }
        let Some((_, feature, bin)) = best else {
            return leaf;
        };
        let (left, right): (Vec<usize>, Vec<usize>) = rows
            .into_iter()
            .partition(|&i| self.data.row(i)[feature] <= bin);
        Node::Split {
            feature,
            bin,
            left: Box::new(self.grow(left, depth + 1, rng)),
            right: Box::new(self.grow(right, depth + 1, rng)),
        }
    }
}

/// The random-forest tuning problem.
#[derive(Debug)]
pub struct RandomForestTuning {
    domain: Domain,
    allowed: Points,
    train: Binned,
    folds: Vec<Binned>,
    parameters: Vec<(String, ParamValue)>,
}

fn parse_rows() -> Result<(Vec<Vec<f64>>, Vec<bool>), ProblemError> {
    let mut features = Vec::new();
    let mut labels = Vec::new();
    for (line_no, line) in DATA.lines().enumerate().skip(1) {
        let values: Vec<f64> = line
            .split(',')
            .map(|v| v.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|e| {
                ProblemError::config(format!(
                    "crates/problems/data/rahbo/fraud_standin.csv line {}: {e}",
                    line_no + 1
                ))
            })?;
        let (label, rest) = values.split_last().ok_or_else(|| {
            ProblemError::config(format!(
                "crates/problems/data/rahbo/fraud_standin.csv line {}: empty",
                line_no + 1
            ))
        })?;
        // Column 0 is the time, used only for the (already time-ordered) split.
        features.push(rest[1..].to_vec());
        labels.push(*label == 1.0);
    }
    Ok((features, labels))
}

fn bin_rows(rows: &[Vec<f64>], labels: &[bool], cuts: &[Vec<f64>]) -> Binned {
    let features = cuts.len();
    let mut bins = Vec::with_capacity(rows.len() * features);
    for row in rows {
        for (v, c) in row.iter().zip(cuts) {
            bins.push(c.partition_point(|cut| cut < v) as u8);
        }
    }
    Binned {
        bins,
        labels: labels.to_vec(),
        features,
    }
}

impl RandomForestTuning {
    /// Parses the shipped data and splits it in time: the first half trains, the second half
    /// scores.
    pub(crate) fn new(params: &Params) -> Result<Self, ProblemError> {
        let (rows, labels) = parse_rows()?;
        let half = rows.len() / 2;
        let features = rows[0].len();
        // BINS − 1 quantile cut points per feature, from the training half.
        let cuts: Vec<Vec<f64>> = (0..features)
            .map(|j| {
                let mut v: Vec<f64> = rows[..half].iter().map(|r| r[j]).collect();
                v.sort_by(f64::total_cmp);
                let mut c: Vec<f64> = (1..BINS).map(|q| v[q * (half - 1) / BINS]).collect();
                c.dedup();
                c
            })
            .collect();
        let train = bin_rows(&rows[..half], &labels[..half], &cuts);
        let fold_len = (rows.len() - half) / FOLDS;
        let folds = (0..FOLDS)
            .map(|f| {
                let (a, b) = (half + f * fold_len, half + (f + 1) * fold_len);
                bin_rows(&rows[a..b], &labels[a..b], &cuts)
            })
            .collect();
        let mut grid = Vec::with_capacity(100 * 24 * 15 * 3);
        for n in 1..=100 {
            for m in 5..=28 {
                for d in 1..=15 {
                    grid.extend([n as f64, m as f64, d as f64]);
                }
            }
        }
        Ok(Self {
            domain: Domain::new(LOWER.to_vec(), UPPER.to_vec())?,
            allowed: Points::new(grid, 3)
                .map_err(|e| ProblemError::config(format!("rf-tuning grid: {e}")))?,
            train,
            folds,
            parameters: params.to_list(),
        })
    }

    /// The `FOLDS` balanced accuracies − 1 of one forest trained with `rng`.
    pub fn fold_scores(&self, x: &[f64], rng: &mut ChaCha8Rng) -> Vec<f64> {
        let (trees, max_features, max_depth) = (x[0] as usize, x[1] as usize, x[2] as usize);
        let n = self.train.rows();
        let forest: Vec<Node> = (0..trees)
            .map(|_| {
                let mut weights = vec![0u32; n];
                for _ in 0..n {
                    weights[rng.random_range(0..n)] += 1;
                }
                let rows: Vec<usize> = (0..n).filter(|&i| weights[i] > 0).collect();
                let builder = TreeBuilder {
                    data: &self.train,
                    weights,
                    max_features,
                    max_depth,
                };
                builder.grow(rows, 0, rng)
            })
            .collect();
        self.folds
            .iter()
            .map(|fold| {
                let predicted: Vec<bool> = (0..fold.rows())
                    .map(|i| {
                        let p: f64 = forest.iter().map(|t| t.predict(fold.row(i))).sum::<f64>()
                            / forest.len() as f64;
                        p > 0.5
                    })
                    .collect();
                balanced_accuracy(&fold.labels, &predicted) - 1.0
            })
            .collect()
    }
}

impl Problem for RandomForestTuning {
    problem_accessors!(self, name: "rf-tuning", domain: &self.domain, sense: Sense::Maximize);

    /// Repeat `j` is the score on fold `j mod 5` of one trained forest (`k = 5`: each fold once).
    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let scores = self.fold_scores(x, rng);
        let values = (0..step.repeats()).map(|j| scores[j % FOLDS]).collect();
        Ok(Observation::new(values, None))
    }

    /// Unknown: the expected fold scores of a configuration have no closed form.
    fn objective_of_interest(&self, _x: &[f64], _t: usize) -> Option<f64> {
        None
    }

    fn optimum(&self, _t: usize) -> Option<Optimum> {
        None
    }

    fn allowed_set(&self, _t: usize) -> Option<&Points> {
        Some(&self.allowed)
    }
}
