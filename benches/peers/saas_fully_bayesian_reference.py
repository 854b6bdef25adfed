"""BoTorch's fully Bayesian SAAS model on fixed data: the reference values
tests/library/saas_fully_bayesian.rs holds (tests/library/data/saas_fully_bayesian.json).

    pip install torch==2.15.0 gpytorch==1.15.2 botorch==0.18.1 jax==0.10.2 numpyro==0.22.0
    python benches/peers/saas_fully_bayesian_reference.py > tests/library/data/saas_fully_bayesian.json

Three things, on one small data set (12 points in 4 dimensions, two of them active, the
outcomes standardised as the SAASBO tutorial's `Standardize(m=1)` does):

* `log_density`: NumPyro's potential energy of `SaasPyroModel.sample` (negated) at fixed
  unconstrained points `(ln outputscale, mean, ln noise', ln tausq, ln z_1, ..., ln z_d)`, the
  sites in the model's order, each positive site by its logarithm with the Jacobian included:
  the density bosweep's NUTS samples, which must equal it to rounding.
* `posterior`: the mean and standard deviation of each unconstrained coordinate over NumPyro's
  NUTS (`dense_mass=True`, `max_tree_depth=6`, as `fit_fully_bayesian_model_nuts` sets them) run
  long (4 chains of 1000 warmup steps and 5000 draws), with the effective sample size: the
  statistics a long bosweep chain must reproduce within Monte Carlo error.
* `ensemble`: qLogNEI (`prune_baseline=False`, `cache_root=False`) on a
  `SaasFullyBayesianSingleTaskGP` holding three fixed hyperparameter draws
  (`load_mcmc_samples`), with fixed base samples shared by the three models, at fixed
  candidates: BoTorch's log-mean-exp over the models' samples, exactly.
"""

import json
import math

import jax
import numpy as np
import torch
from botorch.acquisition.logei import qLogNoisyExpectedImprovement
from botorch.models.fully_bayesian import SaasFullyBayesianSingleTaskGP, SaasPyroModel
from botorch.sampling.normal import SobolQMCNormalSampler
from numpyro.diagnostics import effective_sample_size
from numpyro.infer import MCMC, NUTS
from numpyro.infer.util import potential_energy

jax.config.update("jax_enable_x64", True)
torch.set_default_dtype(torch.float64)
rng = np.random.default_rng(20261129)
N, DIM, N_CANDIDATES, SAMPLES = 12, 4, 5, 32

train_x = rng.uniform(size=(N, DIM))
raw_y = np.sin(5.0 * train_x[:, 0]) + 2.0 * (train_x[:, 2] - 0.5) ** 2 + 0.02 * rng.normal(size=N)
# Standardize(m=1): the unbiased standard deviation.
train_y = (raw_y - raw_y.mean()) / raw_y.std(ddof=1)
SITES = ["outputscale", "mean", "noise", "kernel_tausq", "_kernel_inv_length_sq"]


def pyro_model():
    model = SaasPyroModel()
    model.set_inputs(torch.tensor(train_x), torch.tensor(train_y).unsqueeze(-1))
    return model


def to_sites(theta):
    """Unconstrained coordinates in bosweep's order -> NumPyro's unconstrained sites."""
    theta = np.asarray(theta)
    return {
        "outputscale": theta[0],
        "mean": theta[1],
        "noise": theta[2],
        "kernel_tausq": theta[3],
        "_kernel_inv_length_sq": theta[4:],
    }


def from_samples(samples):
    """NumPyro's constrained draws -> unconstrained coordinates, one row per draw."""
    noise = np.asarray(samples["noise"])
    columns = [
        np.log(np.asarray(samples["outputscale"])),
        np.asarray(samples["mean"]),
        # The site is the Gamma draw; the noise variance is 1e-4 (MIN_INFERRED_NOISE_LEVEL) plus it.
        np.log(noise),
        np.log(np.asarray(samples["kernel_tausq"])),
    ]
    inv = np.log(np.asarray(samples["_kernel_inv_length_sq"]))
    return np.column_stack(columns + [inv[..., d] for d in range(DIM)])


model = pyro_model()
points = [rng.uniform(-2.0, 2.0, size=4 + DIM) for _ in range(6)]
log_density = [
    {
        "theta": p.tolist(),
        "value": -float(potential_energy(model.sample, (), {}, to_sites(p))),
    }
    for p in points
]

mcmc = MCMC(
    NUTS(model.sample, dense_mass=True, max_tree_depth=6),
    num_warmup=1000,
    num_samples=5000,
    num_chains=4,
    chain_method="sequential",
    progress_bar=False,
)
mcmc.run(jax.random.PRNGKey(0))
by_chain = mcmc.get_samples(group_by_chain=True)
chains = np.stack([from_samples({k: v[c] for k, v in by_chain.items()}) for c in range(4)])
flat = chains.reshape(-1, chains.shape[-1])
posterior = {
    "mean": flat.mean(axis=0).tolist(),
    "sd": flat.std(axis=0).tolist(),
    "ess": [float(effective_sample_size(chains[:, :, j])) for j in range(flat.shape[1])],
}

# Three draws from the long run as the ensemble's models.
picked = flat[[100, 7000, 15000]]
hyper = {
    "outputscale": np.exp(picked[:, 0]),
    "mean": picked[:, 1],
    "noise": 1e-4 + np.exp(picked[:, 2]),
    "lengthscale": 1.0 / np.sqrt(np.exp(picked[:, 3:4] + picked[:, 4:])),
}
gp = SaasFullyBayesianSingleTaskGP(torch.tensor(train_x), torch.tensor(train_y).unsqueeze(-1))
gp.load_mcmc_samples({k: torch.tensor(v) for k, v in hyper.items()})
gp.eval()
base = rng.normal(size=(SAMPLES, N + 1))
candidates = rng.uniform(size=(N_CANDIDATES, DIM))
sampler = SobolQMCNormalSampler(sample_shape=torch.Size([SAMPLES]))
given = torch.tensor(base).unsqueeze(1).unsqueeze(1)  # samples x batch x mcmc x points
sampler.base_samples = given
acquisition = qLogNoisyExpectedImprovement(
    gp, torch.tensor(train_x), sampler=sampler, cache_root=False, prune_baseline=False
)
values = []
for x in candidates:
    with torch.no_grad():
        values.append(acquisition(torch.tensor(x).reshape(1, 1, DIM)).item())
    # A base-sample shape BoTorch does not expect would be replaced by its own draws.
    assert torch.equal(acquisition.sampler.base_samples, given), acquisition.sampler.base_samples.shape
assert all(math.isfinite(v) for v in values)

print(
    json.dumps(
        {
            "train_x": train_x.tolist(),
            "train_y": train_y.tolist(),
            "log_density": log_density,
            "posterior": posterior,
            "ensemble": {
                "outputscale": hyper["outputscale"].tolist(),
                "mean": hyper["mean"].tolist(),
                "noise": hyper["noise"].tolist(),
                "lengthscales": hyper["lengthscale"].tolist(),
                "base_samples": base.tolist(),
                "candidates": candidates.tolist(),
                "values": values,
            },
        },
        indent=1,
    )
)
