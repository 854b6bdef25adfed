"""The Python package against the command line (identical traces on the same seed), against
closed forms written in numpy, and on bad input. BOSWEEP_BIN names the bosweep executable
(.ci/test sets it; default: the workspace's target/debug/bosweep)."""

import csv
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import bosweep

ROOT = Path(__file__).resolve().parents[3]
BIN = os.environ.get("BOSWEEP_BIN", str(ROOT / "target" / "debug" / "bosweep"))


def cli(*args, cwd=None):
    out = subprocess.run(
        [BIN, "--device", "cpu", *args], capture_output=True, text=True, cwd=cwd
    )
    assert out.returncode == 0, out.stderr
    return out


def without_timings(lines):
    for line in lines:
        for field in ("model_seconds", "acq_seconds", "grid_seconds", "refine_seconds"):
            line.pop(field, None)
        line.get("header", {}).pop("device", None)
    return lines


def read_trace(path):
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


@pytest.mark.parametrize(
    "algorithm,problem,params",
    [
        ("gp-ucb", "branin", {}),
        ("ei", "hartmann3", {"grid_size": 512}),
        ("random", "ackley", {}),
    ],
)
def test_run_gives_the_trace_of_the_command_line(tmp_path, algorithm, problem, params):
    trace = tmp_path / "t.jsonl"
    flags = [f"--param={k}={v}" for k, v in params.items()]
    cli("run", "--algo", algorithm, "--problem", problem, "--budget", "10", "--init", "4",
        "--seed", "3", "--out", str(trace), *flags)
    ours = bosweep.run(algorithm, problem, budget=10, init=4, seed=3, params=params)
    assert without_timings(ours) == without_timings(read_trace(trace))


def test_run_takes_batches_and_workers_as_the_command_line_does(tmp_path):
    trace = tmp_path / "w.jsonl"
    cli("run", "--algo", "ei", "--problem", "branin", "--budget", "10", "--init", "4",
        "--seed", "3", "--workers", "3", "--runtime", "lognormal:sigma=0.5",
        "--param=grid_size=256", "--out", str(trace))
    ours = bosweep.run("ei", "branin", budget=10, init=4, seed=3, params={"grid_size": 256},
                       workers=3, runtime="lognormal:sigma=0.5")
    assert without_timings(ours) == without_timings(read_trace(trace))
    assert sorted({step["worker"] for step in ours[1:]}) == [1, 2, 3]
    with pytest.raises(ValueError, match="batch = 4: algorithm rahbo proposes one point"):
        bosweep.run("rahbo", "sine-hetero", budget=10, init=4, batch=4)
    with pytest.raises(ValueError, match="runtime: runtime \"gamma\": unknown model"):
        bosweep.run("random", "branin", budget=10, runtime="gamma")
    # As on the command line, a run that cannot fit in memory is refused before it starts.
    with pytest.raises(ValueError, match=r"^budget: 10000000 evaluations of ei need about .* of memory"):
        bosweep.run("ei", "branin", budget=10_000_000)


OBJECTIVE = """
import json, sys
x = json.loads(sys.stdin.readline())
print(repr((x[0] - 0.3) ** 2 + (x[1] + 0.2) ** 2))
"""


def objective(x):
    return (x[0] - 0.3) ** 2 + (x[1] + 0.2) ** 2


@pytest.mark.parametrize("algorithm", ["gp-ucb", "uhe-bo", "boke"])
def test_ask_tell_makes_the_decisions_of_the_command_line(tmp_path, algorithm):
    script = tmp_path / "f.py"
    script.write_text(OBJECTIVE)
    trace = tmp_path / "t.jsonl"
    cli("run", "--algo", algorithm, "--objective-cmd", f"{sys.executable} {script}",
        "--bounds", "0:1,-1:1", "--budget", "10", "--init", "4", "--seed", "3",
        "--out", str(trace))
    steps = read_trace(trace)[1:]
    opt = bosweep.Optimizer(algorithm, [(0.0, 1.0), (-1.0, 1.0)], seed=3, init=4)
    for step in steps:
        x = opt.ask()
        assert x.tolist() == step["x"]
        y = objective(x)
        assert y == step["y"]
        opt.tell(x, y)
        assert opt.recommend().tolist() == step["recommended_x"]


def matern52(a, b, lengthscales, s2):
    d = (a[:, None, :] - b[None, :, :]) / np.asarray(lengthscales)
    r = np.sqrt(5.0 * (d**2).sum(-1))
    return s2 * (1.0 + r + r**2 / 3.0) * np.exp(-r)


