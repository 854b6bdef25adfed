"""BoTorch as a bosweep optimiser: ``python -m bosweep.adapters botorch [--acquisition
qlognei|qlognehvi]``. At each ask a SingleTaskGP (BoTorch's defaults, which since 0.12 are an
ARD RBF kernel with no outputscale and dimension-scaled log-normal priors, outcomes
standardised; inputs normalised to the unit cube) is fitted by ``fit_gpytorch_mll`` (MAP under
those priors) to every point told, one output per objective, and the acquisition, with the
pending points as ``X_pending``, is maximised by ``optimize_acqf`` (q = 1, 10 restarts from 512
raw samples):

- ``qlognei``: qLogNoisyExpectedImprovement (Ament et al., 2023);
- ``qlognehvi``: qLogNoisyExpectedHypervolumeImprovement (Daulton et al., 2021, in log space) on
  a problem of several objectives, against the problem's reference point, else BoTorch's
  ``infer_reference_point`` of the observed front.

Both prune the observed points (``prune_baseline=True``, as Ax sets it). BoTorch maximises, so
it takes the values as told. Until two points are told, it draws uniformly in the box. Batch
capable.

On a constrained problem the model has one more output per constraint (its values as told,
feasible where <= 0), and the acquisition gets BoTorch's ``constraints`` (one callable per
constraint output, its default ``eta``) with an objective that keeps the objectives' outputs:
constrained qLogNEI and qLogNEHVI as Ax runs them for outcome constraints. The reference point
inferred for qLogNEHVI comes from the feasible points where some are."""

from typing import Any, List, Optional, Tuple

from .catalog import Adapter
from .protocol import Bounds, Constrained, Peer, Point, Value

ADAPTERS = (
    Adapter("botorch-qlognei", ("botorch",), ("botorch",), batch_capable=True, constraints=True),
    Adapter(
        "botorch-qlognehvi", ("botorch", "--acquisition", "qlognehvi"), ("botorch",),
        batch_capable=True, several_objectives=True, constraints=True,
    ),
)

ACQUISITIONS = ("qlognei", "qlognehvi")
NUM_RESTARTS = 10
RAW_SAMPLES = 512


class BotorchPeer:
    """The data told and the points pending; torch's global generator, seeded here, draws the
    first points and the acquisition's raw samples."""

    def __init__(
        self,
        bounds: Bounds,
        seed: int,
        acquisition: str = "qlognei",
        reference_point: Optional[List[float]] = None,
        constraints: int = 0,
    ):
        import torch

        self.torch = torch
        torch.manual_seed(seed)
        self.bounds = torch.tensor(bounds, dtype=torch.double).T
        self.acquisition = acquisition
        self.reference_point = reference_point
        self.constraints = constraints
        self.xs: List[Point] = []
        self.ys: List[List[float]] = []
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
        from botorch.fit import fit_gpytorch_mll
        from botorch.models import SingleTaskGP
        from botorch.models.transforms.input import Normalize
        from botorch.optim import optimize_acqf
        from gpytorch.mlls import ExactMarginalLogLikelihood

        torch = self.torch
        train_x = torch.tensor(self.xs, dtype=torch.double)
        train_y = torch.tensor(self.ys, dtype=torch.double)
        model = SingleTaskGP(train_x, train_y, input_transform=Normalize(d=train_x.shape[-1]))
        fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
        pending = torch.tensor(self.pending, dtype=torch.double) if self.pending else None
        candidate, _ = optimize_acqf(
            self.build_acquisition(model, train_x, train_y, pending),
            bounds=self.bounds,
            q=1,
            num_restarts=NUM_RESTARTS,
            raw_samples=RAW_SAMPLES,
        )
        return candidate[0].tolist()

    def build_acquisition(self, model: Any, train_x: Any, train_y: Any, pending: Any) -> Any:
        k = self.constraints
        m = train_y.shape[-1] - k
        # The constraints are the last k outputs, feasible where <= 0.
        given = {}
        if k > 0:
            from botorch.acquisition.multi_objective.objective import (
                IdentityMCMultiOutputObjective,
            )
            from botorch.acquisition.objective import GenericMCObjective

            given["constraints"] = [
                (lambda Z, j=j: Z[..., m + j]) for j in range(k)
            ]
            given["objective"] = (
                GenericMCObjective(lambda Z, X=None: Z[..., 0])
                if self.acquisition == "qlognei"
                else IdentityMCMultiOutputObjective(outcomes=list(range(m)))
            )
        if self.acquisition == "qlognei":
            from botorch.acquisition.logei import qLogNoisyExpectedImprovement

            return qLogNoisyExpectedImprovement(
                model, X_baseline=train_x, X_pending=pending, prune_baseline=True, **given
            )
        from botorch.acquisition.multi_objective.logei import (
            qLogNoisyExpectedHypervolumeImprovement,
        )
        from botorch.utils.multi_objective.hypervolume import infer_reference_point
        from botorch.utils.multi_objective.pareto import is_non_dominated

        if self.reference_point is not None:
            reference = self.torch.tensor(self.reference_point, dtype=self.torch.double)
        else:
            objectives = train_y[:, :m]
            feasible = (train_y[:, m:] <= 0).all(dim=-1)
            if feasible.any():
                objectives = objectives[feasible]
            reference = infer_reference_point(objectives[is_non_dominated(objectives)])
        return qLogNoisyExpectedHypervolumeImprovement(
            model,
            ref_point=reference,
            X_baseline=train_x,
            X_pending=pending,
            prune_baseline=True,
            **given,
        )

    def tell_asked(self, handle: Any, y: Value) -> None:
        self.pending.remove(handle)
        self.tell_new(handle, y)

    def tell_new(self, x: Point, y: Value) -> None:
        constraints: List[float] = []
        if isinstance(y, Constrained):
            y, constraints = y.value, list(y.constraints)
        self.xs.append(list(x))
        self.ys.append((list(y) if isinstance(y, list) else [y]) + constraints)

    def hold_pending(self, x: Point) -> Any:
        self.pending.append(list(x))
        return self.pending[-1]


def factory(acquisition: str):
    """The protocol's peer factory for one acquisition (BoTorch's loop does not plan for a
    budget)."""

    def build(
        bounds: Bounds,
        seed: int,
        _budget: Optional[int],
        _objectives: int,
        reference_point: Optional[List[float]],
        constraints: int = 0,
    ) -> Peer:
        return BotorchPeer(bounds, seed, acquisition, reference_point, constraints)

    return build
