"""COCO's bbob-biobj suite at fixed points, with each problem's ideal and nadir points and the
best-known hypervolume COCO's logger measures against: the reference values
tests/library/bbob_biobj.rs holds (tests/library/data/bbob_biobj_reference.json) for bosweep's
`bbob-biobj` (`bosweep_problems::multi_objective::BbobBiobj`).

In a virtual environment with cocoex (COCO's experiment package, the C code compiled):

    python3 -m venv /tmp/biobj-venv
    /tmp/biobj-venv/bin/pip install coco-experiment==2.8.2 numpy
    /tmp/biobj-venv/bin/python benches/peers/bbob_biobj_reference.py > tests/library/data/bbob_biobj_reference.json

The cases: all 55 functions in dimension 2 at instances 1 and 15, and eleven functions spread
over the suite (both objectives alike, one alike, none alike; every one of the ten bbob functions
appears) in dimensions 3, 5, 10, 20 and 40 at instances 1, 7 and 12. Each case has three points (one in
dimensions 20 and 40, to keep the file small) drawn uniformly from [-5, 5]^d (where the two
optima lie) and one from COCO's box [-100, 100]^d,
rounded to 6 decimals so that the JSON's inputs are exactly the points evaluated, and records:

* `values`: cocoex's two objective values at each point;
* `nadir`: `largest_fvalues_of_interest`, COCO's nadir point (f_a at the optimum of f_b, f_b at
  the optimum of f_a);
* `ideal`: each underlying bbob problem (instances read from the problem's name) at its
  `_best_parameter`, i.e. the two optimal values; the script checks the nadir again from the
  same optima;
* `bbob_instances`: the two bbob instances COCO pairs;
* `best_hv`: the "reference value" COCO's bbob-biobj logger writes into each data file's header,
  the best-known hypervolume of the normalised problem (COCO's `suite_biobj_best_values_hyp.c`;
  1.0, a placeholder, for instances 11-15), obtained by observing one evaluation.

"""

import glob
import json
import os
import re
import sys
import tempfile

import numpy as np

import cocoex

SELECTED = [1, 2, 6, 8, 13, 14, 15, 17, 20, 21]
rng = np.random.default_rng(20220725)


def cases():
    """(function, dimension, instance) of every case, in the order recorded."""
    out = [(f, 2, i) for f in range(1, 56) for i in (1, 15)]
    spread = [1, 2, 5, 11, 20, 28, 34, 41, 46, 53, 55]
    out += [(f, d, i) for d in (3, 5, 10, 20, 40) for f in spread for i in (1, 7, 12)]
    return out


def bbob_problem(function, dimension, instance):
    suite = cocoex.Suite("bbob", f"instances: {instance}",
                         f"dimensions: {dimension} function_indices: {function}")
    return next(iter(suite)), suite


def best_parameter(problem):
    """The optimum COCO stores for a single-objective problem (`_best_parameter('print')` writes
    it to a file in the working directory)."""
    problem._best_parameter("print")
    with open("._bbob_problem_best_parameter.txt") as f:
        return np.array([float(v) for v in f.read().split()])


def reference_values(folder):
    """(function, dimension, instance) -> the logger's reference value, from every .dat header."""
    found = {}
    for path in glob.glob(os.path.join(folder, "**", "*_hyp.dat"), recursive=True):
        function, dimension = map(int, re.search(r"_f(\d+)_d(\d+)_hyp", path).groups())
        with open(path) as f:
            for line in f:
                m = re.match(r"% instance = (\d+), reference value = (\S+)", line)
                if m:
                    found[(function, dimension, int(m.group(1)))] = float(m.group(2))
    return found


def main():
    cocoex.log_level("error")  # its info lines go to stdout, where the JSON goes
    work = tempfile.mkdtemp(prefix="bbob_biobj_reference_")
    os.chdir(work)
    observer = cocoex.Observer("bbob-biobj", "result_folder: ref")
    records = []
    for function, dimension, instance in cases():
        suite = cocoex.Suite("bbob-biobj", f"instances: {instance}",
                             f"dimensions: {dimension} function_indices: {function}")
        problem = next(iter(suite))
        name = problem.name  # bbob_f001_i02_d02__bbob_f001_i04_d02
        (fa, ia), (fb, ib) = [(int(f), int(i)) for f, i in re.findall(r"bbob_f(\d+)_i(\d+)_d\d+", name)]
        a, suite_a = bbob_problem(fa, dimension, ia)
        b, suite_b = bbob_problem(fb, dimension, ib)
        xa, xb = best_parameter(a), best_parameter(b)
        ideal = [float(a(xa)), float(b(xb))]
        nadir = [float(v) for v in problem.largest_fvalues_of_interest]
        again = [float(a(xb)), float(b(xa))]
        assert np.allclose(again, nadir, rtol=1e-14, atol=0), (problem.id, again, nadir)
        inner = 3 if dimension <= 10 else 1
        x = np.vstack([rng.uniform(-5, 5, (inner, dimension)), rng.uniform(-100, 100, (1, dimension))])
        x = np.round(x, 6)
        assert list(problem.lower_bounds) == [-100.0] * dimension
        assert list(problem.upper_bounds) == [100.0] * dimension
        values = [[float(v) for v in problem(row)] for row in x]
        problem.observe_with(observer)
        problem(x[0])
        problem.free()
        records.append({
            "function": function,
            "dim": dimension,
            "instance": instance,
            "bbob_functions": [fa, fb],
            "bbob_instances": [ia, ib],
            "ideal": ideal,
            "nadir": nadir,
            "x": x.tolist(),
            "values": values,
        })
    del observer
    best = reference_values(os.path.join(work, "exdata", "ref"))
    for r in records:
        r["best_hv"] = best[(r["function"], r["dim"], r["instance"])]
    json.dump({
        "source": "cocoex " + cocoex.__version__ + ", suite bbob-biobj; benches/peers/bbob_biobj_reference.py",
        "cases": records,
    }, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
