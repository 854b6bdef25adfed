"""Checks the ZDT and DTLZ reference values of tests/library/data/multi_objective_problems.json
(written by multi_objective_problems_reference.py with BoTorch) against pymoo's implementations,
which are independent of BoTorch's: in particular ZDT3 and DTLZ4, where the reference script
corrects BoTorch to the papers' definitions, which pymoo follows.

In a virtual environment with pymoo==0.6.2 (numpy comes with it; this needs no torch or BoTorch):

    pip install pymoo==0.6.2
    python benches/peers/multi_objective_problems_pymoo.py [tests/library/data/multi_objective_problems.json]

It prints the largest difference per case (relative to the value, or absolute for values below
1) and exits non-zero if one exceeds 1e-12.
Branin-Currin and VehicleSafety have no pymoo counterpart, and pymoo's `Carside` is the
three-objective version with ten constraints, not BoTorch's four-objective one: they are skipped.
"""

import json
import sys

import numpy as np
from pymoo.problems.many import dtlz
from pymoo.problems.multi import zdt

PYMOO = {
    "ZDT1": lambda d, m: zdt.ZDT1(n_var=d),
    "ZDT2": lambda d, m: zdt.ZDT2(n_var=d),
    "ZDT3": lambda d, m: zdt.ZDT3(n_var=d),
    "DTLZ1": lambda d, m: dtlz.DTLZ1(n_var=d, n_obj=m),
    "DTLZ2": lambda d, m: dtlz.DTLZ2(n_var=d, n_obj=m),
    "DTLZ3": lambda d, m: dtlz.DTLZ3(n_var=d, n_obj=m),
    "DTLZ4": lambda d, m: dtlz.DTLZ4(n_var=d, n_obj=m),
    "DTLZ5": lambda d, m: dtlz.DTLZ5(n_var=d, n_obj=m),
    "DTLZ7": lambda d, m: dtlz.DTLZ7(n_var=d, n_obj=m),
}
TOLERANCE = 1e-12

path = sys.argv[1] if len(sys.argv) > 1 else "tests/library/data/multi_objective_problems.json"
with open(path) as f:
    reference = json.load(f)

worst = 0.0
for case in reference["cases"]:
    name, d, m = case["function"], case["dim"], case["objectives"]
    if name not in PYMOO:
        print(f"{name:>13}  d={d:<3} m={m}  (no pymoo counterpart)")
        continue
    values = PYMOO[name](d, m).evaluate(np.array(case["x"]))
    want = np.array(case["values"])
    # Relative above 1, absolute below (DTLZ4's values reach 1e-170).
    error = np.max(np.abs(values - want) / np.maximum(np.abs(want), 1.0))
    worst = max(worst, error)
    print(f"{name:>13}  d={d:<3} m={m}  largest difference {error:.1e}")

print(f"worst: {worst:.1e} (tolerance {TOLERANCE:.0e})")
sys.exit(0 if worst <= TOLERANCE else 1)
