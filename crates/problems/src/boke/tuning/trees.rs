//! Exact-greedy regression trees, and the two ensembles BOKE's tuning tasks tune with them: a
//! random forest (scikit-learn's `RandomForestRegressor`) and gradient-boosted trees
//! (`xgboost.XGBRegressor`, squared error, exact split finding).
//!
//! One tree grower serves both. Every row carries a weight `w` and a target `r`; a node's
//! statistics are `S = Σ w r` and `W = Σ w`, its value `S / (W + λ)` and its score `S² / (W + λ)`.
//! With bootstrap counts as weights, the targets as `r` and `λ = 0` this is the variance-reduction
//! tree of a random forest (the weighted SSE drops by `score_L + score_R − score_parent`); with
//! unit weights, the residuals as `r` and `λ = reg_lambda` it is XGBoost's second-order tree for
//! squared error (hessian 1 per row, gain `½(score_L + score_R − score_parent)`).
//!
//! Splits are searched over every distinct value of a feature (midpoint thresholds). Each node
//! keeps its rows sorted by every feature, and a split partitions those lists stably, so a tree
//! level costs `O(rows × features)` and no sorting happens below the root.

use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Features row-major, one target per row.
#[derive(Debug)]
pub struct Table {
    /// Feature values, `rows × features`, row-major.
    pub x: Vec<f64>,
    /// The regression target, one value per row.
    pub y: Vec<f64>,
    /// Columns per row of `x`.
    pub features: usize,
}

impl Table {
    /// The number of rows (samples).
    pub fn rows(&self) -> usize {
        self.y.len()
    }

    fn value(&self, row: usize, feature: usize) -> f64 {
        self.x[row * self.features + feature]
    }

    /// The rows `index` of this table, as a new table.
    pub fn select(&self, index: &[usize]) -> Table {
        let mut x = Vec::with_capacity(index.len() * self.features);
        for &i in index {
            x.extend_from_slice(&self.x[i * self.features..(i + 1) * self.features]);
        }
        Table {
            x,
            y: index.iter().map(|&i| self.y[i]).collect(),
            features: self.features,
        }
    }
}

/// When a node splits and how a split is scored.
#[derive(Clone, Copy, Debug)]
pub struct GrowRule {
    pub max_depth: usize,
    /// A node with fewer (distinct, in-bag) rows stays a leaf (scikit-learn's `min_samples_split`).
    pub min_rows_to_split: usize,
    /// Each child needs at least this weight (XGBoost's `min_child_weight`; the hessian sum).
    pub min_child_weight: f64,
    /// L2 penalty on the leaf values (XGBoost's `reg_lambda`; 0 for the forest).
    pub lambda: f64,
    /// The best split must raise `score_L + score_R − score_parent` by at least this much
    /// (forest: `min_impurity_decrease` × root weight; boosting: `2γ`).
    pub min_score_gain: f64,
    /// A split must raise the score by strictly more than this (boosting: XGBoost's 1e-6 floor).
    pub strict_floor: f64,
    /// Features examined per split (forest's `max_features`); more are examined, in random
    /// order, only while no valid split has been found, as scikit-learn does.
    pub features_per_split: usize,
}

#[derive(Debug)]
enum Node {
    Leaf(f64),
    Split {
        feature: usize,
        threshold: f64,
        left: usize,
        right: usize,
    },
}

/// A fitted tree: nodes in an arena, the root first.
#[derive(Debug)]
pub struct Tree {
    nodes: Vec<Node>,
}

impl Tree {
    /// The prediction for `row` of `table`: the value of the leaf that row falls into.
    pub fn predict(&self, table: &Table, row: usize) -> f64 {
        let mut at = 0;
        loop {
            match self.nodes[at] {
                Node::Leaf(v) => return v,
                Node::Split {
                    feature,
                    threshold,
                    left,
                    right,
                } => {
                    at = if table.value(row, feature) <= threshold {
                        left
                    } else {
                        right
                    }
                }
            }
        }
    }

    /// The number of leaves, so 1 for a tree that never split.
    pub fn leaves(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| matches!(n, Node::Leaf(_)))
            .count()
    }
}

struct Grower<'a> {
    table: &'a Table,
    weight: &'a [f64],
    target: &'a [f64],
    /// The features this tree may use (XGBoost's `colsample_bytree`; all for the forest).
    features: &'a [usize],
    rule: GrowRule,
    nodes: Vec<Node>,
    goes_left: Vec<bool>,
}

