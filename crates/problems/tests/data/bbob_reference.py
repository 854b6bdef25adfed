"""Reference values of COCO's bbob suite for bosweep's `bbob` problem family.

Prints the Rust table in crates/problems/src/bbob/reference.rs. Run with COCO's Python package:

    python3 -m venv /tmp/coco && /tmp/coco/bin/pip install coco-experiment==2.8.2
    /tmp/coco/bin/python crates/problems/tests/data/bbob_reference.py > crates/problems/src/bbob/reference.rs
    cargo fmt   # breaks the one row too long for a line

Each row: function, dimension, instance, f at the origin, f at the fixed point
(1, -2, 0.5, 3, -4, 2.5, -0.5, 4, -3, 1.5, repeated), and f_opt. cocoex's Python problem does not
expose f_opt; its bbob logger prints it (`Fopt (%.12e)`) in the header of every data file, which
is where the script reads it.
"""

import glob
import os
import re
import tempfile

import cocoex

PATTERN = [1.0, -2.0, 0.5, 3.0, -4.0, 2.5, -0.5, 4.0, -3.0, 1.5]

CASES = [(f, d, i) for f in range(1, 25) for d in (2, 5) for i in (1, 7)]
CASES += [(f, 10, 2) for f in range(1, 25)]
CASES += [(f, 20, 105) for f in (1, 7, 8, 9, 15, 19, 21, 24)]
CASES += [(f, 40, 3) for f in (2, 10, 12, 16, 20, 22, 23)]


def fixed_point(d):
    return [PATTERN[k % len(PATTERN)] for k in range(d)]


def logged_fopt(suite, f, d, i):
    """f_opt as cocoex's bbob logger writes it."""
    with tempfile.TemporaryDirectory() as tmp:
        observer = cocoex.Observer("bbob", f"result_folder: {tmp}/probe")
        p = suite.get_problem_by_function_dimension_instance(f, d, i)
        p.observe_with(observer)
        p([0.0] * d)
        p.free()
        del observer
        (header,) = {open(path).readline() for path in glob.glob(f"exdata/{tmp}/probe*/data_f*/*.tdat")}
    return float(re.search(r"Fopt \(([^)]*)\)", header).group(1))


def main():
    cocoex.log_level("warning")
    os.chdir(tempfile.mkdtemp())
    suite = cocoex.Suite("bbob", "instances: 1-110", "")
    print(f"//! Reference values from cocoex {cocoex.__version__} (COCO's Python package), printed by")
    print("//! `crates/problems/tests/data/bbob_reference.py`; see that script for what each column is.")
    print()
    print("/// (function, dimension, instance, f(0), f(fixed point), f_opt).")
    print("pub(super) const REFERENCE: &[(usize, usize, usize, f64, f64, f64)] = &[")
    for f, d, i in CASES:
        p = suite.get_problem_by_function_dimension_instance(f, d, i)
        origin = [0.0] * d
        at_origin = float(p(origin))
        at_point = float(p(fixed_point(d)))
        fopt = logged_fopt(suite, f, d, i)
        print(f"    ({f}, {d}, {i}, {at_origin!r}, {at_point!r}, {fopt!r}),")
        p.free()
    print("];")


main()
