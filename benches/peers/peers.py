#!/usr/bin/env python3
"""Times bosweep's peers on the work of `bosweep bench`.

Peers: BoTorch/GPyTorch (`botorch`), scikit-learn (`sklearn`), SciPy (`scipy`) and botorch-rust
(`botorch_rs`, the PyPI package `botorch-rust`, BoTorch's API over a Rust core).

The sizes, the kernel and the repeat policy (one untimed warm-up call, then the median of
`--repeats` calls, the upper median for an even count as in bosweep) are those of
`src/cli/benchmark.rs`. Inputs are uniform on the unit cube from a fixed seed, as
bosweep's are (not the same numbers: bosweep draws from ChaCha8; the timings do not depend on the
values).

Subcommands:
  measure  run the peers (each (peer, operation, size) in its own Python process with a time
           limit) and write the results as JSON
  one      one (peer, operation, size) measurement in this process; prints one JSON line
  table    join a saved `bosweep bench` output with `measure`'s JSON into a markdown table
  env      print versions and thread settings

See README.md beside this file.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
import warnings

PEERS = ["botorch", "sklearn", "scipy", "botorch_rs"]
LABELS = {
    "botorch": "BoTorch/GPyTorch",
    "sklearn": "scikit-learn",
    "scipy": "SciPy",
    "botorch_rs": "botorch-rust",
}
# The operations a peer can do; every other (operation, peer) pair is shown as "–".
SUPPORTED = {
    "posterior": ["botorch", "sklearn", "botorch_rs"],
    "kde": ["scipy", "sklearn"],
    "gp-ucb-step": ["botorch", "botorch_rs"],
}
# Sizes of `Preset::sizes` in src/cli/benchmark.rs.
PRESETS = {
    "quick": {"posterior": (200, 5, 4096), "kde": (512, 4, 4096), "gp-ucb-step": [50]},
    "standard": {
        "posterior": (1000, 10, 100_000),
        "kde": (4096, 8, 65_536),
        "gp-ucb-step": [100, 500, 1000],
    },
    "large": {
        "posterior": (2048, 20, 1 << 20),
        "kde": (4096, 8, 1 << 20),
        "gp-ucb-step": [100, 500, 1000],
    },
}
# Fixed kernel of bosweep's `random_gp`: Matérn-5/2, lengthscale 0.5 in every dimension, signal
# variance 1, noise variance 1e-4; KDE bandwidth 0.1 in every dimension.
LENGTHSCALE, SIGNAL_VAR, NOISE_VAR, KDE_H = 0.5, 1.0, 1e-4, 0.1
# GP-UCB step: κ = 2 (BoTorch's beta = κ² = 4), 8 refined starts from a 2^12·d Sobol grid.
UCB_BETA, NUM_RESTARTS = 4.0, 8
SEED = 20261121
# Setup allowance of a child process (imports, data, reference checks) on top of --limit.
SETUP_S = 90.0


def size_of(op: str, preset: str) -> list[str]:
    s = PRESETS[preset][op]
    if op == "gp-ucb-step":
        return [f"n={n} d=6" for n in s]
    n, d, m = s
    return [f"n={n} d={d} m={m}"]


def parse_size(size: str) -> dict[str, int]:
    return {k: int(v) for k, v in (t.split("=") for t in size.split())}


# ---------------------------------------------------------------------------------------------
# Environment: threads and versions


def threads() -> int:
    return int(os.environ.get("BOSWEEP_PEERS_THREADS") or os.cpu_count() or 1)


def thread_env(t: int) -> dict[str, str]:
    """Environment that pins every thread pool of the peers (and bosweep's rayon) to `t`."""
    keys = [
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
        "OPENBLAS_NUM_THREADS",
        "BLIS_NUM_THREADS",
        "VECLIB_MAXIMUM_THREADS",
        "NUMEXPR_NUM_THREADS",
        "RAYON_NUM_THREADS",
    ]
    return {k: str(t) for k in keys}


def pin_threads(peer: str | None = None) -> None:
    t = threads()
    for k, v in thread_env(t).items():
        os.environ.setdefault(k, v)
    if peer in ("botorch", "botorch_rs", None):
        import torch

        torch.set_num_threads(t)
    if peer == "botorch_rs":
        import botorch_rs

        botorch_rs.set_num_threads(t)
    elif peer is None:
        # The environment report names every peer that is installed; botorch-rust may not be
        # (it is not on every CUDA image), and `environment` reports it as unavailable.
        try:
            import botorch_rs

            botorch_rs.set_num_threads(t)
        except ImportError:
            pass


def environment() -> dict:
    """Versions and thread settings, as the child processes see them."""
    pin_threads()
    import numpy
    import scipy
    import sklearn
    import threadpoolctl
    import torch

    out = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "threads": threads(),
        "thread_env": {k: os.environ.get(k) for k in [*thread_env(0), "OMP_WAIT_POLICY"]},
        "versions": {"numpy": numpy.__version__, "scipy": scipy.__version__,
                     "scikit-learn": sklearn.__version__, "torch": torch.__version__},
        "torch_threads": torch.get_num_threads(),
        "torch_interop_threads": torch.get_num_interop_threads(),
        "cuda_available": torch.cuda.is_available(),
        "blas": [
            {k: p.get(k) for k in ("user_api", "internal_api", "num_threads", "version",
                                   "architecture", "prefix")}
            for p in threadpoolctl.threadpool_info()
        ],
    }
    if torch.cuda.is_available():
        out["cuda_device"] = torch.cuda.get_device_name(0)
    for mod, name in (("botorch", "botorch"), ("gpytorch", "gpytorch"),
                      ("linear_operator", "linear_operator"), ("botorch_rs", "botorch-rust")):
        try:
            out["versions"][name] = __import__(mod).__version__
        except Exception as e:  # noqa: BLE001 - reported, not fatal
            out["versions"][name] = f"unavailable: {e}"
    try:
        import botorch_rs

        out["botorch_rs_threads"] = botorch_rs.get_num_threads()
    except Exception:  # noqa: BLE001
        pass
    return out


