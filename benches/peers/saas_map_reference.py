"""BoTorch's MAP SAAS model fitted on fixed data: the reference values tests/library/saas_map.rs
holds (tests/library/data/saas_map.json).

    pip install torch==2.15.0 gpytorch==1.15.2 linear_operator==0.6.1 botorch==0.18.1
    python benches/peers/saas_map_reference.py > tests/library/data/saas_map.json

The model is `get_fitted_map_saas_model(train_x, train_y, outcome_transform=Standardize(m=1))`,
everything else its default (no input transform: the inputs are already in the unit cube; the
outcomes standardised because the model's N(0, 1) prior on the constant mean assumes it, as the
SAASBO tutorial's models do). The script first checks that the model is what bosweep's
`GpSettings::saas_map()` claims it is (BoTorch 0.18.1, `botorch/models/map_saas.py`):

* a `ScaleKernel` over an ARD Matérn-5/2 kernel, the outputscale with no prior, in
  [1e-2, 1e4] (log scale) and started at 10;
* the SAAS prior: tau / lengthscale² ~ HalfCauchy(1) for every lengthscale, the lengthscales in
  [0.01, 1e4] (log scale) and started at 1; tau ~ HalfCauchy(0.1), in [1e-3, 10] (log scale)
  and started at 0.1;
* a constant mean with a N(0, 1) prior in [-10, 10], started at 0;
* noise variance with a Gamma(0.9, 10) prior, in [1e-4, 1] (log scale), started at 1e-2.

`get_fitted_map_saas_model` fits it once, by `fit_gpytorch_mll` (scipy's L-BFGS-B from the
initial values above, with scipy's default tolerances; a retry from prior draws only if the fit
fails), with no restarts, tau grid or ensemble. The script records the data, the fitted
hyperparameters in model units (standardised outcomes, unbiased std), and the MAP objective at
them: the exact log marginal likelihood (in closed form, not through GPyTorch's per-point
scaling) and each log prior density as GPyTorch adds them (densities of the parameters
themselves, with no Jacobian of the log transform), checked against GPyTorch's own value.
"""

import json
import math

import numpy as np
import torch
from botorch.fit import get_fitted_map_saas_model
from botorch.models.map_saas import get_map_saas_model
from botorch.models.transforms.outcome import Standardize
from gpytorch.kernels import MaternKernel, ScaleKernel
from gpytorch.mlls import ExactMarginalLogLikelihood
from gpytorch.priors import GammaPrior, HalfCauchyPrior, NormalPrior

import botorch

torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(20210727)
N, DIM = 30, 20
ACTIVE = (3, 11)


def objective(x):
    """Depends on two of the twenty inputs only, plus a little noise."""
    a, b = x[:, ACTIVE[0]], x[:, ACTIVE[1]]
    return np.sin(6.0 * a) + 2.0 * (b - 0.4) ** 2 + 0.05 * rng.normal(size=len(x))


def check_model(model):
    scaled = model.covar_module
    assert isinstance(scaled, ScaleKernel)
    # Four priors in all: none on the outputscale.
    assert sorted(name for name, *_ in model.named_priors()) == [
        "covar_module.base_kernel.inv_lengthscale_prior",
        "covar_module.base_kernel.tau_prior",
        "likelihood.noise_covar.noise_prior",
        "mean_module.mean_prior",
    ]
    kernel = scaled.base_kernel
    assert isinstance(kernel, MaternKernel) and kernel.nu == 2.5
    assert kernel.lengthscale.shape[-1] == DIM
    bounds = lambda c: (c.lower_bound.item(), c.upper_bound.item())  # noqa: E731
    assert bounds(scaled.raw_outputscale_constraint) == (1e-2, 1e4)
    assert bounds(kernel.raw_lengthscale_constraint) == (1e-2, 1e4)
    assert bounds(kernel.raw_tau_constraint) == (1e-3, 10.0)
    assert bounds(model.likelihood.noise_covar.raw_noise_constraint) == (1e-4, 1.0)
    assert bounds(model.mean_module.raw_constant_constraint) == (-10.0, 10.0)
    for name in ("tau_prior", "inv_lengthscale_prior"):
        assert isinstance(getattr(kernel, name), HalfCauchyPrior)
    assert kernel.tau_prior.scale.item() == 0.1
    assert kernel.inv_lengthscale_prior.scale.item() == 1.0
    noise_prior = model.likelihood.noise_covar.noise_prior
    assert isinstance(noise_prior, GammaPrior)
    assert (noise_prior.concentration.item(), noise_prior.rate.item()) == (0.9, 10.0)
    mean_prior = model.mean_module.mean_prior
    assert isinstance(mean_prior, NormalPrior)
    assert (mean_prior.loc.item(), mean_prior.scale.item()) == (0.0, 1.0)
    assert np.allclose(kernel.lengthscale.detach().numpy(), 1.0, rtol=1e-12)
    assert math.isclose(tau(kernel), 0.1, rel_tol=1e-12)
    assert math.isclose(scaled.outputscale.item(), 10.0, rel_tol=1e-12)
    assert math.isclose(model.likelihood.noise.item(), 1e-2, rel_tol=1e-12)
    assert model.mean_module.constant.item() == 0.0
    assert isinstance(model.outcome_transform, Standardize)


