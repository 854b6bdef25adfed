"""Nevergrad's optimisers as bosweep optimisers: ``python -m bosweep.adapters nevergrad
--optimizer ngopt|cma``. The optimiser minimises the loss −y over an Array parameter bounded by
the box; a point it did not ask is told as a child of the parametrization
(``spawn_child(new_value=x)``). Nevergrad keeps candidates asked and not told itself, so CMA
runs in batches (a pending point it did not ask is suggested, then asked); NGOpt's selected
optimisers wait for one pending point to be told before the next ask, so it is not batch
capable. NGOpt picks its method from the budget: the run's, which ``start`` sends, unless
``--budget`` gives another (bosweep's ``budget`` parameter of nevergrad-ngopt)."""

import warnings
from typing import Any, Optional, Tuple

from .catalog import Adapter
from .protocol import Bounds, Peer, Point

NEVERGRAD = "nevergrad>=1"

ADAPTERS = (
    Adapter("nevergrad-ngopt", ("nevergrad", "--optimizer", "ngopt"), (NEVERGRAD,), batch_capable=False),
    Adapter("nevergrad-cma", ("nevergrad", "--optimizer", "cma"), (NEVERGRAD,), batch_capable=True),
)

#: The adapter's names of Nevergrad's registered optimisers.
OPTIMIZERS = {"ngopt": "NGOpt", "cma": "CMA"}


class NevergradPeer:
    """One Nevergrad optimiser over the box, seeded through its parametrization."""

    def __init__(self, optimizer: str, budget: Optional[int], bounds: Bounds, seed: int):
        import numpy

        # Notices on stderr that say nothing about the run, repeated by every run of a sweep:
        # the optional plotting module of `cma` (imported when CMA first asks) without
        # matplotlib; scipy's COBYLA (one of NGOpt's choices) raising the final trust radius
        # Nevergrad passes it to its smallest valid value; and `cma` noting that the initial
        # design's points, told without being asked, were injected into its population.
        warnings.filterwarnings("ignore", message="Could not import matplotlib")
        warnings.filterwarnings("ignore", message="COBYLA: Invalid RHOEND")
        warnings.filterwarnings("ignore", message="orphanated injected solution")
        import nevergrad

        self.numpy = numpy
        lower = numpy.array([lo for lo, _ in bounds])
        upper = numpy.array([hi for _, hi in bounds])
        self.parametrization = nevergrad.p.Array(shape=(len(bounds),), lower=lower, upper=upper)
        self.parametrization.random_state = numpy.random.RandomState(seed)
        self.optimizer = nevergrad.optimizers.registry[OPTIMIZERS[optimizer]](
            parametrization=self.parametrization, budget=budget, num_workers=1
        )

    def ask(self) -> Tuple[Point, Any]:
        candidate = self.optimizer.ask()
        return [float(v) for v in candidate.value], candidate

    def tell_asked(self, handle: Any, y: float) -> None:
        self.optimizer.tell(handle, -y)

    def tell_new(self, x: Point, y: float) -> None:
        child = self.parametrization.spawn_child(new_value=self.numpy.array(x))
        self.optimizer.tell(child, -y)

    def hold_pending(self, x: Point) -> Any:
        self.optimizer.suggest(self.numpy.array(x))
        return self.optimizer.ask()


def factory(optimizer: str, budget: Optional[int]):
    """The protocol's peer factory for one optimiser."""

    def build(
        bounds: Bounds, seed: int, run_budget: Optional[int], _objectives: int, _reference: Any
    ) -> Peer:
        return NevergradPeer(optimizer, run_budget if budget is None else budget, bounds, seed)

    return build
