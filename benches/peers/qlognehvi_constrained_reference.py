"""BoTorch's qLogNoisyExpectedHypervolumeImprovement and qLogNParEGO with constraints on fixed
data, hyperparameters and base samples: the reference values tests/library/qlognehvi_constrained.rs
holds (tests/library/data/qlognehvi_constrained_botorch.json).

    pip install torch botorch==0.18.1
    cd benches/peers && python qlognehvi_constrained_reference.py > ../../tests/library/data/qlognehvi_constrained_botorch.json

As qlognehvi_reference.py, on a multi-output SingleTaskGP of four outputs: two objectives
(maximised) and two constraints (feasible where ≤ 0), each with its own Matérn-5/2 ARD kernel,
outputscale and fixed noise, a zero constant mean and the Standardize transform. The
acquisition has BoTorch's defaults (alpha = 0, cache_pending, incremental_nehvi, eta = 1e-3,
tau_relu = 1e-6, tau_max = 1e-3, fat) with `cache_root=False` and `prune_baseline=False`; the
objective keeps outputs 0 and 1, the constraints read outputs 2 and 3. Each sample's front is
made of the observed and pending points feasible in that sample. The base normals are given
explicitly (samples × points × outputs, the points in bosweep's order: the observed points, the
pending points, then the candidate). A second case shifts the second constraint up until no
observed point is feasible in any sample: every front is empty.

qLogNParEGO gets fixed scalarisation weights and BoTorch's defaults otherwise (incremental: the
pending points join the observed ones; constrained qLogNEI of the Chebyshev scalarisation).
Where a sample has no feasible point, BoTorch counts the infeasible ones at its estimated lower
bound of the scalarised objective, from 32 uniforms of `torch.rand`: they are drawn here from a
fixed torch seed, reset before each evaluation, and written out with the bound BoTorch computed.
"""

import json
import warnings

import numpy as np
import torch
from botorch.acquisition.multi_objective.logei import (
    qLogNoisyExpectedHypervolumeImprovement,
)
from botorch.acquisition.multi_objective.objective import IdentityMCMultiOutputObjective
from botorch.acquisition.multi_objective.parego import qLogNParEGO
import botorch.acquisition.utils as acquisition_utils
from botorch.models import SingleTaskGP
from botorch.models.transforms.outcome import Standardize
from gpytorch.kernels import MaternKernel, ScaleKernel
from gpytorch.likelihoods import GaussianLikelihood

from fixed_normals import FixedNormals

torch.set_default_dtype(torch.float64)
warnings.filterwarnings("ignore")
rng = np.random.default_rng(20261129)
DIM, N_TRAIN, N_PENDING, N_CANDIDATES, SAMPLES, OUTPUTS = 2, 9, 2, 10, 32, 4
TORCH_SEED = 11
LENGTHSCALES = [[0.3, 0.5], [0.4, 0.25], [0.5, 0.45], [0.35, 0.6]]
OUTPUTSCALES = [1.5, 0.8, 1.2, 0.9]
NOISES = [1e-3, 2e-3, 1e-3, 5e-4]
REFERENCE = [-0.5, -1.5]

train_x = rng.uniform(size=(N_TRAIN, DIM))
x0, x1 = train_x[:, 0], train_x[:, 1]
columns = [
    np.sin(5.0 * x0) + x1,
    np.cos(4.0 * x1) - x0**2,
    0.9 - x0 - x1,  # feasible towards the upper right
    (x0 - 0.5) ** 2 + (x1 - 0.5) ** 2 - 0.15,  # feasible inside a disc
]
train_y = np.stack(columns, axis=1) + 0.02 * rng.normal(size=(N_TRAIN, OUTPUTS))
pending = rng.uniform(size=(N_PENDING, DIM))
candidates = rng.uniform(size=(N_CANDIDATES, DIM))
normals = rng.normal(size=(SAMPLES, N_TRAIN + N_PENDING + 1, OUTPUTS))
weights = rng.dirichlet(np.ones(2))

bounds_seen = []
estimate = acquisition_utils._estimate_objective_lower_bound