# ---------------------------------------------------------------------------------------------
# Timing


def now() -> float:
    return time.perf_counter()


def upper_median(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 2]


def time_calls(f, repeats: int, limit: float) -> dict:
    """bosweep's `time`: one warm-up call, then the median of `repeats` calls. When the warm-up
    call alone took over `limit` seconds, the repeats are skipped and the warm-up call's time is
    reported alone (marked `single_call`)."""
    t0 = now()
    f()
    warm = now() - t0
    if warm > limit:
        return {"seconds": warm, "warmup": warm, "times": [warm], "single_call": True,
                "note": f"one (warm-up) call only: it took {warm:.0f} s > limit {limit:.0f} s"}
    times = []
    for _ in range(repeats):
        t0 = now()
        f()
        times.append(now() - t0)
    return {"seconds": upper_median(times), "warmup": warm, "times": times}


# ---------------------------------------------------------------------------------------------
# Reference computations (NumPy), to check that each peer computes what bosweep does


def matern52(a, b, ls=LENGTHSCALE, var=SIGNAL_VAR):
    import numpy as np

    d2 = (((a[:, None, :] - b[None, :, :]) / ls) ** 2).sum(-1)
    r = np.sqrt(np.maximum(d2, 0.0))
    s5 = math.sqrt(5.0) * r
    return var * (1.0 + s5 + 5.0 / 3.0 * d2) * np.exp(-s5)


def reference_posterior(x, y, c):
    import numpy as np
    from scipy.linalg import cho_factor, cho_solve

    k = matern52(x, x) + NOISE_VAR * np.eye(len(x))
    f = cho_factor(k, lower=True)
    ks = matern52(c, x)
    mean = ks @ cho_solve(f, y)
    var = SIGNAL_VAR - np.einsum("ij,ji->i", ks, cho_solve(f, ks.T))
    return mean, var


