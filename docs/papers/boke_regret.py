"""The paper's metric for the BOKE sweeps (standard library only):

    python3 docs/papers/boke_regret.py /tmp/boke-reduced-noisy [more sweep directories]

The paper reports the simple regret of the *evaluated* points with the noise-free f
(Eq. 2.4): r*_T = f* - max_{t<=T} f(x_t), i.e. the smallest `instant_regret` of a
trace. `bosweep report` shows the regret of the algorithm's recommendation instead, which in
noisy runs can be a lucky noisy observation. Per problem setting and algorithm this prints the
mean, standard error and median over replicates of r*_T at the end of the run, and, where the
optimum is unknown (the tuning tasks), of the best objective value instead (CV R²).
"""
import json
import math
import sys
from collections import defaultdict
from pathlib import Path


def stats(values):
    n = len(values)
    mean = sum(values) / n
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n) if n > 1 else float("nan")
    median = sorted(values)[n // 2] if n % 2 else sum(sorted(values)[n // 2 - 1: n // 2 + 1]) / 2
    return mean, se, median


def label(header):
    params = header.get("problem_parameters", {})
    extra = ",".join(f"{k}={v}" for k, v in sorted(params.items()) if v not in (0, 0.0))
    return header["problem"] + (f"[{extra}]" if extra else "")


def main(directories):
    groups = defaultdict(list)
    unknown = set()
    for directory in directories:
        for path in sorted(Path(directory, "runs").glob("*.jsonl")):
            lines = [json.loads(line) for line in path.open()]
            header = lines[0]["header"]
            steps = lines[1:]
            key = (label(header), header["algorithm"])
            regrets = [s["instant_regret"] for s in steps if s.get("instant_regret") is not None]
            if regrets:
                groups[key].append(min(regrets))
            else:
                unknown.add(key[0])
                groups[key].append(steps[-1]["best_value"])
    problems = sorted({p for p, _ in groups})
    for problem in problems:
        what = "best value (CV R²)" if problem in unknown else "r*_T = min instant regret"
        print(f"\n{problem}: {what}\n")
        print("| algorithm | runs | mean | s.e. | median |")
        print("|---|--:|--:|--:|--:|")
        for (p, algo), values in sorted(groups.items()):
            if p == problem:
                mean, se, median = stats(values)
                print(f"| {algo} | {len(values)} | {mean:.4g} | {se:.2g} | {median:.4g} |")


if __name__ == "__main__":
    main(sys.argv[1:])
