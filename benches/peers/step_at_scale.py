"""Times one LogEI and one qLogNEI step at n = 200 observations in d = 20 in bosweep and in
BoTorch, on the same data, side by side in one run.

The data: bosweep's own initial design for `--problem` (default Ackley in 20-D), `--n` scrambled
Sobol points from `--seed`, read back from the trace of `bosweep run --algo A --init N --budget
N+STEPS`. bosweep's numbers are that trace's per-step seconds over its first `--steps` steps
(n = N … N+STEPS−1): the fit (`model_seconds`), the candidate grid (`grid_seconds`) and the
L-BFGS refinement (`refine_seconds`). BoTorch's are `--steps` repeats on the design itself, each
timed as a step of BoTorch's documented loop with Ax's settings:

- fit: `SingleTaskGP(X, Y)` (its default model since 0.12: RBF with dimension-scaled
  lengthscale prior, standardised outcome) and `fit_gpytorch_mll`;
- acquisition: `LogExpectedImprovement(model, best_f=Y.max())` or
  `qLogNoisyExpectedImprovement(model, X, prune_baseline=True)` (512 QMC samples), maximised by
  `optimize_acqf(q=1, num_restarts=20, raw_samples=1024)`, which is also what bosweep's
  `logei` and `qlognei` do.

X is mapped to the unit cube and the problem's values negated when it is minimised, as bosweep's
GP sees them. Both run on the CPU with the same thread count (`torch.get_num_threads()`, and
bosweep's rayon pool: all cores unless RAYON_NUM_THREADS says otherwise).

    pip install torch botorch
    python benches/peers/step_at_scale.py --bosweep target/release/bosweep

Prints one Markdown table: median milliseconds per step of each part, and BoTorch's over
bosweep's.
"""

import argparse
import json
import statistics
import subprocess
import tempfile
import time

import torch
from botorch.acquisition.analytic import LogExpectedImprovement
from botorch.acquisition.logei import qLogNoisyExpectedImprovement
from botorch.fit import fit_gpytorch_mll
from botorch.models import SingleTaskGP
from botorch.optim import optimize_acqf
from gpytorch.mlls import ExactMarginalLogLikelihood

torch.set_default_dtype(torch.float64)

NUM_RESTARTS, RAW_SAMPLES = 20, 1024


def bosweep_steps(binary, algo, args):
    """The trace's header, its design (unit-cube X, maximised Y) and its first steps' seconds."""
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as trace:
        command = [binary, "--device", "cpu", "run", "--algo", algo, "--problem", args.problem,
                   "--init", str(args.n), "--budget", str(args.n + args.steps),
                   "--seed", str(args.seed), "--out", trace.name]
        for param in args.problem_param:
            command += ["--problem-param", param]
        subprocess.run(command, check=True, capture_output=True)
        lines = [json.loads(line) for line in open(trace.name)]
    header, steps = lines[0]["header"], lines[1:]
    design = [s for s in steps if s["phase"] != "opt"]
    opt = [s for s in steps if s["phase"] == "opt"]
    return header, design, opt


def unit_design(header, design, box):
    lower, upper = box
    x = (torch.tensor([s["x"] for s in design]) - lower) / (upper - lower)
    sign = -1.0 if header["sense"] == "minimize" else 1.0
    y = sign * torch.tensor([[s["y"]] for s in design])
    return x, y


def botorch_steps(x, y, algo, steps):
    bounds = torch.stack([torch.zeros(x.shape[1]), torch.ones(x.shape[1])])
    fit, acq = [], []
    for repeat in range(steps):
        torch.manual_seed(repeat)
        start = time.perf_counter()
        model = SingleTaskGP(x, y)
        fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
        fit.append(time.perf_counter() - start)
        start = time.perf_counter()
        if algo == "logei":
            acquisition = LogExpectedImprovement(model, best_f=y.max())
        else:
            acquisition = qLogNoisyExpectedImprovement(model, x, prune_baseline=True)
        optimize_acqf(acquisition, bounds, q=1, num_restarts=NUM_RESTARTS,
                      raw_samples=RAW_SAMPLES)
        acq.append(time.perf_counter() - start)
    return fit, acq


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bosweep", default="target/release/bosweep")
    parser.add_argument("--problem", default="ackley")
    parser.add_argument("--problem-param", action="append", default=None,
                        help="KEY=VALUE for the problem (default dim=20)")
    parser.add_argument("--n", type=int, default=200, help="observations at the timed steps")
    parser.add_argument("--steps", type=int, default=5, help="steps (repeats) timed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--box", default="-32.768:32.768",
                        help="LOW:HIGH, the problem's box in every coordinate (default Ackley's)")
    args = parser.parse_args()
    box = tuple(float(v) for v in args.box.split(":"))
    args.problem_param = args.problem_param or ["dim=20"]
    ms = lambda values: 1e3 * statistics.median(values)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}; "
          f"{args.problem} {' '.join(args.problem_param)}, n = {args.n}, {args.steps} steps\n")
    print("| method | library | fit (ms) | grid (ms) | refine (ms) | acquisition (ms) | step (ms) |")
    print("|---|---|--:|--:|--:|--:|--:|")
    for algo in ["logei", "qlognei"]:
        header, design, opt = bosweep_steps(args.bosweep, algo, args)
        ours = {key: ms([s.get(key, 0.0) for s in opt])
                for key in ["model_seconds", "grid_seconds", "refine_seconds", "acq_seconds"]}
        ours_step = ms([s["model_seconds"] + s["acq_seconds"] for s in opt])
        fit, acq = botorch_steps(*unit_design(header, design, box), algo, args.steps)
        theirs_step = ms([f + a for f, a in zip(fit, acq)])
        print(f"| {algo} | bosweep | {ours['model_seconds']:.0f} | {ours['grid_seconds']:.0f} | "
              f"{ours['refine_seconds']:.0f} | {ours['acq_seconds']:.0f} | {ours_step:.0f} |")
        print(f"| {algo} | BoTorch 0.18 `optimize_acqf` | {ms(fit):.0f} | | | {ms(acq):.0f} | "
              f"{theirs_step:.0f} |")
        print(f"| {algo} | BoTorch / bosweep | {ms(fit) / ours['model_seconds']:.1f}× | | | "
              f"{ms(acq) / ours['acq_seconds']:.1f}× | {theirs_step / ours_step:.1f}× |")


if __name__ == "__main__":
    main()
