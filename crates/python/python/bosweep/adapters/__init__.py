"""Peer optimisation libraries as bosweep optimisers, each speaking bosweep's command-optimiser
protocol on stdin and stdout: ``python -m bosweep.adapters optuna --sampler tpe|cmaes|gp``,
``nevergrad --optimizer ngopt|cma``, ``botorch``; ``check NAME`` says whether adapter NAME
(``optuna-tpe``, …: bosweep's algorithm names) can run here, else the pip line that makes it.

Pure Python: the peers' libraries are imported when an adapter runs or is checked, never
here; bosweep's registry entries (``bosweep list``) run these commands."""

from typing import Tuple

from . import botorch_peer, nevergrad_peer, optuna_peer
from .catalog import Adapter

#: Every adapter, in bosweep's listing order.
ADAPTERS: Tuple[Adapter, ...] = optuna_peer.ADAPTERS + nevergrad_peer.ADAPTERS + botorch_peer.ADAPTERS


def find(name: str) -> Adapter:
    """The adapter called ``name``; a KeyError lists the known names."""
    for adapter in ADAPTERS:
        if adapter.name == name:
            return adapter
    raise KeyError(f"unknown adapter {name!r} (known: {', '.join(a.name for a in ADAPTERS)})")
