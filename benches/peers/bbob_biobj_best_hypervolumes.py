"""Extracts COCO's best-known hypervolumes of the bbob-biobj suite from COCO's C source into the
table bosweep's `bbob-biobj` reads
(crates/problems/src/multi_objective/bbob_biobj/best_hypervolumes.txt).

COCO keeps them in `code-experiments/src/suite_biobj_best_values_hyp.c` (numbbo/coco; `src/` of
numbbo/coco-experiment), one string `"bbob-biobj_fFF_iII_dDD value"` per problem: the hypervolume
of the best front known for the problem normalised so that its ideal point is (0, 0) and its nadir
point (1, 1), measured from the nadir. Only instances 1-10 have values; those of instances 11-15
are 1.0, a placeholder (the file says so), and are left out here, as are the bbob-biobj-ext
functions 56-92.

    python3 benches/peers/bbob_biobj_best_hypervolumes.py path/to/suite_biobj_best_values_hyp.c \
        > crates/problems/src/multi_objective/bbob_biobj/best_hypervolumes.txt

Each line of the table is `function instance` and the six values in dimensions 2, 3, 5, 10, 20
and 40, written as COCO's file writes them.
"""

import re
import sys

DIMENSIONS = [2, 3, 5, 10, 20, 40]


def main(path):
    values = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*"bbob-biobj_f(\d+)_i(\d+)_d(\d+) (\S+)"', line)
            if m:
                function, instance, dim = map(int, m.groups()[:3])
                values[(function, instance, dim)] = m.group(4)
    print("# COCO's best-known hypervolumes of bbob-biobj in normalised objective space (ideal (0, 0),")
    print("# nadir (1, 1) and reference point), from suite_biobj_best_values_hyp.c;")
    print("# written by benches/peers/bbob_biobj_best_hypervolumes.py.")
    print("# function instance d=2 d=3 d=5 d=10 d=20 d=40")
    for function in range(1, 56):
        for instance in range(1, 11):
            row = [values[(function, instance, d)] for d in DIMENSIONS]
            assert all(float(v) < 1.0 for v in row), (function, instance, row)
            print(function, instance, *row)


if __name__ == "__main__":
    main(sys.argv[1])