def reference_kde(data, q, h=KDE_H):
    import numpy as np
    from scipy.special import logsumexp

    n, d = data.shape
    z = ((q[:, None, :] - data[None, :, :]) / h) ** 2
    logk = -0.5 * z.sum(-1) - d * math.log(h) - 0.5 * d * math.log(2 * math.pi)
    return logsumexp(logk, axis=1) - math.log(n)


def max_rel_err(a, b) -> float:
    import numpy as np

    a, b = np.asarray(a, dtype=float).ravel(), np.asarray(b, dtype=float).ravel()
    return float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b))))


CHECK_ROWS = 200


# ---------------------------------------------------------------------------------------------
# Operations


def uniform(rng, rows, dim):
    return rng.random((rows, dim))


def torch_sync(device: str) -> None:
    if device == "cuda":
        import torch

        torch.cuda.synchronize()


def gp_posterior(peer: str, size: str, device: str, repeats: int, limit: float, opts) -> dict:
    """`engine.posterior(gp, candidates)`: mean and variance of the latent GP at m candidates,
    the GP (Cholesky factor included) built beforehand, untimed."""
    import numpy as np

    s = parse_size(size)
    n, d, m = s["n"], s["d"], s["m"]
    rng = np.random.default_rng(SEED)
    x, y, c = uniform(rng, n, d), rng.random(n), uniform(rng, m, d)
    mean_ref, var_ref = reference_posterior(x, y, c[:CHECK_ROWS])
    info: dict = {}

    if peer == "sklearn":
        from sklearn.gaussian_process import GaussianProcessRegressor
        from sklearn.gaussian_process.kernels import ConstantKernel, Matern

        kernel = ConstantKernel(SIGNAL_VAR, "fixed") * Matern(
            length_scale=[LENGTHSCALE] * d, length_scale_bounds="fixed", nu=2.5)
        gp = GaussianProcessRegressor(kernel=kernel, optimizer=None, alpha=NOISE_VAR,
                                      normalize_y=False).fit(x, y)

        def call():
            return gp.predict(c, return_std=True)

        mean, std = call()
        var = std**2
    else:
        import torch

        dev = torch.device(device)
        tx, ty, tc = (torch.tensor(a, dtype=torch.float64, device=dev) for a in (x, y[:, None], c))
        if peer == "botorch":
            import gpytorch
            from botorch.models import SingleTaskGP
            from gpytorch.kernels import MaternKernel, ScaleKernel
        else:
            from botorch_rs.kernels import MaternKernel, ScaleKernel
            from botorch_rs.models import SingleTaskGP
        covar = ScaleKernel(MaternKernel(nu=2.5, ard_num_dims=d))
        model = SingleTaskGP(tx, ty, train_Yvar=torch.full_like(ty, NOISE_VAR),
                             covar_module=covar, outcome_transform=None)
        if peer == "botorch":
            model = model.to(dev)
        model.covar_module.base_kernel.lengthscale = torch.full(
            (1, d), LENGTHSCALE, dtype=torch.float64, device=dev)
        model.covar_module.outputscale = torch.tensor(SIGNAL_VAR, dtype=torch.float64,
                                                      device=dev)
        model.eval()
        info["model"] = type(model).__module__ + "." + type(model).__name__

        if peer == "botorch":
            # GPyTorch 1.15 evaluates the dense m x m test-test prior covariance in
            # `ExactGP.__call__` (`_get_test_prior_mean_and_covariances`), even when only the
            # variance is wanted: 80 GB at m = 100 000. The candidates go in chunks.
            chunk = opts.posterior_chunk
            info["chunk"] = chunk

            def call():
                with (torch.no_grad(), gpytorch.settings.fast_pred_var(False),
                      gpytorch.settings.max_cholesky_size(opts.max_cholesky_size)):
                    means, variances = [], []
                    for part in tc.split(chunk):
                        post = model.posterior(part)
                        means.append(post.mean)
                        variances.append(post.variance)
                    out = torch.cat(means), torch.cat(variances)
                torch_sync(device)
                return out
        else:
            def call():
                with torch.no_grad():
                    post = model.posterior(tc)
                    out = post.mean, post.variance
                torch_sync(device)
                return out

        mean, var = call()
        mean, var = (t.detach().cpu().numpy().ravel() for t in (mean, var))
    info["check_max_rel_err"] = {
        "mean": max_rel_err(mean[:CHECK_ROWS], mean_ref),
        "variance": max_rel_err(var[:CHECK_ROWS], var_ref),
    }
    info.update(time_calls(call, repeats, limit))
    return info


