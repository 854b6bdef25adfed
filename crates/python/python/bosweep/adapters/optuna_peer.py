"""Optuna's samplers as bosweep optimisers: ``python -m bosweep.adapters optuna --sampler
tpe|cmaes|gp``. One study minimises the loss −y; asked trials stay RUNNING until told, so the
TPE sampler's constant liar (on, as Optuna's default) and CMA-ES's generations see the pending
points; a pending point the study did not ask (the initial design, evaluated on other workers)
is enqueued and asked, to be running too. The GP sampler does not look at running trials, so
it is not batch capable. On several objectives the study minimises each negated value (TPE as
MOTPE, the GP sampler from Optuna 4.5, NSGA-II); CMA-ES takes one. On a constrained problem
TPE, the GP sampler and NSGA-II take the constraint values through Optuna's
``constraints_func`` (feasible where every one is <= 0, Optuna's convention too); CMA-ES takes
none."""

from typing import Any, Optional, Tuple

from .catalog import Adapter
from .protocol import Bounds, Constrained, Peer, Point, Value

OPTUNA = "optuna>=4"

ADAPTERS = (
    Adapter(
        "optuna-tpe", ("optuna", "--sampler", "tpe"), (OPTUNA,), batch_capable=True,
        several_objectives=True, constraints=True,
    ),
    Adapter("optuna-cmaes", ("optuna", "--sampler", "cmaes"), (OPTUNA, "cmaes"), batch_capable=True),
    Adapter(
        "optuna-gp", ("optuna", "--sampler", "gp"), (OPTUNA, "torch", "scipy"),
        batch_capable=False, several_objectives=True, constraints=True,
    ),
    Adapter(
        "optuna-nsga2", ("optuna", "--sampler", "nsga2"), (OPTUNA,), batch_capable=True,
        several_objectives=True, constraints=True,
    ),
)

SAMPLERS = ("tpe", "cmaes", "gp", "nsga2")


#: The user attribute a told trial carries its constraint values in, which ``constraints_func``
#: reads back (Optuna before 5).
CONSTRAINTS_ATTR = "bosweep_constraints"


def _told_constraints(trial: Any) -> Any:
    """Optuna's ``constraints_func`` (before Optuna 5): the constraint values told with the
    trial."""
    return trial.user_attrs[CONSTRAINTS_ATTR]


def _sets_constraints() -> bool:
    """Whether trials take their constraint values themselves (``Trial.set_constraint``,
    Optuna 5, which deprecates ``constraints_func``)."""
    import optuna

    return hasattr(optuna.trial.Trial, "set_constraint")


def sampler(name: str, seed: int, constrained: bool = False) -> Any:
    """Optuna's sampler ``name`` at its defaults, seeded; where ``constrained``, before Optuna 5
    reading the told constraint values through ``constraints_func``."""
    import optuna

    given = {"constraints_func": _told_constraints} if constrained and not _sets_constraints() else {}
    if name == "tpe":
        return optuna.samplers.TPESampler(seed=seed, constant_liar=True, **given)
    if name == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed)
    if name == "gp":
        return optuna.samplers.GPSampler(seed=seed, **given)
    if name == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed, **given)
    raise ValueError(f"unknown Optuna sampler {name!r} (known: {', '.join(SAMPLERS)})")


class OptunaPeer:
    """One Optuna study over the box, its parameters named x0, x1, …."""

    def __init__(
        self, sampler_name: str, bounds: Bounds, seed: int, objectives: int = 1, constraints: int = 0
    ):
        import optuna

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        self.names = [f"x{i}" for i in range(len(bounds))]
        self.distributions = {
            name: optuna.distributions.FloatDistribution(lo, hi)
            for name, (lo, hi) in zip(self.names, bounds)
        }
        self.study = optuna.create_study(
            directions=["minimize"] * objectives,
            sampler=sampler(sampler_name, seed, constrained=constraints > 0),
        )

    def ask(self) -> Tuple[Point, Any]:
        trial = self.study.ask(self.distributions)
        return [trial.params[name] for name in self.names], trial

    def tell_asked(self, handle: Any, y: Value) -> None:
        if isinstance(y, Constrained):
            if _sets_constraints():
                # Keyed as Optuna reads an added trial's list of values: by position.
                for j, c in enumerate(y.constraints):
                    handle.set_constraint(str(j), c)
            else:
                handle.set_user_attr(CONSTRAINTS_ATTR, y.constraints)
            y = y.value
        self.study.tell(handle, _losses(y))

    def tell_new(self, x: Point, y: Value) -> None:
        import optuna

        attrs: dict = {}
        system_attrs: dict = {}
        if isinstance(y, Constrained):
            # An added trial is not told: its values go where Optuna's samplers read a list of
            # constraint values (every version's format).
            attrs[CONSTRAINTS_ATTR] = y.constraints
            system_attrs["constraints"] = y.constraints
            y = y.value
        self.study.add_trial(
            optuna.trial.create_trial(
                params=dict(zip(self.names, x)),
                distributions=self.distributions,
                values=_losses(y) if isinstance(y, list) else [-y],
                user_attrs=attrs,
                system_attrs=system_attrs,
            )
        )

    def hold_pending(self, x: Point) -> Any:
        self.study.enqueue_trial(dict(zip(self.names, x)))
        return self.study.ask(self.distributions)


def _losses(y: Value) -> Any:
    """The study's losses: the negated value, or each negated value of several objectives."""
    return [-v for v in y] if isinstance(y, list) else -y


def factory(sampler_name: str):
    """The protocol's peer factory for one sampler."""

    def build(
        bounds: Bounds,
        seed: int,
        _budget: Optional[int],
        objectives: int,
        _reference: Any,
        constraints: int = 0,
    ) -> Peer:
        return OptunaPeer(sampler_name, bounds, seed, objectives, constraints)

    return build