struct BestSplit {
    gain: f64,
    feature_slot: usize,
    threshold: f64,
}

impl Grower<'_> {
    fn score(&self, s: f64, w: f64) -> f64 {
        s * s / (w + self.rule.lambda)
    }

    /// Grows the node whose rows are `sorted[slot]` (sorted by `features[slot]`); returns its
    /// index in the arena.
    fn grow(&mut self, sorted: Vec<Vec<usize>>, depth: usize, rng: &mut ChaCha8Rng) -> usize {
        let rows = &sorted[0];
        let (s, w) = rows.iter().fold((0.0, 0.0), |(s, w), &i| {
            (s + self.weight[i] * self.target[i], w + self.weight[i])
        });
        let index = self.nodes.len();
        self.nodes.push(Node::Leaf(s / (w + self.rule.lambda)));
        let sse = rows
            .iter()
            .map(|&i| self.weight[i] * self.target[i] * self.target[i])
            .sum::<f64>()
            - s * s / w;
        if depth >= self.rule.max_depth || rows.len() < self.rule.min_rows_to_split || sse <= 1e-12
        {
            return index;
        }
        let Some(best) = self.best_split(&sorted, s, w, rng) else {
            return index;
        };
        let feature = self.features[best.feature_slot];
        for &i in &sorted[0] {
            self.goes_left[i] = self.table.value(i, feature) <= best.threshold;
        }
        let (left, right): (Vec<Vec<usize>>, Vec<Vec<usize>>) = sorted
            .into_iter()
            .map(|list| list.into_iter().partition(|&i| self.goes_left[i]))
            .unzip();
        debug_assert!(best.gain.is_finite());
        let left = self.grow(left, depth + 1, rng);
        let right = self.grow(right, depth + 1, rng);
        self.nodes[index] = Node::Split {
            feature,
            threshold: best.threshold,
            left,
            right,
        };
        index
    }

    fn best_split(
        &self,
        sorted: &[Vec<usize>],
        s: f64,
        w: f64,
        rng: &mut ChaCha8Rng,
    ) -> Option<BestSplit> {
        let parent = self.score(s, w);
        let mut order: Vec<usize> = (0..self.features.len()).collect();
        order.shuffle(rng);
        let mut best: Option<BestSplit> = None;
        for (tried, &slot) in order.iter().enumerate() {
            if tried >= self.rule.features_per_split && best.is_some() {
                break;
            }
            let feature = self.features[slot];
            let list = &sorted[slot];
            let (mut sl, mut wl) = (0.0, 0.0);
            for pair in list.windows(2) {
                let (i, next) = (pair[0], pair[1]);
                sl += self.weight[i] * self.target[i];
                wl += self.weight[i];
                let (a, b) = (
                    self.table.value(i, feature),
                    self.table.value(next, feature),
                );
                if a == b {
                    continue;
                }
                let (sr, wr) = (s - sl, w - wl);
                if wl < self.rule.min_child_weight || wr < self.rule.min_child_weight {
                    continue;
                }
                let gain = self.score(sl, wl) + self.score(sr, wr) - parent;
                if best.as_ref().is_none_or(|b| gain > b.gain) {
                    best = Some(BestSplit {
                        gain,
                        feature_slot: slot,
                        threshold: 0.5 * (a + b),
                    });
                }
            }
        }
        best.filter(|b| {
            b.gain >= self.rule.min_score_gain - 1e-12 && b.gain > self.rule.strict_floor
        })
    }
}

/// Fits one tree on the rows with positive weight.
fn fit_tree(
    table: &Table,
    weight: &[f64],
    target: &[f64],
    features: &[usize],
    rule: GrowRule,
    rng: &mut ChaCha8Rng,
) -> Tree {
    let in_bag: Vec<usize> = (0..table.rows()).filter(|&i| weight[i] > 0.0).collect();
    let sorted = features
        .iter()
        .map(|&f| {
            let mut list = in_bag.clone();
            list.sort_by(|&a, &b| table.value(a, f).total_cmp(&table.value(b, f)));
            list
        })
        .collect();
    let mut grower = Grower {
        table,
        weight,
        target,
        features,
        rule,
        nodes: Vec::new(),
        goes_left: vec![false; table.rows()],
    };
    grower.grow(sorted, 0, rng);
    Tree {
        nodes: grower.nodes,
    }
}

