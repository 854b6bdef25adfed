"""moocore's multi-objective indicators on fixed fronts: the reference values
tests/library/pareto.rs holds (tests/library/data/pareto_reference.json).

    pip install numpy==2.4.6 moocore==0.3.2 pymoo==0.6.2
    python benches/peers/pareto_reference.py > tests/library/data/pareto_reference.json

Every front is drawn from a fixed NumPy seed and rounded to 6 decimals, so that the JSON holds
its values exactly. For 2 to 6 objectives there are two fronts, one near the positive orthant of
the unit sphere and one near the simplex Σx = 1 (50 points for 2 to 4 objectives, 30 for 5 and
6), each point scaled by a factor in [1, 1.25] (so that many are dominated), three rows repeated
(duplicates), three rows copied and made worse in every objective, and three pushed beyond the
reference point (1.1 in every objective) in one objective. Each front comes with a reference
set for the distance indicators: 20 points on the sphere or simplex itself.

Recorded for each front, all in minimisation and as moocore 0.3.2 computes them:

* `hypervolume`: `moocore.hypervolume(points, ref)`, and `hypervolume_pymoo`:
  `pymoo.indicators.hv.HV(ref_point=ref)(points)`. pymoo 0.6.2 computes it by calling
  `moocore.hypervolume`, so it is the same number by the same code, kept as the second
  opinion the issue asked for. The script checks both against an independent computation for up
  to 5 objectives: the cells of the grid the points' coordinates span, each dominated or not.
* `contributions`: `moocore.hv_contributions(points, ref)` (its default
  `ignore_dominated=True`: dominated points contribute 0 and are left out of the others'
  contributions; both copies of a repeated point contribute 0).
* `igd`, `igd_plus`, `epsilon_additive`: moocore's, with the reference set as `ref`; checked
  against the formulas evaluated directly with NumPy (means over the reference set; for ε⁺, the
  largest over the reference points of the smallest over the points of the largest difference).
* `non_dominated`: `moocore.is_nondominated(points, keep_weakly=True)` (every copy of a
  non-dominated point kept); `pareto_rank`: `moocore.pareto_rank(points)`.

`lattices` holds two large fronts built without random numbers: the points i/k with integer
coordinates summing to k, in 2 objectives (k = 9999, 10⁴ points) and 3 (k = 139, 9870 points),
with moocore's hypervolume below the reference point (1.1, 1.2[, 1.3]); the test builds the
same points and also checks the exact value, Πr − C(k + m − 1, m)/kᵐ.
"""

import json
import math
import sys

import moocore
import numpy as np
import pymoo
from pymoo.indicators.hv import HV

SEED = 20240917
REFERENCE = 1.1


def base(rng, n, m, shape):
    """n points on the sphere's positive orthant or the simplex, in m objectives."""
    x = np.abs(rng.normal(size=(n, m))) + 1e-3
    if shape == "sphere":
        return x / np.linalg.norm(x, axis=1, keepdims=True)
    return x / x.sum(axis=1, keepdims=True)


def front(rng, n, m, shape):
    """A front with dominated points: three repeated rows, three rows worse than another one in
    every objective, three rows beyond the reference point in one objective."""
    points = base(rng, n - 9, m, shape) * rng.uniform(1.0, 1.25, size=(n - 9, 1))
    repeated = points[rng.choice(len(points), 3, replace=False)]
    worse = points[rng.choice(len(points), 3, replace=False)] + rng.uniform(0.01, 0.1, (3, m))
    beyond = base(rng, 3, m, shape)
    beyond[np.arange(3), rng.integers(0, m, 3)] = REFERENCE + rng.uniform(0.0, 0.2, 3)
    points = np.vstack([points, repeated, worse, beyond])
    return np.round(points[rng.permutation(n)], 6)


