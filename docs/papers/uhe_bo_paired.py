"""Paired tests of docs/papers/uhe-bo.md: UHE-BO against every other method, per problem.

    python3 docs/papers/uhe_bo_paired.py results/uhe-bo-full      # needs SciPy

Reads the sweep's `steps.csv` (written by `bosweep report`): the final simple regret of every
run, paired across methods by replicate (the methods of a replicate share their initial design).
Per problem, the two-sided Wilcoxon signed-rank test of UHE-BO against each of the 8 other
methods (SciPy's `wilcoxon`, exact for these 10 pairs without ties), p Holm-adjusted over the
problem's 8 comparisons; the verdict at α = 0.05 says which side wins. bosweep's own report
(`comparisons.csv`) tests every method against each problem's best with the same statistics;
this script only changes the reference method to the paper's.
"""
import csv
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from scipy.stats import wilcoxon

PROBLEMS = ["deceptive", "h1", "hartmann3", "branin", "hartmann6"]
# The report's problem labels: the config gives Deceptive its dimension.
LABELS = {"deceptive": "deceptive[dim=2]"}
REFERENCE = "uhe-bo"
OTHERS = ["ra-bo", "random-exp3", "map-gp-ucb", "mcmc-gp-ucb", "a-gp-ucb",
          "wang-de-freitas", "portfolio", "random"]
ALPHA = 0.05


def final_regrets(directory):
    """(problem, algorithm) -> {replicate: final simple regret}."""
    last = {}
    with open(Path(directory, "steps.csv"), newline="") as f:
        for row in csv.DictReader(f):
            run = row["run"]
            if run not in last or int(row["iter"]) > int(last[run]["iter"]):
                last[run] = row
    finals = defaultdict(dict)
    for row in last.values():
        finals[(row["problem"], row["algorithm"])][int(row["replicate"])] = float(row["simple_regret"])
    return finals


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adjusted, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


def main(directory):
    finals = final_regrets(directory)
    print("| problem | UHE-BO against | pairs | median difference (UHE-BO − other) | W+ | p | p (Holm) | verdict |")
    print("|---|---|--:|--:|--:|--:|--:|---|")
    for problem in PROBLEMS:
        label = LABELS.get(problem, problem)
        reference = finals[(label, REFERENCE)]
        rows = []
        for other in OTHERS:
            theirs = finals[(label, other)]
            replicates = sorted(set(reference) & set(theirs))
            differences = [reference[r] - theirs[r] for r in replicates]
            result = wilcoxon(differences, alternative="two-sided")
            nonzero = [d for d in differences if d != 0]
            ranks = _ranks([abs(d) for d in nonzero])
            w_plus = sum(rank for rank, d in zip(ranks, nonzero) if d > 0)
            rows.append((other, len(replicates), statistics.median(differences), w_plus, result.pvalue))
        for (other, n, median, w_plus, p), p_holm in zip(rows, holm([r[4] for r in rows])):
            if p_holm >= ALPHA:
                verdict = "not distinguishable"
            elif median < 0:
                verdict = "**UHE-BO better**"
            else:
                verdict = "**UHE-BO worse**"
            print(f"| {problem} | `{other}` | {n} | {median:.4g} | {w_plus:g} | {p:.4g} | {p_holm:.4g} | {verdict} |")


def _ranks(values):
    """Average ranks (1-based) of `values`, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


if __name__ == "__main__":
    main(sys.argv[1])
