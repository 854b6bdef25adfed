#!/usr/bin/env python3
"""Where each algorithm of a BBOB sweep stands, under both final measures: COCO's, the regret of
the best point evaluated (`best_evaluated_regret`), and the recommendation's (`simple_regret`).

Per run setting (function, dimension, instance) the algorithms are ranked by their final Δf under
each measure (rank 1 the smallest, ties share the mean rank); the tables average those ranks
overall, per dimension and per BBOB function group, give Bayesmark's normalised score against
random search, the share of run settings where Δf ended below 1 and 1e-2, and where the two
measures order the algorithms differently. From `steps.csv` it counts the expected running times
(COCO's four targets) that differ between the measures, how often and by how much a
recommendation ends worse than the run's best point, and draws both runtime distributions
(COCO's 51 targets 10^(i/5), i = 10 … −40) side by side.

Usage: python docs/studies/bbob_baselines.py RESULTS_DIR [FIGURE.png]
    (a reported sweep of sweeps/studies/bbob-baselines*.toml; the figure needs matplotlib)
Prints Markdown. Needs scipy (target/pyenv has it).
"""
import csv
import math
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
ERT_TARGETS = [10.0, 1e-1, 1e-3, 1e-5]
ECDF_TARGETS = [10 ** (i / 5) for i in range(10, -41, -1)]
MEASURES = {
    "best evaluated (COCO)": "best_evaluated_regret_mean",
    "recommendation": "simple_regret_mean",
}


def setting_of(problem):
    """(function, dim, instance) of a problem label such as `bbob[dim=2,function=1,instance=1]`."""
    params = dict(re.findall(r"(\w+)=([\w.]+)", problem))
    return int(params["function"]), int(params["dim"]), int(params["instance"])


def mean_of(values):
    """The mean to two decimals, or a dash where there is nothing to average."""
    return f"{statistics.mean(values):.2f}" if values else "–"


def table(head, rows):
    print("| " + " | ".join(head) + " |")
    print("|---|" + "--:|" * (len(head) - 1))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def ranks_of(regret, algorithms):
    """(algorithm, key) -> ranks over the complete settings, and per-setting winners."""
    rank = defaultdict(list)
    best_on = defaultdict(int)
    for (function, dim, _), by in regret.items():
        if len(by) != len(algorithms):
            continue
        group = next(name for name, functions in GROUPS if function in functions)
        ranked = rankdata([by[a] for a in algorithms])
        for algorithm, r in zip(algorithms, ranked):
            for key in ("all", f"d={dim}", group):
                rank[(algorithm, key)].append(r)
            best_on[algorithm] += r == min(ranked)
    return rank, best_on


def scores_of(regret, algorithms):
    """Per algorithm, Bayesmark's per-setting scores 100 · (1 − Δf / Δf_random)."""
    scores = defaultdict(list)
    for by in regret.values():
        reference = by.get("random")
        if not reference or reference <= 0:
            continue
        for a in algorithms:
            if a in by:
                scores[a].append(100 * (1 - by[a] / reference))
    return scores


def summary(results):
    """measure -> (function, dim, instance) -> algorithm -> final Δf (mean over replicates)."""
    regret = {m: defaultdict(dict) for m in MEASURES}
    with open(f"{results}/summary.csv", newline="") as file:
        for row in csv.DictReader(file):
            setting = setting_of(row["problem"])
            for measure, column in MEASURES.items():
                regret[measure][setting][row["algorithm"]] = float(row[column])
    return regret


def steps_by_run(results):
    """run key -> (algorithm, setting, [(evals, instant regret, simple regret)])."""
    runs = {}
    with open(f"{results}/steps.csv", newline="") as file:
        for row in csv.DictReader(file):
            key = row["run"]
            if key not in runs:
                runs[key] = (row["algorithm"], setting_of(row["problem"]), [])
            number = lambda c: float(row[c]) if row[c] else math.inf
            runs[key][2].append((int(row["evals"]), number("instant_regret"), number("simple_regret")))
    return runs


def runtime(steps, target, measure):
    """The first evaluation count at which `measure` reached `target`, or None."""
    best = math.inf
    for evals, instant, simple in steps:
        best = min(best, instant)
        if (best if measure == "coco" else simple) <= target:
            return evals
    return None


