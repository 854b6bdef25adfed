"""NSGA-II's ranking and survival as pymoo computes them, for `nsga2`'s tests.

Random sets of 2 to 4 minimised objectives (fixed numpy seed, values rounded to 6 decimals so
that the JSON holds them exactly) with pymoo 0.6.2's non-dominated ranks, NSGA-II crowding
distances (pymoo's "cd" crowding, which divides Deb's sum by the number of objectives:
multiplied back here) and the survivors of its `RankAndCrowding` (sets whose cut
falls between equal crowding distances, where pymoo breaks ties at random, are skipped).

Run with a Python that has pymoo (`pip install pymoo==0.6.2`):

    python benches/peers/nsga2_survival_reference.py

It writes crates/algorithms/src/nsga2/testdata/pymoo_survival.json.
"""

import json
from pathlib import Path

import numpy as np
from pymoo.core.population import Population
from pymoo.core.problem import Problem
from pymoo.operators.survival.rank_and_crowding import RankAndCrowding
from pymoo.operators.survival.rank_and_crowding.metrics import get_crowding_function
from pymoo.util.nds.non_dominated_sorting import NonDominatedSorting

OUT = Path(__file__).resolve().parents[2] / "crates/algorithms/src/nsga2/testdata/pymoo_survival.json"


def case(rng, n, m, keep):
    values = np.round(rng.random((n, m)), 6)
    fronts = NonDominatedSorting().do(values)
    ranks = np.empty(n, dtype=int)
    crowding = np.empty(n)
    for r, front in enumerate(fronts):
        ranks[front] = r
        crowding[front] = get_crowding_function("cd").do(values[front]) * m
    # The cut: the members of the front that does not fit whole, by crowding.
    taken = 0
    for front in fronts:
        if taken + len(front) > keep:
            need = keep - taken
            ordered = np.sort(crowding[front])[::-1]
            if need < len(front) and ordered[need - 1] == ordered[need]:
                return None
            break
        taken += len(front)
    pop = Population.new(F=values)
    survived = RankAndCrowding().do(
        Problem(n_var=1, n_obj=m), pop, n_survive=keep, random_state=np.random.default_rng(0)
    )
    index = {tuple(v): i for i, v in enumerate(values.tolist())}
    survivors = sorted(index[tuple(f)] for f in survived.get("F").tolist())
    return {
        "m": m,
        "keep": keep,
        "values": values.ravel().tolist(),
        "ranks": ranks.tolist(),
        "crowding": [None if np.isinf(c) else float(c) for c in crowding],
        "survivors": survivors,
    }


def main():
    rng = np.random.default_rng(20261128)
    cases = []
    while len(cases) < 12:
        m = 2 + len(cases) % 3
        made = case(rng, 40, m, 15 + len(cases))
        if made is not None:
            cases.append(made)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"pymoo": "0.6.2", "cases": cases}) + "\n")
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
