"""Times bosweep's qLogNEI and TuRBO steps against BoTorch's and the TuRBO reference code's on the
same work, all four in one run, and prints one Markdown table: the qLogNEI comparison of
`qlognei_timing.py` (Hartmann-6, sequential, 512 QMC samples; median seconds per step) and the
TuRBO comparison of `turbo_timing.py` (Ackley, batches; seconds per batch), each at those
scripts' defaults unless overridden here.

    pip install torch botorch gpytorch
    python benches/peers/step_timing.py --turbo-src ~/src/TuRBO --bosweep target/release/bosweep
"""

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import qlognei_timing  # noqa: E402
import turbo_timing  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bosweep", default="target/release/bosweep")
    parser.add_argument("--turbo-src", required=True, help="a checkout of uber-research/TuRBO")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--qlognei-budget", type=int, default=40)
    parser.add_argument("--qlognei-init", type=int, default=10)
    parser.add_argument("--turbo-dim", type=int, default=10)
    parser.add_argument("--turbo-init", type=int, default=20)
    parser.add_argument("--turbo-budget", type=int, default=200)
    parser.add_argument("--turbo-batch", type=int, default=4)
    args = parser.parse_args()

    rows = []
    q = (args.qlognei_budget, args.qlognei_init, args.seed)
    for library, (fit, acq, best) in [
        ("bosweep `qlognei`", qlognei_timing.bosweep_loop(args.bosweep, *q)),
        ("BoTorch `optimize_acqf`", qlognei_timing.botorch_loop(*q)),
    ]:
        per_step = statistics.median(f + a for f, a in zip(fit, acq))
        rows.append((f"qLogNEI, Hartmann-6, q = 1, {len(acq)} steps", library,
                     f"{per_step:.3f} s / step", f"{best:.4f} (max)"))
    turbo_args = argparse.Namespace(
        bosweep=args.bosweep, turbo_src=args.turbo_src, dim=args.turbo_dim,
        init=args.turbo_init, budget=args.turbo_budget, batch=args.turbo_batch, seed=args.seed,
    )
    batches = (args.turbo_budget - args.turbo_init) // args.turbo_batch
    for library, loop in [("bosweep `turbo`", turbo_timing.bosweep_loop),
                          ("reference `Turbo1`", turbo_timing.reference_loop)]:
        per_batch, best = loop(turbo_args)
        rows.append((f"TuRBO-1, Ackley-{args.turbo_dim}, q = {args.turbo_batch}, {batches} batches",
                     library, f"{per_batch:.3f} s / batch", f"{best:.4f} (min)"))

    print(f"torch threads: {qlognei_timing.torch.get_num_threads()}\n")
    print("| work | library | time | best value |")
    print("|---|---|--:|--:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
