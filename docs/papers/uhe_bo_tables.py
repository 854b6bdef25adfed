"""Tables of docs/papers/uhe-bo.md from a UHE-BO sweep directory (standard library only):

    python3 docs/papers/uhe_bo_tables.py results/uhe-bo-full

Per problem and method, over replicates: the final simple regret (mean ± standard error, median),
the mean of log10 final simple regret ± standard error (the statistic of test case 13 in
docs/papers/uhe-bo.md), and the seconds per iteration (model fitting + acquisition, averaged over
every step of every run). Zero regrets count as 1e-12 in the log.
"""
import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

PROBLEMS = ["deceptive", "h1", "hartmann3", "branin", "hartmann6"]
METHODS = ["uhe-bo", "ra-bo", "random-exp3", "map-gp-ucb", "mcmc-gp-ucb", "a-gp-ucb",
           "wang-de-freitas", "portfolio", "random"]


def mean_se(values):
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    return m, sd / math.sqrt(n)


def main(directory):
    finals = defaultdict(list)
    seconds = defaultdict(list)
    for path in sorted(Path(directory, "runs").glob("*.jsonl")):
        lines = [json.loads(l) for l in path.read_text().splitlines()]
        header, steps = lines[0]["header"], lines[1:]
        key = (header["problem"], header["algorithm"])
        finals[key].append(steps[-1]["simple_regret"])
        seconds[key].extend(s["model_seconds"] + s["acq_seconds"] for s in steps)
    print("| problem | method | runs | regret mean ± s.e. | median | mean log10 regret ± s.e. | s / iteration |")
    print("|---|---|--:|--:|--:|--:|--:|")
    for problem in PROBLEMS:
        for method in METHODS:
            values = finals.get((problem, method))
            if not values:
                continue
            m, se = mean_se(values)
            logs = [math.log10(max(v, 1e-12)) for v in values]
            lm, lse = mean_se(logs)
            median = statistics.median(values)
            secs = seconds[(problem, method)]
            print(f"| {problem} | `{method}` | {len(values)} | {m:.4g} ± {se:.2g} | {median:.4g} "
                  f"| {lm:.3f} ± {lse:.2f} | {sum(secs) / len(secs):.3f} |")


if __name__ == "__main__":
    main(sys.argv[1])