def kde(peer: str, size: str, device: str, repeats: int, limit: float, opts) -> dict:
    """`engine.kde_log_density(data, h, None, queries)`: log of the mean over the data of the
    product Gaussian kernel with standard deviation h = 0.1 in every dimension."""
    import numpy as np

    s = parse_size(size)
    n, d, m = s["n"], s["d"], s["m"]
    rng = np.random.default_rng(SEED)
    data, q = uniform(rng, n, d), uniform(rng, m, d)
    ref = reference_kde(data, q[:CHECK_ROWS])
    info: dict = {"device": "cpu"}
    if peer == "scipy":
        from scipy.stats import gaussian_kde

        # gaussian_kde's kernel covariance is (data covariance) x factor². To get bosweep's
        # diag(h²) we set the cached data covariance (and its Cholesky factor) to the identity
        # and take the scalar factor h: covariance = I h², cho_cov = I h. (`_compute_covariance`
        # reuses `_data_cho_cov` when present: SciPy >= 1.10.) Checked below against NumPy.
        est = gaussian_kde(data.T, bw_method=KDE_H)
        est._data_covariance = np.eye(d)
        est._data_cho_cov = np.eye(d)
        est.set_bandwidth(KDE_H)
        assert np.allclose(est.covariance, KDE_H**2 * np.eye(d)), est.covariance
        qt = np.ascontiguousarray(q.T)

        def call():
            return est.logpdf(qt)

        info["how"] = "gaussian_kde(bw_method=0.1) with data covariance set to I"
    else:
        from sklearn.neighbors import KernelDensity

        est = KernelDensity(kernel="gaussian", bandwidth=KDE_H).fit(data)

        def call():
            return est.score_samples(q)

        info["how"] = f"KernelDensity(bandwidth=0.1, algorithm={est.algorithm!r}), rtol=atol=0"
    out = call()
    info["check_max_rel_err"] = {"log_density": max_rel_err(out[:CHECK_ROWS], ref)}
    info.update(time_calls(call, repeats, limit))
    return info


def hartmann6(x):
    import numpy as np

    alpha = np.array([1.0, 1.2, 3.0, 3.2])
    a = np.array([[10, 3, 17, 3.5, 1.7, 8], [0.05, 10, 17, 0.1, 8, 14],
                  [3, 3.5, 1.7, 10, 17, 8], [17, 8, 0.05, 10, 0.1, 14]])
    p = 1e-4 * np.array([[1312, 1696, 5569, 124, 8283, 5886], [2329, 4135, 8307, 3736, 1004, 9991],
                         [2348, 1451, 3522, 2883, 3047, 6650], [4047, 8828, 8732, 5743, 1091, 381]])
    x = np.atleast_2d(x)
    inner = (a[None] * (x[:, None, :] - p[None]) ** 2).sum(-1)
    return -(alpha[None] * np.exp(-inner)).sum(-1)


