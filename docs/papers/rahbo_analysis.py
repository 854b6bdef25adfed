"""Tables of docs/papers/rahbo.md from a RAHBO sweep directory (standard library only):

    python3 docs/papers/rahbo_analysis.py /tmp/rahbo-reduced
    python3 docs/papers/rahbo_analysis.py /tmp/rahbo-rf --paired     # needs SciPy

Per problem setting and algorithm, over replicates (mean ± 2 standard errors, ddof = 0 as in the
authors' code): the cumulative mean-variance regret over the BO rounds (initial design excluded, as
the paper's Section 4 measures it), the simple MV regret of the reported point, the reported point's
f and ρ², and where the queries went (sine: share in the noisy half (1, 2]; Branin: share within
distance 1 of A and of C).

With `--paired`: for the problems whose regrets are unknown (the RF task), RAHBO against
GP-UCB at each α on the reported configuration's empirical mean m̂ and across-fold variance ŝ²,
paired by replicate, by the two-sided Wilcoxon signed-rank test (SciPy). Regrets, where known,
are tested by `docs/papers/paired.py` on the sweep's steps.csv.
"""
import json
import math
import sys
from collections import defaultdict
from pathlib import Path

A, C = (9.42478, 2.475), (-math.pi, 12.275)


def mean_2se(values):
    n = len(values)
    if n == 0:
        return "–"
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / n)
    return f"{m:.4g} ± {2 * sd / math.sqrt(n):.2g}"


def main(directory):
    groups = defaultdict(list)
    for path in sorted(Path(directory, "runs").glob("*.jsonl")):
        lines = [json.loads(l) for l in path.read_text().splitlines()]
        header, steps = lines[0]["header"], lines[1:]
        problem = header["problem"] + str(sorted(header["problem_parameters"].items()))
        alpha = steps[-1]["extra"].get("alpha")
        groups[(problem, f'{header["algorithm"]} (α = {alpha})')].append(steps)
    rows = []
    for (problem, algo), runs in sorted(groups.items()):
        cum, simple, rf, rr, noisy, near_a, near_c, emp_m, emp_s2 = ([] for _ in range(9))
        for steps in runs:
            opt = [s for s in steps if s["phase"] == "opt"]
            last = steps[-1]
            if last["cumulative_regret"] is not None:
                cum.append(sum(s["instant_regret"] for s in opt))
                simple.append(last["simple_regret"])
            metrics = last["extra"].get("recommended_metrics")
            if metrics:
                rf.append(metrics["f"])
                rr.append(metrics["rho2"])
            if "reported_m" in last["extra"]:
                emp_m.append(last["extra"]["reported_m"])
                emp_s2.append(last["extra"]["reported_s2"])
            xs = [s["x"] for s in opt]
            if problem.startswith("sine"):
                noisy.append(sum(x[0] > 1.0 for x in xs) / len(xs))
            if problem.startswith("branin"):
                dist = lambda x, p: math.hypot(x[0] - p[0], x[1] - p[1])
                near_a.append(sum(dist(x, A) < 1.0 for x in xs) / len(xs))
                near_c.append(sum(dist(x, C) < 1.0 for x in xs) / len(xs))
        rows.append((problem, algo, len(runs), mean_2se(cum), mean_2se(simple), mean_2se(rf),
                     mean_2se(rr), mean_2se(noisy), mean_2se(near_a), mean_2se(near_c),
                     mean_2se(emp_m), mean_2se(emp_s2)))
    print("| problem | algorithm | runs | cum. MV regret (BO rounds) | simple MV regret | f(x̂) | ρ²(x̂) "
          "| share in (1, 2] | share near A | share near C | m̂(x̂) | ŝ²(x̂) |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in rows:
        print("| " + " | ".join(str(v) for v in r) + " |")


def paired(directory):
    """RAHBO − GP-UCB on the reported m̂ and ŝ², per problem and α, paired by replicate."""
    import statistics

    from scipy.stats import wilcoxon

    manifest = json.loads(Path(directory, "manifest.json").read_text())
    replicate = {run["seed"]: run["replicate"] for run in manifest["runs"]}
    reported = defaultdict(dict)
    for path in sorted(Path(directory, "runs").glob("*.jsonl")):
        lines = [json.loads(l) for l in path.read_text().splitlines()]
        header, last = lines[0]["header"], lines[-1]
        if "reported_m" not in last["extra"]:
            continue
        key = (header["problem"], header["algorithm"], last["extra"]["alpha"])
        reported[key][replicate[header["seed"]]] = (last["extra"]["reported_m"],
                                                     last["extra"]["reported_s2"])
    print("| problem | α | quantity | pairs | median (RAHBO − GP-UCB) | p |")
    print("|---|--:|---|--:|--:|--:|")
    for (problem, algorithm, alpha), ours in sorted(reported.items()):
        if algorithm != "rahbo":
            continue
        theirs = reported[(problem, "gp-ucb-hetero", alpha)]
        shared = sorted(set(ours) & set(theirs))
        for i, name in [(0, "m̂"), (1, "ŝ²")]:
            d = [ours[r][i] - theirs[r][i] for r in shared]
            print(f"| {problem} | {alpha:g} | {name} | {len(d)} | {statistics.median(d):.3g} "
                  f"| {wilcoxon(d).pvalue:.3g} |")


if __name__ == "__main__":
    if "--paired" in sys.argv[2:]:
        paired(sys.argv[1])
    else:
        main(sys.argv[1])
