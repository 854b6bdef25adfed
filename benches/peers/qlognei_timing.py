"""Times one qLogNEI step in bosweep and in BoTorch on the same work, side by side in one run:
Hartmann-6 (minimised, so both maximise its negation), a sequential loop of `--budget`
evaluations after `--init` design points, the GP refitted every step and qLogNEI maximised with
512 QMC samples. BoTorch runs its documented loop: SingleTaskGP with its default priors and
transforms, `fit_gpytorch_mll`, then `optimize_acqf(qLogNoisyExpectedImprovement(prune_baseline=
True), q=1, num_restarts=10, raw_samples=512)`. bosweep's numbers are the trace's
`model_seconds` and `acq_seconds` of `bosweep run --algo qlognei`.

    pip install torch botorch
    python benches/peers/qlognei_timing.py --bosweep target/release/bosweep

Prints median seconds per step (fit, acquisition) and the final best value of each.
"""

import argparse
import json
import statistics
import subprocess
import tempfile
import time

import numpy as np
import torch
from botorch.acquisition.logei import qLogNoisyExpectedImprovement
from botorch.fit import fit_gpytorch_mll
from botorch.models import SingleTaskGP
from botorch.optim import optimize_acqf
from botorch.test_functions import Hartmann
from gpytorch.mlls import ExactMarginalLogLikelihood

torch.set_default_dtype(torch.float64)


def botorch_loop(budget, init, seed):
    torch.manual_seed(seed)
    hartmann = Hartmann(dim=6, negate=True)
    bounds = torch.stack([torch.zeros(6), torch.ones(6)])
    x = torch.quasirandom.SobolEngine(6, scramble=True, seed=seed).draw(init)
    y = hartmann(x).unsqueeze(-1)
    fit_times, acq_times = [], []
    while len(x) < budget:
        start = time.perf_counter()
        model = SingleTaskGP(x, y)
        fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
        fit_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        acquisition = qLogNoisyExpectedImprovement(model, x, prune_baseline=True)
        candidate, _ = optimize_acqf(acquisition, bounds, q=1, num_restarts=10, raw_samples=512)
        acq_times.append(time.perf_counter() - start)
        x = torch.cat([x, candidate])
        y = torch.cat([y, hartmann(candidate).unsqueeze(-1)])
    return fit_times, acq_times, y.max().item()


def bosweep_loop(binary, budget, init, seed):
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as trace:
        subprocess.run(
            [binary, "--device", "cpu", "run", "--algo", "qlognei", "--problem", "hartmann6",
             "--budget", str(budget), "--init", str(init), "--seed", str(seed),
             "--out", trace.name],
            check=True, capture_output=True,
        )
        steps = [json.loads(line) for line in open(trace.name)][1:]
    opt = [s for s in steps if s["phase"] == "opt"]
    best = -min(s["y"] for s in steps)
    return [s["model_seconds"] for s in opt], [s["acq_seconds"] for s in opt], best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bosweep", default="target/release/bosweep")
    parser.add_argument("--budget", type=int, default=40)
    parser.add_argument("--init", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"torch threads: {torch.get_num_threads()}")
    for name, (fit, acq, best) in [
        ("bosweep", bosweep_loop(args.bosweep, args.budget, args.init, args.seed)),
        ("botorch", botorch_loop(args.budget, args.init, args.seed)),
    ]:
        print(
            f"{name:8} steps {len(acq):3}  fit median {statistics.median(fit):.3f} s  "
            f"acquisition median {statistics.median(acq):.3f} s  best value {best:.4f}"
        )


if __name__ == "__main__":
    main()
