"""bosweep from Python: the engine's batch operations on numpy arrays, GP fit and predict, an
ask/tell optimiser for every bosweep algorithm, runs and sweeps (the extension module
`bosweep._native`, re-exported here), and `bosweep.adapters`, peer optimisation libraries
(Optuna, Nevergrad, BoTorch) speaking the command-optimiser protocol."""

from ._native import (
    GP,
    Error,
    InputError,
    Optimizer,
    RunError,
    __version__,
    algorithms,
    compare,
    kde,
    kernel_regression,
    load_sweep,
    problems,
    run,
    sweep,
)

__all__ = [
    "GP",
    "Error",
    "InputError",
    "Optimizer",
    "RunError",
    "__version__",
    "algorithms",
    "compare",
    "kde",
    "kernel_regression",
    "load_sweep",
    "problems",
    "run",
    "sweep",
]
