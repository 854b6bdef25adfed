"""Sweeps and runs from Python with Python callables as objectives, their traces as a table,
Ctrl-C, and the optimiser's contexts, time-varying problems and pair reductions. BOSWEEP_BIN
names the bosweep executable (as in test_bosweep.py)."""

import json
import os
import signal
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import bosweep
from test_bosweep import cli, read_trace, without_timings

CONFIG = """
seed = 11
replicates = 2
budget = 8
init = 4

[[algorithm]]
name = "gp-ucb"

[[algorithm]]
name = "random"

[[problem]]
name = "branin"
"""


def traces(directory):
    runs = sorted((Path(directory) / "runs").glob("*.jsonl"))
    return {p.name: without_timings(read_trace(p)) for p in runs}


def objective(x):
    return float((x[0] - 0.3) ** 2 + (x[1] + 0.2) ** 2)


def test_a_sweep_from_a_config_file_writes_the_traces_of_the_command_line(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text(CONFIG)
    cli("sweep", str(config), "--out", str(tmp_path / "cli"), "--no-report")
    done = bosweep.sweep(str(config), out=str(tmp_path / "py"), device="cpu", report=False)
    assert done == {"dir": str(tmp_path / "py"), "selected": 4, "skipped": 0, "completed": 4}
    ours, theirs = traces(tmp_path / "py"), traces(tmp_path / "cli")
    assert len(ours) == 4 and ours == theirs
    again = bosweep.sweep(config, out=tmp_path / "py", device="cpu", report=False)
    assert (again["skipped"], again["completed"]) == (4, 0)


def callable_config(function):
    return {
        "seed": 5,
        "replicates": 2,
        "budget": 9,
        "init": 4,
        "algorithm": [{"name": "gp-ucb"}, {"name": "rahbo", "k": 2}],
        "problem": [{"name": "callable", "function": function, "bounds": "0:1,-1:1"}],
    }


def test_a_dict_config_with_a_python_callable_evaluates_it_in_process(tmp_path):
    calls = []

    def bowl(x):
        calls.append(x.copy())
        return objective(x)

    done = bosweep.sweep(callable_config(bowl), out=tmp_path / "a", device="cpu")
    assert done["completed"] == 4
    assert (tmp_path / "a" / "report.md").is_file()
    assert "function = \"bowl\"" in (tmp_path / "a" / "config.toml").read_text()
    ours = traces(tmp_path / "a")
    evaluated = 0
    for lines in ours.values():
        assert lines[0]["header"]["problem"] == "callable"
        assert lines[0]["header"]["problem_parameters"]["function"] == "bowl"
        for step in lines[1:]:
            assert step["y"] == pytest.approx(objective(step["x"]), rel=1e-15)
            evaluated += step["repeats"]
    assert evaluated == len(calls) == 4 * 9
    # The same config by name through `objectives`: the same traces.
    by_name = callable_config("bowl")
    bosweep.sweep(by_name, out=tmp_path / "b", objectives={"bowl": objective}, device="cpu",
                  report=False)
    assert traces(tmp_path / "b") == ours


def test_a_callable_of_two_objectives_returns_a_sequence(tmp_path):
    def two(x):
        return [float(x[0] ** 2), float((x[0] - 1) ** 2 + x[1] ** 2)]

    config = {
        "seed": 2,
        "replicates": 2,
        "budget": 12,
        "init": 4,
        "algorithm": [{"name": "random"}, {"name": "nsga2", "population": 4}],
        "problem": [{"name": "callable", "function": two, "bounds": "0:1,-1:1",
                     "objectives": 2, "reference_point": "1,2"}],
    }
    done = bosweep.sweep(config, out=tmp_path / "mo", device="cpu")
    assert done["completed"] == 4
    for lines in traces(tmp_path / "mo").values():
        assert lines[0]["header"]["objectives"] == 2
        for step in lines[1:]:
            assert step["objectives"] == pytest.approx(two(np.array(step["x"])), rel=1e-15)
            assert step["hypervolume"] >= 0
    assert "A problem of 2 objectives" in (tmp_path / "mo" / "report.md").read_text()


def test_a_constrained_callable_returns_a_pair(tmp_path):
    def bowl(x):
        return float(x[0] + x[1]), [0.5 - float(x[0])]

    config = {
        "seed": 2,
        "replicates": 2,
        "budget": 10,
        "init": 4,
        "algorithm": [{"name": "random"}],
        "problem": [{"name": "callable", "function": bowl, "bounds": "0:1,0:1",
                     "constraints": 1}],
    }
    done = bosweep.sweep(config, out=tmp_path / "c", device="cpu")
    assert done["completed"] == 2
    for lines in traces(tmp_path / "c").values():
        assert lines[0]["header"]["constraints"] == ["c1"]
        for step in lines[1:]:
            assert step["constraints"] == pytest.approx([0.5 - step["x"][0]], rel=1e-15)
            assert step["feasible"] == (step["x"][0] >= 0.5)
    assert "A constrained problem" in (tmp_path / "c" / "report.md").read_text()


def test_run_with_a_callable_makes_the_decisions_of_a_command_objective(tmp_path):
    script = tmp_path / "f.py"
    script.write_text(
        "import json, sys\nx = json.loads(sys.stdin.readline())\n"
        "print(repr((x[0] - 0.3) ** 2 + (x[1] + 0.2) ** 2))\n"
    )
    trace = tmp_path / "t.jsonl"
    cli("run", "--algo", "gp-ucb", "--objective-cmd", f"{sys.executable} {script}",
        "--bounds", "0:1,-1:1", "--budget", "10", "--init", "4", "--seed", "3",
        "--out", str(trace))
    ours = bosweep.run("gp-ucb", objective, budget=10, init=4, seed=3,
                       problem_params={"bounds": "0:1,-1:1"}, device="cpu")
    assert ours[0]["header"]["problem"] == "callable"
    assert without_timings(ours[1:]) == without_timings(read_trace(trace)[1:])


def test_load_gives_every_step_as_columns(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text(CONFIG)
    bosweep.sweep(config, out=tmp_path / "s", device="cpu", report=False)
    table = bosweep.load_sweep(tmp_path / "s")
    rows = 4 * 8
    assert {len(v) for v in table.values()} == {rows}
    assert table["y"].dtype == np.float64 and table["evals"].dtype == np.uint64
    assert sorted(set(table["algorithm"])) == ["gp-ucb", "random"]
    assert set(table["problem"]) == {"branin"}
    by_run = {}
    for i in range(rows):
        by_run.setdefault(table["run"][i], []).append(i)
    for path in (tmp_path / "s" / "runs").glob("*.jsonl"):
        lines = read_trace(path)
        header, steps = lines[0]["header"], lines[1:]
        rows_of_run = [i for i in range(rows) if table["seed"][i] == header["seed"]]
        assert len(rows_of_run) == len(steps)
        for i, step in zip(rows_of_run, steps):
            assert table["x"][i] == step["x"] and table["y"][i] == step["y"]
            assert table["simple_regret"][i] == step["simple_regret"]
            assert table["iter"][i] == step["iter"] and table["phase"][i] == step["phase"]
            assert table["context"][i] is None and table["extra"][i] == step["extra"]
            assert table["t"][i] is None and table["warnings"][i] == step.get("warnings", [])
    # A directory that is not a sweep, or a trace that is not a complete run, is bad input.
    with pytest.raises(bosweep.InputError, match="cannot read the sweep manifest"):
        bosweep.load_sweep(tmp_path / "nowhere")
    broken = next((tmp_path / "s" / "runs").glob("*.jsonl"))
    broken.write_text(broken.read_text().replace('"evals":', '"evaluations":', 1))
    with pytest.raises(bosweep.InputError, match=r"line 2: not a trace step \(missing field `evals`"):
        bosweep.load_sweep(tmp_path / "s")


@pytest.fixture
def ctrl_c():
    """Ctrl-C for the test: a SIGINT handler that raises KeyboardInterrupt, as Python's own does
    (a process started in the background by a non-interactive shell inherits SIGINT ignored, and
    Python then installs no handler), and first sets the event this fixture gives.

    bosweep's waiting thread runs the handler and then asks the run to stop, holding the GIL
    from one to the other; it lets the GIL go only afterwards, to wait for the run. An objective
    blocked on the event needs the GIL to return, so it returns after the stop was asked for,
    and its evaluation is the last: provided the waiting thread is never made to hand the GIL
    over between two bytecodes of the handler, which the switch interval, made very long for
    the test, ensures."""
    handled = threading.Event()

    def handler(signum, frame):
        handled.set()
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e6)
    yield handled
    sys.setswitchinterval(interval)
    signal.signal(signal.SIGINT, previous)


def interrupting(after, handled):
    """An objective that presses Ctrl-C (SIGINT to this process) at its `after`-th call and
    returns once the handler has run."""
    calls = []

    def f(x):
        calls.append(1)
        if len(calls) == after:
            os.kill(os.getpid(), signal.SIGINT)
            handled.wait()
        return objective(x)

    return f, calls


def test_ctrl_c_stops_a_sweep_between_steps_and_it_resumes(tmp_path, ctrl_c):
    f, calls = interrupting(6, ctrl_c)
    config = callable_config(f)
    with pytest.raises(KeyboardInterrupt):
        bosweep.sweep(config, out=tmp_path / "s", device="cpu", threads=1, report=False)
    # Stopped after the evaluation in progress, the 6th of the first run's 9.
    assert len(calls) == 6
    runs = tmp_path / "s" / "runs"
    assert not list(runs.glob("*.partial"))
    resumed = bosweep.sweep(config, out=tmp_path / "s", device="cpu", threads=1,
                            report=False)
    assert (resumed["skipped"], resumed["completed"]) == (0, 4)


def test_ctrl_c_stops_a_run(ctrl_c):
    f, calls = interrupting(3, ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        bosweep.run("random", f, budget=1000, init=2, problem_params={"bounds": "0:1,-1:1"})
    assert len(calls) == 3


def test_a_failing_callable_names_the_run_the_function_and_the_exception(tmp_path):
    def broken(x):
        raise ValueError("no value here")

    with pytest.raises(RuntimeError) as failed:
        bosweep.sweep(callable_config(broken), out=tmp_path / "s", device="cpu",
                      report=False)
    message = str(failed.value)
    assert "4 run(s) failed" in message
    assert 'callable objective "broken" at [' in message
    assert "raised ValueError: no value here" in message
    expected = r"returned 'a' \(expected a number, a sequence of numbers, or a pair \(objectives, constraints\)\)"
    with pytest.raises(RuntimeError, match=expected):
        bosweep.run("random", lambda x: "a", budget=3, init=1, problem_params={"bounds": "0:1"})
    with pytest.raises(RuntimeError, match=r"returned NaN \(must be a finite number\)"):
        bosweep.run("random", lambda x: float("nan"), budget=3, init=1,
                    problem_params={"bounds": "0:1"})


def test_a_sweep_calls_progress_and_warns_in_python_writing_nothing_to_stderr(tmp_path, capfd):
    seen = []
    out = tmp_path / "s"
    bosweep.sweep(callable_config(objective), out=out, device="cpu", report=False,
                  progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]
    trace = sorted((out / "runs").glob("*.jsonl"))[0]
    trace.write_text(trace.read_text()[:-10])
    with pytest.warns(RuntimeWarning, match=r"is not a complete trace .*running it again"):
        again = bosweep.sweep(callable_config(objective), out=out, device="cpu", report=False)
    assert (again["skipped"], again["completed"]) == (3, 1)
    assert capfd.readouterr().err == ""


def test_an_exception_from_progress_stops_the_sweep_and_is_raised(tmp_path):
    def stop_after_one(done, total):
        if done == 1:
            raise OverflowError("enough")

    with pytest.raises(OverflowError, match="enough"):
        bosweep.sweep(callable_config(objective), out=tmp_path / "s", device="cpu",
                      report=False, threads=1, progress=stop_after_one)
    assert len(list((tmp_path / "s" / "runs").glob("*.jsonl"))) < 4
    with pytest.raises(ValueError, match="progress: give a callable"):
        bosweep.sweep(callable_config(objective), out=tmp_path / "s", progress=3)


def test_bad_sweep_input_raises_naming_it(tmp_path):
    with pytest.raises(ValueError, match=r"needs its output directory"):
        bosweep.sweep(callable_config(objective))
    with pytest.raises(ValueError, match=r'parameter function = "nowhere": no function'):
        bosweep.sweep(callable_config("nowhere"), out=tmp_path / "s")
    bad = callable_config(objective)
    bad["budget"] = {1, 2}
    with pytest.raises(ValueError, match=r"config.budget: \{1, 2\}"):
        bosweep.sweep(bad, out=tmp_path / "s")
    bad = callable_config(objective)
    bad["budget"] = -3
    # Named by its path in the dict, not by a line of the TOML written from it.
    with pytest.raises(ValueError, match=r"^config\.budget: .*-3"):
        bosweep.sweep(bad, out=tmp_path / "s")
    with pytest.raises(ValueError, match=r'objectives: "f" is 3, not a callable'):
        bosweep.sweep(callable_config("f"), out=tmp_path / "s", objectives={"f": 3})
    with pytest.raises(ValueError, match="shard"):
        bosweep.sweep(callable_config(objective), out=tmp_path / "s", shard="3/2")
    with pytest.raises(ValueError, match=r"config: cannot read .*missing\.toml"):
        bosweep.sweep(tmp_path / "missing.toml")


def test_an_optimizer_on_a_registered_time_varying_problem_decides_as_the_command_line(tmp_path):
    trace = tmp_path / "t.jsonl"
    cli("run", "--algo", "pe-gp-ucb", "--problem", "pe-toy", "--problem-param", "noise_std=0",
        "--problem-param", "instance=1", "--budget", "12", "--init", "3", "--seed", "4",
        "--out", str(trace))
    steps = read_trace(trace)[1:]
    opt = bosweep.Optimizer("pe-gp-ucb", problem="pe-toy", seed=4, init=3,
                            problem_params={"noise_std": 0, "instance": 1})
    for step in steps:
        x = opt.ask()
        assert x.tolist() == step["x"]
        opt.tell(x, step["y"])
        assert opt.recommend().tolist() == step["recommended_x"]


def test_an_optimizer_learns_from_the_contexts_told():
    def contextual(x, c):
        return float(-((x[0] - c) ** 2) - (x[1] - 0.5) ** 2)

    def drive(contexts):
        opt = bosweep.Optimizer("sbo-kde", [(0, 1), (0, 1)], seed=2, init=4, sense="max",
                                context_bounds=[(0, 1)])
        asked = []
        for c in contexts:
            x = opt.ask()
            assert ((0 <= x) & (x <= 1)).all()
            opt.tell(x, contextual(x, c), context=np.array([c]))
            asked.append(x.tolist())
        return asked

    rng = np.random.default_rng(0)
    low = list(0.2 + 0.05 * rng.standard_normal(10))
    assert drive(low) == drive(low)
    assert drive(low) != drive([1 - c for c in low])
    opt = bosweep.Optimizer("sbo-kde", [(0, 1)], context_bounds=[(0, 1)], init=2)
    x = opt.ask()
    with pytest.raises(ValueError, match="learns from contexts"):
        opt.tell(x, 1.0)
    with pytest.raises(ValueError, match=r"context \[2.0\] is not in the context box"):
        opt.tell(x, 1.0, context=np.array([2.0]))
    plain = bosweep.Optimizer("random", [(0, 1)], init=2)
    with pytest.raises(ValueError, match="without context_bounds"):
        plain.tell(plain.ask(), 1.0, context=np.array([0.5]))
    with pytest.raises(ValueError, match="bounds and problem: give one"):
        bosweep.Optimizer("random", [(0, 1)], problem="pe-toy")


def worst_case_tv(u, delta, infimum):
    """The mean of u over the TV ball of radius delta: mass delta/2 moves from the largest
    values to min(infimum, min u)."""
    w = np.full(len(u), 1.0 / len(u))
    left = delta / 2
    for j in np.argsort(-u):
        take = min(w[j], left)
        w[j] -= take
        left -= take
    return (w * u).sum() + (delta / 2 - left) * min(infimum, u.min())


@pytest.mark.parametrize("fit", ["fixed", "map"])
def test_pair_reductions_are_those_of_the_posterior_on_joint_points(fit):
    rng = np.random.default_rng(5)
    x = rng.random((20, 3)) * [2.0, 1.0, 4.0]
    y = np.sin(2 * x[:, 0]) + x[:, 1] * np.cos(x[:, 2])
    given = dict(lengthscale=[0.5, 0.4, 1.0], signal_var=1.1, noise_var=1e-3)
    gp = bosweep.GP(x, y, fit=fit, **given)
    decisions = rng.random((7, 2)) * [2.0, 1.0]
    contexts = rng.random((9, 1)) * 4.0
    joint = np.array([np.concatenate([d, c]) for d in decisions for c in contexts])
    mean, var = gp.predict(joint, device="cpu")
    u = (mean + 1.5 * np.sqrt(var)).reshape(7, 9)
    got = lambda r, **kw: gp.pair_reduce(decisions, contexts, beta=1.5, reduction=r,
                                         device="cpu", **kw)
    np.testing.assert_allclose(got("mean"), u.mean(1), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(got("min"), u.min(1), rtol=1e-9, atol=1e-12)
    infimum = u.min(1) - rng.random(7)
    want = [worst_case_tv(u[i], 0.3, infimum[i]) for i in range(7)]
    np.testing.assert_allclose(got("worst-case-tv", delta=0.3, infimum=infimum), want,
                               rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError, match="needs delta and infimum"):
        got("worst-case-tv", delta=0.3)
    with pytest.raises(ValueError, match="unknown \"max\""):
        got("max")
    with pytest.raises(ValueError, match="2 \\+ 2 columns, the GP was fitted on 3"):
        gp.pair_reduce(decisions, np.zeros((3, 2)))


def test_wall_clock_workers_evaluate_a_callable_at_once():
    # The first two evaluations meet at a barrier: evaluated one at a time, the first would
    # wait there until the barrier's timeout broke it, failing the run.
    barrier = threading.Barrier(2)
    calls = []
    lock = threading.Lock()

    def f(x):
        with lock:
            calls.append(x)
            n = len(calls)
        if n <= 2:
            barrier.wait(timeout=60)
        return (x[0] - 0.3) ** 2

    trace = bosweep.run("random", f, budget=6, init=2, seed=1, workers=2, runtime="wall",
                        problem_params={"bounds": "0:1"})
    assert trace[0]["header"]["runtime"] == "wall"
    steps = trace[1:]
    assert len(steps) == 6 and len(calls) == 6
    assert {s["worker"] for s in steps} == {1, 2}
    assert all(0 <= s["start"] <= s["finish"] for s in steps)
    assert all(s["y"] == (s["x"][0] - 0.3) ** 2 for s in steps)
