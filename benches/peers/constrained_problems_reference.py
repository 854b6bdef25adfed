"""BoTorch's constrained test problems at fixed points, with the optimal values, reference points
and maximal hypervolumes BoTorch states: the reference values that
crates/problems/src/constrained/tests.rs holds (tests/library/data/constrained_problems_botorch.json)
for bosweep's `bosweep_problems::constrained`.

In a virtual environment with torch and botorch==0.18.1 (scipy and numpy come with them):

    pip install torch botorch==0.18.1
    python benches/peers/constrained_problems_reference.py > tests/library/data/constrained_problems_botorch.json

For every problem (and Keane's bump at d = 2, 5, 10, C2-DTLZ2 at m = 2, 3) the script draws five
points uniformly from BoTorch's bounds (a fixed seed), rounded to 6 decimals, adds the optimiser
bosweep declares where it declares one (exactly as bosweep's code writes it), and records
BoTorch's float64 objective values (`evaluate_true`, `negate=False`) and constraint values in
bosweep's form, feasible where <= 0 (BoTorch's `evaluate_slack_true` negated), with BoTorch's
stated optimal value (`optimal_value`, `optimal_value_decimals`: the digits BoTorch gives),
`ref_point` and `max_hv` (null where BoTorch gives none).

Departures of BoTorch 0.18.1 from the problems' sources that bosweep corrects; each case
concerned says so in its `note`, and the script fails if BoTorch stops departing:

* WeldedBeamSO: the buckling load P_c multiplies by 6 where Coello Coello (2002) divides
  (sqrt(x3^2 x4^6 / 36) = x3 x4^3 / 6). The sixth constraint recorded uses the paper's P_c.
* SRN: BoTorch's f1 is 2 + sum (x_i - 2)^2 and its first constraint sum x_i^4 <= 225; Srinivas
  and Deb (1994) have 2 + (x1 - 2)^2 + (x2 - 1)^2 and x1^2 + x2^2 <= 225. Recorded: the paper's.
* WeldedBeam (multi-objective): BoTorch returns pymoo's constraint values (<= 0 where feasible)
  as its slack (>= 0 where feasible). Recorded: BoTorch's slack unnegated, i.e. pymoo's values.
* C2DTLZ2: BoTorch subtracts r^2 once per term of each sum (its caps have radii sqrt(m) r and
  sqrt(m - 1) r) and takes r = 0.2 for every m; Jain and Deb (2014) and pymoo subtract it once,
  with r = 0.2, 0.4, 0.5 for m = 2, 3, more. Recorded: the paper's constraint. Its max_hv: the
  exact two-objective value of the paper's caps (the feasible front is three arcs of the unit
  circle), BoTorch's NSGA-II estimate (of its own caps, declared for every m) under
  `botorch_max_hv`; null for m = 3.
* BNH's and SRN's reference points: BoTorch's (0, 0) is a placeholder (its TODO) that no point
  dominates, so every hypervolume from it is 0. Recorded: bosweep's, the true front's nadir plus
  a tenth of its range (BoTorch's `infer_reference_point` rule) rounded up to two significant
  digits: BNH (150, 55) from nadir (136, 50) and ideal (0, 4); SRN (250, 25) from nadir
  (223.8, 2.39) and ideal (10.1, -217.7), measured on a 2000 x 2000 grid of feasible points.

Where BoTorch's optimal value is a value a method found rather than the optimum (PressureVessel,
WeldedBeamSO, TensionCompressionString), bosweep declares a feasible point below it; the test
checks the point's BoTorch values (feasible, the declared value) and that it is below BoTorch's.
"""

import json
import math
import warnings

import numpy as np
import torch
from botorch.test_functions import multi_objective as mo
from botorch.test_functions import synthetic as syn

import botorch

warnings.filterwarnings("ignore")
torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(20240611)
RANDOM_POINTS = 5

# The optimisers bosweep declares (crates/problems/src/constrained/*.rs), digit for digit.
HARTMANN6 = [
    0.2016895110067054,
    0.15001069182345797,
    0.476873974221897,
    0.2753324304940561,
    0.31165161660011324,
    0.6573005340656203,
]
OPTIMISERS = {
    "constrained-gramacy": [0.1954, 0.4044],
    "constrained-hartmann": HARTMANN6,
    "constrained-hartmann-smooth": HARTMANN6,
    "pressure-vessel": [0.8125, 0.4375, 42.0984455958545, 176.6365958424464],
    "welded-beam": [0.20572963978598463, 3.4704886656303477, 9.03662391035797, 0.20572963978608463],
    "tension-compression-string": [0.051689057241355335, 0.3567176473848299, 11.288971169623531],
    "speed-reducer": [3.5, 0.7, 17.0, 7.3, 7.8, 3.3502146660964804, 5.286683229757968],
    "keane-bump": [1.6008604339192454, 0.4684980552388622],
}


