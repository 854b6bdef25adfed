"""bosweep.adapters: the protocol loop against a fake peer in-process, the requirement check, and
the peers end to end in `bosweep sweep` (BOSWEEP_BIN, as test_bosweep.py) with this interpreter
as BOSWEEP_PYTHON. The end-to-end tests skip where a peer's library is absent; .ci/test
installs Optuna, cmaes and Nevergrad, not torch, so the BoTorch test runs only by hand:

    pip install botorch   # with torch
    BOSWEEP_BIN=target/debug/bosweep python -m pytest crates/python/tests/test_adapters.py -k botorch
"""

import io
import json
import os
import subprocess
import sys

import pytest

from bosweep.adapters import ADAPTERS, find
from bosweep.adapters.catalog import Adapter
from bosweep.adapters.protocol import serve
from test_bosweep import BIN, read_trace, without_timings

START = {"op": "start", "dim": 2, "bounds": [[-5, 10], [0, 15]], "problem": "branin"}


class FakePeer:
    """Asks (seed + k, k) at its k-th ask and records what it is told."""

    def __init__(self, bounds, seed, budget=None, objectives=1, reference_point=None):
        self.seed, self.budget, self.asked, self.calls = seed, budget, 0, []
        self.objectives, self.reference_point = objectives, reference_point

    def ask(self):
        self.asked += 1
        x = [float(self.seed % 10 + self.asked), float(self.asked)]
        return x, ("handle", self.asked)

    def tell_asked(self, handle, y):
        self.calls.append(("asked", handle, y))

    def tell_new(self, x, y):
        self.calls.append(("new", x, y))

    def hold_pending(self, x):
        self.calls.append(("pending", x))
        return ("held", tuple(x))


def converse(lines, batch_capable=True, several_objectives=False):
    """serve() over `lines` (dicts or raw text): exit status, replies, stderr, the peers built."""
    built = []

    def factory(bounds, seed, budget, objectives, reference_point):
        built.append(FakePeer(bounds, seed, budget, objectives, reference_point))
        return built[-1]

    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    out, err = io.StringIO(), io.StringIO()
    status = serve(
        factory, batch_capable, "fake", io.StringIO(text), out, err,
        several_objectives=several_objectives,
    )
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    return status, replies, err.getvalue(), built


def test_the_peer_is_built_at_the_first_ask_with_its_seed_and_told_the_design_first():
    status, replies, err, built = converse(
        [
            START,
            {"op": "tell", "x": [1, 2], "y": -3.0, "t": 0},
            {"op": "tell", "x": [3, 4], "y": -1.5, "t": 1},
            {"op": "ask", "t": 2, "seed": 2**40 + 7},
            {"op": "tell", "x": [8.0, 1.0], "y": -9.0, "t": 2},
            {"op": "recommend"},
        ]
    )
    assert (status, err) == (0, "")
    (peer,) = built
    # The seed reduced to the 32 bits numpy takes.
    assert peer.seed == (2**40 + 7) % 2**32 == 7
    assert peer.budget is None
    assert replies == [{"x": [8.0, 1.0]}, {"x": [3.0, 4.0]}]
    assert peer.calls == [
        ("new", [1.0, 2.0], -3.0),
        ("new", [3.0, 4.0], -1.5),
        ("asked", ("handle", 1), -9.0),
    ]


def test_pending_points_it_did_not_ask_are_held_and_its_own_are_not():
    status, replies, _, (peer,) = converse(
        [
            START,
            {"op": "tell", "x": [1, 2], "y": 0.5, "t": 0},
            {"op": "ask", "t": 1, "seed": 3, "pending": [[2, 2]]},
            {"op": "ask", "t": 1, "seed": 4, "pending": [[2, 2], [4.0, 1.0]]},
            {"op": "tell", "x": [2, 2], "y": 1.0, "t": 1},
        ]
    )
    assert status == 0
    assert replies == [{"x": [4.0, 1.0]}, {"x": [5.0, 2.0]}]
    assert peer.calls == [
        ("new", [1.0, 2.0], 0.5),
        ("pending", [2.0, 2.0]),
        ("asked", ("held", (2.0, 2.0)), 1.0),
    ]


