"""moocore's empirical attainment surfaces on fixed random sets: the reference values
tests/library/attainment.rs holds (tests/library/data/eaf_reference.json).

    pip install numpy==2.4.6 moocore==0.3.2
    python benches/peers/eaf_reference.py > tests/library/data/eaf_reference.json

Each case is r runs of two objectives (minimisation), each run a set of points drawn from a
fixed NumPy seed near the front f2 = 1 − √f1, each point scaled by a factor in [1, 1.3] (so that
many are dominated) and rounded to `decimals` decimals, so that the JSON holds the values exactly
and the coarse cases tie in either objective within and across runs; each run also repeats one of
its rows. Recorded for each case: `moocore.eaf(points, sets)` (every percentile 100 k / r), split
into one list of [f1, f2] rows per level k = 1, …, r, in moocore's order (f1 ascending).
"""

import json
import sys

import moocore
import numpy as np

SEED = 20261128

# (name, runs, points per run, decimals)
CASES = [
    ("one-run", 1, 15, 6),
    ("three-runs", 3, 12, 6),
    ("five-runs-coarse", 5, 20, 1),
    ("ten-runs", 10, 25, 4),
    ("twenty-one-runs-coarse", 21, 8, 2),
]


def run(rng, n, decimals):
    """n points near f2 = 1 − √f1, scaled up (dominated), one row repeated."""
    f1 = rng.uniform(0.0, 1.0, n)
    points = np.column_stack([f1, 1.0 - np.sqrt(f1)]) * rng.uniform(1.0, 1.3, (n, 1))
    points = np.vstack([points, points[rng.integers(0, n)]])
    return np.round(points[rng.permutation(n + 1)], decimals)


def main():
    rng = np.random.default_rng(SEED)
    cases = []
    for name, r, n, decimals in CASES:
        runs = [run(rng, n, decimals) for _ in range(r)]
        points = np.vstack(runs)
        sets = np.repeat(np.arange(1, r + 1), [len(x) for x in runs])
        eaf = moocore.eaf(points, sets=sets)
        levels = np.rint(eaf[:, 2] * r / 100.0).astype(int)
        surfaces = [eaf[levels == k, :2].tolist() for k in range(1, r + 1)]
        cases.append(
            {
                "name": name,
                "runs": [x.tolist() for x in runs],
                "surfaces": surfaces,
            }
        )
    json.dump(
        {
            "source": f"moocore {moocore.__version__} eaf, numpy {np.__version__}",
            "seed": SEED,
            "cases": cases,
        },
        sys.stdout,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
