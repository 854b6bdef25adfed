#!/usr/bin/env python3
"""A complete optimiser for bosweep's command-algorithm protocol, standard library only:
uniform random search that recommends the best point it was told.

    [[algorithm]]
    name = "command"
    cmd = "python3 sweeps/examples/random_search.py"

bosweep writes one JSON object per line on stdin (start, tell, ask, recommend) and reads one
line back for each ask and recommend. `y` is in the maximisation sense. Each ask carries a seed
drawn from the run's seed, so the same sweep seed gives the same trace.
"""
import json
import random
import sys


def main():
    bounds = None
    best_x, best_y = None, float("-inf")
    for line in sys.stdin:
        msg = json.loads(line)
        op = msg["op"]
        if op == "start":
            bounds = msg["bounds"]
        elif op == "tell":
            if msg["y"] > best_y:
                best_x, best_y = msg["x"], msg["y"]
        elif op == "ask":
            rng = random.Random(msg["seed"])
            if "allowed" in msg:
                x = rng.choice(msg["allowed"])
            else:
                x = [rng.uniform(lo, hi) for lo, hi in bounds]
            print(json.dumps({"x": x}), flush=True)
        elif op == "recommend":
            print(json.dumps({"x": best_x}), flush=True)


if __name__ == "__main__":
    main()