def grid_hypervolume(points, ref):
    """The hypervolume by the grid of the points' coordinates: a cell is dominated when a point
    is below its lower corner; marking each point's cell and taking running maxima along every
    axis marks them all."""
    points = points[np.all(points < ref, axis=1)]
    if len(points) == 0:
        return 0.0
    m = len(ref)
    axes = [np.unique(np.append(points[:, k], ref[k])) for k in range(m)]
    marked = np.zeros([len(a) - 1 for a in axes], dtype=bool)
    index = tuple(np.searchsorted(axes[k], points[:, k]) for k in range(m))
    marked[index] = True
    for k in range(m):
        marked = np.maximum.accumulate(marked, axis=k)
    volume = marked.astype(float)
    for k in reversed(range(m)):
        volume = volume @ np.diff(axes[k])
    return float(volume)


def direct_distances(points, reference_set):
    """IGD, IGD+ and ε⁺ straight from their formulas."""
    diff = points[None, :, :] - reference_set[:, None, :]  # reference point × point × objective
    igd = np.sqrt((diff**2).sum(axis=2)).min(axis=1).mean()
    igd_plus = np.sqrt((np.maximum(diff, 0.0) ** 2).sum(axis=2)).min(axis=1).mean()
    epsilon = diff.max(axis=2).min(axis=1).max()
    return igd, igd_plus, epsilon


def close(a, b):
    return abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))


def case(rng, m, shape):
    n = 50 if m <= 4 else 30
    points = front(rng, n, m, shape)
    reference_set = np.round(base(rng, 20, m, shape), 6)
    ref = np.full(m, REFERENCE)
    hv = float(moocore.hypervolume(points, ref=ref))
    hv_pymoo = float(HV(ref_point=ref)(points))
    if m <= 5:
        independent = grid_hypervolume(points, ref)
        assert close(hv, independent), (m, shape, hv, independent)
    igd = float(moocore.igd(points, ref=reference_set))
    igd_plus = float(moocore.igd_plus(points, ref=reference_set))
    epsilon = float(moocore.epsilon_additive(points, ref=reference_set))
    for value, direct in zip((igd, igd_plus, epsilon), direct_distances(points, reference_set)):
        assert close(value, direct), (m, shape, value, direct)
    non_dominated = moocore.is_nondominated(points, keep_weakly=True)
    return {
        "name": f"{shape}-m{m}",
        "m": m,
        "reference_point": ref.tolist(),
        "points": points.tolist(),
        "reference_set": reference_set.tolist(),
        "hypervolume": hv,
        "hypervolume_pymoo": hv_pymoo,
        "contributions": moocore.hv_contributions(points, ref=ref).tolist(),
        "igd": igd,
        "igd_plus": igd_plus,
        "epsilon_additive": epsilon,
        "non_dominated": non_dominated.tolist(),
        "pareto_rank": moocore.pareto_rank(points).tolist(),
    }


def lattice(k, m):
    """The points i/k, i integer, Σi = k, in m objectives, in lexicographic order."""
    rows = []

    def extend(prefix):
        if len(prefix) == m - 1:
            rows.append([*prefix, k - sum(prefix)])
            return
        for i in range(k - sum(prefix) + 1):
            extend([*prefix, i])

    extend([])
    return np.array(rows, dtype=float) / k


def lattices():
    out = []
    for k, m in ((9999, 2), (139, 3)):
        ref = np.array([1.1 + 0.1 * j for j in range(m)])
        hv = float(moocore.hypervolume(lattice(k, m), ref=ref))
        exact = float(np.prod(ref)) - math.comb(k + m - 1, m) / k**m
        assert close(hv, exact), (k, m, hv, exact)
        out.append({"m": m, "k": k, "reference_point": ref.tolist(), "hypervolume": hv})
    return out


def main():
    rng = np.random.default_rng(SEED)
    cases = [case(rng, m, shape) for m in range(2, 7) for shape in ("sphere", "simplex")]
    json.dump(
        {
            "generator": "benches/peers/pareto_reference.py",
            "seed": SEED,
            "numpy": np.__version__,
            "moocore": moocore.__version__,
            "pymoo": pymoo.__version__,
            "cases": cases,
            "lattices": lattices(),
        },
        sys.stdout,
        separators=(",", ":"),
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
