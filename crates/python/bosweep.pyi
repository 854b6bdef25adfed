"""Type stubs of the bosweep extension module (crates/python/src)."""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

Array = npt.NDArray[np.float64]

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
    problem: str,
    budget: int,
    init: int = 10,
    seed: int = 1,
    params: Optional[Dict[str, Union[float, int, str, bool]]] = None,
    problem_params: Optional[Dict[str, Union[float, int, str, bool]]] = None,
    device: str = "cpu",
    precision: str = "f32",
) -> List[Dict[str, Any]]: ...
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
        bounds: Sequence[Tuple[float, float]],
        seed: int = 0,
        init: int = 10,
        sense: str = "min",
        device: str = "cpu",
        precision: str = "f64",
        **params: Union[float, int, str, bool],
    ) -> None: ...
    def ask(self) -> Array: ...
    @property
    def repeats(self) -> int: ...
    def tell(self, x: Array, y: Union[float, Sequence[float]]) -> None: ...
    def recommend(self) -> Array: ...
