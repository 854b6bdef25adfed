#!/usr/bin/env python3
"""Where a GP method's step goes: fit, grid, refinement and bookkeeping, against the
floating-point floor of each part at the machine's measured GEMM rate.

Reads the traces `benches/step_profile.sh` wrote (`<algo>-d<D>.jsonl`, with the run's wall
seconds in `<algo>-d<D>.seconds`) and prints a Markdown table of the mean seconds per step over
the steps at n = 190-199 observations:

- fit: `model_seconds` (the hyperparameter fit, the factorisation and, for qLogNEI, the
  baseline's joint sample); its floor is `fit_evaluations × (n³ + 2n²d)` flops (a Cholesky
  n³/3 and the inverse the likelihood's gradient needs, 2n³/3; the kernel's derivatives 2n²d);
- grid: `grid_seconds`, the acquisition over the candidate grid; its floor per candidate is a
  cross-covariance row (2nd) and a triangular solve (n²), for qLogNEI also its covariance with
  the b pruned baseline points (2bn + 2b²) and the samples' correlated part (2bS);
- refine: `refine_seconds`, the L-BFGS ascents;
- TuRBO has no grid: its column holds the Thompson sampling (`acq_seconds`), whose floor is the
  candidates' covariance and its Cholesky factor;
- a floor the trace cannot give (TuRBO's and UHE-BO's fits log no evaluation count) is "–";
- bookkeeping: the run's wall time less every step's model and acquisition seconds, per step
  (the objective, the trace, the recommendation).

Usage: python3 benches/step_profile.py DIR [GFLOPS]   (GFLOPS: the GEMM rate; measured with
numpy when omitted)
"""
import json
import pathlib
import sys
import time


def gemm_rate():
    import numpy as np

    a = np.random.default_rng(0).standard_normal((1500, 1500))
    a @ a
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        a @ a
        best = min(best, time.perf_counter() - t)
    return 2 * 1500**3 / best / 1e9


def profile(path):
    steps = [json.loads(line) for line in path.read_text().splitlines()]
    header = steps[0]["header"]
    opt = [s for s in steps[1:] if s.get("phase") == "opt"]
    wall = float(path.with_suffix(".seconds").read_text())
    spent = sum(s["model_seconds"] + s["acq_seconds"] for s in steps[1:])
    window = [s for s in opt if 190 <= s["iter"] - 1 < 200]
    mean = lambda key: sum(s.get(key, 0.0) for s in window) / len(window)
    # over the steps that ran the stage (UHE-BO's random arm skips the grid and the refinement)
    ran = lambda key: [s[key] for s in window if s.get(key)]
    stage = lambda key: sum(ran(key)) / len(ran(key)) if ran(key) else 0.0
    extra = lambda key: sum(s["extra"].get(key, 0) for s in window) / len(window)
    return {
        "algorithm": header["algorithm"],
        "dim": len(steps[1]["x"]),
        "fit": mean("model_seconds"),
        "grid": stage("grid_seconds"),
        "refine": stage("refine_seconds"),
        "acq": mean("acq_seconds"),
        "bookkeeping": (wall - spent) / len(steps[1:]),
        "fit_evaluations": extra("fit_evaluations"),
        "baseline": extra("baseline_points"),
        "grid_size": header["algorithm_parameters"].get("grid_size"),
        "n_candidates": header["algorithm_parameters"].get("n_candidates"),
        "wall": wall,
    }


def main():
    directory = pathlib.Path(sys.argv[1])
    rate = float(sys.argv[2]) if len(sys.argv) > 2 else gemm_rate()
    print(f"GEMM rate: {rate:.1f} GFLOP/s\n")
    print("| method | d | run (s) | fit (ms) | fit floor (ms) | grid (ms) | grid floor (ms) | refine (ms) | bookkeeping (ms) |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for path in sorted(directory.glob("*.jsonl")):
        p = profile(path)
        n, d = 195, p["dim"]
        ms = lambda s: f"{1e3 * s:.1f}" if s else "–"
        floor = lambda flops: f"{flops / rate / 1e6:.2f}" if flops else "–"
        fit_floor = p["fit_evaluations"] * (n**3 + 2 * n * n * d)
        if p["algorithm"] == "turbo":
            # Thompson sampling: the candidates' m × m covariance (2m²d) and its Cholesky (m³/3);
            # the terms in the restart's data count, which the trace does not hold, are left
            # out, so this floor is a lower bound.
            m = p["n_candidates"] or min(100 * d, 5000)
            grid, grid_floor = p["acq"], 2 * m * m * d + m**3 / 3
        else:
            default = max(1000 * d, 2000) if p["algorithm"] == "uhe-bo" else min(4096 * d, 1 << 20)
            m = p["grid_size"] or default
            per_candidate = 2 * n * d + n * n
            if p["algorithm"] == "qlognei":
                b, samples = p["baseline"], 512
                per_candidate += 2 * b * n + 2 * b * b + 2 * b * samples
            grid, grid_floor = p["grid"], m * per_candidate if p["grid"] else 0
        print(
            f"| `{p['algorithm']}` | {d} | {p['wall']:.1f} | {ms(p['fit'])} | {floor(fit_floor)} | "
            f"{ms(grid)} | {floor(grid_floor)} | {ms(p['refine'])} | {1e3 * p['bookkeeping']:.1f} |"
        )

if __name__ == "__main__":
    main()