/// scikit-learn's `RandomForestRegressor` settings that the task tunes; the rest are defaults
/// (bootstrap, squared error, `min_samples_leaf = 1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ForestSettings {
    /// Trees in the forest.
    pub n_estimators: usize,
    /// Deepest split level; the root is depth 0.
    pub max_depth: usize,
    /// Fewest rows (bootstrap multiplicities counted) a node needs to be split.
    pub min_samples_split: usize,
    /// Fraction of the features examined per split: `max(1, ⌊fraction · features⌋)`.
    pub max_features: f64,
    /// Smallest impurity decrease a split must bring, weighted by the node's share of the
    /// rows, as scikit-learn defines it.
    pub min_impurity_decrease: f64,
}

/// A fitted ensemble: a constant plus a scaled sum of trees.
#[derive(Debug)]
pub struct Ensemble {
    base: f64,
    scale: f64,
    trees: Vec<Tree>,
}

impl Ensemble {
    /// The ensemble's prediction for `row` of `table`.
    pub fn predict(&self, table: &Table, row: usize) -> f64 {
        self.base
            + self.scale
                * self
                    .trees
                    .iter()
                    .map(|t| t.predict(table, row))
                    .sum::<f64>()
    }

    /// The fitted trees, in fitting order.
    pub fn trees(&self) -> &[Tree] {
        &self.trees
    }
}

/// Fits a random forest: each tree on a bootstrap sample (drawn as multiplicities), predictions
/// averaged.
pub fn fit_forest(table: &Table, settings: &ForestSettings, rng: &mut ChaCha8Rng) -> Ensemble {
    let n = table.rows();
    let all: Vec<usize> = (0..table.features).collect();
    let rule = GrowRule {
        max_depth: settings.max_depth,
        min_rows_to_split: settings.min_samples_split,
        min_child_weight: 0.0,
        lambda: 0.0,
        // scikit-learn's weighted impurity decrease is the SSE drop over the root weight (n).
        min_score_gain: settings.min_impurity_decrease * n as f64,
        strict_floor: f64::NEG_INFINITY,
        features_per_split: ((settings.max_features * table.features as f64) as usize).max(1),
    };
    let trees = (0..settings.n_estimators)
        .map(|_| {
            let mut weight = vec![0.0; n];
            for _ in 0..n {
                weight[rng.random_range(0..n)] += 1.0;
            }
            fit_tree(table, &weight, &table.y, &all, rule, rng)
        })
        .collect();
    Ensemble {
        base: 0.0,
        scale: 1.0 / settings.n_estimators.max(1) as f64,
        trees,
    }
}

/// `xgboost.XGBRegressor` settings that the task tunes; the rest are the package's defaults
/// (`reg_lambda = 1`, squared error, the training mean as base score).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoostingSettings {
    /// Boosting rounds, one tree each.
    pub n_estimators: usize,
    /// Deepest split level; the root is depth 0.
    pub max_depth: usize,
    /// Shrinkage applied to each tree's leaf values (`eta`).
    pub learning_rate: f64,
    /// Each row enters a round's tree with this probability.
    pub subsample: f64,
    /// Fraction of the features one tree may use: `max(1, ⌊fraction · features⌋)`.
    pub colsample_bytree: f64,
    /// Minimum loss reduction of a split (`min_split_loss`).
    pub gamma: f64,
    /// Smallest summed Hessian (for squared error: row count) a child may have.
    pub min_child_weight: f64,
}

/// XGBoost's default L2 penalty on leaf values.
const REG_LAMBDA: f64 = 1.0;