def test_recommend_before_any_tell_is_the_centre_and_asks_stay_in_the_box():
    class Wild(FakePeer):
        def ask(self):
            return [1e9, -1e9], None

    text = "\n".join(json.dumps(m) for m in [START, {"op": "recommend"}, {"op": "ask", "t": 0, "seed": 1}])
    out = io.StringIO()
    assert serve(Wild, False, "wild", io.StringIO(text), out, io.StringIO()) == 0
    assert [json.loads(line) for line in out.getvalue().splitlines()] == [
        {"x": [2.5, 7.5]},
        {"x": [10.0, 0.0]},
    ]


@pytest.mark.parametrize(
    "line,reason",
    [
        ("not json", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"op": "dance"}', 'unknown "op": "dance"'),
        ('{"op": "tell", "x": [1, 2], "y": 1}', 'before "start"'),
    ],
)
def test_a_line_that_breaks_the_protocol_is_named_on_stderr_with_exit_2(line, reason):
    lines = [line] if "before" in reason else [START, line]
    status, replies, err, _ = converse(lines)
    number = len(lines)
    assert status == 2 and replies == []
    assert err.startswith(f"bosweep.adapters fake: line {number} ({line}): "), err
    assert reason in err, err


@pytest.mark.parametrize(
    "message,reason",
    [
        ({"op": "tell", "x": [1], "y": 1}, "a point of 2 finite numbers"),
        ({"op": "tell", "x": [1, 2], "y": None}, 'a finite number "y"'),
        ({"op": "ask", "t": 0}, 'an integer "seed"'),
        ({"op": "ask", "t": 0, "seed": 1, "allowed": [[0, 0]]}, "finite set"),
        ({"op": "start", **START}, 'a second "start"'),
    ],
)
def test_malformed_messages_are_refused_naming_what_is_wrong(message, reason):
    status, _, err, _ = converse([START, message])
    assert status == 2 and reason in err, err


def test_the_runs_budget_reaches_the_peer_and_must_be_a_positive_integer():
    status, _, _, (peer,) = converse([{**START, "budget": 40}, {"op": "ask", "t": 0, "seed": 1}])
    assert status == 0 and peer.budget == 40
    for budget in (0, 2.5, True):
        status, _, err, _ = converse([{**START, "budget": budget}])
        assert status == 2 and '"budget" that is not an integer' in err, err


def test_ngopt_plans_for_the_runs_budget_unless_told_another():
    pytest.importorskip("nevergrad")
    from bosweep.adapters import nevergrad_peer

    box = [(0.0, 1.0), (0.0, 1.0)]
    assert nevergrad_peer.factory("ngopt", None)(box, 1, 40, 1, None).optimizer.budget == 40
    assert nevergrad_peer.factory("ngopt", 200)(box, 1, 40, 1, None).optimizer.budget == 200


def test_several_objectives_reach_the_peer_as_lists_and_a_single_objective_peer_refuses_them():
    start = dict(START, objectives=2, reference_point=[-18.0, -6.0])
    tells = [
        {"op": "tell", "x": [0.5, 1.0], "y": -3.0, "t": 1, "objectives": [-3.0, -4.0]},
        {"op": "ask", "t": 2, "seed": 3},
        {"op": "tell", "x": [4.0, 1.0], "y": -1.0, "t": 2, "objectives": [-1.0, -2.5]},
    ]
    status, replies, err, built = converse([start] + tells, several_objectives=True)
    assert (status, err, replies) == (0, "", [{"x": [4.0, 1.0]}])
    assert (built[0].objectives, built[0].reference_point) == (2, [-18.0, -6.0])
    assert built[0].calls == [
        ("new", [0.5, 1.0], [-3.0, -4.0]),
        ("asked", ("handle", 1), [-1.0, -2.5]),
    ]
    status, _, err, _ = converse([start] + tells)
    assert status == 2 and "2 objectives; this adapter takes one" in err, err
    status, _, err, _ = converse(
        [start, {"op": "tell", "x": [0.5, 1.0], "y": -3.0, "t": 1}], several_objectives=True
    )
    assert status == 2 and '"objectives": 2 finite numbers' in err, err


