"""Times one fully Bayesian SAASBO step in bosweep and in BoTorch on the same work, side by side
in one run: Hartmann-6 embedded in `--dim` coordinates (minimised, so both maximise its
negation), `--points` observed design points, then one step: the SAAS model's hyperparameters
drawn by NUTS (512 warmup steps, 256 draws, every 16th kept) and qLogNEI over the 16 models
maximised from 1024 raw samples with 20 restarts.

BoTorch runs the SAASBO tutorial's step: `SaasFullyBayesianSingleTaskGP(outcome_transform=
Standardize(m=1))`, `fit_fully_bayesian_model_nuts` (NumPyro, its defaults), then
`optimize_acqf(qLogNoisyExpectedImprovement(prune_baseline=True), q=1, num_restarts=20,
raw_samples=1024)`. bosweep's numbers are the trace's `model_seconds` and `acq_seconds` of the
one step `bosweep run --algo saasbo --init POINTS --budget POINTS+1` takes.

    pip install torch botorch jax numpyro
    python benches/peers/saasbo_timing.py --bosweep target/release/bosweep

Prints the median seconds (fit, acquisition) of each over `--repeats` steps, run interleaved.
"""

import argparse
import json
import statistics
import subprocess
import tempfile
import time

import torch
from botorch.acquisition.logei import qLogNoisyExpectedImprovement
from botorch.fit import fit_fully_bayesian_model_nuts
from botorch.models.fully_bayesian import SaasFullyBayesianSingleTaskGP
from botorch.models.transforms.outcome import Standardize
from botorch.optim import optimize_acqf
from botorch.test_functions import Hartmann

torch.set_default_dtype(torch.float64)


def botorch_step(dim, points, seed):
    hartmann = Hartmann(dim=6, negate=True)
    x = torch.quasirandom.SobolEngine(dim, scramble=True, seed=seed).draw(points)
    y = hartmann(x[:, :6]).unsqueeze(-1)
    start = time.perf_counter()
    gp = SaasFullyBayesianSingleTaskGP(x, y, outcome_transform=Standardize(m=1))
    fit_fully_bayesian_model_nuts(gp, disable_progbar=True, seed=seed)
    fitted = time.perf_counter()
    acquisition = qLogNoisyExpectedImprovement(gp, x, prune_baseline=True)
    bounds = torch.stack([torch.zeros(dim), torch.ones(dim)])
    optimize_acqf(acquisition, bounds, q=1, num_restarts=20, raw_samples=1024)
    return fitted - start, time.perf_counter() - fitted


def bosweep_step(binary, dim, points, seed):
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as out:
        subprocess.run(
            [binary, "--device", "cpu", "run", "--algo", "saasbo", "--problem",
             "hartmann6-embedded", "--problem-param", f"dim={dim}", "--init", str(points),
             "--budget", str(points + 1), "--seed", str(seed), "--out", out.name],
            check=True, capture_output=True,
        )
        step = [json.loads(line) for line in open(out.name)][-1]
    return step["model_seconds"], step["acq_seconds"]


parser = argparse.ArgumentParser()
parser.add_argument("--bosweep", default="target/release/bosweep")
parser.add_argument("--dim", type=int, default=20)
parser.add_argument("--points", type=int, default=40)
parser.add_argument("--repeats", type=int, default=3)
args = parser.parse_args()
# Interleaved, so that both see the same load on a shared machine.
steps = {"bosweep": [], "botorch": []}
for seed in range(1, args.repeats + 1):
    steps["bosweep"].append(bosweep_step(args.bosweep, args.dim, args.points, seed))
    steps["botorch"].append(botorch_step(args.dim, args.points, seed))
for name, times in steps.items():
    fit = statistics.median(t[0] for t in times)
    acq = statistics.median(t[1] for t in times)
    print(f"{name}: n = {args.points}, d = {args.dim}: fit {fit:.2f} s, acquisition {acq:.2f} s")
