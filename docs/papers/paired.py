"""Paired tests of one reference method against every other, per problem, for the paper notes.

    python3 docs/papers/paired.py DIR --reference uhe-bo                          # needs SciPy
    python3 docs/papers/paired.py DIR --reference pe-gp-ucb --metric cumulative_regret
    python3 docs/papers/paired.py DIR --reference boke --problem forrester --metric best_value

Reads the sweep's `steps.csv` (written by `bosweep report`): the final value of `--metric` (a
column of steps.csv: simple_regret, cumulative_regret or best_value; or best_regret, the
smallest instant_regret of the run: the regret of the best *evaluated* point, BOKE's r*_T,
which differs from the simple regret of the recommendation in noisy runs; or total_y, the sum
of the observed y, the cumulative reward of SBO/DRBO-KDE's Complicated Hartmann, where higher
wins: pass --maximize) of every run, paired across
methods by replicate (the methods of a replicate share their initial design and, where the
problem draws one, its random instance). Per problem, the two-sided Wilcoxon signed-rank test of
the reference against each other method (SciPy's `wilcoxon`: exact for up to 50 pairs without
ties or zeros, the normal approximation otherwise), p Holm-adjusted over the problem's
comparisons; the verdict at α = 0.05 says which side wins (lower wins, or higher with
`--maximize`, for best values of maximised problems).

bosweep's own report (`comparisons.csv`) tests every method against each problem's *best* with
the same statistics; this script only changes the reference to the method a paper proposes.
Prints a Markdown table.
"""
import argparse
import csv
import statistics
from collections import defaultdict
from pathlib import Path

from scipy.stats import wilcoxon

ALPHA = 0.05


def finals(directory, metric):
    """{problem: {algorithm: {replicate: final value}}}, problems and algorithms in file order;
    None where the trace has no such value (regrets of a problem without a known optimum)."""
    last, best, total, gaps = {}, {}, defaultdict(float), set()
    column = {"best_regret": "instant_regret", "total_y": "y"}.get(metric, metric)
    with open(Path(directory, "steps.csv"), newline="") as f:
        for row in csv.DictReader(f):
            run = row["run"]
            value = None if row[column] == "" else float(row[column])
            if run not in last or int(row["iter"]) > int(last[run]["iter"]):
                last[run] = row
            if value is None:
                gaps.add(run)
            else:
                best[run] = min(best.get(run, value), value)
                total[run] += value
    table = defaultdict(lambda: defaultdict(dict))
    for run, row in last.items():
        if metric == "best_regret":
            value = best.get(run)
        elif metric == "total_y":
            value = None if run in gaps else total[run]
        else:
            value = None if row[metric] == "" else float(row[metric])
        table[row["problem"]][row["algorithm"]][int(row["replicate"])] = value
    return table


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adjusted, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


def ranks(values):
    """Average ranks (1-based) of `values`, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def resolve(name, labels, problem):
    """The label `name` stands for: itself, or the one label whose algorithm name it is
    (`sbo-kde` for `sbo-kde[restarts=4,…]`)."""
    if name in labels:
        return name
    matches = [label for label in labels if label.split("[")[0] == name]
    if len(matches) != 1:
        raise SystemExit(f"{problem}: {len(matches)} algorithms named {name} among {labels}")
    return matches[0]


def shown(label, labels):
    """The algorithm's name without its parameters where no other label has that name."""
    name = label.split("[")[0]
    return name if [other.split("[")[0] for other in labels].count(name) == 1 else label


def compare(reference, other):
    """(pairs, median of reference − other, W+, two-sided p) over the shared replicates."""
    replicates = sorted(set(reference) & set(other))
    differences = [reference[r] - other[r] for r in replicates]
    nonzero = [d for d in differences if d != 0]
    if not nonzero:
        return len(replicates), 0.0, 0.0, 1.0
    w_plus = sum(r for r, d in zip(ranks([abs(d) for d in nonzero]), nonzero) if d > 0)
    p = wilcoxon(differences, alternative="two-sided").pvalue
    return len(replicates), statistics.median(differences), w_plus, p


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--reference", required=True, help="the algorithm label to test")
    parser.add_argument("--metric", default="simple_regret",
                        choices=["simple_regret", "cumulative_regret", "best_value",
                                 "best_regret", "total_y"])
    parser.add_argument("--maximize", action="store_true", help="higher values win")
    parser.add_argument("--problem", action="append",
                        help="only these problem labels (repeatable; default: every problem "
                             "whose runs all have the metric)")
    args = parser.parse_args()
    table = finals(args.directory, args.metric)
    complete = [p for p in table
                if all(v is not None for runs in table[p].values() for v in runs.values())]
    # Without --problem, the problems that have the metric (regrets need a known optimum).
    problems = args.problem or complete
    print(f"| problem | `{args.reference}` against | pairs | median difference "
          f"(`{args.reference}` − other) | W+ | p | p (Holm) | verdict |")
    print("|---|---|--:|--:|--:|--:|--:|---|")
    for problem in problems:
        labels = list(table[problem])
        reference_label = resolve(args.reference, labels, problem)
        reference = table[problem][reference_label]
        if any(v is None for runs in table[problem].values() for v in runs.values()):
            raise SystemExit(f"{problem}: no {args.metric} in some runs (unknown optimum?)")
        rows = [(shown(other, labels), *compare(reference, runs))
                for other, runs in table[problem].items() if other != reference_label]
        for (other, n, median, w_plus, p), p_holm in zip(rows, holm([r[4] for r in rows])):
            better = median > 0 if args.maximize else median < 0
            if p_holm >= ALPHA or median == 0:
                verdict = "not distinguishable"
            elif better:
                verdict = "**better**"
            else:
                verdict = "**worse**"
            print(f"| {problem} | `{other}` | {n} | {median:.4g} | {w_plus:g} | {p:.4g} "
                  f"| {p_holm:.4g} | {verdict} |")


if __name__ == "__main__":
    main()
