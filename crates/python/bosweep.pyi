"""Type stubs of the bosweep extension module (crates/python/src)."""

import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

Array = npt.NDArray[np.float64]
Param = Union[float, int, str, bool]
Objective = Callable[[Array], float]

def kde(
    data: Array,
    queries: Array,
    bandwidths: Array,
    weights: Optional[Array] = None,
    log: bool = False,
    device: str = "auto",
    precision: str = "f32",
) -> Array: ...
def kernel_regression(
    data: Array,
    targets: Array,
    queries: Array,
    bandwidth: float,
    kernel: str = "gaussian",
    device: str = "auto",
    precision: str = "f32",
) -> Tuple[Array, Array]: ...
def run(
    algorithm: str,
    problem: Union[str, Objective],
    budget: int,
    init: int = 10,
    seed: int = 1,
    params: Optional[Dict[str, Param]] = None,
    problem_params: Optional[Dict[str, Param]] = None,
    device: str = "cpu",
    precision: str = "f32",
) -> List[Dict[str, Any]]: ...
def sweep(
    config: Union[str, os.PathLike[str], Mapping[str, Any]],
    out: Optional[Union[str, os.PathLike[str]]] = None,
    objectives: Optional[Mapping[str, Objective]] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    device: str = "auto",
    precision: str = "f32",
    report: bool = True,
    wait: bool = False,
    allow_mixed_devices: bool = False,
    progress: Optional[Callable[[int, int], object]] = None,
) -> Dict[str, Any]: ...
def load(dir: Union[str, os.PathLike[str]]) -> Dict[str, Any]: ...
def algorithms() -> List[str]: ...
def problems() -> List[str]: ...

class GP:
    def __init__(
        self,
        x: Array,
        y: Array,
        kernel: str = "matern52",
        fit: str = "map",
        lengthscale: Optional[Sequence[float]] = None,
        signal_var: Optional[float] = None,
        noise_var: Optional[float] = None,
        mean: float = 0.0,
        rq_alpha: float = 1.0,
    ) -> None: ...
    def predict(
        self, x: Array, device: str = "auto", precision: str = "f32"
    ) -> Tuple[Array, Array]: ...
    def pair_reduce(
        self,
        decisions: Array,
        contexts: Array,
        beta: float = 2.0,
        reduction: str = "mean",
        delta: Optional[float] = None,
        infimum: Optional[Array] = None,
        device: str = "auto",
        precision: str = "f32",
    ) -> Array: ...
    @property
    def lengthscales(self) -> List[float]: ...
    @property
    def signal_variance(self) -> float: ...
    @property
    def noise_variance(self) -> float: ...
    @property
    def mean(self) -> float: ...
    @property
    def log_marginal_likelihood(self) -> float: ...

class Optimizer:
    def __init__(
        self,
        algorithm: str,
        bounds: Optional[Sequence[Tuple[float, float]]] = None,
        seed: int = 0,
        init: int = 10,
        sense: str = "min",
        device: str = "cpu",
        precision: str = "f64",
        context_bounds: Optional[Sequence[Tuple[float, float]]] = None,
        problem: Optional[str] = None,
        problem_params: Optional[Dict[str, Param]] = None,
        **params: Param,
    ) -> None: ...
    def ask(self) -> Array: ...
    @property
    def repeats(self) -> int: ...
    def tell(
        self, x: Array, y: Union[float, Sequence[float]], context: Optional[Array] = None
    ) -> None: ...
    def recommend(self) -> Array: ...
