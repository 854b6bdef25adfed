//! BOKE's hyper-parameter tuning tasks (Zhu et al. 2025, §5.3, Fig. 9): maximise the mean 5-fold
//! cross-validated R² of a random forest (5-D) or of gradient-boosted trees (7-D) over bounds
//! chosen here, since the paper gives none.
//!
//! The objective is deterministic (`KFold(5, shuffle=True,
//! random_state=0)` and model `random_state=0`): the split and the models' randomness come from
//! fixed seeds, never from the run's generator, so the BO seed changes only the design and the
//! optimiser. Integer hyper-parameters are optimised as reals and rounded half up at evaluation
//! (then clamped to their bounds). Evaluations are memoised per rounded configuration, so the
//! trace's objective-of-interest columns cost nothing extra.

mod data;
mod trees;

pub use data::{Dataset, FOLDS, friedman1, friedman1_mean, kfold, r2_score};
pub use trees::{
    BoostingSettings, Ensemble, ForestSettings, Table, Tree, fit_boosting, fit_forest,
};

use std::collections::HashMap;
use std::sync::Mutex;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::{Domain, Observation, Optimum, ParamValue, Params, Problem, ProblemError, Sense, Step};

/// The models' fixed seed (scikit-learn's `random_state = 0`), used afresh for every fold.
const MODEL_SEED: u64 = 0;
/// Memoised configurations kept at most (a run evaluates a few hundred).
const CACHE_LIMIT: usize = 4096;

/// Which model the task tunes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TunedModel {
    /// `(n_estimators, max_depth, min_samples_split, max_features, min_impurity_decrease)`.
    RandomForest,
    /// `(n_estimators, max_depth, learning_rate, subsample, colsample_bytree, gamma,
    /// min_child_weight)`.
    Boosting,
}

impl TunedModel {
    /// The lower and upper bounds of each hyper-parameter (the paper gives none), and which
    /// coordinates are integers.
    fn bounds(self) -> (&'static [f64], &'static [f64], &'static [bool]) {
        match self {
            Self::RandomForest => (
                &[10.0, 2.0, 2.0, 0.1, 0.0],
                &[200.0, 30.0, 20.0, 1.0, 0.1],
                &[true, true, true, false, false],
            ),
            Self::Boosting => (
                &[10.0, 2.0, 0.01, 0.5, 0.5, 0.0, 1.0],
                &[300.0, 12.0, 0.3, 1.0, 1.0, 5.0, 10.0],
                &[true, true, false, false, false, false, false],
            ),
        }
    }
}

/// A tuning task: one model, one data set.
#[derive(Debug)]
pub struct TuningTask {
    name: &'static str,
    model: TunedModel,
    domain: Domain,
    folds: Vec<(Table, Table)>,
    parameters: Vec<(String, ParamValue)>,
    cache: Mutex<HashMap<Vec<u64>, f64>>,
}

impl TuningTask {
    /// The task of fitting `model` on the data set that `params` names (`dataset`), scored by
    /// 5-fold cross-validated R²; `name` is its registry name.
    pub fn new(
        name: &'static str,
        model: TunedModel,
        params: &Params,
    ) -> Result<Self, ProblemError> {
        let table = super::DATASET.of(params).load()?;
        let folds = kfold(table.rows())
            .into_iter()
            .map(|(train, test)| (table.select(&train), table.select(&test)))
            .collect();
        let (lower, upper, _) = model.bounds();
        Ok(Self {
            name,
            model,
            domain: Domain::new(lower.to_vec(), upper.to_vec())?,
            folds,
            parameters: params.to_list(),
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// `x` with its integer coordinates rounded half up and clamped to their bounds: the
    /// configuration that is actually trained.
    pub fn configuration(&self, x: &[f64]) -> Vec<f64> {
        let (lower, upper, integer) = self.model.bounds();
        x.iter()
            .zip(integer)
            .zip(lower.iter().zip(upper))
            .map(|((&v, &is_int), (&lo, &hi))| {
                if is_int {
                    (v + 0.5).floor().clamp(lo, hi)
                } else {
                    v.clamp(lo, hi)
                }
            })
            .collect()
    }

    /// The fold R²s of the configuration `x` (rounded first).
    pub fn fold_scores(&self, x: &[f64]) -> Vec<f64> {
        let c = self.configuration(x);
        self.folds
            .iter()
            .map(|(train, test)| {
                let mut rng = ChaCha8Rng::seed_from_u64(MODEL_SEED);
                let model = self.fit(&c, train, &mut rng);
                let predicted: Vec<f64> =
                    (0..test.rows()).map(|i| model.predict(test, i)).collect();
                r2_score(&test.y, &predicted)
            })
            .collect()
    }

    fn fit(&self, c: &[f64], train: &Table, rng: &mut ChaCha8Rng) -> Ensemble {
        match self.model {
            TunedModel::RandomForest => fit_forest(
                train,
                &ForestSettings {
                    n_estimators: c[0] as usize,
                    max_depth: c[1] as usize,
                    min_samples_split: c[2] as usize,
                    max_features: c[3],
                    min_impurity_decrease: c[4],
                },
                rng,
            ),
            TunedModel::Boosting => fit_boosting(
                train,
                &BoostingSettings {
                    n_estimators: c[0] as usize,
                    max_depth: c[1] as usize,
                    learning_rate: c[2],
                    subsample: c[3],
                    colsample_bytree: c[4],
                    gamma: c[5],
                    min_child_weight: c[6],
                },
                rng,
            ),
        }
    }

    /// The mean cross-validated R² of `x`, memoised per rounded configuration.
    pub fn cv_r2(&self, x: &[f64]) -> f64 {
        let key: Vec<u64> = self.configuration(x).iter().map(|v| v.to_bits()).collect();
        if let Some(v) = self.lock_cache().get(&key) {
            return *v;
        }
        let scores = self.fold_scores(x);
        let value = scores.iter().sum::<f64>() / scores.len() as f64;
        let mut cache = self.lock_cache();
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(key, value);
        value
    }

    /// The cache holds plain numbers, so a poisoned lock (a panic elsewhere) leaves it usable.
    fn lock_cache(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<u64>, f64>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Problem for TuningTask {
    problem_accessors!(self, name: self.name, domain: &self.domain, sense: Sense::Maximize);

    /// Deterministic: every repeat is the same cross-validated R².
    fn observe(
        &self,
        x: &[f64],
        step: &Step,
        _rng: &mut ChaCha8Rng,
    ) -> Result<Observation, ProblemError> {
        let value = self.cv_r2(x);
        Ok(Observation::new(vec![value; step.repeats()], None))
    }

    fn objective_of_interest(&self, x: &[f64], _t: usize) -> Option<f64> {
        Some(self.cv_r2(x))
    }

    /// Unknown: the paper plots the R² itself, not a regret.
    fn optimum(&self, _t: usize) -> Option<Optimum> {
        None
    }
}