def test_optuna_takes_several_objectives():
    pytest.importorskip("optuna")
    from bosweep.adapters import optuna_peer

    for sampler in ("tpe", "nsga2"):
        peer = optuna_peer.factory(sampler)([(0.0, 1.0), (0.0, 1.0)], 7, None, 2, None)
        peer.tell_new([0.2, 0.3], [-0.2, -1.1])
        x, handle = peer.ask()
        peer.tell_asked(handle, [-x[0], -(1.0 - x[0])])
        assert len(peer.study.directions) == 2
        assert [t.values for t in peer.study.trials][0] == [0.2, 1.1]


def test_optuna_takes_constraint_values_and_cmaes_refuses_them():
    pytest.importorskip("optuna")
    from bosweep.adapters import optuna_peer
    from bosweep.adapters.protocol import Constrained

    for sampler in ("tpe", "nsga2"):
        peer = optuna_peer.factory(sampler)([(0.0, 1.0)], 7, None, 1, None, constraints=2)
        peer.tell_new([0.2], Constrained(-0.2, [0.5, -1.0]))
        x, handle = peer.ask()
        peer.tell_asked(handle, Constrained(-x[0], [0.7 - x[0], -1.0]))
        told = [list(t.constraints.values()) for t in peer.study.trials]
        assert told == [[0.5, -1.0], [0.7 - x[0], -1.0]]
    start = dict(START, constraints=1)
    status, _, err, _ = converse([start])
    assert status == 2 and "1 constraints; this adapter takes none" in err, err


def test_a_peer_that_is_not_batch_capable_refuses_pending_points():
    status, _, err, _ = converse(
        [START, {"op": "ask", "t": 0, "seed": 1, "pending": [[0, 1]]}], batch_capable=False
    )
    assert status == 2 and "not batch capable" in err, err


def test_every_adapter_is_reachable_by_its_name_with_a_pip_line():
    assert [a.name for a in ADAPTERS] == [
        "optuna-tpe",
        "optuna-cmaes",
        "optuna-gp",
        "optuna-nsga2",
        "nevergrad-ngopt",
        "nevergrad-cma",
        "botorch-qlognei",
        "botorch-qlognehvi",
    ]
    assert find("optuna-cmaes").pip_line() == "pip install 'optuna>=4' cmaes"
    with pytest.raises(KeyError, match="known: optuna-tpe"):
        find("hebo")


def test_an_unmet_requirement_says_why():
    adapter = Adapter("x", ("x",), ("no-such-distribution-bosweep>=1", "pytest>=999"), False)
    assert adapter.unmet() == [
        "no-such-distribution-bosweep>=1: not installed",
        f"pytest>=999: version {pytest.__version__} is installed",
    ]
    assert Adapter("y", ("y",), ("pytest>=7",), False).unmet() == []


def check(name):
    return subprocess.run(
        [sys.executable, "-m", "bosweep.adapters", "check", name], capture_output=True, text=True
    )


def test_check_exits_2_with_the_pip_line_or_0():
    unknown = check("no-such-adapter")
    assert unknown.returncode == 2 and "known: optuna-tpe" in unknown.stderr
    for adapter in ADAPTERS:
        out = check(adapter.name)
        if adapter.unmet():
            assert out.returncode == 2
            assert out.stderr.rstrip().endswith(f"{sys.executable} -m {adapter.pip_line()}")
        else:
            assert (out.returncode, out.stderr) == (0, "")


