"""pycma's default CMA-ES strategy parameters for n = 2, 10, 40: the reference numbers of the
`cmaes` strategy-parameter tests (crates/algorithms/src/cmaes/tests.rs).

Run with pycma 3.3 and numpy in a throwaway environment:
    python3 -m venv /tmp/cmavenv && /tmp/cmavenv/bin/pip install cma==3.3.0 numpy
    /tmp/cmavenv/bin/python benches/peers/cmaes_reference.py

pycma keeps negative (active CMA) weights for the worse half of the population; the positive
ones, their mu_eff, c_c and c_1 are Hansen's tutorial Table 1 values. Its c_sigma, d_sigma and
c_mu use other constants (see the tests' comments).
"""

import numpy as np

# pycma 3.3 still spells numpy's infinity `np.Inf`, which numpy 2 removed.
if not hasattr(np, "Inf"):
    np.Inf = np.inf

import cma  # noqa: E402

for n in (2, 10, 40):
    es = cma.CMAEvolutionStrategy(n * [0.5], 0.3, {"verbose": -9, "seed": 1})
    es.adapt_sigma.initialize(es)  # what the first tell does: sets c_sigma and d_sigma
    sp = es.sp
    positive = [w for w in sp.weights if w > 0]
    print(f"n = {n}")
    print(f"  lambda = {sp.popsize}, mu = {sp.weights.mu}")
    print(f"  weights = {[repr(w) for w in positive]}")
    print(f"  mueff = {sp.weights.mueff!r}")
    print(f"  cs = {es.adapt_sigma.cs!r}")
    print(f"  damps = {es.adapt_sigma.damps!r}")
    print(f"  cc = {sp.cc!r}")
    print(f"  c1 = {sp.c1!r}")
    print(f"  cmu = {sp.cmu!r}")
