"""The Innkeeper headroom benchmark: the heuristic's Operate choices re-decided by paired rollouts.

Run on one-season, two-day campaigns so that it stays fast; what it measures is in docs/results.md.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
SHORT = {"days_per_season": 2, "seasons": 1}


def _module():
    spec = importlib.util.spec_from_file_location("inn_headroom", ROOT / "benchmarks" / "innkeeper_search_headroom.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_rollout_improvement_leaves_the_game_untouched_and_changes_only_operate_choices() -> None:
    from mythzoo.envs import make
    from mythzoo.policies.mythwind_innkeeper_heuristic import MythwindInnkeeperHeuristic

    mod = _module()
    env = make("mythwind_innkeeper", **SHORT)
    env.reset(seed=3)
    improved = mod.RolloutImprovedHeuristic(env, worlds=3, seed=3)
    heuristic = MythwindInnkeeperHeuristic(env, seed=3)
    operate_seen = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        before = json.dumps(env.get_state(), sort_keys=True)
        a = improved.act(obs["observation"], obs["action_mask"], agent)
        assert json.dumps(env.get_state(), sort_keys=True) == before, "the rollouts ran on copies"
        assert obs["action_mask"][a] == 1
        legal = set(np.flatnonzero(obs["action_mask"]).tolist())
        if not (improved.operate & legal) or len(legal) == 1:
            assert a == heuristic.act(obs["observation"], obs["action_mask"], agent), "outside Operate it is the heuristic"
        else:
            operate_seen += 1
        env.step(a)
    assert operate_seen == improved.asked >= 2
    assert 0 <= improved.changed <= improved.asked


def test_a_campaign_is_played_both_ways_on_the_same_seed_and_repeats() -> None:
    mod = _module()
    row = mod.play(4, 2, SHORT)
    assert set(row) >= {"seed", "heuristic", "improved", "operate_decisions", "changed", "changes"}
    assert len(row["changes"]) == row["changed"] and all(" -> " in c for c in row["changes"])
    from mythzoo.envs import make
    from mythzoo.policies.mythwind_innkeeper_heuristic import MythwindInnkeeperHeuristic

    env = make("mythwind_innkeeper", **SHORT)
    env.reset(seed=4)
    h = MythwindInnkeeperHeuristic(env, seed=4)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else h.act(obs["observation"], obs["action_mask"], agent))
    assert row["heuristic"] == env.unwrapped.rules.worth(env.unwrapped.state_), "the heuristic's run is the heuristic's campaign"
    again = mod.play(4, 2, SHORT)
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in row.items() if k != "seconds"}


def test_the_policy_with_fewer_than_two_worlds_is_refused() -> None:
    from mythzoo.envs import make

    with pytest.raises(ValueError, match="at least 2"):
        _module().RolloutImprovedHeuristic(make("mythwind_innkeeper", **SHORT), worlds=1, seed=0)


@pytest.mark.parametrize("args", [["--campaigns", "0"], ["--worlds", "1"], ["--jobs", "0"]])
def test_bad_arguments_get_one_line_and_exit_2(args: list[str], capsys) -> None:
    assert _module().main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error:")


def test_the_command_prints_each_campaign_and_the_paired_difference(tmp_path: Path, capsys) -> None:
    mod = _module()
    full_play = mod.play
    mod.play = lambda seed, worlds: full_play(seed, worlds, SHORT)  # short campaigns, the same code path
    out_json = tmp_path / "rows.json"
    assert mod.main(["--campaigns", "2", "--seed", "7", "--worlds", "2", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    rows = json.loads(out_json.read_text())["rows"]
    assert [r["seed"] for r in rows] == [7, 8]
    for r in rows:
        assert f"seed {r['seed']}: heuristic {r['heuristic']}, improved {r['improved']}" in out
    diff = np.mean([r["improved"] - r["heuristic"] for r in rows])
    assert f"improved minus heuristic, paired: {diff:+.1f}" in out
    assert "choices changed (heuristic's -> search's, times): " in out