def tau(kernel):
    return kernel.raw_tau_constraint.transform(kernel.raw_tau).item()


def matern52(r2):
    s = np.sqrt(5.0 * r2)
    return (1.0 + s + 5.0 * r2 / 3.0) * np.exp(-s)


def objective_terms(model, x, z):
    """The exact log marginal likelihood of the standardised outcomes z and each log prior
    density, at the model's hyperparameters."""
    kernel = model.covar_module.base_kernel
    ls = kernel.lengthscale.detach().numpy().ravel()
    t = tau(kernel)
    outputscale = model.covar_module.outputscale.item()
    noise = model.likelihood.noise.item()
    mean = model.mean_module.constant.item()
    diff = (x[:, None, :] - x[None, :, :]) / ls
    k = outputscale * matern52((diff**2).sum(-1)) + noise * np.eye(len(x))
    chol = np.linalg.cholesky(k)
    alpha = np.linalg.solve(chol, z - mean)
    lml = -0.5 * alpha @ alpha - np.log(np.diag(chol)).sum() - 0.5 * len(x) * math.log(2 * math.pi)
    priors = {
        "tau": kernel.tau_prior.log_prob(torch.tensor(t)).item(),
        "inverse_lengthscales": kernel.inv_lengthscale_prior.log_prob(torch.tensor(t / ls**2))
        .sum()
        .item(),
        "noise": model.likelihood.noise_covar.noise_prior.log_prob(torch.tensor(noise)).item(),
        "mean": model.mean_module.mean_prior.log_prob(torch.tensor(mean)).item(),
    }
    return lml, priors


x = rng.uniform(size=(N, DIM))
y = objective(x)
train_x, train_y = torch.tensor(x), torch.tensor(y).unsqueeze(-1)
check_model(get_map_saas_model(train_x, train_y, outcome_transform=Standardize(m=1)))
model = get_fitted_map_saas_model(train_x, train_y, outcome_transform=Standardize(m=1))
z = (y - y.mean()) / y.std(ddof=1)
lml, priors = objective_terms(model, x, z)
log_prior = sum(priors.values())
# GPyTorch's own objective (per point, in train mode on the standardised outcomes) agrees.
model.train()
mll = ExactMarginalLogLikelihood(model.likelihood, model)
gpytorch_value = mll(model(train_x), model.train_targets).item() * N
assert math.isclose(gpytorch_value, lml + log_prior, rel_tol=1e-9), (gpytorch_value, lml, log_prior)

kernel = model.covar_module.base_kernel
print(
    json.dumps(
        {
            "botorch": botorch.__version__,
            "torch": torch.__version__,
            "model": "get_fitted_map_saas_model(train_x, train_y, "
            "outcome_transform=Standardize(m=1))",
            "active": list(ACTIVE),
            "x": x.tolist(),
            "y": y.tolist(),
            "lengthscales": kernel.lengthscale.detach().numpy().ravel().tolist(),
            "tau": tau(kernel),
            "outputscale": model.covar_module.outputscale.item(),
            "noise_variance": model.likelihood.noise.item(),
            "mean": model.mean_module.constant.item(),
            "log_marginal_likelihood": lml,
            "log_prior": log_prior,
            "log_priors": priors,
        },
        indent=None,
    )
)