def sweep_config(algorithm, extra="", problem="branin"):
    return f"""
seed = 5
replicates = 2
budget = 15
init = 5
{extra}

[[algorithm]]
name = "random"

[[algorithm]]
name = "{algorithm}"

[[problem]]
name = "{problem}"
"""


def sweep(config, out, python=sys.executable):
    env = dict(os.environ, BOSWEEP_PYTHON=python)
    return subprocess.run(
        [BIN, "--device", "cpu", "sweep", str(config), "--out", str(out), "--no-report"],
        capture_output=True,
        text=True,
        env=env,
    )


def peer_traces(directory, algorithm):
    runs = sorted((directory / "runs").glob("*.jsonl"))
    return {
        p.name: without_timings(read_trace(p))
        for p in runs
        if f"-{algorithm}-" in p.name or "-random-" in p.name
    }


PEER_MODULES = {
    "optuna-tpe": ["optuna"],
    "optuna-cmaes": ["optuna", "cmaes"],
    "nevergrad-ngopt": ["nevergrad"],
    "nevergrad-cma": ["nevergrad"],
    "botorch-qlognei": ["botorch"],
}


@pytest.mark.parametrize("algorithm", list(PEER_MODULES))
def test_a_peer_runs_in_a_sweep_from_the_shared_design_and_reproduces(tmp_path, algorithm):
    for module in PEER_MODULES[algorithm]:
        pytest.importorskip(module)
    config = tmp_path / "peer.toml"
    config.write_text(sweep_config(algorithm))
    first, second = sweep(config, tmp_path / "a"), sweep(config, tmp_path / "b")
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    traces = peer_traces(tmp_path / "a", algorithm)
    assert traces == peer_traces(tmp_path / "b", algorithm), "the same seed gave another trace"
    for replicate in (0, 1):
        (peer,) = [t for name, t in traces.items() if name.endswith(f"-{algorithm}-branin-r{replicate}.jsonl")]
        (random,) = [t for name, t in traces.items() if name.endswith(f"-random-branin-r{replicate}.jsonl")]
        header, steps = peer[0]["header"], peer[1:]
        assert header["algorithm_parameters"]["python"] == sys.executable
        assert len(steps) == 15
        assert [s["x"] for s in steps[:5]] == [s["x"] for s in random[1:6]]
        assert all(s["phase"] == "opt" for s in steps[5:])
        for step in steps:
            x0, x1 = step["x"]
            assert -5 <= x0 <= 10 and 0 <= x1 <= 15, step["x"]


@pytest.mark.parametrize("algorithm", ["optuna-tpe", "nevergrad-cma"])
def test_a_batch_capable_peer_runs_batches(tmp_path, algorithm):
    for module in PEER_MODULES[algorithm]:
        pytest.importorskip(module)
    config = tmp_path / "batch.toml"
    config.write_text(sweep_config(algorithm, extra="batch = 3"))
    out = sweep(config, tmp_path / "out")
    assert out.returncode == 0, out.stderr
    steps = [t[1:] for name, t in peer_traces(tmp_path / "out", algorithm).items() if algorithm in name]
    points = [tuple(s["x"]) for run in steps for s in run]
    assert len(points) == 2 * 15 and len(set(points)) == len(points), "a batch repeated a point"


@pytest.mark.parametrize(
    "algorithm,modules",
    [("optuna-tpe", ["optuna"]), ("optuna-nsga2", ["optuna"]), ("botorch-qlognehvi", ["botorch"])],
)
def test_a_peer_for_several_objectives_runs_in_a_sweep_and_reproduces(tmp_path, algorithm, modules):
    for module in modules:
        pytest.importorskip(module)
    config = tmp_path / "several.toml"
    config.write_text(sweep_config(algorithm, extra="batch = 2", problem="branin-currin"))
    first, second = sweep(config, tmp_path / "a"), sweep(config, tmp_path / "b")
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    traces = peer_traces(tmp_path / "a", algorithm)
    assert traces == peer_traces(tmp_path / "b", algorithm), "the same seed gave another trace"
    runs = [t for name, t in traces.items() if f"-{algorithm}-" in name]
    assert len(runs) == 2
    for run in runs:
        assert run[0]["header"]["objectives"] == 2
        steps = run[1:]
        assert len(steps) == 15 and all(len(s["objectives"]) == 2 for s in steps)
        assert steps[-1]["front"], "no non-dominated step"
        points = [tuple(s["x"]) for s in steps]
        assert len(set(points)) == len(points), "a batch repeated a point"


