"""Times one qLogNEHVI step at n = 100 observations in bosweep and in BoTorch, side by side in
one run, on BraninCurrin (2 objectives, 2-D) and DTLZ2 (3 objectives, 12-D), both minimised
(so both maximise their negations against the problems' reference points).

BoTorch runs its documented step: a multi-output SingleTaskGP (its default priors and
Standardize), `fit_gpytorch_mll`, then `optimize_acqf(qLogNoisyExpectedHypervolumeImprovement(
prune_baseline=False, sampler=SobolQMCNormalSampler(128)), q=1, num_restarts=20,
raw_samples=1024, options={"maxiter": 100})`. bosweep runs `bosweep run --algo qlognehvi` with
its defaults (the same 128 samples, 1024 grid points, 20 refined starts of at most 100 L-BFGS
iterations) from 100 design points to 101 evaluations, and reports that one step's
`model_seconds` and `acq_seconds`. Each is repeated for `--repeats` seeds; the medians print.

    pip install torch botorch
    python benches/peers/qlognehvi_timing.py --bosweep target/release/bosweep
"""

import argparse
import json
import statistics
import subprocess
import tempfile
import time

import torch
from botorch.acquisition.multi_objective.logei import (
    qLogNoisyExpectedHypervolumeImprovement,
)
from botorch.fit import fit_gpytorch_mll
from botorch.models import SingleTaskGP
from botorch.models.transforms.outcome import Standardize
from botorch.optim import optimize_acqf
from botorch.sampling.normal import SobolQMCNormalSampler
from botorch.test_functions.multi_objective import DTLZ2, BraninCurrin
from gpytorch.mlls import ExactMarginalLogLikelihood

torch.set_default_dtype(torch.float64)
N = 100

PROBLEMS = {
    # bosweep's name and parameters, BoTorch's problem (maximising the negation).
    "branin-currin": ([], lambda: BraninCurrin(negate=True)),
    "dtlz2": (["dim=12", "objectives=3"], lambda: DTLZ2(dim=12, num_objectives=3, negate=True)),
}


def botorch_step(problem, seed):
    torch.manual_seed(seed)
    bounds = problem.bounds
    dim = bounds.shape[1]
    unit = torch.quasirandom.SobolEngine(dim, scramble=True, seed=seed).draw(N)
    x = bounds[0] + (bounds[1] - bounds[0]) * unit
    y = problem(x)
    start = time.perf_counter()
    model = SingleTaskGP(x, y, outcome_transform=Standardize(m=y.shape[-1]))
    fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
    fit = time.perf_counter() - start
    start = time.perf_counter()
    acquisition = qLogNoisyExpectedHypervolumeImprovement(
        model,
        ref_point=problem.ref_point,
        X_baseline=x,
        prune_baseline=False,
        sampler=SobolQMCNormalSampler(sample_shape=torch.Size([128])),
    )
    optimize_acqf(
        acquisition, bounds, q=1, num_restarts=20, raw_samples=1024, options={"maxiter": 100}
    )
    return fit, time.perf_counter() - start


def bosweep_step(binary, name, params, seed):
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as trace:
        command = [binary, "--device", "cpu", "run", "--algo", "qlognehvi", "--problem", name]
        for p in params:
            command += ["--problem-param", p]
        command += ["--budget", str(N + 1), "--init", str(N), "--seed", str(seed)]
        subprocess.run(command + ["--out", trace.name], check=True, capture_output=True)
        steps = [json.loads(line) for line in open(trace.name)][1:]
    step = [s for s in steps if s["phase"] == "opt"][-1]
    return step["model_seconds"], step["acq_seconds"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bosweep", default="target/release/bosweep")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"torch threads: {torch.get_num_threads()}")
    for name, (params, make) in PROBLEMS.items():
        seeds = range(1, args.repeats + 1)
        ours = [bosweep_step(args.bosweep, name, params, s) for s in seeds]
        theirs = [botorch_step(make(), s) for s in seeds]
        rows = []
        for who, times in [("bosweep", ours), ("botorch", theirs)]:
            fit = statistics.median(t[0] for t in times)
            acq = statistics.median(t[1] for t in times)
            rows.append((who, fit, acq))
            print(f"{name:14} {who:8} fit {fit:7.3f} s  acquisition {acq:7.3f} s  n = {N}")
        ratio = rows[1][2] / rows[0][2]
        print(f"{name:14} BoTorch's acquisition step / bosweep's: {ratio:.1f}x")


if __name__ == "__main__":
    main()
