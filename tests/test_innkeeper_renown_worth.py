"""The Innkeeper renown-worth benchmark: one renown step down, played on by the heuristic, paired.

One day a season and two worlds a state keep it fast; what it measures is in
docs/design/mythwind_innkeeper.md.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _module():
    spec = importlib.util.spec_from_file_location("inn_renown_worth", ROOT / "benchmarks" / "innkeeper_renown_worth.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("inn_renown_worth", mod)
    spec.loader.exec_module(mod)
    return mod


def test_each_row_is_the_heuristic_played_on_from_one_step_lower_in_the_same_worlds() -> None:
    from mythzoo.envs import make
    from mythzoo.policies.mythwind_innkeeper_heuristic import MythwindInnkeeperHeuristic

    mod = _module()
    seed = 1
    rows = mod.measure(seed, 2, (4,))
    assert rows and all(r["day"] == 4 for r in rows), "the campaign's fifth days with renown to lose"
    assert all(r["turn"] < 18 for r in rows), "no upkeep follows the last season: left out"
    assert any(any(r["step_down"]) for r in rows), "a step of renown changes how the campaign ends"
    assert rows == mod.measure(seed, 2, (4,)), "the same seed measures the same"
    # Recompute the first row by hand: the campaign's state at that turn, the same worlds.
    env = make("mythwind_innkeeper")
    env.reset(seed=seed)
    u = env.unwrapped
    h = MythwindInnkeeperHeuristic(env, seed=seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if u.state_.turn == rows[0]["turn"]:
            break
        env.step(None if term or trunc else h.act(obs["observation"], obs["action_mask"], agent))
    s0 = u.state_
    assert int(s0.renown) == rows[0]["renown"]
    playout = mod.RolloutImprovedHeuristic(env, 2, seed)
    rng = np.random.default_rng(seed + 999)
    expected = []
    for w in rng.integers(0, 2**62, size=2):
        world = u.rules.resample_hidden(s0, 0, int(w))
        lower = u.rules.clone(world)
        lower.renown -= 1
        expected.append(playout._rollout(lower) - playout._rollout(u.rules.clone(world)))
    assert rows[0]["step_down"] == expected


@pytest.mark.parametrize("args", [["--campaigns", "0"], ["--worlds", "0"], ["--days", "x"], ["--days", "9"], ["--jobs", "0"]])
def test_bad_arguments_get_one_line_and_exit_2(args: list[str], capsys) -> None:
    assert _module().main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error:")


def test_the_command_prints_the_table_of_the_rows_it_writes(tmp_path: Path, capsys) -> None:
    mod = _module()
    out_json = tmp_path / "rows.json"
    assert mod.main(["--campaigns", "3", "--seed", "1", "--days", "4", "--worlds", "1", "--json", str(out_json)]) == 0
    out = capsys.readouterr().out
    rows = json.loads(out_json.read_text())["rows"]
    assert rows and {r["seed"] for r in rows} <= {1, 2, 3}
    assert "| day of the season | slot 1 |" in out
    day, slot = rows[0]["day"], rows[0]["renown"]
    x = [float(np.mean(r["step_down"])) for r in rows if r["day"] == day and r["renown"] == slot]
    line = next(li for li in out.splitlines() if li.startswith(f"| {day} |"))
    cell = line.split(" | ")[slot]
    assert cell.startswith(f"{np.mean(x):+.1f}") and cell.endswith(f"({len(x)})")
