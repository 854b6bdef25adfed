"""Times TuRBO-1 in bosweep and in the authors' reference code (uber-research/TuRBO,
`turbo/turbo_1.py`) on the same work, side by side in one run: Ackley in `--dim` dimensions on
bosweep's box [-32.768, 32.768]^d (minimised), `--init` design points then `--budget`
evaluations in batches of `--batch`, each library at its defaults (the reference:
`n_training_steps=50` Adam steps of its GP per batch, `min(100 d, 5000)` candidates; bosweep
`turbo`: its GP fit and the same candidate count). The reference's `optimize()` runs the whole
loop, so its time per batch is the loop's wall time over the batches; bosweep's is the trace's
`model_seconds + acq_seconds` summed over a batch's asks.

The reference is not vendored: point `--turbo-src` at a checkout of uber-research/TuRBO (the
folder holding `turbo/`); it needs torch and gpytorch.

    pip install torch gpytorch
    python benches/peers/turbo_timing.py --turbo-src ~/src/TuRBO --bosweep target/release/bosweep
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time

import numpy as np


def ackley(x):
    """Ackley's function (a = 20, b = 0.2, c = 2π), minimum 0 at the origin."""
    d = len(x)
    return (
        -20.0 * np.exp(-0.2 * np.sqrt(np.sum(x**2) / d))
        - np.exp(np.sum(np.cos(2.0 * np.pi * x)) / d)
        + 20.0
        + np.e
    )


def reference_loop(args):
    sys.path.insert(0, args.turbo_src)
    from turbo import Turbo1

    np.random.seed(args.seed)
    turbo = Turbo1(
        f=ackley,
        lb=np.full(args.dim, -32.768),
        ub=np.full(args.dim, 32.768),
        n_init=args.init,
        max_evals=args.budget,
        batch_size=args.batch,
        verbose=False,
    )
    start = time.perf_counter()
    turbo.optimize()
    seconds = time.perf_counter() - start
    batches = (args.budget - args.init) / args.batch
    return seconds / batches, float(turbo.fX.min())


def bosweep_loop(args):
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as trace:
        subprocess.run(
            [args.bosweep, "--device", "cpu", "run", "--algo", "turbo", "--problem", "ackley",
             "--problem-param", f"dim={args.dim}", "--budget", str(args.budget),
             "--init", str(args.init), "--batch", str(args.batch), "--seed", str(args.seed),
             "--out", trace.name],
            check=True, capture_output=True,
        )
        steps = [json.loads(line) for line in open(trace.name)][1:]
    opt = [s for s in steps if s["phase"] == "opt"]
    seconds = sum(s["model_seconds"] + s["acq_seconds"] for s in opt)
    return seconds / (len(opt) / args.batch), min(s["y"] for s in steps)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--turbo-src", required=True)
    parser.add_argument("--bosweep", default="target/release/bosweep")
    parser.add_argument("--dim", type=int, default=10)
    parser.add_argument("--init", type=int, default=20)
    parser.add_argument("--budget", type=int, default=200)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, loop in [("bosweep", bosweep_loop), ("reference", reference_loop)]:
        per_batch, best = loop(args)
        print(f"{name:9} {per_batch:.3f} s per batch of {args.batch}  best value {best:.4f}")


if __name__ == "__main__":
    main()
