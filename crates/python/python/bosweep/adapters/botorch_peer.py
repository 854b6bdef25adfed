"""BoTorch as a bosweep optimiser: ``python -m bosweep.adapters botorch``. At each ask a
SingleTaskGP (BoTorch's defaults, which since 0.12 are an ARD RBF kernel with no outputscale
and dimension-scaled log-normal priors, outcome standardised; inputs normalised to the unit
cube) is fitted by ``fit_gpytorch_mll`` (MAP under those priors) to every point told, and
qLogNoisyExpectedImprovement (Ament et al., 2023), with the pending points as ``X_pending``, is
maximised by ``optimize_acqf`` (q = 1, 10 restarts from 512 raw samples). BoTorch maximises, so
it takes y itself. Until two points are told, it draws uniformly in the box. Batch capable."""

from typing import Any, List, Optional, Tuple

from .catalog import Adapter
from .protocol import Bounds, Peer, Point

ADAPTERS = (Adapter("botorch-qlognei", ("botorch",), ("botorch",), batch_capable=True),)

NUM_RESTARTS = 10
RAW_SAMPLES = 512


class BotorchPeer:
    """The data told and the points pending; torch's global generator, seeded here, draws the
    first points and the acquisition's raw samples."""

    def __init__(self, bounds: Bounds, seed: int):
        import torch

        self.torch = torch
        torch.manual_seed(seed)
        self.bounds = torch.tensor(bounds, dtype=torch.double).T
        self.xs: List[Point] = []
        self.ys: List[float] = []
        self.pending: List[Point] = []

    def ask(self) -> Tuple[Point, Any]:
        torch = self.torch
        lower, upper = self.bounds
        if len(self.xs) < 2:
            x = (lower + (upper - lower) * torch.rand(len(lower), dtype=torch.double)).tolist()
        else:
            x = self.maximise_acquisition()
        self.pending.append(x)
        return x, x

    def maximise_acquisition(self) -> Point:
        from botorch.acquisition.logei import qLogNoisyExpectedImprovement
        from botorch.fit import fit_gpytorch_mll
        from botorch.models import SingleTaskGP
        from botorch.models.transforms.input import Normalize
        from botorch.optim import optimize_acqf
        from gpytorch.mlls import ExactMarginalLogLikelihood

        torch = self.torch
        train_x = torch.tensor(self.xs, dtype=torch.double)
        train_y = torch.tensor(self.ys, dtype=torch.double).unsqueeze(-1)
        model = SingleTaskGP(train_x, train_y, input_transform=Normalize(d=train_x.shape[-1]))
        fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
        pending = torch.tensor(self.pending, dtype=torch.double) if self.pending else None
        acquisition = qLogNoisyExpectedImprovement(
            model, X_baseline=train_x, X_pending=pending, prune_baseline=True
        )
        candidate, _ = optimize_acqf(
            acquisition, bounds=self.bounds, q=1, num_restarts=NUM_RESTARTS, raw_samples=RAW_SAMPLES
        )
        return candidate[0].tolist()

    def tell_asked(self, handle: Any, y: float) -> None:
        self.pending.remove(handle)
        self.tell_new(handle, y)

    def tell_new(self, x: Point, y: float) -> None:
        self.xs.append(list(x))
        self.ys.append(y)

    def hold_pending(self, x: Point) -> Any:
        self.pending.append(list(x))
        return self.pending[-1]


def factory(bounds: Bounds, seed: int, _budget: Optional[int], _objectives: int) -> Peer:
    """The protocol's peer factory (BoTorch's loop does not plan for a budget)."""
    return BotorchPeer(bounds, seed)
