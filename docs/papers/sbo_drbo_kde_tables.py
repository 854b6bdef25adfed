"""Tables of a contextual sweep (docs/papers/sbo-drbo-kde.md): per problem and method, the final
cumulative regret (mean ± s.e. over replicates, initial design included), the final simple regret
of the recommendation (mean), and for Complicated Hartmann also the cumulative reward Σ y (the
paper's metric for it).

    python3 docs/papers/sbo_drbo_kde_tables.py /tmp/sbo-medium [more sweep directories]

Runs of several sweeps (e.g. DRBO-MMD run separately) are pooled by problem and method.
"""

import glob
import json
import math
import os
import sys
from collections import defaultdict


def mean_se(values):
    """Mean and standard error; (nan, nan) where a value is unknown (regret without an optimum)."""
    if any(v is None for v in values):
        return float("nan"), float("nan")
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, float("nan")
    var = sum((v - m) ** 2 for v in values) / (len(values) - 1)
    return m, math.sqrt(var / len(values))


def main(directories):
    runs = defaultdict(list)
    paths = [p for d in directories for p in sorted(glob.glob(os.path.join(d, "runs", "*.jsonl")))]
    for path in paths:
        with open(path) as handle:
            lines = [json.loads(line) for line in handle if line.strip()]
        header = lines[0]["header"]
        problem = header["problem"]
        law = header["problem_parameters"].get("context_law")
        if law:
            problem = f"{problem} ({law})"
        steps = [line for line in lines[1:] if "iter" in line]
        last = steps[-1]
        runs[(problem, header["algorithm"])].append(
            (last["cumulative_regret"], last["simple_regret"], sum(s["y"] for s in steps))
        )
    problems = sorted({p for p, _ in runs}, key=lambda p: list(k[0] for k in runs).index(p))
    for problem in problems:
        mixture = problem.startswith("hartmann-mixture")
        print(f"\n**{problem}**\n")
        extra = " | Σ y" if mixture else ""
        print(f"| method | runs | cum. regret | simple regret{extra} |")
        print("|---|--:|--:|--:|" + ("--:|" if mixture else ""))
        rows = [(a, v) for (p, a), v in runs.items() if p == problem]
        # By cumulative regret; by cumulative reward (descending) where the regret is unknown.
        rows.sort(key=lambda r: -mean_se([v[2] for v in r[1]])[0] if mixture else mean_se([v[0] for v in r[1]])[0])
        for algorithm, values in rows:
            cum, cum_se = mean_se([v[0] for v in values])
            simple = mean_se([v[1] for v in values])[0]
            reward, reward_se = mean_se([v[2] for v in values])
            cell = f" | {reward:.2f} ± {reward_se:.2f}" if mixture else ""
            regret = "–" if math.isnan(cum) else f"{cum:.2f} ± {cum_se:.2f}"
            simple = "–" if math.isnan(simple) else f"{simple:.3f}"
            print(f"| `{algorithm}` | {len(values)} | {regret} | {simple}{cell} |")


if __name__ == "__main__":
    main(sys.argv[1:])
