#!/usr/bin/env python3
"""BoTorch's GP-UCB as a bosweep command algorithm: a SingleTaskGP fitted by BoTorch's defaults
on the told points (inputs scaled to the unit cube, outputs standardised), then
UpperConfidenceBound(beta = 4, i.e. κ = 2 as bosweep's gp-ucb) maximised by optimize_acqf over
the unit cube. Needs torch and botorch (benches/peers/run.sh builds an environment with both):

    [[algorithm]]
    name = "command"
    cmd = "benches/peers/.venv/bin/python sweeps/examples/botorch_ucb.py"
"""
import json
import sys

import torch
from botorch.acquisition import UpperConfidenceBound
from botorch.fit import fit_gpytorch_mll
from botorch.models import SingleTaskGP
from botorch.models.transforms import Standardize
from botorch.optim import optimize_acqf
from gpytorch.mlls import ExactMarginalLogLikelihood

torch.set_default_dtype(torch.float64)


def main():
    lo = hi = None
    xs, ys = [], []
    for line in sys.stdin:
        msg = json.loads(line)
        op = msg["op"]
        if op == "start":
            lo = torch.tensor([b[0] for b in msg["bounds"]])
            hi = torch.tensor([b[1] for b in msg["bounds"]])
        elif op == "tell":
            xs.append((torch.tensor(msg["x"]) - lo) / (hi - lo))
            ys.append(msg["y"])
        elif op == "ask":
            torch.manual_seed(msg["seed"] % 2**63)
            train_x = torch.stack(xs)
            train_y = torch.tensor(ys).unsqueeze(-1)
            model = SingleTaskGP(train_x, train_y, outcome_transform=Standardize(m=1))
            fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
            unit = torch.stack([torch.zeros(len(lo)), torch.ones(len(lo))])
            x, _ = optimize_acqf(
                UpperConfidenceBound(model, beta=4.0),
                bounds=unit,
                q=1,
                num_restarts=8,
                raw_samples=512,
            )
            point = (lo + x[0].clamp(0, 1) * (hi - lo)).clamp(lo, hi)
            print(json.dumps({"x": point.tolist()}), flush=True)
        elif op == "recommend":
            best = max(range(len(ys)), key=lambda i: ys[i])
            print(json.dumps({"x": (lo + xs[best] * (hi - lo)).tolist()}), flush=True)


if __name__ == "__main__":
    main()