def uniform_points(problem):
    lower, upper = problem.bounds.numpy()
    x = np.round(lower + (upper - lower) * rng.random((RANDOM_POINTS, len(lower))), 6)
    assert (x >= lower).all() and (x <= upper).all()
    return [list(map(float, row)) for row in x]


def decimals(value):
    text = repr(float(value))
    return len(text.split(".")[1]) if "." in text and "e" not in text else 0


def c2dtlz2_max_hv(r, reference):
    """The hypervolume of the paper's two-objective C2DTLZ2 front: arcs of the unit circle within
    chord r of each corner and of the centre (2 - 2 cos(delta) <= r^2)."""
    area_to = lambda x: (x * math.sqrt(max(0.0, 1 - x * x)) + math.asin(x)) / 2
    corner = centre = math.acos(1 - r * r / 2)
    arcs = [
        (0.0, math.sin(corner)),
        (math.cos(math.pi / 4 + centre), math.cos(math.pi / 4 - centre)),
        (math.cos(corner), 1.0),
    ]
    under = 0.0
    for k, (a, b) in enumerate(arcs):
        under += area_to(b) - area_to(a)
        if k + 1 < len(arcs):
            under += (arcs[k + 1][0] - b) * math.sqrt(1 - b * b)
    return reference * reference - under


cases = []


def case(name, problem, params=None, optimiser=None, objectives=None, constraints=None, note=None, **extra):
    x = uniform_points(problem)
    optimum_index = None
    if optimiser is not None:
        optimum_index = len(x)
        x.append(optimiser)
    X = torch.tensor(x)
    y = problem.evaluate_true(X)
    y = (y.unsqueeze(-1) if y.ndim == 1 else y).tolist()
    c = (-problem.evaluate_slack_true(X)).tolist()
    if objectives is not None:
        y = objectives(X)
    if constraints is not None:
        c = constraints(X)
    entry = {
        "name": name,
        "params": params or {},
        "botorch_class": type(problem).__name__,
        "lower": problem.bounds[0].tolist(),
        "upper": problem.bounds[1].tolist(),
        "x": x,
        "objectives": y,
        "constraints": c,
        "optimum_index": optimum_index,
    }
    try:
        value = problem.optimal_value
        entry["optimal_value"] = value
        entry["optimal_value_decimals"] = decimals(value)
    except (AttributeError, NotImplementedError):
        entry["optimal_value"] = None
    if hasattr(problem, "_ref_point"):
        entry["reference_point"] = problem.ref_point.tolist()
        try:
            entry["max_hv"] = problem.max_hv
        except NotImplementedError:
            entry["max_hv"] = None
    entry.update(extra)
    if note:
        entry["note"] = note
    cases.append(entry)


# ----- single objective -----
case("constrained-gramacy", syn.ConstrainedGramacy(), optimiser=OPTIMISERS["constrained-gramacy"])
case("constrained-hartmann", syn.ConstrainedHartmann(), optimiser=HARTMANN6)
case("constrained-hartmann-smooth", syn.ConstrainedHartmannSmooth(), optimiser=HARTMANN6)
case("pressure-vessel", syn.PressureVessel(), optimiser=OPTIMISERS["pressure-vessel"],
     note="BoTorch's optimal value is Coello Coello's best found; bosweep's optimum lies below it")

E, G, L, P = 30e6, 12e6, 14.0, 6000.0


def welded_beam_constraints(X):
    c = -syn.WeldedBeamSO().evaluate_slack_true(X)
    x3, x4 = X[..., 2], X[..., 3]
    paper = 4.013 * E * x3 * x4.pow(3) / 6 / L**2 * (1 - 0.25 * x3 * math.sqrt(E / G) / L)
    assert torch.allclose(P - c[..., 5], 36 * paper), "BoTorch's buckling load changed"
    c[..., 5] = P - paper
    return c.tolist()


