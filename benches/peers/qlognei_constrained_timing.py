"""Times one constrained qLogNEI step in bosweep and in BoTorch on the same work, side by side
in one run: constrained Hartmann-6 (Hartmann-6 minimised subject to ‖x‖₂ − 1 ≤ 0; BoTorch's
ConstrainedHartmann, whose slack 1 − ‖x‖₂ is feasible where ≥ 0, so its constraint for qLogNEI
is the negated slack), a sequential loop of `--budget` evaluations after `--init` design points,
the objective's and the constraint's GPs refitted every step and qLogNEI maximised with 512 QMC
samples. BoTorch runs its documented loop: a ModelListGP of two SingleTaskGPs with their default
priors and transforms, `fit_gpytorch_mll` on the summed marginal likelihood, then
`optimize_acqf(qLogNoisyExpectedImprovement(constraints=..., prune_baseline=True), q=1,
num_restarts=20, raw_samples=1024)` (bosweep's maximiser is Ax's: 1024 Sobol points, the best 20
refined). bosweep's numbers are the trace's `model_seconds` and `acq_seconds` of `bosweep run
--algo qlognei --problem constrained-hartmann`.

    pip install torch botorch==0.18.1
    python benches/peers/qlognei_constrained_timing.py --bosweep target/release/bosweep

Prints median seconds per step (fits, acquisition), the final best feasible value of each and
how many of its points were feasible.
"""

import argparse
import json
import statistics
import subprocess
import tempfile
import time

import torch
from botorch.acquisition.logei import qLogNoisyExpectedImprovement
from botorch.acquisition.objective import GenericMCObjective
from botorch.fit import fit_gpytorch_mll
from botorch.models import ModelListGP, SingleTaskGP
from botorch.optim import optimize_acqf
from botorch.test_functions.synthetic import ConstrainedHartmann
from gpytorch.mlls import SumMarginalLogLikelihood

torch.set_default_dtype(torch.float64)


def botorch_loop(budget, init, seed):
    torch.manual_seed(seed)
    problem = ConstrainedHartmann(dim=6)
    bounds = torch.stack([torch.zeros(6), torch.ones(6)])
    x = torch.quasirandom.SobolEngine(6, scramble=True, seed=seed).draw(init)

    def outcomes(x):
        # Maximise −f; the constraint as qLogNEI reads it: feasible where ≤ 0.
        return -problem.evaluate_true(x).unsqueeze(-1), -problem.evaluate_slack_true(x)

    y, c = outcomes(x)
    fit_times, acq_times = [], []
    while len(x) < budget:
        start = time.perf_counter()
        model = ModelListGP(SingleTaskGP(x, y), SingleTaskGP(x, c))
        fit_gpytorch_mll(SumMarginalLogLikelihood(model.likelihood, model))
        fit_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        acquisition = qLogNoisyExpectedImprovement(
            model,
            x,
            objective=GenericMCObjective(lambda Z, X=None: Z[..., 0]),
            constraints=[lambda Z: Z[..., 1]],
            prune_baseline=True,
        )
        candidate, _ = optimize_acqf(
            acquisition, bounds, q=1, num_restarts=20, raw_samples=1024
        )
        acq_times.append(time.perf_counter() - start)
        y_new, c_new = outcomes(candidate)
        x, y, c = torch.cat([x, candidate]), torch.cat([y, y_new]), torch.cat([c, c_new])
    feasible = (c <= 0).squeeze(-1)
    best = -y[feasible].max().item() if feasible.any() else None
    return fit_times, acq_times, best, int(feasible.sum())


def bosweep_loop(binary, budget, init, seed):
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as trace:
        subprocess.run(
            [binary, "--device", "cpu", "run", "--algo", "qlognei",
             "--problem", "constrained-hartmann", "--budget", str(budget),
             "--init", str(init), "--seed", str(seed), "--out", trace.name],
            check=True, capture_output=True,
        )
        steps = [json.loads(line) for line in open(trace.name)][1:]
    opt = [s for s in steps if s["phase"] == "opt"]
    feasible = [s["y"] for s in steps if s["feasible"]]
    best = min(feasible) if feasible else None
    return (
        [s["model_seconds"] for s in opt],
        [s["acq_seconds"] for s in opt],
        best,
        len(feasible),
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bosweep", default="target/release/bosweep")
    parser.add_argument("--budget", type=int, default=40)
    parser.add_argument("--init", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"torch threads: {torch.get_num_threads()}")
    for name, (fit, acq, best, feasible) in [
        ("bosweep", bosweep_loop(args.bosweep, args.budget, args.init, args.seed)),
        ("botorch", botorch_loop(args.budget, args.init, args.seed)),
    ]:
        best = "none" if best is None else f"{best:.4f}"
        print(
            f"{name:8} steps {len(acq):3}  fits median {statistics.median(fit):.3f} s  "
            f"acquisition median {statistics.median(acq):.3f} s  best feasible {best}  "
            f"feasible points {feasible}/{args.budget}"
        )


if __name__ == "__main__":
    main()
