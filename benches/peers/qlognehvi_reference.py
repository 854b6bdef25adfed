"""BoTorch's qLogNoisyExpectedHypervolumeImprovement and qLogNParEGO on fixed data,
hyperparameters and base samples: the reference values tests/library/qlognehvi.rs holds
(tests/library/data/qlognehvi_botorch.json).

    pip install torch botorch==0.18.1
    cd benches/peers && python qlognehvi_reference.py > ../../tests/library/data/qlognehvi_botorch.json

The model is BoTorch's multi-output SingleTaskGP (independent outputs, each its own
hyperparameters) with a Matérn-5/2 ARD kernel with an outputscale, a zero constant mean, fixed
noise and the Standardize outcome transform, so that each output is exactly bosweep's GpState on
the standardised targets with the same numbers. The acquisition has BoTorch's defaults
(alpha = 0, cache_pending, incremental_nehvi, eta 1e-3, tau_relu 1e-6, tau_max 1e-3, fat)
but cache_root=False and prune_baseline=False, so that it samples the whole joint posterior of
the observed points, the pending points and the candidate from its Cholesky factors as bosweep
does. The base normals are given explicitly, one column per jointly sampled point in bosweep's
order (the observed points, the pending points, then the candidate) for each objective: a
sampler applies them to BoTorch's posterior mean and covariance as `mean + L z`. qLogNParEGO
gets fixed scalarisation weights and BoTorch's defaults otherwise (incremental: the pending
points join the observed ones).
"""

import json
import warnings

import numpy as np
import torch
from botorch.acquisition.multi_objective.logei import (
    qLogNoisyExpectedHypervolumeImprovement,
)
from botorch.acquisition.multi_objective.parego import qLogNParEGO
from botorch.models import SingleTaskGP
from botorch.models.transforms.outcome import Standardize
from gpytorch.kernels import MaternKernel, ScaleKernel
from gpytorch.likelihoods import GaussianLikelihood

from fixed_normals import FixedNormals

torch.set_default_dtype(torch.float64)
warnings.filterwarnings("ignore")
rng = np.random.default_rng(20261128)
DIM, N_TRAIN, N_PENDING, N_CANDIDATES, SAMPLES = 2, 9, 2, 8, 32
SHARP_TAU = 1e-9


def case(m, lengthscales, outputscales, noises, reference):
    train_x = rng.uniform(size=(N_TRAIN, DIM))
    columns = [
        np.sin(5.0 * train_x[:, 0]) + train_x[:, 1],
        np.cos(4.0 * train_x[:, 1]) - train_x[:, 0] ** 2,
        train_x[:, 0] * train_x[:, 1] + 0.5 * np.sin(3.0 * train_x[:, 1]),
    ][:m]
    train_y = np.stack(columns, axis=1) + 0.05 * rng.normal(size=(N_TRAIN, m))
    pending = rng.uniform(size=(N_PENDING, DIM))
    candidates = rng.uniform(size=(N_CANDIDATES, DIM))
    normals = rng.normal(size=(SAMPLES, N_TRAIN + N_PENDING + 1, m))

    def model():
        kernel = ScaleKernel(
            MaternKernel(nu=2.5, ard_num_dims=DIM, batch_shape=torch.Size([m])),
            batch_shape=torch.Size([m]),
        )
        kernel.base_kernel.lengthscale = torch.tensor(lengthscales).unsqueeze(1)
        kernel.outputscale = torch.tensor(outputscales)
        likelihood = GaussianLikelihood(batch_shape=torch.Size([m]))
        likelihood.noise = torch.tensor(noises).unsqueeze(-1)
        gp = SingleTaskGP(
            torch.tensor(train_x),
            torch.tensor(train_y),
            covar_module=kernel,
            likelihood=likelihood,
            outcome_transform=Standardize(m=m),
        )
        gp.mean_module.constant.data.fill_(0.0)
        return gp.eval()

    def values(with_pending, tau_relu=1e-6, tau_max=1e-3):
        if with_pending:
            z = normals
        else:
            z = np.concatenate([normals[:, :N_TRAIN], normals[:, -1:]], axis=1)
        acquisition = qLogNoisyExpectedHypervolumeImprovement(
            model(),
            ref_point=reference,
            X_baseline=torch.tensor(train_x),
            sampler=FixedNormals(z),
            X_pending=torch.tensor(pending) if with_pending else None,
            cache_root=False,
            prune_baseline=False,
            tau_relu=tau_relu,
            tau_max=tau_max,
        )
        with torch.no_grad():
            return [acquisition(torch.tensor(x).view(1, 1, DIM)).item() for x in candidates]

    weights = rng.dirichlet(np.ones(m))

    def parego(with_pending):
        if with_pending:
            z = normals
        else:
            z = np.concatenate([normals[:, :N_TRAIN], normals[:, -1:]], axis=1)
        acquisition = qLogNParEGO(
            model(),
            X_baseline=torch.tensor(train_x),
            scalarization_weights=torch.tensor(weights),
            sampler=FixedNormals(z),
            X_pending=torch.tensor(pending) if with_pending else None,
            cache_root=False,
            prune_baseline=False,
        )
        with torch.no_grad():
            return [acquisition(torch.tensor(x).view(1, 1, DIM)).item() for x in candidates]

    return {
        "objectives": m,
        "parego_weights": weights.tolist(),
        "parego_alone": parego(False),
        "parego_with_pending": parego(True),
        "lengthscales": lengthscales,
        "signal_vars": outputscales,
        "noise_vars": noises,
        "reference_point": reference,
        "train_x": train_x.tolist(),
        "train_y": train_y.tolist(),
        "pending": pending.tolist(),
        "candidates": candidates.tolist(),
        # samples × points × objectives
        "base_samples": normals.tolist(),
        "alone": values(False),
        "with_pending": values(True),
        # Nearly the hard minimum and ReLU: the log of the mean exact improvement, whichever
        # cells tile the non-dominated region.
        "sharp_tau": SHARP_TAU,
        "sharp": values(True, SHARP_TAU, SHARP_TAU),
    }


print(
    json.dumps(
        {
            "samples": SAMPLES,
            "cases": [
                case(2, [[0.3, 0.5], [0.4, 0.25]], [1.5, 0.8], [1e-3, 2e-3], [-0.5, -1.5]),
                case(
                    3,
                    [[0.3, 0.5], [0.4, 0.25], [0.6, 0.35]],
                    [1.5, 0.8, 1.1],
                    [1e-3, 2e-3, 5e-4],
                    [-0.5, -1.5, -0.6],
                ),
            ],
        },
        indent=1,
    )
)
