"""BoTorch's LogConstrainedExpectedImprovement and LogProbabilityOfFeasibility on fixed data and
hyperparameters: the reference values tests/library/logei_pof.rs holds
(tests/library/data/logei_pof_botorch.json).

    pip install torch botorch==0.18.1
    cd benches/peers && python logei_pof_reference.py > ../../tests/library/data/logei_pof_botorch.json

The model is a ModelListGP of three SingleTaskGPs on the same 8 points of [0, 1]²: the objective
(output 0, maximised) and two constraints (outputs 1 and 2, feasible where ≤ 0). Each has an RBF
ARD kernel with an outputscale, a constant mean, a fixed noise variance and the Standardize
outcome transform, every hyperparameter set by hand (no fit), so that each output is exactly
bosweep's GpState on its standardised targets with the same numbers. The hyperparameters are
written back as BoTorch holds them (after its constraint transforms), so that bosweep reads the
very numbers BoTorch used. `best_f` is the best objective value among the feasible training
points (Gardner et al.'s incumbent); `log_pof` is LogProbabilityOfFeasibility, the acquisition
while no point is feasible.
"""

import json
import warnings

import numpy as np
import torch
from botorch.acquisition.analytic import (
    LogConstrainedExpectedImprovement,
    LogProbabilityOfFeasibility,
)
from botorch.models import ModelListGP
from held_gps import held, single

torch.set_default_dtype(torch.float64)
warnings.filterwarnings("ignore")
rng = np.random.default_rng(20261201)
DIM, N_TRAIN, N_CANDIDATES = 2, 8, 20
CONSTRAINTS = {1: (None, 0.0), 2: (None, 0.0)}

train_x = rng.uniform(size=(N_TRAIN, DIM))
x0, x1 = train_x[:, 0], train_x[:, 1]
outputs = [
    np.sin(5.0 * x0) + np.cos(3.0 * x1),  # the objective, maximised
    0.6 - x0 - x1 + 0.3 * np.sin(4.0 * x1),  # feasible towards the upper right
    (x0 - 0.5) ** 2 + (x1 - 0.5) ** 2 - 0.2,  # feasible inside a disc
]
# (lengthscales, outputscale, noise variance, constant mean), in each GP's standardised units.
HYPERPARAMETERS = [
    ([0.3, 0.45], 1.3, 1e-3, 0.1),
    ([0.5, 0.35], 0.9, 2e-3, -0.2),
    ([0.25, 0.6], 1.7, 5e-4, 0.3),
]
candidates = rng.uniform(size=(N_CANDIDATES, DIM))


gps = [single(train_x, y, *h) for y, h in zip(outputs, HYPERPARAMETERS)]
model = ModelListGP(*gps).eval()
feasible = (outputs[1] <= 0.0) & (outputs[2] <= 0.0)
assert feasible.any() and not feasible.all(), feasible
best_f = float(outputs[0][feasible].max())

log_cei = LogConstrainedExpectedImprovement(
    model, best_f=best_f, objective_index=0, constraints=CONSTRAINTS
)
log_pof = LogProbabilityOfFeasibility(model, constraints=CONSTRAINTS)
with torch.no_grad():
    x = torch.tensor(candidates).unsqueeze(1)  # candidates × 1 × d
    values = log_cei(x).tolist()
    pof = log_pof(x).tolist()


print(
    json.dumps(
        {
            "train_x": train_x.tolist(),
            "train_y": [y.tolist() for y in outputs],
            "gps": [held(gp) for gp in gps],
            "best_f": best_f,
            "candidates": candidates.tolist(),
            "log_constrained_ei": values,
            "log_pof": pof,
        },
        indent=1,
    )
)
