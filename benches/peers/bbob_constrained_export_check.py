"""Checks `bosweep export-coco`'s bbob-constrained data against COCO's own logger: replays the
points of every bbob-constrained run of a sweep through cocoex 2.8.2 with its
`bbob-constrained` observer (the constraints, then the objective, at each point, as COCO's
example experiment does), and compares the rows COCO's logger writes (its thinned `.dat` and
`.tdat`) with the export's rows at the same evaluation counts: the constraint evaluations, the
best `max(f, f_opt) + sum of positive constraints` less f_opt, and the single-digit constraint
values; and each trial's final entry of the `.info` index.

    bosweep sweep constrained.toml --out sweep --no-report
    bosweep export-coco sweep --out coco
    /tmp/coco-venv/bin/python benches/peers/bbob_constrained_export_check.py sweep coco

(a virtual environment with coco-experiment==2.8.2 and numpy, as for
bbob_constrained_reference.py). Prints the number of rows compared and the largest relative
difference, and exits 1 if any row differs by more than 1e-9 or a digit or count differs.
"""

import glob
import json
import os
import re
import sys
import tempfile

import numpy as np

import cocoex

SUITE = "bbob-constrained"


def read_blocks(path):
    """The blocks of a .dat or .tdat file, in order: {evaluations: (g evaluations, delta, digits)}."""
    blocks = []
    with open(path) as f:
        for line in f:
            if line.startswith("%"):
                blocks.append({})
            elif line.strip():
                cols = line.split()
                blocks[-1][int(cols[0])] = (int(cols[1]), float(cols[2]), cols[4])
    return blocks


def read_index(path):
    """The trials of an .info file's entries, in order: [(instance, evaluations, delta)]."""
    trials = []
    with open(path) as f:
        for line in f:
            if line.startswith("data_"):
                for entry in line.strip().split(", ")[1:]:
                    m = re.fullmatch(r"(\d+):(\d+)\|(\S+)", entry)
                    trials.append((int(m.group(1)), int(m.group(2)), float(m.group(3))))
    return trials


def replay(sweep, work):
    """Runs every bbob-constrained trace's points through cocoex's logger, one result folder per
    algorithm setting (the export's folder name, which the trace's file name holds)."""
    observers, folders = {}, {}
    for path in sorted(glob.glob(os.path.join(sweep, "runs", "*.jsonl"))):
        with open(path) as f:
            lines = f.read().splitlines()
        header = json.loads(lines[0])["header"]
        if header["problem"] != SUITE:
            continue
        setting = os.path.basename(path).split("-", 1)[1].split(f"-{SUITE}_")[0]
        if setting not in observers:
            observers[setting] = cocoex.Observer(SUITE, f"result_folder: {setting}")
            folders[setting] = os.path.join(work, "exdata", setting)
        p = header["problem_parameters"]
        suite = cocoex.Suite(SUITE, f"instances: {p['instance']}",
                             f"dimensions: {p['dim']} function_indices: {p['function']}")
        problem = next(iter(suite))
        problem.observe_with(observers[setting])
        for line in lines[1:]:
            x = np.array(json.loads(line)["x"])
            problem.constraint(x)
            problem(x)
        problem.free()
    return folders


def main(sweep, export):
    cocoex.log_level("error")
    sweep, export = os.path.abspath(sweep), os.path.abspath(os.path.join(export, SUITE))
    work = tempfile.mkdtemp(prefix="bbob_constrained_export_check_")
    os.chdir(work)
    rows, worst, where, mismatches = 0, 0.0, None, []

    def compare(what, theirs, ours):
        nonlocal rows, worst, where
        error = abs(ours - theirs) / max(abs(theirs), 1e-300)
        rows += 1
        if error >= worst:
            worst, where = error, (what, theirs, ours)

    for setting, coco in replay(sweep, work).items():
        for theirs_path in glob.glob(os.path.join(coco, "*", "*.*dat")):
            kind = os.path.splitext(theirs_path)[1]
            if kind not in (".dat", ".tdat"):
                continue
            name = os.path.join(os.path.basename(os.path.dirname(theirs_path)),
                                os.path.basename(theirs_path))
            ours = read_blocks(os.path.join(export, setting, name))
            theirs = read_blocks(theirs_path)
            assert len(ours) == len(theirs), (setting, name)
            for trial, (their_rows, our_rows) in enumerate(zip(theirs, ours)):
                for evals, (g, delta, digits) in their_rows.items():
                    what = (setting, name, trial, evals)
                    our_g, our_delta, our_digits = our_rows[evals]
                    compare(what, delta, our_delta)
                    # COCO's closing row prints the best value where the digits go.
                    if g != our_g or (digits.isdigit() and digits != our_digits):
                        mismatches.append((what, (g, digits), (our_g, our_digits)))
        for theirs_info in glob.glob(os.path.join(coco, "*.info")):
            ours = read_index(os.path.join(export, setting, os.path.basename(theirs_info)))
            theirs = read_index(theirs_info)
            assert len(ours) == len(theirs), (setting, theirs_info)
            for (instance, evals, delta), (our_instance, our_evals, our_delta) in zip(theirs, ours):
                if (instance, evals) != (our_instance, our_evals):
                    mismatches.append((theirs_info, (instance, evals), (our_instance, our_evals)))
                # Both are C's %.1e of the same number.
                if delta != our_delta:
                    mismatches.append((theirs_info, delta, our_delta))
    print(f"{rows} rows compared; largest relative difference {worst:.2e} at {where}")
    for mismatch in mismatches[:10]:
        print("differs:", mismatch)
    sys.exit(0 if rows > 0 and worst <= 1e-9 and not mismatches else 1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