/// Fits gradient-boosted trees on squared error. Leaf values are shrunk by the learning rate at
/// fit time, so the ensemble scale is 1. A split must gain more than `γ` (checked when the split
/// is made; XGBoost prunes the same splits bottom-up afterwards, which keeps a weak split whose
/// children gain enough — a difference only for `γ > 0`).
pub fn fit_boosting(table: &Table, settings: &BoostingSettings, rng: &mut ChaCha8Rng) -> Ensemble {
    let n = table.rows();
    let base = table.y.iter().sum::<f64>() / n.max(1) as f64;
    let rule = GrowRule {
        max_depth: settings.max_depth,
        min_rows_to_split: 2,
        min_child_weight: settings.min_child_weight,
        lambda: REG_LAMBDA,
        min_score_gain: 2.0 * settings.gamma,
        strict_floor: 2e-6,
        features_per_split: usize::MAX,
    };
    let per_tree = ((settings.colsample_bytree * table.features as f64) as usize).max(1);
    let mut prediction = vec![base; n];
    let mut trees = Vec::with_capacity(settings.n_estimators);
    let mut columns: Vec<usize> = (0..table.features).collect();
    for _ in 0..settings.n_estimators {
        let residual: Vec<f64> = table
            .y
            .iter()
            .zip(&prediction)
            .map(|(y, p)| y - p)
            .collect();
        let weight: Vec<f64> = (0..n)
            .map(|_| f64::from(u8::from(rng.random::<f64>() < settings.subsample)))
            .collect();
        columns.shuffle(rng);
        let mut chosen = columns[..per_tree].to_vec();
        chosen.sort_unstable();
        let mut tree = fit_tree(table, &weight, &residual, &chosen, rule, rng);
        for node in &mut tree.nodes {
            if let Node::Leaf(v) = node {
                *v *= settings.learning_rate;
            }
        }
        for (i, p) in prediction.iter_mut().enumerate() {
            *p += tree.predict(table, i);
        }
        trees.push(tree);
    }
    Ensemble {
        base,
        scale: 1.0,
        trees,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn step_table() -> Table {
        // y = 1 for x0 ≤ 2, 5 for x0 ≥ 3; x1 is noise-free but useless.
        Table {
            x: vec![0.0, 3.0, 1.0, 1.0, 2.0, 2.0, 3.0, 0.0, 4.0, 1.0],
            y: vec![1.0, 1.0, 1.0, 5.0, 5.0],
            features: 2,
        }
    }

    #[test]
    fn a_stump_finds_the_midpoint_split_and_leaf_means() {
        let table = step_table();
        let rule = GrowRule {
            max_depth: 1,
            min_rows_to_split: 2,
            min_child_weight: 0.0,
            lambda: 0.0,
            min_score_gain: 0.0,
            strict_floor: f64::NEG_INFINITY,
            features_per_split: 2,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let tree = fit_tree(&table, &[1.0; 5], &table.y, &[0, 1], rule, &mut rng);
        match tree.nodes[0] {
            Node::Split {
                feature, threshold, ..
            } => assert_eq!((feature, threshold), (0, 2.5)),
            _ => panic!("no split"),
        }
        assert_eq!(tree.leaves(), 2);
        let predicted: Vec<f64> = (0..5).map(|i| tree.predict(&table, i)).collect();
        assert_eq!(predicted, table.y);
    }

    #[test]
    fn the_xgboost_leaf_value_is_shrunk_by_lambda() {
        // One leaf: value S / (W + λ) = 13 / (5 + 1).
        let table = step_table();
        let rule = GrowRule {
            max_depth: 0,
            min_rows_to_split: 2,
            min_child_weight: 1.0,
            lambda: 1.0,
            min_score_gain: 0.0,
            strict_floor: 2e-6,
            features_per_split: usize::MAX,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let tree = fit_tree(&table, &[1.0; 5], &table.y, &[0, 1], rule, &mut rng);
        assert!((tree.predict(&table, 0) - 13.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn min_impurity_decrease_and_gamma_block_weak_splits() {
        // The best split lowers the SSE from 19.2 to 0: a decrease of 19.2 / 5 = 3.84 per row.
        let table = step_table();
        let forest = |decrease| {
            let settings = ForestSettings {
                n_estimators: 1,
                max_depth: 5,
                min_samples_split: 2,
                max_features: 1.0,
                min_impurity_decrease: decrease,
            };
            fit_forest(&table, &settings, &mut ChaCha8Rng::seed_from_u64(3))
        };
        assert!(forest(0.0).trees()[0].leaves() >= 2);
        assert_eq!(forest(1e3).trees()[0].leaves(), 1);
        let boosting = |gamma| {
            let settings = BoostingSettings {
                n_estimators: 1,
                max_depth: 3,
                learning_rate: 1.0,
                subsample: 1.0,
                colsample_bytree: 1.0,
                gamma,
                min_child_weight: 1.0,
            };
            fit_boosting(&table, &settings, &mut ChaCha8Rng::seed_from_u64(3))
        };
        assert_eq!(boosting(0.0).trees()[0].leaves(), 2);
        assert_eq!(boosting(1e3).trees()[0].leaves(), 1);
    }
}
