"""Type stubs of the bosweep extension module `bosweep._native` (crates/python/src), whose
names the package `bosweep` re-exports (python/bosweep/__init__.py).

Every function that computes takes ``device`` ("auto": a hardware GPU when there is one, else
the CPU; "cpu"; "gpu": any adapter, software ones included) and ``precision`` (of the GPU
shaders; the CPU always computes in f64), with the command line's defaults "auto" and "f32".
Seeds default to 0, as ``bosweep run --seed``.
"""

import os
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

Array = npt.NDArray[np.float64]
Param = Union[float, int, str, bool]
Objective = Callable[[Array], float]
Device = Literal["auto", "cpu", "gpu"]
Precision = Literal["f32", "f64"]
Kernel = Literal["se", "matern12", "matern32", "matern52", "rq"]
Fit = Literal["map", "map-dsp", "mle", "fixed"]

class Error(Exception):
    """Base class of every error bosweep raises."""

class InputError(Error, ValueError):
    """Bad input: an argument, a config, a trace; the message names it."""

class RunError(Error, RuntimeError):
    """A failure while running: a GPU that failed, an objective that crashed or hung."""

def kde(
    data: Array,
    queries: Array,
    bandwidths: Array,
    weights: Optional[Array] = None,
    log: bool = False,
    device: Device = "auto",
    precision: Precision = "f32",
) -> Array:
    """The Gaussian-product KDE of ``data`` (n × d) at ``queries`` (m × d), one bandwidth per
    column (uniform weights when ``weights`` is None); its logarithm with ``log=True``."""

def kernel_regression(
    data: Array,
    targets: Array,
    queries: Array,
    bandwidth: float,
    kernel: Literal["gaussian", "epanechnikov", "uniform"] = "gaussian",
    device: Device = "auto",
    precision: Precision = "f32",
) -> Tuple[Array, Array]:
    """Nadaraya–Watson regression of ``targets`` on ``data`` at ``queries``: the mean and the
    log of the total kernel weight at each query."""

def run(
    algorithm: str,
    problem: Union[str, Objective],
    budget: int,
    init: int = 10,
    seed: int = 0,
    params: Optional[Dict[str, Param]] = None,
    problem_params: Optional[Dict[str, Param]] = None,
    device: Device = "auto",
    precision: Precision = "f32",
    batch: int = 1,
    workers: int = 1,
    runtime: Optional[str] = None,
) -> List[Dict[str, Any]]:
    """One run of ``algorithm`` on ``problem`` (a registered name, or a callable with its
    ``bounds`` and ``sense`` in ``problem_params``): the trace ``bosweep run --out`` writes,
    header first. ``batch`` asks synchronous batches of that many points, ``workers`` runs
    that many asynchronous workers, ``runtime`` times each evaluation on the simulated clock
    (``"constant"``, ``"linear:coordinate=0,slope=4"``, ``"lognormal:sigma=0.5"``); the steps
    then carry ``batch``, ``worker``, ``start`` and ``finish``. Ctrl-C stops it after the
    evaluation in progress."""

def sweep(
    config: Union[str, os.PathLike[str], Mapping[str, Any]],
    out: Optional[Union[str, os.PathLike[str]]] = None,
    objectives: Optional[Mapping[str, Objective]] = None,
    threads: Optional[int] = None,
    shard: Optional[str] = None,
    device: Device = "auto",
    precision: Precision = "f32",
    report: bool = True,
    wait: bool = False,
    allow_mixed_devices: bool = False,
    progress: Optional[Callable[[int, int], object]] = None,
) -> Dict[str, Any]:
    """Runs the sweep of ``config`` (a TOML file's path, or a dict shaped like one) into
    ``out``, resuming what the directory holds; returns the directory and the counts of runs
    selected, skipped and completed. ``progress(done, total)`` is called as runs finish;
    warnings are raised as ``RuntimeWarning``s."""

def load_sweep(dir: Union[str, os.PathLike[str]]) -> Dict[str, Any]:
    """Every step of every completed run of the sweep directory ``dir`` as a dict of columns
    (``pandas.DataFrame(bosweep.load_sweep(dir))``): the run's key, labels, replicate, seed and
    device, then the columns of the report's ``steps.csv``, then ``extra`` and ``warnings``."""

