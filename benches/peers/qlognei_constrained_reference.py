"""BoTorch's qLogNoisyExpectedImprovement with constraints on fixed data, hyperparameters and
base samples: the reference values tests/library/qlognei_constrained.rs holds
(tests/library/data/qlognei_constrained_botorch.json).

    pip install torch botorch==0.18.1
    cd benches/peers && python qlognei_constrained_reference.py > ../../tests/library/data/qlognei_constrained_botorch.json

The model is a ModelListGP of three SingleTaskGPs on the same 8 points of [0, 1]²: the objective
(output 0, maximised) and two constraints (outputs 1 and 2, feasible where ≤ 0), each with an
RBF ARD kernel, an outputscale, a constant mean, a fixed noise variance and the Standardize
outcome transform, every hyperparameter set by hand (as in logei_pof_reference.py). qLogNEI has
BoTorch's defaults (eta = 1e-3, tau_relu = 1e-6, incremental = True: the 2 pending points join
the observed ones as the baseline) with `cache_root=False` and `prune_baseline=False`, so that it
samples the whole joint of the baseline and the candidate from its Cholesky factor as bosweep
does. The base samples are given explicitly (a fixed numpy stream), samples × points × outputs,
the points in bosweep's order: the observed points, the pending points, then the candidate.

Two cases: `feasible`, where every sample has a feasible baseline point, and `infeasible`,
where the second constraint is shifted up so that none is and BoTorch counts the infeasible
points at its estimated lower bound of the objective. That estimate draws 32 uniforms with
`torch.rand`; they are drawn here from a fixed torch seed, reset before each evaluation so that
BoTorch draws the same ones, and written out with the bound BoTorch computed from them.
"""

import json
import warnings

import numpy as np
import torch
import botorch.acquisition.utils as acquisition_utils
from botorch.acquisition.logei import qLogNoisyExpectedImprovement
from botorch.acquisition.objective import GenericMCObjective
from botorch.models import ModelListGP
from botorch.sampling.normal import SobolQMCNormalSampler
from held_gps import held, single

torch.set_default_dtype(torch.float64)
warnings.filterwarnings("ignore")
rng = np.random.default_rng(20261129)
DIM, N_TRAIN, N_PENDING, N_CANDIDATES, SAMPLES, TORCH_SEED = 2, 8, 2, 20, 64, 7

train_x = rng.uniform(size=(N_TRAIN, DIM))
x0, x1 = train_x[:, 0], train_x[:, 1]
OUTPUTS = [
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
pending = rng.uniform(size=(N_PENDING, DIM))
candidates = rng.uniform(size=(N_CANDIDATES, DIM))
base = rng.normal(size=(SAMPLES, N_TRAIN + N_PENDING + 1, 3))


bounds_seen = []
estimate = acquisition_utils._estimate_objective_lower_bound


def recording_estimate(**kwargs):
    bound = estimate(**kwargs)
    bounds_seen.append(bound.item())
    return bound


acquisition_utils._estimate_objective_lower_bound = recording_estimate


def case(outputs):
    gps = [single(train_x, y, *h) for y, h in zip(outputs, HYPERPARAMETERS)]
    model = ModelListGP(*gps).eval()
    sampler = SobolQMCNormalSampler(sample_shape=torch.Size([SAMPLES]))
    given = torch.tensor(base).unsqueeze(1)  # samples x batch x points x outputs
    sampler.base_samples = given
    acquisition = qLogNoisyExpectedImprovement(
        model,
        torch.tensor(train_x),
        sampler=sampler,
        objective=GenericMCObjective(lambda Z, X=None: Z[..., 0]),
        constraints=[lambda Z: Z[..., 1], lambda Z: Z[..., 2]],
        X_pending=torch.tensor(pending),
        cache_root=False,
        prune_baseline=False,
    )
    bounds_seen.clear()
    values = []
    for x in candidates:
        torch.manual_seed(TORCH_SEED)
        with torch.no_grad():
            values.append(acquisition(torch.tensor(x).view(1, 1, DIM)).item())
        # A base-sample shape BoTorch does not expect would be replaced by its own draws.
        assert torch.equal(acquisition.sampler.base_samples, given)
    assert len(set(bounds_seen)) <= 1, bounds_seen
    return {
        "train_y": [y.tolist() for y in outputs],
        "gps": [held(gp) for gp in gps],
        "lower_bound": bounds_seen[0] if bounds_seen else None,
        "values": values,
    }


torch.manual_seed(TORCH_SEED)
uniforms = torch.rand(32, DIM).tolist()
feasible = case(OUTPUTS)
assert feasible["lower_bound"] is None
infeasible = case([OUTPUTS[0], OUTPUTS[1], OUTPUTS[2] + 1.0])
assert infeasible["lower_bound"] is not None
print(
    json.dumps(
        {
            "train_x": train_x.tolist(),
            "pending": pending.tolist(),
            "candidates": candidates.tolist(),
            "base_samples": base.tolist(),
            "lower_bound_uniforms": uniforms,
            "feasible": feasible,
            "infeasible": infeasible,
        },
        indent=1,
    )
)
