"""The hand-set GPs of the constrained reference scripts (logei_pof_reference.py,
qlognei_constrained_reference.py): a SingleTaskGP with an RBF ARD kernel, an outputscale, a
constant mean, a fixed noise variance and the Standardize transform, and its numbers as BoTorch
holds them, which bosweep's tests read back."""

import torch
from botorch.models import SingleTaskGP
from botorch.models.transforms.outcome import Standardize
from gpytorch.kernels import RBFKernel, ScaleKernel
from gpytorch.likelihoods import GaussianLikelihood


def single(train_x, y, lengthscales, outputscale, noise, mean):
    """A GP on `train_x` and targets `y` with every hyperparameter set by hand (no fit)."""
    kernel = ScaleKernel(RBFKernel(ard_num_dims=train_x.shape[1]))
    kernel.base_kernel.lengthscale = torch.tensor(lengthscales)
    kernel.outputscale = torch.tensor(outputscale)
    likelihood = GaussianLikelihood()
    likelihood.noise = torch.tensor(noise)
    gp = SingleTaskGP(
        torch.tensor(train_x),
        torch.tensor(y).unsqueeze(-1),
        covar_module=kernel,
        likelihood=likelihood,
        outcome_transform=Standardize(m=1),
    )
    gp.mean_module.constant.data.fill_(mean)
    return gp.eval()


def held(gp):
    """The hyperparameters as BoTorch holds them, and its standardisation."""
    return {
        "lengthscales": gp.covar_module.base_kernel.lengthscale.squeeze().tolist(),
        "signal_var": gp.covar_module.outputscale.item(),
        "noise_var": gp.likelihood.noise.item(),
        "mean": gp.mean_module.constant.item(),
        "standardize_mean": gp.outcome_transform.means.item(),
        "standardize_std": gp.outcome_transform.stdvs.item(),
    }
