#!/usr/bin/env python3
"""Per problem and fit mode: runs and steps whose fitted lengthscales sit at a bound of the
unit-cube box [1e-3, 1e3] (the traces record them in original units under extra.lengthscales).

Usage: python3 docs/studies/fit_bounds.py RESULTS_DIR   (a sweep of sweeps/studies/fit-default.toml)
"""
import json, glob, sys, collections
width = {"branin": [15, 15], "hartmann6": [1]*6, "ackley": [65.536]*5}
stats = collections.defaultdict(lambda: [0, 0, 0])
for f in glob.glob(sys.argv[1] + "/runs/*.jsonl"):
    lines = open(f).read().splitlines()
    h = json.loads(lines[0])["header"]
    algo = h["algorithm"] + "/" + h["algorithm_parameters"]["fit"]
    prob = h["problem"]
    steps = [json.loads(l) for l in lines[1:] if json.loads(l)["phase"] == "opt"]
    at = 0
    for s in steps:
        ls = s["extra"]["lengthscales"]
        u = [l / w for l, w in zip(ls, width[prob])]
        if any(x > 0.99e3 or x < 1.01e-3 for x in u):
            at += 1
    k = (prob, algo)
    stats[k][0] += 1
    stats[k][1] += at > 0
    stats[k][2] += at / len(steps)
for k in sorted(stats):
    n, anyb, frac = stats[k]
    print(f"{k[0]:10s} {k[1]:16s} runs {n}  runs with a bound hit {anyb:2d}  steps at a bound {100*frac/n:5.1f}%")
