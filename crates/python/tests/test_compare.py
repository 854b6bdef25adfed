"""bosweep.compare: two sweeps of random search, B's simple regrets A's shifted by known
amounts, so that the paired statistics are known; designs that differ are refused."""

import json
from pathlib import Path

import pytest

import bosweep

CONFIG = """
seed = {seed}
replicates = 6
budget = 6
init = 2

[[algorithm]]
name = "random"
label = "mine"

[[problem]]
name = "branin"
"""


def sweep(tmp_path, name, seed=3):
    config = tmp_path / f"{name}.toml"
    config.write_text(CONFIG.format(seed=seed))
    bosweep.sweep(str(config), out=str(tmp_path / name), device="cpu", report=False)
    return tmp_path / name


def shifted(source, target, shift):
    """A copy of the sweep `source` whose simple regrets are each run's plus shift(replicate)."""
    (target / "runs").mkdir(parents=True)
    for name in ["manifest.json", "config.toml"]:
        (target / name).write_text((source / name).read_text())
    for trace in (source / "runs").glob("*.jsonl"):
        replicate = int(trace.stem.rsplit("-r", 1)[1])
        lines = trace.read_text().splitlines()
        out = [lines[0]]
        for line in lines[1:]:
            step = json.loads(line)
            # Both final regrets (the recommendation's, the best evaluated point's) shift.
            for regret in ("simple_regret", "instant_regret"):
                if step[regret] is not None:
                    step[regret] += shift(replicate)
            out.append(json.dumps(step))
        (target / "runs" / trace.name).write_text("\n".join(out) + "\n")
    return target


def test_compare_reports_known_paired_statistics(tmp_path):
    a = sweep(tmp_path, "a")
    b = shifted(a, tmp_path / "b", lambda r: r + 1.0)
    result = bosweep.compare(a, b, budgets=[0.5])
    assert result["pairs"] == 6
    assert result["metric"] == "each problem's default"
    assert [Path(f).name for f in result["files"]] == [
        "compare.md",
        "compare.csv",
        "compare-pooled.csv",
        "compare.html",
    ]
    assert all(Path(f).parent == b / "compare-vs-a" for f in result["files"])
    final = [r for r in result["rows"] if r["budget_fraction"] == 1.0]
    assert len(final) == 1 and len(result["rows"]) == 2
    row = final[0]
    assert row["w_plus"] == 21.0
    assert row["p_value"] == pytest.approx(0.03125)
    assert row["p_holm"] == pytest.approx(0.03125)
    assert row["median_difference"] == pytest.approx(3.5)
    assert row["rank_biserial"] == 1.0
    assert row["verdict"] == "B worse"
    assert [w["problem"] for w in result["worse"]] == ["branin"]
    # One problem pooled is its own test.
    pooled = [r for r in result["pooled"] if r["budget_fraction"] == 1.0]
    assert len(pooled) == 1 and pooled[0]["problems"] == 1
    assert pooled[0]["w_plus"] == 0.0 and pooled[0]["w_minus"] == 21.0
    assert pooled[0]["p_value"] == pytest.approx(0.03125)
    assert pooled[0]["verdict"] == "B worse"
    assert [w["algorithm"] for w in result["pooled_worse"]] == [row["algorithm"]]


def test_compare_refuses_differing_designs(tmp_path):
    a = sweep(tmp_path, "a", seed=3)
    b = sweep(tmp_path, "b", seed=4)
    with pytest.raises(bosweep.InputError, match="initial designs differ"):
        bosweep.compare(a, b)


def test_a_shipped_archive_set_is_compared_as_a_sweep(tmp_path):
    """The RAHBO study's set against itself: its 40 runs pair, every difference is 0, and each
    side names the set; without ``out`` an archive B is refused."""
    result = bosweep.compare("baselines-rahbo", "baselines-rahbo", out=str(tmp_path / "c"))
    assert result["pairs"] == 40
    assert result["a_archive"] == result["b_archive"]
    assert result["a_archive"].startswith("baselines-rahbo v3 (commit 77915a7")
    assert {row["median_difference"] for row in result["rows"]} == {0.0}
    with pytest.raises(bosweep.InputError, match="archive set"):
        bosweep.compare("baselines-rahbo", "baselines-rahbo")
