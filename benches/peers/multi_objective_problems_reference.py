"""BoTorch's multi-objective test functions at fixed points, with the reference points and
maximal hypervolumes BoTorch publishes: the reference values tests/library/multi_objective_problems.rs
holds (tests/library/data/multi_objective_problems.json) for bosweep's
`bosweep_problems::multi_objective`.

In a virtual environment with torch and botorch==0.18.1 (scipy and numpy come with them):

    pip install torch==2.15.0 botorch==0.18.1
    python benches/peers/multi_objective_problems_reference.py > tests/library/data/multi_objective_problems.json

For every function, and for the scalable ones a few (dimension, objectives) choices, the script
draws ten points uniformly from BoTorch's bounds (a fixed seed), adds the box's two corners and,
for ZDT and DTLZ, a point of the Pareto set, rounds every coordinate to 6 decimals (so that the
JSON's inputs are exactly the points evaluated) and records BoTorch's float64 values
(`evaluate_true`, `negate=False`: the standard minimised forms), its bounds, `ref_point` and
`max_hv` (null where BoTorch gives none).

Three departures of BoTorch 0.18.1 from the functions' papers are corrected here, and bosweep
follows the papers; each case concerned says so in its `note`, and the script fails if BoTorch
stops departing (so that a fixed BoTorch is noticed):

* ZDT3: BoTorch's second objective is h = 1 - sqrt(f1/g) - (f1/g) sin(10 pi f1), without the
  paper's factor g (Zitzler, Deb and Thiele 2000; pymoo has it). The values recorded are g times
  BoTorch's, with BoTorch's own g (`ZDT._g`); the two agree on the Pareto set (g = 1).
* DTLZ4: BoTorch declares alpha = 100 but evaluates DTLZ2's formula unchanged. The values
  recorded are BoTorch's DTLZ2 at the point whose position variables are raised to the power
  alpha, which is the paper's DTLZ4 (Deb et al. 2002; pymoo's too).
* DTLZ1's maximal hypervolume: BoTorch's `_max_hv` is ref^m - (1/2)^m, but the region the front
  does not dominate is the simplex sum f_i < 1/2, of volume (1/2)^m / m!. The `max_hv` recorded
  is ref^m - (1/2)^m / m!, BoTorch's formula under `botorch_max_hv`.

multi_objective_problems_pymoo.py checks the ZDT and DTLZ values recorded against pymoo's, an
implementation independent of BoTorch.
"""

import json
import math

import numpy as np
import torch
from botorch.test_functions import multi_objective as mo

import botorch

torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(20000601)
RANDOM_POINTS = 10


def points(problem, pareto_at=None):
    """Ten uniform points of the box, its two corners and (where `pareto_at` is given: the
    distance variables' value on the Pareto set) a Pareto-optimal point, rounded to 6 decimals."""
    lower, upper = problem.bounds.numpy()
    x = lower + (upper - lower) * rng.random((RANDOM_POINTS, len(lower)))
    rows = [*x, lower, upper]
    if pareto_at is not None:
        # The first m - 1 variables place the point along the front (ZDT's one, DTLZ's m - 1).
        on_set = rng.random(len(lower))
        on_set[problem.num_objectives - 1 :] = pareto_at
        rows.append(on_set)
    x = np.round(np.array(rows), 6)
    assert (x >= lower).all() and (x <= upper).all()
    return torch.tensor(x)


def max_hv(problem):
    try:
        return problem.max_hv
    except NotImplementedError:
        return None


def case(name, problem, x, values, note=None, **extra):
    lower, upper = problem.bounds.tolist()
    entry = {
        "function": name,
        "dim": problem.dim,
        "objectives": problem.num_objectives,
        "lower": lower,
        "upper": upper,
        "reference_point": problem.ref_point.tolist(),
        "max_hv": max_hv(problem),
        "x": x.tolist(),
        "values": values.tolist(),
    }
    entry.update(extra)
    if note is not None:
        entry["note"] = note
    return entry