@pytest.mark.parametrize(
    "algorithm,library,problem",
    [
        ("optuna-tpe", "optuna", "constrained-gramacy"),
        ("optuna-nsga2", "optuna", "constrained-gramacy"),
        ("botorch-qlognei", "botorch", "constrained-gramacy"),
        ("botorch-qlognehvi", "botorch", "bnh"),
    ],
)
def test_a_peer_for_constraints_runs_in_a_sweep_and_reproduces(tmp_path, algorithm, library, problem):
    pytest.importorskip(library)
    config = tmp_path / "constrained.toml"
    config.write_text(sweep_config(algorithm, extra="batch = 2", problem=problem))
    first, second = sweep(config, tmp_path / "a"), sweep(config, tmp_path / "b")
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    traces = peer_traces(tmp_path / "a", algorithm)
    assert traces == peer_traces(tmp_path / "b", algorithm), "the same seed gave another trace"
    runs = [t for name, t in traces.items() if f"-{algorithm}-" in name]
    assert len(runs) == 2
    for run in runs:
        assert run[0]["header"]["constraints"] == ["c1", "c2"]
        assert all(len(s["constraints"]) == 2 for s in run[1:])


def test_a_missing_library_refuses_the_sweep_before_it_starts_with_the_pip_line(tmp_path):
    missing = next((a for a in ADAPTERS if a.unmet()), None)
    if missing is None:
        pytest.skip("every peer library is installed here")
    config = tmp_path / "missing.toml"
    config.write_text(sweep_config(missing.name))
    out = sweep(config, tmp_path / "out")
    assert out.returncode == 2, out.stderr
    assert f'algorithm "{missing.name}" cannot run' in out.stderr
    assert missing.pip_line() in out.stderr
    assert not (tmp_path / "out" / "runs").exists()


def test_an_interpreter_without_bosweep_is_refused_naming_how_to_install_it(tmp_path):
    config = tmp_path / "bare.toml"
    config.write_text(sweep_config("optuna-tpe"))
    out = sweep(config, tmp_path / "out", python=str(tmp_path / "no-python"))
    assert out.returncode == 2, out.stderr
    assert "could not start" in out.stderr and "BOSWEEP_PYTHON" in out.stderr


def test_bosweep_list_names_each_adapter_with_its_pip_line():
    for adapter in ADAPTERS:
        entry = subprocess.run(
            [BIN, "list", adapter.name], capture_output=True, text=True, check=True
        ).stdout
        (line,) = [l for l in entry.splitlines() if l.startswith(f"  {adapter.name}: ")]
        assert line.endswith(adapter.pip_line()), line
        assert ("one point at a time" in line) != adapter.batch_capable, line
        batches = "batches: yes" if adapter.batch_capable else "batches: no"
        assert batches in entry, entry


def test_bosweep_and_the_adapters_agree_on_what_each_peer_takes():
    def listed(feature):
        out = subprocess.run(
            [BIN, "list", "algorithms", "--with", feature], capture_output=True, text=True, check=True
        ).stdout
        names = {l.split()[0] for l in out.splitlines() if l.startswith("  ") and not l.startswith("   ")}
        return {a.name for a in ADAPTERS} & names

    assert listed("several-objectives") == {a.name for a in ADAPTERS if a.several_objectives}
    assert listed("constraints") == {a.name for a in ADAPTERS if a.constraints}
