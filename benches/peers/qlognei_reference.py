"""BoTorch's qLogNoisyExpectedImprovement on fixed data, hyperparameters and base samples: the
reference values tests/library/qlognei.rs holds (tests/library/data/qlognei_botorch.json).

    pip install torch botorch==0.12.0
    python benches/peers/qlognei_reference.py > tests/library/data/qlognei_botorch.json

The GP is a SingleTaskGP with a Matérn-5/2 ARD kernel, a zero constant mean, fixed noise and no
input or outcome transform, so that it is exactly bosweep's GpState on the same numbers. The
base samples are given explicitly (a fixed numpy stream), one column per jointly sampled point
in bosweep's order: the observed points, the pending points, then the candidate; BoTorch gets
the pending points and the candidate as one q-batch in that order, with `cache_root=False` so
that it samples the whole joint from its Cholesky factor as bosweep does.
"""

import json
import warnings

import numpy as np
import torch
from botorch.acquisition.logei import qLogNoisyExpectedImprovement
from botorch.models import SingleTaskGP
from botorch.sampling.normal import SobolQMCNormalSampler
from gpytorch.kernels import MaternKernel, ScaleKernel
from gpytorch.likelihoods import GaussianLikelihood

torch.set_default_dtype(torch.float64)
# The data are deliberately not standardised (the GP's numbers are what is compared).
warnings.filterwarnings("ignore", message="Data \\(outcome observations\\) is not standardized")
rng = np.random.default_rng(20261126)
DIM, N_TRAIN, N_PENDING, N_CANDIDATES, SAMPLES = 2, 8, 2, 6, 64
LENGTHSCALES, SIGNAL_VAR, NOISE_VAR = [0.3, 0.5], 1.5, 1e-3

train_x = rng.uniform(size=(N_TRAIN, DIM))
train_y = np.sin(6.0 * train_x[:, 0]) + np.cos(4.0 * train_x[:, 1]) + 0.05 * rng.normal(size=N_TRAIN)
pending = rng.uniform(size=(N_PENDING, DIM))
candidates = rng.uniform(size=(N_CANDIDATES, DIM))


def model():
    kernel = ScaleKernel(MaternKernel(nu=2.5, ard_num_dims=DIM))
    kernel.base_kernel.lengthscale = torch.tensor(LENGTHSCALES)
    kernel.outputscale = torch.tensor(SIGNAL_VAR)
    likelihood = GaussianLikelihood()
    likelihood.noise = torch.tensor(NOISE_VAR)
    gp = SingleTaskGP(
        torch.tensor(train_x),
        torch.tensor(train_y).unsqueeze(-1),
        covar_module=kernel,
        likelihood=likelihood,
        outcome_transform=None,
    )
    gp.mean_module.constant.data.fill_(0.0)
    return gp.eval()


def values(base, with_pending):
    """qLogNEI of each candidate, joined to the pending points when `with_pending`."""
    q = 1 + (N_PENDING if with_pending else 0)
    sampler = SobolQMCNormalSampler(sample_shape=torch.Size([SAMPLES]))
    given = torch.tensor(base[:, : N_TRAIN + q]).unsqueeze(1)  # samples x batch x points
    sampler.base_samples = given
    acquisition = qLogNoisyExpectedImprovement(
        model(), torch.tensor(train_x), sampler=sampler, cache_root=False, prune_baseline=False
    )
    out = []
    for x in candidates:
        batch = np.vstack([pending, x]) if with_pending else x[None, :]
        with torch.no_grad():
            out.append(acquisition(torch.tensor(batch).unsqueeze(0)).item())
        # A base-sample shape BoTorch does not expect would be replaced by its own draws.
        assert torch.equal(acquisition.sampler.base_samples, given)
    return out


base_pending = rng.normal(size=(SAMPLES, N_TRAIN + N_PENDING + 1))
# Without pending points the candidate's column follows the observed points'.
base_alone = np.hstack([base_pending[:, :N_TRAIN], base_pending[:, -1:]])
print(
    json.dumps(
        {
            "lengthscales": LENGTHSCALES,
            "signal_var": SIGNAL_VAR,
            "noise_var": NOISE_VAR,
            "train_x": train_x.tolist(),
            "train_y": train_y.tolist(),
            "pending": pending.tolist(),
            "candidates": candidates.tolist(),
            "base_samples": base_pending.tolist(),
            "alone": values(base_alone, False),
            "with_pending": values(base_pending, True),
        },
        indent=1,
    )
)