def recording_estimate(**kwargs):
    bound = estimate(**kwargs)
    bounds_seen.append(bound.item())
    return bound


acquisition_utils._estimate_objective_lower_bound = recording_estimate


def model(y):
    batch = torch.Size([OUTPUTS])
    kernel = ScaleKernel(
        MaternKernel(nu=2.5, ard_num_dims=DIM, batch_shape=batch), batch_shape=batch
    )
    kernel.base_kernel.lengthscale = torch.tensor(LENGTHSCALES).unsqueeze(1)
    kernel.outputscale = torch.tensor(OUTPUTSCALES)
    likelihood = GaussianLikelihood(batch_shape=batch)
    likelihood.noise = torch.tensor(NOISES).unsqueeze(-1)
    gp = SingleTaskGP(
        torch.tensor(train_x),
        torch.tensor(y),
        covar_module=kernel,
        likelihood=likelihood,
        outcome_transform=Standardize(m=OUTPUTS),
    )
    gp.mean_module.constant.data.fill_(0.0)
    return gp.eval()


def values(y, with_pending):
    if with_pending:
        z = normals
    else:
        z = np.concatenate([normals[:, :N_TRAIN], normals[:, -1:]], axis=1)
    acquisition = qLogNoisyExpectedHypervolumeImprovement(
        model(y),
        ref_point=REFERENCE,
        X_baseline=torch.tensor(train_x),
        sampler=FixedNormals(z),
        objective=IdentityMCMultiOutputObjective(outcomes=[0, 1]),
        constraints=[lambda Z: Z[..., 2], lambda Z: Z[..., 3]],
        X_pending=torch.tensor(pending) if with_pending else None,
        cache_root=False,
        prune_baseline=False,
    )
    with torch.no_grad():
        return [acquisition(torch.tensor(x).view(1, 1, DIM)).item() for x in candidates]


def parego(y, with_pending):
    """qLogNParEGO's values, and the lower bound BoTorch used (None where it needed none)."""
    if with_pending:
        z = normals
    else:
        z = np.concatenate([normals[:, :N_TRAIN], normals[:, -1:]], axis=1)
    acquisition = qLogNParEGO(
        model(y),
        X_baseline=torch.tensor(train_x),
        scalarization_weights=torch.tensor(weights),
        sampler=FixedNormals(z),
        objective=IdentityMCMultiOutputObjective(outcomes=[0, 1]),
        constraints=[lambda Z: Z[..., 2], lambda Z: Z[..., 3]],
        X_pending=torch.tensor(pending) if with_pending else None,
        cache_root=False,
        prune_baseline=False,
    )
    bounds_seen.clear()
    out = []
    for x in candidates:
        torch.manual_seed(TORCH_SEED)
        with torch.no_grad():
            out.append(acquisition(torch.tensor(x).view(1, 1, DIM)).item())
    assert len(set(bounds_seen)) <= 1, bounds_seen
    return {"values": out, "lower_bound": bounds_seen[0] if bounds_seen else None}


def case(y):
    feasible = (y[:, 2] <= 0) & (y[:, 3] <= 0)
    return {
        "train_y": y.tolist(),
        "feasible_observations": int(feasible.sum()),
        "alone": values(y, False),
        "with_pending": values(y, True),
        "parego_alone": parego(y, False),
        "parego_with_pending": parego(y, True),
    }


torch.manual_seed(TORCH_SEED)
uniforms = torch.rand(32, DIM).tolist()
infeasible_y = train_y.copy()
infeasible_y[:, 3] += 2.0
print(
    json.dumps(
        {
            "samples": SAMPLES,
            "lengthscales": LENGTHSCALES,
            "signal_vars": OUTPUTSCALES,
            "noise_vars": NOISES,
            "reference_point": REFERENCE,
            "train_x": train_x.tolist(),
            "pending": pending.tolist(),
            "candidates": candidates.tolist(),
            # samples × points × outputs
            "base_samples": normals.tolist(),
            "parego_weights": weights.tolist(),
            "lower_bound_uniforms": uniforms,
            "some_feasible": case(train_y),
            "none_feasible": case(infeasible_y),
        },
        indent=1,
    )
)