def test_gp_with_given_hyperparameters_is_the_closed_form_posterior():
    rng = np.random.default_rng(1)
    x, q = rng.random((25, 3)), rng.random((40, 3))
    y = np.sin(4 * x[:, 0]) + x[:, 1] * x[:, 2]
    ls, s2, noise, mean = [0.3, 0.5, 0.4], 1.3, 1e-3, 0.2
    gp = bosweep.GP(x, y, fit="fixed", lengthscale=ls, signal_var=s2, noise_var=noise, mean=mean)
    k = matern52(x, x, ls, s2) + noise * np.eye(len(x))
    kq = matern52(q, x, ls, s2)
    want_mean = mean + kq @ np.linalg.solve(k, y - mean)
    want_var = s2 - np.einsum("ij,ji->i", kq, np.linalg.solve(k, kq.T))
    got_mean, got_var = gp.predict(q, device="cpu")
    np.testing.assert_allclose(got_mean, want_mean, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got_var, want_var, rtol=1e-8, atol=1e-10)
    assert gp.lengthscales == ls and gp.signal_variance == s2 and gp.noise_variance == noise


def test_gp_fit_predicts_what_the_command_line_predicts(tmp_path):
    rng = np.random.default_rng(2)
    x, q = rng.random((30, 2)), rng.random((20, 2))
    y = np.cos(3 * x[:, 0]) + 0.5 * x[:, 1]
    with open(tmp_path / "train.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "b", "y"])
        w.writerows([[repr(float(v)) for v in row] for row in np.column_stack([x, y])])
    with open(tmp_path / "cand.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "b"])
        w.writerows([[repr(float(v)) for v in row] for row in q])
    out = cli("gp", "predict", "--train", "train.csv", "--candidates", "cand.csv",
              "--kernel", "matern52", "--fit", "map", cwd=tmp_path).stdout
    rows = list(csv.DictReader(out.splitlines()))
    mean, var = bosweep.GP(x, y, fit="map").predict(q, device="cpu")
    np.testing.assert_allclose(mean, [float(r["mean"]) for r in rows], rtol=1e-12)
    np.testing.assert_allclose(np.sqrt(var), [float(r["std"]) for r in rows], rtol=1e-12)


def test_kde_is_the_gaussian_product_formula():
    rng = np.random.default_rng(3)
    data, q = rng.random((50, 2)), rng.random((30, 2))
    h = np.array([0.1, 0.2])
    w = rng.random(50)
    z = (q[:, None, :] - data[None, :, :]) / h
    phi = np.exp(-0.5 * (z**2).sum(-1)) / (2 * math.pi * h.prod())
    want = (phi * w).sum(1) / w.sum()
    got = bosweep.kde(data, q, h, weights=w, device="cpu")
    np.testing.assert_allclose(got, want, rtol=1e-12)
    np.testing.assert_allclose(
        bosweep.kde(data, q, h, weights=w, log=True, device="cpu"), np.log(want), rtol=1e-12
    )


def test_kernel_regression_is_the_nadaraya_watson_mean():
    rng = np.random.default_rng(4)
    data, q = rng.random((40, 3)), rng.random((25, 3))
    y = rng.random(40)
    h = 0.3
    k = np.exp(-0.5 * ((q[:, None, :] - data[None, :, :]) ** 2).sum(-1) / h**2)
    mean, log_w = bosweep.kernel_regression(data, y, q, h, device="cpu")
    np.testing.assert_allclose(mean, (k * y).sum(1) / k.sum(1), rtol=1e-12)
    np.testing.assert_allclose(log_w, np.log(k.sum(1)), rtol=1e-12)


def test_bad_input_raises_with_the_messages_of_the_command_line():
    x = np.zeros((3, 2))
    with pytest.raises(ValueError, match=r'unknown algorithm "nope" \(known: random, gp-ucb'):
        bosweep.Optimizer("nope", [(0, 1)])
    with pytest.raises(ValueError, match=r'unknown problem "nope"'):
        bosweep.run("random", "nope", budget=3)
    with pytest.raises(ValueError, match=r"lengthscale = -1 is invalid|lengthscale"):
        bosweep.Optimizer("gp-ucb", [(0, 1)], lengthscale=-1.0)
    with pytest.raises(ValueError, match="coordinate 1 of point 0 is NaN"):
        bosweep.kde(np.array([[0.0, np.nan]]), x, np.array([0.1, 0.1]))
    with pytest.raises(ValueError, match="y: 2 values for the 3 rows of x"):
        bosweep.GP(x, np.zeros(2))
    with pytest.raises(ValueError, match=r'fit: unknown fit mode "MLE" \(expected one of map, '
                       r'map-dsp, map-saas, mle, fixed\)'):
        bosweep.GP(np.random.default_rng(0).random((5, 2)), np.arange(5.0), fit="MLE")
    with pytest.raises(ValueError, match="x: 3 columns, the GP was fitted on 2"):
        bosweep.GP(np.random.default_rng(0).random((5, 2)), np.arange(5.0)).predict(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="device"):
        bosweep.kde(x, x, np.array([0.1, 0.1]), device="tpu")
    with pytest.raises(TypeError):
        bosweep.kde(np.zeros(3), x, np.array([0.1, 0.1]))
    with pytest.raises(ValueError, match="bounds"):
        bosweep.Optimizer("random", [(1, 0)])
    opt = bosweep.Optimizer("random", [(0, 1)], init=1)
    with pytest.raises(ValueError, match="no point was asked"):
        opt.tell(np.array([0.5]), 1.0)
    x0 = opt.ask()
    with pytest.raises(ValueError, match="has not been told yet"):
        opt.ask()
    with pytest.raises(ValueError, match="is not the point asked"):
        opt.tell(x0 + 0.1, 1.0)
    with pytest.raises(ValueError, match="must be finite"):
        opt.tell(x0, float("nan"))
    with pytest.raises(ValueError, match=r"algorithm \"sbo-kde\" needs a contextual problem"):
        bosweep.Optimizer("sbo-kde", [(0, 1), (0, 1)])


def test_repeats_are_told_as_a_list():
    opt = bosweep.Optimizer("rahbo", [(0.0, 1.0)], seed=1, init=2, k=3)
    x = opt.ask()
    assert opt.repeats == 3
    with pytest.raises(ValueError, match="1 values for a point asked with repeats = 3"):
        opt.tell(x, 1.0)
    opt.tell(x, [1.0, 1.5, 0.5])
    assert opt.recommend().shape == (1,)


def test_several_objectives_are_told_as_a_list():
    opt = bosweep.Optimizer("nsga2", problem="zdt1", problem_params={"dim": 3},
                            seed=2, init=4, population=4)
    for _ in range(8):
        x = opt.ask()
        g = 1 + 9 * np.mean(x[1:])
        opt.tell(x, [x[0], g * (1 - np.sqrt(x[0] / g))])
    with pytest.raises(ValueError, match="1 objective value"):
        opt.tell(opt.ask(), 1.0)
    with pytest.raises(ValueError, match="no single recommended point"):
        opt.recommend()
    with pytest.raises(ValueError, match="optimises one objective"):
        bosweep.Optimizer("ei", problem="zdt1")


def test_constraint_values_are_told_beside_the_value():
    opt = bosweep.Optimizer("random", bounds=[(0, 1)], constraints=1, seed=3, init=3)
    told = []
    for _ in range(10):
        x = opt.ask()
        # Minimise x subject to 0.6 - x <= 0: feasible first, the smallest feasible x.
        opt.tell(x, float(x[0]), constraints=[0.6 - float(x[0])])
        told.append(float(x[0]))
        feasible = [v for v in told if v >= 0.6]
        expected = min(feasible) if feasible else max(told)
        assert opt.recommend()[0] == expected
    with pytest.raises(ValueError, match="0 constraint value"):
        opt.tell(opt.ask(), 0.5)
    with pytest.raises(ValueError, match="ignores black-box constraints"):
        bosweep.Optimizer("ei", bounds=[(0, 1)], constraints=1)


def gpu_or_skip():
    """The GPU engine, or a skip where there is no adapter (a failure with
    BOSWEEP_REQUIRE_GPU=1, as CI sets with lavapipe)."""
    try:
        bosweep.kde(np.zeros((1, 1)), np.zeros((1, 1)), np.array([1.0]), device="gpu")
    except RuntimeError as e:
        if os.environ.get("BOSWEEP_REQUIRE_GPU") == "1":
            raise
        pytest.skip(f"no GPU adapter: {e}")


def test_the_gpu_computes_what_the_cpu_computes():
    gpu_or_skip()
    rng = np.random.default_rng(6)
    x, q = rng.random((30, 3)), rng.random((500, 3))
    y = np.sin(3 * x[:, 0]) + x[:, 1] - x[:, 2] ** 2
    h = np.array([0.2, 0.3, 0.25])
    for precision, rtol in [("f32", 1e-4), ("f64", 1e-10)]:
        on = dict(device="gpu", precision=precision)
        np.testing.assert_allclose(bosweep.kde(x, q, h, **on), bosweep.kde(x, q, h, device="cpu"),
                                   rtol=rtol)
        got = bosweep.kernel_regression(x, y, q, 0.3, **on)
        want = bosweep.kernel_regression(x, y, q, 0.3, device="cpu")
        np.testing.assert_allclose(got[0], want[0], rtol=rtol, atol=rtol)
        gp = bosweep.GP(x, y, fit="map")
        (m, v), (m0, v0) = gp.predict(q, **on), gp.predict(q, device="cpu")
        np.testing.assert_allclose(m, m0, rtol=10 * rtol, atol=10 * rtol)
        np.testing.assert_allclose(v, v0, rtol=10 * rtol, atol=10 * rtol)
        decisions, contexts = q[:40, :2], q[:16, 2:]
        np.testing.assert_allclose(
            gp.pair_reduce(decisions, contexts, reduction="min", **on),
            gp.pair_reduce(decisions, contexts, reduction="min", device="cpu"),
            rtol=10 * rtol, atol=10 * rtol,
        )


def test_errors_are_bosweep_errors_and_the_builtin_kinds():
    assert issubclass(bosweep.InputError, bosweep.Error) and issubclass(bosweep.InputError, ValueError)
    assert issubclass(bosweep.RunError, bosweep.Error) and issubclass(bosweep.RunError, RuntimeError)
    with pytest.raises(bosweep.InputError, match=r'unknown algorithm "nope"'):
        bosweep.Optimizer("nope", [(0, 1)])
    with pytest.raises(bosweep.Error, match="device"):
        bosweep.kde(np.zeros((1, 1)), np.zeros((1, 1)), np.array([0.1]), device="tpu")


def test_bad_bounds_and_dict_configs_are_input_errors_naming_the_argument(tmp_path):
    # Each raises bosweep.InputError (a ValueError), never a bare TypeError, and names the item.
    cases = [
        ([(0, 1, 2)], r"bounds\[0\]: give a \(low, high\) pair, got \(0, 1, 2\)"),
        ([0, 1], r"bounds\[0\]: give a \(low, high\) pair, got 0 \(bounds is a list of pairs"),
        ([(0, "a")], r"bounds\[0\]\[1\]: 'a' is not a number"),
        (3, r"bounds: give a \(low, high\) pair per dimension"),
    ]
    for bounds, message in cases:
        with pytest.raises(bosweep.InputError, match=message):
            bosweep.Optimizer("random", bounds)
    with pytest.raises(bosweep.InputError, match=r"context_bounds\[1\]: give a \(low, high\) pair"):
        bosweep.Optimizer("random", [(0, 1)], context_bounds=[(0, 1), (2,)])
    # A numpy array of pairs is a box like any other.
    assert bosweep.Optimizer("random", np.array([[0.0, 1.0], [2.0, 3.0]])).ask().shape == (2,)

    def config(**changes):
        base = {"budget": 4, "init": 2, "algorithm": [{"name": "random"}],
                "problem": [{"name": "branin"}, {"name": "forrester"}]}
        base.update(changes)
        return base

    for changes, message in [
        ({"budget": "x"}, r'^config\.budget: key "budget": expected an integer'),
        ({"budget": -5}, r"^config\.budget: "),
        ({"algorithm": [{"name": "random", "foo": 1}]}, r'^config\.algorithm\[0\]\.foo: algorithm "random": unknown parameter "foo"'),
        ({"problem": [{"name": "forrester"}, {"name": "branin", "noise_std": -1}]},
         r"^config\.problem\[1\]\.noise_std: "),
    ]:
        with pytest.raises(bosweep.InputError, match=message):
            bosweep.sweep(config(**changes), out=str(tmp_path / "s"))


def test_ask_n_hands_out_the_design_then_batches():
    opt = bosweep.Optimizer("gp-ucb", [(0.0, 1.0), (-1.0, 1.0)], seed=3, init=4)
    first = opt.ask(3)
    rest = opt.ask(3)
    assert first.shape == (3, 2) and rest.shape == (1, 2)
    # The design is the one ask() hands out one point at a time.
    single = bosweep.Optimizer("gp-ucb", [(0.0, 1.0), (-1.0, 1.0)], seed=3, init=4)
    design = []
    for _ in range(4):
        x = single.ask()
        design.append(x.tolist())
        single.tell(x, objective(x))
    assert np.vstack([first, rest]).tolist() == design
    with pytest.raises(bosweep.InputError, match="has not been told yet"):
        opt.ask(1)
    for x in [*first, *rest]:
        opt.tell(x, objective(x))
    # GP-UCB's batches: the first point is the sequential one, the rest avoid the pending ones.
    nxt = opt.ask(5)
    assert nxt.shape == (5, 2)
    assert len({tuple(x) for x in nxt.tolist()}) == 5
    assert nxt[0].tolist() == single.ask().tolist()


def test_a_method_without_a_batch_version_refuses_a_batch():
    """One rule everywhere: as a sweep refuses `batch = 4` for UHE-BO, `ask(4)` after the
    design is refused, never answered with one point."""
    opt = bosweep.Optimizer("uhe-bo", [(0.0, 1.0), (-1.0, 1.0)], seed=3, init=3)
    for x in opt.ask(3):
        opt.tell(x, objective(x))
    with pytest.raises(bosweep.InputError, match="proposes one point at a time"):
        opt.ask(4)
    assert opt.ask(1).shape == (1, 2)