def main(results, figure=None):
    regret = summary(results)
    algorithms = sorted({a for by in regret["recommendation"].values() for a in by})
    coco = "best evaluated (COCO)"
    rank, best_on = {}, {}
    for measure in MEASURES:
        rank[measure], best_on[measure] = ranks_of(regret[measure], algorithms)
    order = {
        m: sorted(algorithms, key=lambda a: statistics.mean(rank[m][(a, "all")])) for m in MEASURES
    }
    dims = sorted({dim for _, dim, _ in regret[coco]})
    settings = sum(1 for by in regret[coco].values() if len(by) == len(algorithms))
    for measure in MEASURES:
        scores = scores_of(regret[measure], algorithms)
        print(f"Average rank over {settings} run settings by the final {measure} regret "
              f"(1 = best of {len(algorithms)}), problems where it was best, normalised score:\n")
        columns = ["all"] + [f"d={d}" for d in dims]
        table(
            ["algorithm"] + columns + ["best on", "score, mean", "median"],
            [
                [f"`{a}`"]
                + [f"{statistics.mean(rank[measure][(a, c)]):.2f}" for c in columns]
                + [str(best_on[measure][a]), f"{statistics.mean(scores[a]):.1f}",
                   f"{statistics.median(scores[a]):.1f}"]
                for a in order[measure]
            ],
        )
    print("Where the two measures order the algorithms differently (overall average rank):\n")
    table(
        ["algorithm", "place, COCO", "rank, COCO", "place, recommendation", "rank, recommendation"],
        [
            [f"`{a}`", str(order[coco].index(a) + 1),
             f"{statistics.mean(rank[coco][(a, 'all')]):.2f}",
             str(order["recommendation"].index(a) + 1),
             f"{statistics.mean(rank['recommendation'][(a, 'all')]):.2f}"]
            for a in order[coco]
        ],
    )
    print("Average rank per function group, all dimensions, by COCO's measure:\n")
    table(
        ["algorithm"] + [name for name, _ in GROUPS],
        [[f"`{a}`"] + [mean_of(rank[coco][(a, g)]) for g, _ in GROUPS] for a in order[coco]],
    )
    print("Share of run settings whose final Δf is below the target (COCO / recommendation):\n")
    heads = [f"d={d}, Δf<{t:g}" for d in dims for t in TARGETS]
    rows = []
    for a in order[coco]:
        cells = []
        for d in dims:
            for t in TARGETS:
                shares = []
                for measure in MEASURES:
                    runs = [by[a] for (_, dim, _), by in regret[measure].items() if dim == d and a in by]
                    shares.append(f"{sum(v < t for v in runs) / len(runs):.0%}")
                cells.append(" / ".join(shares))
        rows.append([f"`{a}`"] + cells)
    table(["algorithm"] + heads, rows)

    runs = steps_by_run(results)
    # ERTs per (setting, algorithm, target) under each measure.
    ert = {m: {} for m in ("coco", "recommendation")}
    grouped = defaultdict(list)
    for algorithm, setting, steps in runs.values():
        grouped[(setting, algorithm)].append(steps)
    for (setting, algorithm), group in grouped.items():
        for target in ERT_TARGETS:
            for measure in ert:
                times = [runtime(s, target, measure) for s in group]
                spent = sum(t if t is not None else s[-1][0] for t, s in zip(times, group))
                successes = sum(t is not None for t in times)
                ert[measure][(setting, algorithm, target)] = spent / successes if successes else math.inf
    differ = defaultdict(int)
    for key, value in ert["coco"].items():
        differ[key[1]] += value != ert["recommendation"][key]
    total = len(ert["coco"])
    print(f"Expected running times (to Δf = 10, 0.1, 1e-3, 1e-5) that differ between the two "
          f"measures: {sum(differ.values())} of {total}.\n")
    worse = defaultdict(list)
    for algorithm, _, steps in runs.values():
        best = min(i for _, i, _ in steps)
        final = steps[-1][2]
        if final > best:
            worse[algorithm].append(final / best if best > 0 else math.inf)
    per_algorithm = defaultdict(int)
    for algorithm, _, _ in runs.values():
        per_algorithm[algorithm] += 1
    print("Runs whose final recommendation is worse than their best evaluated point, and by how "
          "much (median factor):\n")
    table(
        ["algorithm", "runs worse", "median factor", "ERTs that differ"],
        [
            [f"`{a}`", f"{len(worse[a])} of {per_algorithm[a]}",
             f"{statistics.median(worse[a]):.3g}" if worse[a] else "–",
             f"{differ[a]} of {total // len(algorithms)}"]
            for a in order[coco]
        ],
    )
    # Both runtime distributions: the fraction of (run, target) pairs reached by each budget.
    curves = {m: defaultdict(list) for m in ("coco", "recommendation")}
    pairs = defaultdict(int)
    for algorithm, _, steps in runs.values():
        pairs[algorithm] += len(ECDF_TARGETS)
        for measure in curves:
            for target in ECDF_TARGETS:
                t = runtime(steps, target, measure)
                if t is not None:
                    curves[measure][algorithm].append(t)
    print("Fraction of the (run, target) pairs reached by the end of the runs, the runtime "
          "distribution's end (COCO / recommendation):\n")
    table(
        ["algorithm", "COCO", "recommendation"],
        [[f"`{a}`"] + [f"{len(curves[m][a]) / pairs[a]:.3f}" for m in curves] for a in order[coco]],
    )
    if figure:
        draw(curves, pairs, order[coco], figure)


def draw(curves, pairs, algorithms, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 5), sharey=True)
    titles = {
        "coco": "COCO: best evaluated point",
        "recommendation": "the recommendation",
    }
    colors = plt.get_cmap("tab20")
    for ax, measure in zip(axes, curves):
        for i, a in enumerate(algorithms):
            times = sorted(curves[measure][a])
            xs = [1] + times
            ys = [0] + [(k + 1) / pairs[a] for k in range(len(times))]
            ax.step(xs, ys, where="post", label=a, color=colors(i % 20))
        ax.set_xscale("log")
        ax.set_ylim(0, 1)
        ax.set_xlabel("evaluations")
        ax.set_title(f"runtime distribution: {titles[measure]}")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("fraction of (run, Δf target) pairs reached")
    axes[1].legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
