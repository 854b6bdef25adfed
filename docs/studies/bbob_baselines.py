#!/usr/bin/env python3
"""Where each algorithm of a BBOB sweep stands: per run setting (function, dimension, instance)
the algorithms are ranked by their final Δf = f(recommended) − f_opt (rank 1 the smallest, ties
share the mean rank); the tables average those ranks per dimension and per BBOB function group,
and give per dimension the share of run settings where the algorithm brought Δf below 1 and
below 1e-2.

Usage: python docs/studies/bbob_baselines.py RESULTS_DIR   (a sweep of sweeps/studies/bbob-baselines*.toml)
Prints Markdown tables. Needs scipy (target/pyenv has it).
"""
import csv
import re
import statistics
import sys
from collections import defaultdict

from scipy.stats import rankdata

# COCO's five groups of the noiseless suite.
GROUPS = [
    ("separable (f1–f5)", range(1, 6)),
    ("low or moderate conditioning (f6–f9)", range(6, 10)),
    ("high conditioning, unimodal (f10–f14)", range(10, 15)),
    ("multimodal, adequate global structure (f15–f19)", range(15, 20)),
    ("multimodal, weak global structure (f20–f24)", range(20, 25)),
]
TARGETS = [1.0, 1e-2]


def setting_of(problem):
    """(function, dim, instance) of a problem label such as `bbob[dim=2,function=1,instance=1]`."""
    params = dict(re.findall(r"(\w+)=([\w.]+)", problem))
    return int(params["function"]), int(params["dim"]), int(params["instance"])


def main(results):
    regret = defaultdict(dict)  # (function, dim, instance) -> algorithm -> final Δf
    for row in csv.DictReader(open(f"{results}/summary.csv")):
        regret[setting_of(row["problem"])][row["algorithm"]] = float(row["simple_regret_mean"])
    algorithms = sorted({a for by in regret.values() for a in by})
    rank = defaultdict(list)  # (algorithm, key) -> ranks
    for (function, dim, _), by in regret.items():
        if len(by) != len(algorithms):
            continue
        group = next(name for name, functions in GROUPS if function in functions)
        for algorithm, r in zip(algorithms, rankdata([by[a] for a in algorithms])):
            for key in ("all", f"d={dim}", group):
                rank[(algorithm, key)].append(r)
    dims = sorted({dim for _, dim, _ in regret})
    columns = ["all"] + [f"d={d}" for d in dims]
    order = sorted(algorithms, key=lambda a: statistics.mean(rank[(a, "all")]))

    settings = sum(1 for by in regret.values() if len(by) == len(algorithms))
    print(f"Average rank over {settings} run settings (1 = best of {len(algorithms)}):\n")
    print("| algorithm | " + " | ".join(columns) + " |")
    print("|---|" + "--:|" * len(columns))
    for a in order:
        print(f"| `{a}` | " + " | ".join(f"{statistics.mean(rank[(a, c)]):.2f}" for c in columns) + " |")

    print("\nAverage rank per function group, all dimensions:\n")
    print("| algorithm | " + " | ".join(name for name, _ in GROUPS) + " |")
    print("|---|" + "--:|" * len(GROUPS))
    for a in order:
        print(f"| `{a}` | " + " | ".join(f"{statistics.mean(rank[(a, g)]):.2f}" for g, _ in GROUPS) + " |")

    print("\nShare of run settings with final Δf below the target:\n")
    heads = [f"d={d}, Δf<{t:g}" for d in dims for t in TARGETS]
    print("| algorithm | " + " | ".join(heads) + " |")
    print("|---|" + "--:|" * len(heads))
    for a in order:
        cells = []
        for d in dims:
            runs = [by[a] for (_, dim, _), by in regret.items() if dim == d and a in by]
            cells += [f"{sum(v < t for v in runs) / len(runs):.0%}" for t in TARGETS]
        print(f"| `{a}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1])