def gp_ucb_step(peer: str, size: str, device: str, repeats: int, limit: float, opts) -> dict:
    """bosweep's `time_bo_step`: n uniform observations of Hartmann-6 (maximising −f), one untimed
    warm-up step, then `repeats` steps each after one more uniform observation; the median step
    and the mean fit and acquisition seconds. A step = build SingleTaskGP (Matérn-5/2 ARD with
    BoTorch's Gamma priors, bosweep's default `fit = map`; inputs normalised by the domain
    bounds, outputs standardised) + fit_gpytorch_mll + optimize_acqf of UCB(beta=4)."""
    import numpy as np
    import torch

    n = parse_size(size)["n"]
    d = 6
    dev = torch.device(device)
    if peer == "botorch":
        import gpytorch
        from botorch.acquisition import UpperConfidenceBound
        from botorch.fit import fit_gpytorch_mll
        from botorch.models import SingleTaskGP
        from botorch.models.transforms import Normalize, Standardize
        from botorch.models.utils.gpytorch_modules import (
            get_gaussian_likelihood_with_gamma_prior,
            get_matern_kernel_with_gamma_prior,
        )
        from botorch.optim import optimize_acqf
        from gpytorch.mlls import ExactMarginalLogLikelihood

        def settings():
            return gpytorch.settings.max_cholesky_size(opts.max_cholesky_size)
    else:
        import contextlib

        from botorch_rs.acquisition import UpperConfidenceBound
        from botorch_rs.fit import fit_gpytorch_mll
        from botorch_rs.mlls import ExactMarginalLogLikelihood
        from botorch_rs.models import SingleTaskGP
        from botorch_rs.models.transforms import Normalize, Standardize
        from botorch_rs.models.utils.gpytorch_modules import (
            get_gaussian_likelihood_with_gamma_prior,
            get_matern_kernel_with_gamma_prior,
        )
        from botorch_rs.optim import optimize_acqf

        settings = contextlib.nullcontext

    rng = np.random.default_rng(SEED + n)
    xs: list = []
    ys: list = []

    def observe():
        x = rng.random(d)
        xs.append(x)
        ys.append(-hartmann6(x)[0])

    for _ in range(n):
        observe()
    bounds = torch.stack([torch.zeros(d), torch.ones(d)]).to(dtype=torch.float64, device=dev)
    info: dict = {"model_class": None}

    def step():
        tx = torch.tensor(np.array(xs), dtype=torch.float64, device=dev)
        ty = torch.tensor(np.array(ys)[:, None], dtype=torch.float64, device=dev)
        with settings(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = now()
            model = SingleTaskGP(
                tx, ty,
                covar_module=get_matern_kernel_with_gamma_prior(ard_num_dims=d),
                likelihood=get_gaussian_likelihood_with_gamma_prior(),
                input_transform=Normalize(d=d, bounds=bounds),
                outcome_transform=Standardize(m=1),
            )
            if peer == "botorch":
                model = model.to(dev)
            mll = ExactMarginalLogLikelihood(model.likelihood, model)
            fit_gpytorch_mll(mll)
            torch_sync(device)
            t1 = now()
            acq = UpperConfidenceBound(model, beta=UCB_BETA)
            cand, _ = optimize_acqf(acq, bounds=bounds, q=1, num_restarts=NUM_RESTARTS,
                                    raw_samples=(1 << 12) * d)
            cand = cand.detach().cpu()
            t2 = now()
        info["model_class"] = type(model).__module__ + "." + type(model).__name__
        info["last_lengthscale"] = [round(float(v), 4) for v in
                                    model.covar_module.base_kernel.lengthscale.detach().cpu()
                                    .reshape(-1)]
        info["last_candidate"] = [round(float(v), 4) for v in cand.reshape(-1)]
        return t1 - t0, t2 - t1

    cold_fit, cold_acq = step()
    warm = cold_fit + cold_acq
    info.update({"warmup": warm, "cold_fit": cold_fit})
    if warm > limit:
        info.update({"seconds": warm, "fit": cold_fit, "acq": cold_acq, "times": [warm],
                     "single_call": True,
                     "note": f"one (warm-up) step only: it took {warm:.0f} s > limit "
                             f"{limit:.0f} s"})
        return info
    totals, fits, acqs = [], [], []
    for _ in range(repeats):
        observe()
        f, a = step()
        fits.append(f)
        acqs.append(a)
        totals.append(f + a)
    info.update({"seconds": upper_median(totals), "fit": sum(fits) / len(fits),
                 "acq": sum(acqs) / len(acqs), "times": totals})
    return info


OPERATIONS = {"posterior": gp_posterior, "kde": kde, "gp-ucb-step": gp_ucb_step}


# ---------------------------------------------------------------------------------------------
# Subcommands


def cmd_one(args) -> int:
    pin_threads(args.peer)
    warnings.filterwarnings("ignore", category=FutureWarning)
    rec = {"op": args.op, "size": args.size, "peer": args.peer, "device": args.device}
    try:
        rec.update(OPERATIONS[args.op](args.peer, args.size, args.device, args.repeats,
                                       args.limit, args))
    except Exception as e:  # noqa: BLE001 - reported in the table
        import traceback

        rec["error"] = f"{type(e).__name__}: {e}"
        rec["traceback"] = traceback.format_exc()
    print(json.dumps(rec), flush=True)
    return 0


def cmd_measure(args) -> int:
    ops = [o for o in args.ops.split(",") if o]
    peers = [p for p in args.peers.split(",") if p]
    for p in peers:
        if p not in PEERS:
            sys.exit(f"peers.py: unknown peer '{p}' (expected some of {','.join(PEERS)})")
    env = dict(os.environ)
    env.update({k: env.get(k) or v for k, v in thread_env(threads()).items()})
    envinfo = json.loads(subprocess.run([sys.executable, __file__, "env", "--json"], env=env,
                                        check=True, capture_output=True, text=True).stdout)
    results = []
    for op in ops:
        if op not in SUPPORTED:
            print(f"peers.py: no peer does '{op}'; bosweep only", file=sys.stderr)
            continue
        for peer in peers:
            if peer not in SUPPORTED[op]:
                continue
            dev = args.device if peer in ("botorch", "botorch_rs") else "cpu"
            skip_rest = None
            for size in size_of(op, args.preset):
                rec = {"op": op, "size": size, "peer": peer, "device": dev}
                if skip_rest:
                    rec["skipped"] = skip_rest
                    results.append(rec)
                    print(f"[peers] {op:<12} {size:<22} {LABELS[peer]:<17} skipped: {skip_rest}",
                          file=sys.stderr, flush=True)
                    continue
                cmd = [sys.executable, __file__, "one", "--op", op, "--peer", peer,
                       "--size", size, "--device", dev, "--repeats", str(args.repeats),
                       "--limit", str(args.limit),
                       "--max-cholesky-size", str(args.max_cholesky_size),
                       "--posterior-chunk", str(args.posterior_chunk)]
                hard_limit = (1 + args.repeats) * args.limit + SETUP_S
                t0 = now()
                try:
                    p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                       timeout=hard_limit)
                    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
                    if p.returncode != 0 or not lines:
                        rec["error"] = (f"exit {p.returncode}: "
                                        + (p.stderr.strip().splitlines() or ["no output"])[-1])
                    else:
                        rec = json.loads(lines[-1])
                except subprocess.TimeoutExpired:
                    rec["skipped"] = (f"killed after {hard_limit:.0f} s "
                                      f"((1 + repeats) x limit {args.limit:.0f} s + setup "
                                      f"{SETUP_S:.0f} s)")
                rec["wall"] = now() - t0
                results.append(rec)
                if op == "gp-ucb-step" and (rec.get("single_call") or rec.get("skipped")):
                    skip_rest = f"a smaller n already took over the limit ({args.limit:.0f} s)"
                print(f"[peers] {op:<12} {size:<22} {LABELS[peer]:<17} " + describe(rec),
                      file=sys.stderr, flush=True)
    out = {"env": envinfo, "args": vars(args), "results": results}
    text = json.dumps(out, indent=1, default=str)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


