"""A BoTorch sampler that applies given normals, for the reference scripts that compare
bosweep's multi-output MC acquisitions with BoTorch's on fixed base samples
(qlognehvi_reference.py, qlognehvi_constrained_reference.py)."""

import torch
from botorch.sampling.base import MCSampler


class FixedNormals(MCSampler):
    """Draws `mean + L z` with the given normals `z` (samples × points × objectives): the first
    columns for a posterior over the fixed points, all of them with the candidate last."""

    def __init__(self, normals):
        super().__init__(sample_shape=torch.Size([normals.shape[0]]))
        self.normals = torch.tensor(normals)

    def forward(self, posterior):
        mean = posterior.mean  # batch × n × m
        n, m = mean.shape[-2], mean.shape[-1]
        columns = list(range(n - 1)) + [self.normals.shape[1] - 1]
        if n < self.normals.shape[1]:
            columns = list(range(n))
        z = self.normals[:, columns, :]  # samples × n × m
        # batch × (n m) × (n m): each objective's points together for BoTorch's batched
        # independent outputs, or interleaved.
        covariance = posterior.mvn.covariance_matrix
        interleaved = posterior.mvn._interleaved
        out = []
        for j in range(m):
            if interleaved:
                block = covariance[..., j::m, j::m]
            else:
                block = covariance[..., j * n : (j + 1) * n, j * n : (j + 1) * n]
            factor = torch.linalg.cholesky(block)
            draws = mean[..., j].unsqueeze(0) + torch.einsum(
                "...ik,sk->s...i", factor, z[:, :, j]
            )
            out.append(draws)
        return torch.stack(out, dim=-1)

    def _update_base_samples(self, posterior, base_sampler):
        pass