def compare(
    a: Union[str, os.PathLike[str]],
    b: Union[str, os.PathLike[str]],
    metric: Optional[str] = None,
    out: Optional[Union[str, os.PathLike[str]]] = None,
    budgets: Optional[Sequence[float]] = None,
) -> Dict[str, Any]:
    """Compares ``a`` (the baseline) and ``b`` (the change), each a sweep directory, an archive
    set's directory or the name of a shipped archive set (``bosweep archive list``), as
    ``bosweep compare A B`` does: runs paired by algorithm label, problem and replicate (a pair
    must share its initial design and budget, else ``InputError``), the paired Wilcoxon
    signed-rank test of B − A per algorithm, problem and budget fraction (default 0.25, 0.5,
    0.75, 1; 1 always), Holm-corrected over the algorithm's problems. ``metric``:
    "best-evaluated-regret", "recommendation-regret" (or "simple-regret"), "cumulative-regret" or
    "best-value" (default: ``b``'s config, else each problem's default: the best evaluated
    regret where its runs observe their objective itself, else the recommendation's); and per
    algorithm and budget fraction over all its problems at once, by the stratified signed-rank
    test, Holm-corrected over the algorithms. Writes ``compare.md``, ``compare.html``,
    ``compare.csv`` and ``compare-pooled.csv`` into ``out`` (default
    ``b/compare-vs-<a's name>``; required where ``b`` is an archive set) and returns ``files``,
    ``pairs``, ``metric``, ``a_archive`` and ``b_archive`` (the set's name, version, commit and
    device where that side is an archive set, else ``None``), ``only_in_a``,
    ``only_in_b``, ``unpaired`` (dicts: algorithm, problem, replicate, missing_from "A" or "B",
    planned), ``rows`` (dicts: algorithm, problem, budget_fraction, evals, metric, pairs,
    median_a, median_b, median_difference, rank_biserial, w_plus, p_value, p_holm, verdict),
    ``worse`` (the rows where B is significantly worse at the final budget), ``pooled`` (dicts:
    algorithm, budget_fraction, problems, pairs, problems_better, problems_worse, w_plus,
    w_minus, p_value, p_holm, verdict) and ``pooled_worse`` (those where B is significantly
    worse at the final budget)."""

def algorithms() -> List[str]:
    """The registered algorithms' names, as ``bosweep list`` orders them."""

def problems() -> List[str]:
    """The registered problems' names, as ``bosweep list`` orders them."""

class GP:
    """A GP on ``x`` (n × d) and ``y`` (n) with hyperparameters chosen by ``fit``: "map"
    (BoTorch's Gamma priors, the default), "map-dsp" (dimension-scaled priors), "mle" (ML-II)
    or "fixed" (the given values)."""

    def __init__(
        self,
        x: Array,
        y: Array,
        kernel: Kernel = "matern52",
        fit: Fit = "map",
        lengthscale: Optional[Sequence[float]] = None,
        signal_var: Optional[float] = None,
        noise_var: Optional[float] = None,
        mean: float = 0.0,
        rq_alpha: float = 1.0,
    ) -> None: ...
    def predict(
        self, x: Array, device: Device = "auto", precision: Precision = "f32"
    ) -> Tuple[Array, Array]:
        """The latent posterior mean and variance at the rows of ``x``."""
    def pair_reduce(
        self,
        decisions: Array,
        contexts: Array,
        beta: float = 2.0,
        reduction: Literal["mean", "min", "worst-case-tv"] = "mean",
        delta: Optional[float] = None,
        infimum: Optional[Array] = None,
        device: Device = "auto",
        precision: Precision = "f32",
    ) -> Array:
        """The UCB of every decision × context pair, reduced over the contexts per decision."""
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
    """Ask/tell with any registered ``algorithm`` (its parameters as keyword arguments) over
    ``bounds`` or a registered ``problem``'s structure, the caller evaluating the points. The
    first ``init`` points are ``bosweep run``'s initial design for ``seed``."""

    def __init__(
        self,
        algorithm: str,
        bounds: Optional[Sequence[Tuple[float, float]]] = None,
        seed: int = 0,
        init: int = 10,
        sense: Literal["min", "max"] = "min",
        device: Device = "auto",
        precision: Precision = "f32",
        context_bounds: Optional[Sequence[Tuple[float, float]]] = None,
        problem: Optional[str] = None,
        problem_params: Optional[Dict[str, Param]] = None,
        constraints: int = 0,
        **params: Param,
    ) -> None: ...
    def ask(self, n: Optional[int] = None) -> Array:
        """The next point (1-D); with ``n``, up to ``n`` points as rows: the initial design's
        points, as many as remain; after it (once the design is told), a batch of ``n`` where
        the algorithm takes pending points into account (GP-UCB and EI by the Kriging believer,
        random search), else one point once every point asked is told."""
    @property
    def repeats(self) -> int:
        """Values to tell for the last point asked (RAHBO's k; 1 for most algorithms)."""
    def tell(
        self,
        x: Array,
        y: Union[float, Sequence[float]],
        context: Optional[Array] = None,
        constraints: Optional[Sequence[float]] = None,
    ) -> None:
        """Tells the value (or the ``repeats`` values; on a problem of several objectives,
        their values) of the asked point ``x``, with the context the evaluation observed
        where the optimizer has ``context_bounds``, and the ``constraints``' values (feasible
        where every one is <= 0) where it was built with ``constraints`` > 0."""
    def recommend(self) -> Array:
        """The point the algorithm reports after the last tell (a ValueError on a problem of
        several objectives, whose recommendation is the non-dominated set of the values
        told)."""