def describe(rec: dict) -> str:
    if rec.get("error"):
        return "error: " + rec["error"]
    if rec.get("skipped"):
        return "skipped: " + rec["skipped"]
    s = f"{rec['seconds']:.4f} s"
    if "fit" in rec:
        s += f" (fit {rec['fit']:.3f} s + acquisition {rec['acq']:.3f} s, cold fit " \
             f"{rec['cold_fit']:.3f} s)"
    if rec.get("single_call"):
        s += " [one call]"
    chk = rec.get("check_max_rel_err")
    if chk:
        s += " check " + " ".join(f"{k}={v:.1e}" for k, v in chk.items())
    return s


def parse_bosweep(path: str) -> tuple[str, dict]:
    """(engine line, {(op, size key): (seconds, detail)}) of `bosweep bench` output."""
    engine, rows = "", {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# engine:"):
                engine = line[len("# engine:"):].strip()
                continue
            t = line.split()
            if len(t) < 5 or t[0] == "operation":
                continue
            size = " ".join(t[1:-3])
            key, _, detail = size.partition(":")
            rows[(t[0], key.strip())] = (float(t[-3]), detail.strip())
    return engine, rows


def fmt_ratio(x: float) -> str:
    return f"{x:.0f}×" if x >= 10 else f"{x:.1f}×" if x >= 1 else f"{x:.2f}×"


def fmt_s(x: float) -> str:
    return f"{x:.3g}" if x < 100 else f"{x:.0f}"


def cmd_table(args) -> int:
    engine, bos = parse_bosweep(args.bosweep)
    with open(args.peers) as f:
        data = json.load(f)
    results = data["results"]
    peers = [p for p in PEERS if p in data["args"]["peers"].split(",")]
    ops = [o for o in data["args"]["ops"].split(",") if o]
    by_key = {(r["op"], r["size"], r["peer"]): r for r in results}
    notes: list[str] = []

    def note(text: str) -> str:
        if text not in notes:
            notes.append(text)
        return f"[{notes.index(text) + 1}]"

    head = ["operation", "size", "bosweep s"]
    for p in peers:
        head += [f"{LABELS[p]} s", f"{LABELS[p]} / bosweep"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    sizes_seen = []
    for op in ops:
        keys = [k for k in bos if k[0] == op] or [(op, s) for s in size_of(op, data["args"]["preset"])]
        for (_, size) in keys:
            sizes_seen.append((op, size))
            b = bos.get((op, size))
            bfit = bacq = None
            if b is None:
                bcell = "–"
            else:
                bcell = fmt_s(b[0])
                if b[1]:
                    parts = b[1].replace("(", "").replace(")", "").split()
                    # "fit X s + acquisition Y s cold fit Z s"
                    bfit, bacq = float(parts[1]), float(parts[5])
                    bcell += f" (fit {fmt_s(bfit)} + acq {fmt_s(bacq)})"
            row = [op, size, bcell]
            for p in peers:
                r = by_key.get((op, size, p))
                if r is None:
                    row += ["–", "–"]
                    continue
                if r.get("error"):
                    row += ["error " + note(f"{LABELS[p]}, {op} {size}: {r['error']}"), "–"]
                    continue
                if r.get("skipped"):
                    row += ["skipped " + note(f"{LABELS[p]}, {op} {size}: {r['skipped']}"), "–"]
                    continue
                cell = fmt_s(r["seconds"])
                ratio = fmt_ratio(r["seconds"] / b[0]) if b else "–"
                if "fit" in r:
                    cell += f" (fit {fmt_s(r['fit'])} + acq {fmt_s(r['acq'])})"
                    if bfit and bacq:
                        ratio += (f" (fit {fmt_ratio(r['fit'] / bfit)}, "
                                  f"acq {fmt_ratio(r['acq'] / bacq)})")
                if r.get("single_call"):
                    cell += " " + note(f"{LABELS[p]}, {op} {size}: {r['note']}")
                if r.get("device") and r["device"] != "cpu":
                    cell += f" ({r['device']})"
                row += [cell, ratio]
            lines.append("| " + " | ".join(row) + " |")
    env = data["env"]
    print(f"bosweep engine: {engine or 'unknown'}")
    print(f"peers: threads {env['threads']} (torch {env['torch_threads']}, botorch-rust "
          f"{env.get('botorch_rs_threads', '?')}, BLAS "
          + ", ".join(f"{b['internal_api']} {b['num_threads']}" for b in env["blas"])
          + f"; OMP_WAIT_POLICY {env['thread_env'].get('OMP_WAIT_POLICY') or 'unset'}"
          + f"); {', '.join(f'{k} {v}' for k, v in env['versions'].items())}")
    print()
    print("\n".join(lines))
    print()
    print("Seconds: median of the timed calls after one warm-up call (gp-ucb-step: median step; "
          "fit and acq are means). Ratio = peer seconds / bosweep seconds (above 1: bosweep is "
          "faster). –: the peer has no such operation or was not run.")
    checks = [f"{LABELS[r['peer']]} {r['op']}: " + ", ".join(f"{k} {v:.1e}" for k, v in
                                                          r["check_max_rel_err"].items())
              for r in results if r.get("check_max_rel_err")]
    if checks:
        print("Agreement with a NumPy reference on the first "
              f"{CHECK_ROWS} queries (max relative error): " + "; ".join(checks) + ".")
    for i, t in enumerate(notes, 1):
        print(f"[{i}] {t}")
    return 0


def cmd_env(args) -> int:
    info = environment()
    if args.json:
        print(json.dumps(info))
    else:
        for k, v in info.items():
            print(f"{k}: {v}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--device", choices=["cpu", "cuda"], default="cpu",
                        help="device of the torch-based peers (SciPy, scikit-learn: CPU)")
    common.add_argument("--repeats", type=int, default=3)
    common.add_argument("--limit", type=float, default=120.0,
                        help="seconds one call may take: past it the warm-up call alone is "
                             "reported and larger gp-ucb-step sizes are skipped; a measurement "
                             "still running after (1 + repeats) x limit + %d s is killed"
                             % SETUP_S)
    common.add_argument("--max-cholesky-size", type=int, default=1 << 30,
                        help="gpytorch.settings.max_cholesky_size for BoTorch/GPyTorch "
                             "(default: always Cholesky, as bosweep; GPyTorch's own default "
                             "is 800, above which it uses CG/Lanczos)")
    common.add_argument("--posterior-chunk", type=int, default=2048,
                        help="candidates per model.posterior call of BoTorch/GPyTorch (GPyTorch "
                             "forms the dense chunk x chunk test covariance)")
    m = sub.add_parser("measure", parents=[common])
    m.add_argument("--ops", default="posterior,kde,gp-ucb-step")
    m.add_argument("--peers", default=",".join(PEERS))
    m.add_argument("--preset", choices=list(PRESETS), default="standard")
    m.add_argument("--out", help="JSON file (default: stdout)")
    o = sub.add_parser("one", parents=[common])
    o.add_argument("--op", choices=list(OPERATIONS), required=True)
    o.add_argument("--peer", choices=PEERS, required=True)
    o.add_argument("--size", required=True)
    t = sub.add_parser("table")
    t.add_argument("--bosweep", required=True, help="saved `bosweep bench` output")
    t.add_argument("--peers", required=True, help="JSON written by `measure`")
    e = sub.add_parser("env")
    e.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if getattr(args, "repeats", 1) < 1:
        sys.exit("peers.py: --repeats must be at least 1")
    return {"measure": cmd_measure, "one": cmd_one, "table": cmd_table, "env": cmd_env}[
        args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
