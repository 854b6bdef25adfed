"""Checks `bosweep export-coco`'s bbob-biobj data against COCO's own logger: replays the points
of every bbob-biobj run of a sweep through cocoex 2.8.2 with its `bbob-biobj` observer, and
compares the indicator values COCO's logger writes (its thinned `.dat` and `.tdat` rows, and the
reference values of their headers) with those of the export, row by row.

    bosweep sweep biobj.toml --out sweep --no-report
    bosweep export-coco sweep --out coco
    /tmp/biobj-venv/bin/python benches/peers/bbob_biobj_export_check.py sweep coco

(a virtual environment with coco-experiment==2.8.2 and numpy, as for
bbob_biobj_reference.py). Prints the number of rows compared and the largest relative
difference, and exits 1 if that exceeds 1e-9 (COCO rounds normalised objectives to 5e-13 before
its hypervolume; bosweep does not).
"""

import glob
import json
import os
import re
import sys
import tempfile

import numpy as np

import cocoex


def read_blocks(path):
    """{instance: (reference value, {evaluations: indicator})} of a .dat or .tdat file."""
    blocks, current = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"% instance = (\d+), reference value = (\S+)", line)
            if m:
                current = int(m.group(1))
                blocks[current] = (float(m.group(2)), {})
            elif line.strip() and not line.startswith("%"):
                evals, value = line.split()[:2]
                blocks[current][1][int(evals)] = float(value)
    return blocks


def replay(sweep, algorithm, work):
    """Runs the algorithm's bbob-biobj points through cocoex's logger under `work`."""
    observer = cocoex.Observer("bbob-biobj", f"result_folder: {algorithm}")
    for path in sorted(glob.glob(os.path.join(sweep, "runs", "*.jsonl"))):
        with open(path) as f:
            lines = f.read().splitlines()
        header = json.loads(lines[0])["header"]
        if header["problem"] != "bbob-biobj" or header["algorithm"] != algorithm:
            continue
        p = header["problem_parameters"]
        suite = cocoex.Suite("bbob-biobj", f"instances: {p['instance']}",
                             f"dimensions: {p['dim']} function_indices: {p['function']}")
        problem = next(iter(suite))
        problem.observe_with(observer)
        for line in lines[1:]:
            problem(np.array(json.loads(line)["x"]))
        problem.free()
    return os.path.join(work, "exdata", algorithm)


def main(sweep, export):
    cocoex.log_level("error")
    sweep, export = os.path.abspath(sweep), os.path.abspath(os.path.join(export, "bbob-biobj"))
    work = tempfile.mkdtemp(prefix="bbob_biobj_export_check_")
    os.chdir(work)
    rows, worst, where = 0, 0.0, None
    for algorithm in sorted(os.listdir(export)):
        coco = replay(sweep, algorithm, work)
        for kind in ("dat", "tdat"):
            for theirs_path in glob.glob(os.path.join(coco, "*", f"*_hyp.{kind}")):
                name = os.path.basename(theirs_path)
                ours = read_blocks(os.path.join(export, algorithm, "data", name))
                for instance, (reference, values) in read_blocks(theirs_path).items():
                    assert ours[instance][0] == reference, (algorithm, name, instance)
                    for evals, value in values.items():
                        got = ours[instance][1][evals]
                        error = abs(got - value) / abs(value)
                        rows += 1
                        if error >= worst:
                            worst, where = error, (algorithm, name, instance, evals, value, got)
    print(f"{rows} rows compared; largest relative difference {worst:.2e} at {where}")
    sys.exit(0 if rows > 0 and worst <= 1e-9 else 1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
