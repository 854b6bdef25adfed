//! The problems of BOKE (Zhu et al. 2025, §5.1–5.2) that the classic registry lacks: the
//! standardised Goldstein–Price, Rosenbrock-4 and Sphere-6 of Picheny et al. (2013), and the 8-D
//! garden-sprinkler computer model, and the random-forest and boosted-trees tuning tasks (§5.3) on
//! shipped stand-in data. Forrester, six-hump camel and Hartmann-3 are the classic
//! entries of the same names.

mod sprinkler;
mod standardised;
pub mod tuning;

pub use sprinkler::{Sprinkler, SprinklerOutput, SprinklerOutputs, simulate};
pub use standardised::{GoldsteinPriceLog, Rosenbrock4Standardised, Sphere6Standardised};

use super::Entry;
use super::entry::{NOISE_STD, noisy};
use super::functions::{Rosenbrock, Sphere};
use bosweep_core::params::ChoiceParam;
use tuning::{Dataset, TunedModel, TuningTask};

/// The tuning tasks' data set, read by [`tuning::TuningTask::new`].
pub(super) const DATASET: ChoiceParam<Dataset> = ChoiceParam::new(
    "dataset",
    Dataset::NAMES,
    &[Dataset::Diabetes, Dataset::Friedman1],
    "diabetes",
    "stand-in data: scikit-learn's diabetes (442 × 10, shipped) or Friedman #1 (500 × 10, generated)",
);

/// The standardised form (`true`) or the raw function.
const STANDARDISED: ChoiceParam<bool> = ChoiceParam::new(
    "form",
    &["standardised", "raw"],
    &[true, false],
    "standardised",
    "standardised (Picheny et al. 2013, DiceOptim) or the raw function",
);

const OUTPUT: ChoiceParam<SprinklerOutput> = ChoiceParam::new(
    "output",
    &["range", "speed", "consumption"],
    &[
        SprinklerOutput::Range,
        SprinklerOutput::Speed,
        SprinklerOutput::Consumption,
    ],
    "range",
    "objective: true range (2nd output), speed (3rd, documented as range), consumption (1st)",
);

pub(crate) static ENTRIES: &[Entry] = &[
    Entry {
        name: "goldstein-price-log",
        description: "log-standardised Goldstein–Price (ln GP − 8.6928)/2.4269 on [−2, 2]²; min −3.129172 at (0, −1)",
        parameters: &[NOISE_STD.spec()],
        build: |p| Ok(noisy(GoldsteinPriceLog::new(), p)),
    },
    Entry {
        name: "rosenbrock4",
        description: "Rosenbrock on [−5, 10]⁴, standardised (R − 382658.06)/375264.86 (min −1.019701) or raw (min 0); at (1, 1, 1, 1)",
        parameters: &[STANDARDISED.spec(), NOISE_STD.spec()],
        build: |p| match STANDARDISED.of(p) {
            false => Ok(noisy(Rosenbrock::new(4)?, p)),
            true => Ok(noisy(Rosenbrock4Standardised::new()?, p)),
        },
    },
    Entry {
        name: "sphere6",
        description: "Sphere-6: DiceOptim's shifted-rotated-weighted form on [0, 1]⁶ (min −1.941389 at (1, .8, .6, .4, .2, 0)) or raw Σx² on [−5.12, 5.12]⁶",
        parameters: &[STANDARDISED.spec(), NOISE_STD.spec()],
        build: |p| match STANDARDISED.of(p) {
            false => Ok(noisy(Sphere::new(6)?, p)),
            true => Ok(noisy(Sphere6Standardised::new()?, p)),
        },
    },
    Entry {
        name: "sprinkler",
        description: "8-D garden-sprinkler model (CompModels): maximise the spray range (max ≈ 8.33576 m), or the rotation speed, or minimise consumption",
        parameters: &[OUTPUT.spec(), NOISE_STD.spec()],
        build: |p| Ok(noisy(Sprinkler::new(OUTPUT.of(p))?, p)),
    },
    Entry {
        name: "rf-tuning-boke",
        description: "random-forest regression, maximise the 5-fold CV R² over (n_estimators 10–200, max_depth 2–30, min_samples_split 2–20, max_features 0.1–1, min_impurity_decrease 0–0.1); deterministic",
        parameters: &[DATASET.spec()],
        build: |p| {
            Ok(Box::new(TuningTask::new(
                "rf-tuning-boke",
                TunedModel::RandomForest,
                p,
            )?))
        },
    },
    Entry {
        name: "xgb-tuning-boke",
        description: "gradient-boosted trees (XGBoost-style), maximise the 5-fold CV R² over (n_estimators 10–300, max_depth 2–12, learning_rate .01–.3, subsample .5–1, colsample_bytree .5–1, gamma 0–5, min_child_weight 1–10); deterministic",
        parameters: &[DATASET.spec()],
        build: |p| {
            Ok(Box::new(TuningTask::new(
                "xgb-tuning-boke",
                TunedModel::Boosting,
                p,
            )?))
        },
    },
];