def as_botorch(name, problem, pareto_at=None):
    x = points(problem, pareto_at)
    return case(name, problem, x, problem.evaluate_true(x))


def zdt3(dim):
    problem = mo.ZDT3(dim=dim)
    x = points(problem, pareto_at=0.0)
    botorch_values = problem.evaluate_true(x)
    g = problem._g(x)
    values = botorch_values.clone()
    values[:, 1] = g * botorch_values[:, 1]
    # BoTorch's second objective is h itself: it differs from g h wherever g != 1.
    off_set = g != 1
    assert off_set.any() and not torch.allclose(values[off_set, 1], botorch_values[off_set, 1])
    return case(
        "ZDT3",
        problem,
        x,
        values,
        note="f2 = g h as in Zitzler, Deb and Thiele (2000) and pymoo; BoTorch 0.18.1 returns h",
    )


def dtlz4(dim, m):
    problem = mo.DTLZ4(dim=dim, num_objectives=m)
    dtlz2 = mo.DTLZ2(dim=dim, num_objectives=m)
    x = points(problem, pareto_at=0.5)
    # BoTorch's DTLZ4 is DTLZ2: alpha is declared and never used.
    assert torch.equal(problem.evaluate_true(x), dtlz2.evaluate_true(x))
    powered = x.clone()
    powered[:, : m - 1] = x[:, : m - 1].pow(problem._alpha)
    return case(
        "DTLZ4",
        problem,
        x,
        dtlz2.evaluate_true(powered),
        note="the paper's DTLZ4 (position variables to the power alpha = 100), computed as "
        "BoTorch's DTLZ2 at the powered point; BoTorch 0.18.1's DTLZ4 is DTLZ2 unchanged",
    )


def dtlz1(dim, m):
    problem = mo.DTLZ1(dim=dim, num_objectives=m)
    entry = as_botorch("DTLZ1", problem, pareto_at=0.5)
    published = problem.max_hv
    exact = problem._ref_val**m - 0.5**m / math.factorial(m)
    # The two differ by the simplex's volume without and with its 1/m! (to the rounding of ref^m).
    shortfall = 0.5**m * (1 - 1 / math.factorial(m))
    rounding = 2 * math.ulp(problem._ref_val**m)
    assert math.isclose(exact - published, shortfall, abs_tol=rounding), (exact, published)
    entry["botorch_max_hv"] = published
    entry["max_hv"] = exact
    entry["note"] = (
        "max_hv = ref^m - (1/2)^m / m!, the reference box less the simplex below the front; "
        "BoTorch 0.18.1's _max_hv leaves out the 1/m!"
    )
    return entry


cases = [as_botorch("BraninCurrin", mo.BraninCurrin())]
for dim in (4, 30):
    cases.append(as_botorch("ZDT1", mo.ZDT1(dim=dim), pareto_at=0.0))
    cases.append(as_botorch("ZDT2", mo.ZDT2(dim=dim), pareto_at=0.0))
    cases.append(zdt3(dim))
for dim, m in ((3, 2), (6, 3), (7, 4)):
    cases.append(dtlz1(dim, m))
    cases.append(as_botorch("DTLZ2", mo.DTLZ2(dim=dim, num_objectives=m), pareto_at=0.5))
    if m > 2:
        cases.append(as_botorch("DTLZ3", mo.DTLZ3(dim=dim, num_objectives=m), pareto_at=0.5))
        cases.append(dtlz4(dim, m))
        cases.append(as_botorch("DTLZ5", mo.DTLZ5(dim=dim, num_objectives=m), pareto_at=0.5))
        cases.append(as_botorch("DTLZ7", mo.DTLZ7(dim=dim, num_objectives=m), pareto_at=0.0))
cases.append(as_botorch("VehicleSafety", mo.VehicleSafety()))
cases.append(as_botorch("CarSideImpact", mo.CarSideImpact()))

print(
    json.dumps(
        {
            "botorch": botorch.__version__,
            "torch": torch.__version__,
            "cases": cases,
        },
        indent=None,
    )
)
