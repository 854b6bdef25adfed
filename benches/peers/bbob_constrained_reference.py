"""COCO's bbob-constrained suite at fixed points, with each problem's optimum: the reference
values tests/library/bbob_constrained.rs holds (tests/library/data/bbob_constrained_reference.json)
for bosweep's `bbob-constrained` (`bosweep_problems::constrained::BbobConstrained`).

In a virtual environment with cocoex (COCO's experiment package, the C code compiled):

    python3 -m venv /tmp/coco-venv
    /tmp/coco-venv/bin/pip install coco-experiment==2.8.2 numpy
    /tmp/coco-venv/bin/python benches/peers/bbob_constrained_reference.py > tests/library/data/bbob_constrained_reference.json

The cases: all 54 functions in dimension 2 at instances 1 and 15, and eleven functions spread
over the suite (every one of the nine objectives, every one of the six numbers of constraints) in
dimensions 3 and 5 at instances 1 and 6, in dimension 10 at instances 1 and 15, in dimension 20
at instance 12 and in dimension 40 at instance 1. Which active constraint COCO builds from the
objective's gradient depends on the instance (constraint i, from 1, where the number of active
constraints divides i - 1 + instance), so these instances put it first and elsewhere. Each case
has four points (three in dimensions 20 and 40, to keep the file small): COCO's initial
solution, points near the optimum (at distance about 10^-3 and 0.1, only the latter from
dimension 20) and a point drawn uniformly from [-5, 5]^d, all clipped to the box and rounded to
6 decimals so that the JSON's inputs are exactly the points evaluated. It records:

* `objective` and `constraints`: cocoex's `problem(x)` and `problem.constraint(x)` at each point
  (COCO's constraints are feasible where <= 0, as bosweep's);
* `constraints_count`: `problem.number_of_constraints`;
* `xopt`: the optimum COCO stores, `_best_parameter('print')` (written to a file with 16
  decimals), and `optimum`: `problem(xopt)`, COCO's best value at that point.
"""

import json
import os
import sys
import tempfile

import numpy as np

import cocoex

rng = np.random.default_rng(20240531)

SPREAD = [1, 8, 15, 22, 29, 36, 40, 44, 48, 51, 54]


def cases():
    """(function, dimension, instance) of every case, in the order recorded."""
    out = [(f, 2, i) for f in range(1, 55) for i in (1, 15)]
    out += [(f, d, i) for d in (3, 5) for f in SPREAD for i in (1, 6)]
    out += [(f, 10, i) for f in SPREAD for i in (1, 15)]
    out += [(f, 20, 12) for f in SPREAD] + [(f, 40, 1) for f in SPREAD]
    return out


def best_parameter(problem):
    """The optimum COCO stores (`_best_parameter('print')` writes it to a file in the working
    directory)."""
    problem._best_parameter("print")
    with open("._bbob_problem_best_parameter.txt") as f:
        return np.array([float(v) for v in f.read().split()])


def points(problem, xopt):
    """The initial solution, points near the optimum and a uniform point, rounded."""
    d = problem.dimension
    scales = (1e-3, 0.1) if d < 20 else (0.1,)
    rows = [problem.initial_solution]
    rows += [xopt + rng.normal(0, scale, d) / np.sqrt(d) for scale in scales]
    rows += [rng.uniform(-5, 5, d)]
    return np.round(np.clip(np.array(rows), -5, 5), 6)


def main():
    cocoex.log_level("error")  # its info lines go to stdout, where the JSON goes
    os.chdir(tempfile.mkdtemp(prefix="bbob_constrained_reference_"))
    suite = cocoex.Suite("bbob-constrained", "", "")
    records = []
    for function, dimension, instance in cases():
        problem = suite.get_problem_by_function_dimension_instance(function, dimension, instance)
        assert list(problem.lower_bounds) == [-5.0] * dimension
        assert list(problem.upper_bounds) == [5.0] * dimension
        xopt = best_parameter(problem)
        x = points(problem, xopt)
        records.append({
            "function": function,
            "dim": dimension,
            "instance": instance,
            "constraints_count": int(problem.number_of_constraints),
            "xopt": xopt.tolist(),
            "optimum": float(problem(xopt)),
            "x": x.tolist(),
            "objective": [float(problem(row)) for row in x],
            "constraints": [[float(v) for v in problem.constraint(row)] for row in x],
        })
        problem.free()
    json.dump({
        "source": "cocoex " + cocoex.__version__ + ", suite bbob-constrained; benches/peers/bbob_constrained_reference.py",
        "cases": records,
    }, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
