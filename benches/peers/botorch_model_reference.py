"""BoTorch's default GP model fitted on fixed data: the reference values
tests/library/botorch_model.rs holds (tests/library/data/botorch_model.json).

    pip install torch==2.15.0 gpytorch==1.15.2 linear_operator==0.6.1 botorch==0.18.1
    python benches/peers/botorch_model_reference.py > tests/library/data/botorch_model.json

The model is `SingleTaskGP(train_x, train_y)` with nothing else given, fitted by
`fit_gpytorch_mll`, as a BoTorch user's LogEI or qLogNEI loop does at every step. The script
first checks that the default is what bosweep's `GpSettings::botorch()` claims it is: an ARD RBF
kernel with no ScaleKernel, lengthscale prior LogNormal(√2 + ½ ln d, √3) with lengthscales ≥ 0.025
started at the prior's mode, noise prior LogNormal(−4, 1) with noise ≥ 1e-4 started at its mode,
a constant mean, and outcomes standardised (unbiased std). It then records, per case, the data,
the fitted hyperparameters in model units (standardised outcomes), and the exact log marginal
likelihood and log prior at them, computed here in closed form rather than through GPyTorch's
per-point scaling.
"""

import json
import math

import numpy as np
import torch
from botorch import fit_gpytorch_mll
from botorch.models import SingleTaskGP
from botorch.models.transforms.outcome import Standardize
from gpytorch.kernels import RBFKernel, ScaleKernel
from gpytorch.mlls import ExactMarginalLogLikelihood
from gpytorch.priors import LogNormalPrior

import botorch

torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(20261128)
CASES = [(2, 12), (4, 24), (6, 40)]


def objective(x):
    """A smooth function with some noise: enough signal that the fit is well posed."""
    d = x.shape[1]
    weights = np.linspace(1.0, 0.3, d)
    return np.sin(3.0 * x @ weights) + 0.5 * np.cos(5.0 * x[:, 0]) + 0.02 * rng.normal(size=len(x))


def check_default(model, d):
    kernel = model.covar_module
    assert isinstance(kernel, RBFKernel) and not isinstance(kernel, ScaleKernel), kernel
    prior = kernel.lengthscale_prior
    assert isinstance(prior, LogNormalPrior)
    assert math.isclose(prior.loc.item(), math.sqrt(2) + 0.5 * math.log(d), rel_tol=1e-12)
    assert math.isclose(prior.scale.item(), math.sqrt(3), rel_tol=1e-12)
    assert math.isclose(kernel.raw_lengthscale_constraint.lower_bound.item(), 0.025)
    mode = math.exp(math.sqrt(2) + 0.5 * math.log(d) - 3.0)
    assert np.allclose(kernel.lengthscale.detach().numpy(), mode), kernel.lengthscale
    noise = model.likelihood.noise_covar
    assert isinstance(noise.noise_prior, LogNormalPrior)
    assert (noise.noise_prior.loc.item(), noise.noise_prior.scale.item()) == (-4.0, 1.0)
    assert math.isclose(noise.raw_noise_constraint.lower_bound.item(), 1e-4)
    assert math.isclose(model.likelihood.noise.item(), math.exp(-5.0), rel_tol=1e-9)
    assert isinstance(model.outcome_transform, Standardize)


def exact_terms(model, x, z):
    """The log marginal likelihood of the standardised outcomes z and the log prior (densities of
    the parameters, as GPyTorch adds them) at the model's hyperparameters."""
    ls = model.covar_module.lengthscale.detach().numpy().ravel()
    noise = model.likelihood.noise.item()
    mean = model.mean_module.constant.item()
    diff = (x[:, None, :] - x[None, :, :]) / ls
    k = np.exp(-0.5 * (diff**2).sum(-1)) + noise * np.eye(len(x))
    chol = np.linalg.cholesky(k)
    alpha = np.linalg.solve(chol, z - mean)
    lml = -0.5 * alpha @ alpha - np.log(np.diag(chol)).sum() - 0.5 * len(x) * math.log(2 * math.pi)
    lp = model.covar_module.lengthscale_prior.log_prob(torch.tensor(ls)).sum().item()
    lp += model.likelihood.noise_covar.noise_prior.log_prob(torch.tensor(noise)).item()
    return lml, lp


cases = []
for d, n in CASES:
    x = rng.uniform(size=(n, d))
    y = objective(x)
    model = SingleTaskGP(torch.tensor(x), torch.tensor(y).unsqueeze(-1))
    check_default(model, d)
    fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
    z = (y - y.mean()) / y.std(ddof=1)
    lml, lp = exact_terms(model, x, z)
    cases.append(
        {
            "dim": d,
            "x": x.tolist(),
            "y": y.tolist(),
            "lengthscales": model.covar_module.lengthscale.detach().numpy().ravel().tolist(),
            "noise_variance": model.likelihood.noise.item(),
            "mean": model.mean_module.constant.item(),
            "log_marginal_likelihood": lml,
            "log_prior": lp,
        }
    )

print(
    json.dumps(
        {
            "botorch": botorch.__version__,
            "torch": torch.__version__,
            "model": "SingleTaskGP(train_x, train_y), fit_gpytorch_mll",
            "cases": cases,
        },
        indent=None,
    )
)
