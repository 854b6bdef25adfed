"""COCO's measures as COCO computes them, against bosweep's: reads a bbob sweep's report tables
(`ert.csv`, `runtimes.csv`) and the same sweep exported by `bosweep export-coco`, loads the
export with cocopp, and checks that every expected running time and every run's runtime to
every target of the runtime distribution are cocopp's. Exits 1 naming each difference.

    python coco_measures.py SWEEP_DIR COCO_EXPORT_DIR

The sweep must run one instance per (function, dimension) so that cocopp's trials of a
(function, dimension), over which it computes an ERT, are the runs of one bosweep problem.
"""

import csv
import math
import re
import sys
from collections import defaultdict
from pathlib import Path

import cocopp

PROBLEM = re.compile(r"dim=(\d+).*function=(\d+)")


def problem_key(label):
    """(function, dimension) of a bbob problem's label, e.g. `bbob[dim=2,function=8,…]`."""
    match = PROBLEM.search(label)
    if match is None:
        sys.exit(f"coco_measures.py: {label!r} is not a bbob problem label")
    return int(match.group(2)), int(match.group(1))


def number(cell):
    """A CSV cell as a float, None where empty (never reached, or infinite)."""
    return float(cell) if cell else None


def bosweep_tables(sweep):
    """bosweep's ERTs {(alg, f, d, target): ert} and runtimes {(alg, f, d, target): [runs]}."""
    erts = {}
    with open(sweep / "ert.csv", newline="") as table:
        for row in csv.DictReader(table):
            f, d = problem_key(row["problem"])
            erts[(row["algorithm"], f, d, float(row["target"]))] = number(row["ert"])
    runtimes = defaultdict(list)
    with open(sweep / "runtimes.csv", newline="") as table:
        for row in csv.DictReader(table):
            f, d = problem_key(row["problem"])
            key = (row["algorithm"], f, d, float(row["target"]))
            runtimes[key].append(number(row["runtime"]))
    return erts, runtimes


def cocopp_tables(export, ert_targets, runtime_targets):
    """cocopp's ERTs and runtimes of every algorithm folder of `export`, keyed as bosweep's."""
    erts, runtimes = {}, {}
    for folder in sorted(p for p in export.iterdir() if p.is_dir()):
        for ds in cocopp.load(str(folder)):
            f, d = ds.funcId, ds.dim
            for target, ert in zip(ert_targets, ds.detERT(ert_targets)):
                erts[(folder.name, f, d, target)] = None if math.isinf(ert) else float(ert)
            for target, evals in zip(runtime_targets, ds.detEvals(runtime_targets)):
                runtimes[(folder.name, f, d, target)] = [
                    None if math.isnan(e) else float(e) for e in evals
                ]
    return erts, runtimes


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def by_value(runs):
    """Runtimes as a sorted list, runs that never reached the target last."""
    return sorted(runs, key=lambda r: (r is None, r or 0.0))


def main():
    sweep, export = Path(sys.argv[1]), Path(sys.argv[2])
    ours_ert, ours_runtimes = bosweep_tables(sweep)
    ert_targets = sorted({key[3] for key in ours_ert}, reverse=True)
    runtime_targets = sorted({key[3] for key in ours_runtimes}, reverse=True)
    theirs_ert, theirs_runtimes = cocopp_tables(export, ert_targets, runtime_targets)
    differences = []
    for key, ert in sorted(ours_ert.items()):
        if key not in theirs_ert:
            differences.append(f"ERT {key}: not in cocopp's data")
        elif not close(ert, theirs_ert[key]):
            differences.append(f"ERT {key}: bosweep {ert}, cocopp {theirs_ert[key]}")
    for key, runs in sorted(ours_runtimes.items()):
        theirs = theirs_runtimes.get(key)
        if theirs is None:
            differences.append(f"runtimes {key}: not in cocopp's data")
        elif len(theirs) != len(runs) or not all(
            close(a, b) for a, b in zip(by_value(runs), by_value(theirs))
        ):
            differences.append(f"runtimes {key}: bosweep {by_value(runs)}, cocopp {by_value(theirs)}")
    if len(ours_ert) != len(theirs_ert) or len(ours_runtimes) != len(theirs_runtimes):
        differences.append(
            f"cocopp holds {len(theirs_ert)} ERTs and {len(theirs_runtimes)} runtime lists, "
            f"bosweep {len(ours_ert)} and {len(ours_runtimes)}"
        )
    if differences:
        print(f"{len(differences)} of bosweep's COCO measures differ from cocopp's:")
        for line in differences[:50]:
            print("  " + line)
        sys.exit(1)
    runs = sum(len(r) for r in ours_runtimes.values())
    print(
        f"bosweep's {len(ours_ert)} ERTs and {runs} runtimes (run × target) equal cocopp's "
        f"{cocopp.__version__}"
    )


if __name__ == "__main__":
    main()