case("welded-beam", syn.WeldedBeamSO(), optimiser=OPTIMISERS["welded-beam"],
     constraints=welded_beam_constraints,
     note="the buckling constraint uses the paper's P_c (BoTorch's is 36 times it); BoTorch's optimal "
          "value is Coello Coello's best found; bosweep's optimum lies below it")
case("tension-compression-string", syn.TensionCompressionString(),
     optimiser=OPTIMISERS["tension-compression-string"],
     note="BoTorch's optimal value is Coello Coello's best found; bosweep's optimum lies below it")
case("speed-reducer", syn.SpeedReducer(), optimiser=OPTIMISERS["speed-reducer"])
case("keane-bump", syn.KeaneBumpFunction(dim=2), params={"dim": 2}, optimiser=OPTIMISERS["keane-bump"])
for dim in (5, 10):
    case("keane-bump", syn.KeaneBumpFunction(dim=dim), params={"dim": dim})

# ----- multi-objective -----
case("bnh", mo.BNH(), reference_point=[150.0, 55.0],
     note="BoTorch's reference point (0, 0) is a placeholder (its TODO); bosweep's is recorded")


def srn_objectives(X):
    bt = mo.SRN().evaluate_true(X)
    x1, x2 = X[..., 0], X[..., 1]
    paper = torch.stack([2 + (x1 - 2).pow(2) + (x2 - 1).pow(2), 9 * x1 - (x2 - 1).pow(2)], -1)
    assert not torch.allclose(bt[..., 0], paper[..., 0]), "BoTorch's SRN f1 changed"
    return paper.tolist()


def srn_constraints(X):
    bt = -mo.SRN().evaluate_slack_true(X)
    x1, x2 = X[..., 0], X[..., 1]
    paper = torch.stack([x1.pow(2) + x2.pow(2) - 225, 10 + x1 - 3 * x2], -1)
    assert not torch.allclose(bt[..., 0], paper[..., 0]), "BoTorch's SRN constraint changed"
    assert torch.allclose(bt[..., 1], paper[..., 1])
    return paper.tolist()


case("srn", mo.SRN(), objectives=srn_objectives, constraints=srn_constraints,
     reference_point=[250.0, 25.0],
     note="the paper's f1 and first constraint (BoTorch: 2 + sum (x_i - 2)^2, sum x_i^4 <= 225); "
          "BoTorch's reference point (0, 0) is a placeholder; bosweep's is recorded")
case("constr", mo.CONSTR())
case("osy", mo.OSY())
def c2dtlz2_constraints(m):
    """Jain and Deb's constraint at the points X, feasible where <= 0, checked to differ from
    BoTorch's."""
    r = {2: 0.2, 3: 0.4}.get(m, 0.5)

    def constraints(X):
        problem = mo.C2DTLZ2(dim=12, num_objectives=m)
        f = problem.evaluate_true(X)
        corners = torch.stack(
            [(f[..., i] - 1).pow(2) + f.pow(2).sum(-1) - f[..., i].pow(2) - r * r for i in range(m)],
            -1,
        ).min(-1).values
        centre = (f - 1 / math.sqrt(m)).pow(2).sum(-1) - r * r
        paper = torch.minimum(corners, centre).unsqueeze(-1)
        assert not torch.allclose(paper, -problem.evaluate_slack_true(X)), "BoTorch's C2DTLZ2 changed"
        return paper.tolist()

    return constraints, r


for m in (2, 3):
    problem = mo.C2DTLZ2(dim=12, num_objectives=m)
    botorch_max_hv = problem.max_hv
    constraints, r = c2dtlz2_constraints(m)
    case("c2dtlz2", problem, params={"dim": 12, "objectives": m}, constraints=constraints,
         botorch_max_hv=botorch_max_hv,
         note="the paper's constraint (BoTorch's caps are wider); max_hv exact for m = 2 (BoTorch's "
              "is an NSGA-II estimate of its own caps), none for m = 3")
    cases[-1]["max_hv"] = c2dtlz2_max_hv(r, problem.ref_point[0].item()) if m == 2 else None
case("disc-brake", mo.DiscBrake())
case("welded-beam-mo", mo.WeldedBeam(),
     constraints=lambda X: mo.WeldedBeam().evaluate_slack_true(X).tolist(),
     note="constraints are BoTorch's slack unnegated (pymoo's values, <= 0 where feasible)")

print(json.dumps({"botorch": botorch.__version__, "torch": torch.__version__, "cases": cases}, indent=1))
