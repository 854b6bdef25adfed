"""LassoBench's synthetic benchmarks (Šehić, Gramfort, Salmon & Nardi, "LassoBench: A
High-Dimensional Hyperparameter Optimization Benchmark Suite for Lasso", AutoML 2022) at fixed
points: the reference values tests/library/lassobench.rs holds
(tests/library/data/lassobench_reference.json) for bosweep's `lassobench`
(`bosweep_problems::lasso::LassoBench`).

In a virtual environment with LassoBench's own dependencies (its `setup.py`):

    python3 -m venv /tmp/lasso-venv
    /tmp/lasso-venv/bin/pip install numpy scipy scikit-learn celer
    /tmp/lasso-venv/bin/python benches/peers/lassobench_reference.py > tests/library/data/lassobench_reference.json

LassoBench's `SyntheticBenchmark(pick_bench, noise).evaluate(x)` is transcribed below line for
line, with sparse-ho's `CrossVal(HeldOutMSE(None, None), cv=kf).get_val(WeightedLasso(Lasso(
fit_intercept=False, max_iter=100, warm_start=False)), ...)` written out, since sparse-ho is
installed from a GitHub archive that a package index does not hold: for each of the 5 folds,
celer's weighted Lasso (weights exp(log_alpha)) is fitted on the fold's training rows and its
mean squared error measured on the validation rows; the value is the mean over the folds
divided by the oracle's training error. The data come from celer's `make_correlated_data` and
scikit-learn's `train_test_split` and `KFold`, as in LassoBench.

Each case records:

* `lassobench`: the value as LassoBench computes it (celer stopped at tol = 1e-4);
* `exact`: the value at the Lasso's exact solutions: celer's support and signs at tol = 1e-12,
  then the solution of the Lasso's optimality conditions on that support (a linear system),
  checked to satisfy every condition (signs on the support, |X_j^T r| / n <= weight_j off it);
* the data's checks: `alpha_max`, `loss_oracle`, the first row of the training design matrix,
  the first training targets, the test rows and the first fold's validation rows.
"""

import json
import sys

import numpy as np
from celer import Lasso
from celer.datasets import make_correlated_data
from sklearn.model_selection import KFold, train_test_split

BENCHES = {
    # name: (n_features, n_samples, size of the support)
    "simple": (60, 30, 3),
    "medium": (100, 50, 5),
    "high": (300, 150, 15),
    "hard": (1000, 500, 50),
}


class Synthetic:
    """LassoBench's SyntheticBenchmark(pick_bench=f'synt_{name}', noise=noise)."""

    def __init__(self, name, noise, seed=42):
        n_features, n_samples, size_supp = BENCHES[name]
        snr_level = 3 if noise else 10
        corr_level, n_nonzeros, test_size, n_splits = 0.6, 10, 0.15, 5
        w_true = np.zeros(n_features)
        w_true[:: n_features // size_supp] = (-1) ** np.arange(size_supp)
        X, y, self.w_true = make_correlated_data(
            n_samples=n_samples, n_features=n_features, corr=corr_level, w_true=w_true,
            snr=snr_level, density=n_nonzeros / n_features, random_state=seed)
        self.X_train, self.X_test, self.y_train, self.y_test = train_test_split(
            X, y, test_size=test_size, random_state=seed)
        self.kf = KFold(shuffle=True, n_splits=n_splits, random_state=seed)
        self.alpha_max = np.max(np.abs(self.X_train.T @ self.y_train)) / len(self.y_train)
        self.alpha_min = self.alpha_max / 1e2
        self.log_alpha_min = np.log(self.alpha_min)
        self.log_alpha_max = np.log(self.alpha_max)
        self.loss_oracle = np.mean((self.X_train @ self.w_true - self.y_train) ** 2)
        # For the checks: the rows train_test_split put in the test set.
        _, self.test_rows = train_test_split(
            np.arange(n_samples), test_size=test_size, random_state=seed)

    def scale_domain(self, x):
        return x * (self.log_alpha_max - self.log_alpha_min) / 2 + (
            self.log_alpha_max + self.log_alpha_min) / 2

    def evaluate(self, x, exact):
        weights = np.exp(self.scale_domain(x))
        losses = []
        for idx_train, idx_val in self.kf.split(self.X_train):
            X, y = self.X_train[idx_train], self.y_train[idx_train]
            coef = exact_lasso(X, y, weights) if exact else fit(X, y, weights, 1e-4, 100)
            residual = self.y_train[idx_val] - self.X_train[idx_val] @ coef
            losses.append(np.linalg.norm(residual) ** 2 / len(idx_val))
        return float(np.mean(losses) / self.loss_oracle)


def fit(X, y, weights, tol, max_iter):
    estimator = Lasso(fit_intercept=False, max_iter=max_iter, warm_start=False, tol=tol)
    estimator.weights = weights
    estimator.fit(X, y)
    return estimator.coef_


def exact_lasso(X, y, weights):
    """The minimiser of ||y - X b||^2 / (2n) + sum_j weights_j |b_j|, from celer's support and
    signs and the optimality conditions on them, checked."""
    n = len(y)
    coef = fit(X, y, weights, 1e-12, 10_000)
    support = np.flatnonzero(coef)
    signs = np.sign(coef[support])
    Xs = X[:, support]
    exact = np.zeros_like(coef)
    exact[support] = np.linalg.solve(Xs.T @ Xs, Xs.T @ y - n * weights[support] * signs)
    assert np.all(np.sign(exact[support]) == signs), "a coefficient changed sign"
    correlation = np.abs(X.T @ (y - X @ exact)) / n
    off = np.setdiff1d(np.arange(X.shape[1]), support)
    assert np.all(correlation[off] <= weights[off] * (1 + 1e-9)), "a zero should be active"
    return exact


def main():
    rng = np.random.default_rng(2022)
    cases = []
    for name, (n_features, _, _) in BENCHES.items():
        for noise in (False, True):
            bench = Synthetic(name, noise)
            points = [np.zeros(n_features), np.full(n_features, -1.0), np.full(n_features, 0.5)]
            points += [np.round(rng.uniform(-1, 1, n_features), 6) for _ in range(3)]
            # Penalties low on the true support, high elsewhere: near LassoBench's best.
            good = np.where(bench.w_true != 0, -1.0, 1.0)
            points.append(good)
            first_fold_val = next(iter(bench.kf.split(bench.X_train)))[1]
            cases.append({
                "bench": name,
                "noise": noise,
                "alpha_max": float(bench.alpha_max),
                "loss_oracle": float(bench.loss_oracle),
                "x_train_row0": bench.X_train[0].tolist(),
                "y_train_head": bench.y_train[:5].tolist(),
                "test_rows": bench.test_rows.tolist(),
                "first_fold_validation": first_fold_val.tolist(),
                "points": [p.tolist() for p in points],
                "lassobench": [bench.evaluate(p, exact=False) for p in points],
                "exact": [bench.evaluate(p, exact=True) for p in points],
            })
            print(name, noise, cases[-1]["exact"], cases[-1]["lassobench"], file=sys.stderr)
    json.dump({"cases": cases}, sys.stdout)


if __name__ == "__main__":
    main()
