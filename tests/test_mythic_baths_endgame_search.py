"""The Mythic Baths endgame-search benchmark: the champion's endgame choices re-decided by paired rollouts.

Two or four worlds a decision keep it fast; what it measures is in docs/results.md.
"""

from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _module():
    spec = importlib.util.spec_from_file_location("mb_endgame_search", ROOT / "benchmarks" / "mythic_baths_endgame_search.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mb_endgame_search", mod)
    spec.loader.exec_module(mod)
    return mod


def _env_and_network(mod):
    from mythzoo.envs import make

    env = make("mythic_baths", num_players=2)
    env.reset(seed=3)
    return env, mod._network(env, mod.CHAMPION)


def _play_to_endgame(env, net, searcher, seed: int):
    """Network (seat 0) against the heuristic until seat 0 is to move in the endgame with a choice."""
    from mythzoo.policies.mythic_baths_heuristic import MythicBathsHeuristic

    env.reset(seed=seed)
    h = MythicBathsHeuristic(env, seed)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            return None  # the game ended before an endgame choice of seat 0
        o, m = obs["observation"], obs["action_mask"]
        if agent == env.possible_agents[0] and searcher.in_endgame(env.unwrapped.state_) and m.sum() > 1:
            return o, m
        env.step(net.act(o, m) if agent == env.possible_agents[0] else h.act(o, m, agent))


def test_before_the_endgame_it_plays_the_network_and_searches_nothing() -> None:
    mod = _module()
    env, net = _env_and_network(mod)
    searcher = mod.EndgameRollouts(env, net, 4, 2, seed=0)
    env.reset(seed=5)
    s = env.unwrapped.state_
    assert not searcher.in_endgame(s), "no guest treated at the deal"
    obs, _, _, _, _ = env.last()
    assert searcher.act(obs["observation"], obs["action_mask"]) == net.act(obs["observation"], obs["action_mask"])
    assert searcher.asked == 0


def test_the_endgame_begins_two_treatments_before_the_last_round_or_with_it() -> None:
    # Two players: the eighth treated guest begins the last round, so the endgame begins at six.
    mod = _module()
    env, net = _env_and_network(mod)
    searcher = mod.EndgameRollouts(env, net, 4, 2, seed=0)
    env.reset(seed=5)
    u = env.unwrapped
    s = u.rules.clone(u.state_)
    s.collected[1] = list(s.guest_deck[:5])
    assert not searcher.in_endgame(s)
    s.collected[1] = list(s.guest_deck[:6])
    assert searcher.in_endgame(s)
    s.collected[1] = []
    s.final_trigger = 0
    assert searcher.in_endgame(s)


def test_an_endgame_choice_switches_only_to_an_action_that_wins_more_in_the_same_worlds() -> None:
    mod = _module()
    env, net = _env_and_network(mod)
    u = env.unwrapped
    worlds = 4
    for seed in range(20):
        searcher = mod.EndgameRollouts(env, net, worlds, 2, seed=seed)
        found = _play_to_endgame(env, net, searcher, seed)
        if found is None:
            continue
        obs, mask = found
        s0 = u.rules.clone(u.state_)
        chosen = searcher.act(obs, mask)
        assert searcher.asked == 1 and mask[chosen] == 1
        # The same decision by hand: the same worlds, every legal action played on by the network.
        rng = np.random.default_rng(seed)
        seat = u.rules.current_player(s0)
        sampled = [u.rules.resample_hidden(s0, seat, int(x)) for x in rng.integers(0, 2**62, size=worlds)]
        legal = [int(a) for a in np.flatnonzero(mask)]
        shares = {}
        for a in legal:
            states = []
            for w in sampled:
                s = u.rules.clone(w)
                u.rules.apply(s, a)
                states.append(s)
            shares[a] = searcher.outcomes(u, states, seat)
            assert set(shares[a].tolist()) <= {0.0, 0.5, 1.0}
        base = net.act(obs, mask)
        gains = {a: (shares[a] - shares[base]).mean() for a in legal if a != base}
        significant = {a: g for a, g in gains.items()
                       if g > 2 * (shares[a] - shares[base]).std(ddof=1) / math.sqrt(worlds)}
        expected = max(significant, key=lambda a: (significant[a], -legal.index(a))) if significant else base
        assert chosen == expected
        if chosen != base:
            assert searcher.changed == 1
            return
    raise AssertionError("no endgame choice of the network was changed in 20 seeds")


def test_each_seed_is_played_from_both_seats_both_ways_and_the_figures_repeat() -> None:
    mod = _module()
    row = mod.play(11, 2, 1, str(mod.CHAMPION))
    assert len(row["network"]) == len(row["search"]) == 2
    assert all(x in (0.0, 0.5, 1.0) for x in row["network"] + row["search"])
    assert row["asked"] > 0, "both seats reach the endgame"
    again = mod.play(11, 2, 1, str(mod.CHAMPION))
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in row.items() if k != "seconds"}


def test_a_bad_argument_is_one_line_and_plays_nothing() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mythic_baths_endgame_search.py"), "--worlds", "1"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().count("\n") == 0 and "--worlds at least 2" in out.stderr
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mythic_baths_endgame_search.py"), "--checkpoint", "nowhere.tar"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stderr.strip() == "error: no checkpoint archive at nowhere.tar"


def test_a_larger_table_is_played_from_every_seat() -> None:
    mod = _module()
    row = mod.play(12, 2, 0, str(mod.CHAMPION), players=3)
    assert len(row["network"]) == len(row["search"]) == 3
    assert all(0.0 <= x <= 1.0 for x in row["network"] + row["search"])


def test_runs_on_disjoint_seeds_are_summed_and_overlaps_refused(tmp_path: Path) -> None:
    import json

    def rows(first: int, net: list[float], srch: list[float]) -> list[dict]:
        return [{"seed": first + i, "network": [a, a], "search": [b, b], "asked": 10, "changed": 1, "seconds": 1.0}
                for i, (a, b) in enumerate(zip(net, srch))]

    a, b, c = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    a.write_text(json.dumps({"players": 2, "worlds": 16, "window": 2, "rows": rows(0, [1.0, 0.0], [1.0, 1.0])}))
    b.write_text(json.dumps({"players": 2, "worlds": 16, "window": 2, "rows": rows(2, [0.0, 1.0], [0.0, 1.0])}))
    c.write_text(json.dumps({"players": 2, "worlds": 8, "window": 2, "rows": rows(9, [1.0], [1.0])}))
    script = str(ROOT / "benchmarks" / "mythic_baths_endgame_search.py")
    out = subprocess.run([sys.executable, script, "--from-json", str(a), str(b)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].startswith("8 games each way (4 seeds, every seat), 2 players, 16 worlds")
    assert "network alone: 0.500" in out.stdout and "with endgame search: 0.750" in out.stdout
    assert "games better / worse: 2 / 0" in out.stdout
    for files, says in (([a, a], "a seed is in more than one file"), ([a, c], "different players, worlds, more worlds or window"),
                        ([tmp_path / "none.json"], "cannot read")):
        out = subprocess.run([sys.executable, script, "--from-json", *map(str, files)], capture_output=True, text=True, timeout=120)
        assert out.returncode == 2 and out.stdout == "" and says in out.stderr and out.stderr.count("\n") == 1, out.stderr


def test_two_settings_are_paired_game_by_game_over_the_seeds_both_hold(tmp_path: Path) -> None:
    """``--paired A --against B1 B2``: B's files pooled, only the seeds on both sides counted, A minus
    B per game; a pairing that means nothing (other table, other network games, no common seed) is
    one line and prints nothing."""
    import json

    def run(path: Path, window: int, more: int, rows: list[tuple[int, list[float], list[float]]], players: int = 2) -> str:
        path.write_text(json.dumps({"players": players, "worlds": 16, "window": window, "more_worlds": more, "rows": [
            {"seed": s, "network": net, "search": srch, "asked": 10, "changed": c, "seconds": 1.0}
            for c, (s, net, srch) in enumerate(rows)]}))
        return str(path)

    a = run(tmp_path / "a.json", 3, 16, [(0, [0.0, 0.0], [1.0, 1.0]), (1, [0.0, 1.0], [1.0, 1.0]),
                                         (2, [1.0, 0.0], [1.0, 0.0]), (3, [0.0, 0.0], [0.0, 1.0])])
    b1 = run(tmp_path / "b1.json", 2, 0, [(1, [0.0, 1.0], [0.0, 1.0]), (2, [1.0, 0.0], [1.0, 1.0])])
    b2 = run(tmp_path / "b2.json", 2, 0, [(3, [0.0, 0.0], [0.0, 0.0]), (5, [1.0, 1.0], [1.0, 1.0])])
    script = str(ROOT / "benchmarks" / "mythic_baths_endgame_search.py")
    out = subprocess.run([sys.executable, script, "--paired", a, "--against", b1, b2], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "6 games (3 seeds, 1-3, every seat), 2 players; network alone 0.333"
    assert lines[1].startswith("A (16+16 worlds, window 3): 0.667 [") and lines[2].startswith("B (16 worlds, window 2): 0.500 [")
    # seed 1: +1 and 0, seed 2: 0 and -1, seed 3: 0 and +1: mean +1/6, 2 better and 1 worse
    assert lines[3].startswith("A minus B, paired: +0.167 [") and lines[3].endswith("games A better / worse: 2 / 1")
    other_net = run(tmp_path / "net.json", 2, 0, [(1, [1.0, 1.0], [1.0, 1.0])])
    three = run(tmp_path / "three.json", 2, 0, [(1, [0.0, 1.0, 0.0], [0.0, 1.0, 0.0])], players=3)
    apart = run(tmp_path / "apart.json", 2, 0, [(9, [0.0, 1.0], [0.0, 1.0])])
    for argv, says in ((["--paired", a, "--against", other_net], "network-alone games of seed 1 differ"),
                       (["--paired", a, "--against", three], "different table sizes (2 and 3 players)"),
                       (["--paired", a, "--against", apart], "hold no seed in common"),
                       (["--paired", a, "--against", b1, b1], "a seed is in more than one file"),
                       (["--paired", a], "--paired and --against go together"),
                       (["--paired", a, "--against", str(tmp_path / "none.json")], "cannot read")):
        out = subprocess.run([sys.executable, script, *argv], capture_output=True, text=True, timeout=120)
        assert out.returncode == 2 and out.stdout == "" and says in out.stderr and out.stderr.count("\n") == 1, (argv, out.stderr)


def test_a_json_run_keeps_each_seed_and_goes_on_from_the_seeds_it_holds(tmp_path: Path, monkeypatch) -> None:
    """``--json`` is written as each seed ends; a second run with the same setting plays only the seeds
    it lacks (rows of other seeds stay); another setting is refused with one line, the file unchanged."""
    import json

    mod = _module()
    played: list[tuple] = []

    def fake_play(seed, worlds, window, checkpoint, players=2, more_worlds=0):
        played.append((seed, worlds, window, players, more_worlds))
        return {"seed": seed, "network": [0.0] * players, "search": [1.0] * players, "asked": 4, "changed": 1,
                "extended": 2, "seconds": 0.1}

    monkeypatch.setattr(mod, "play", fake_play)
    out = tmp_path / "run.json"
    kept = {"seed": 99, "network": [1.0, 1.0], "search": [1.0, 1.0], "asked": 3, "changed": 0, "extended": 0, "seconds": 2.0}
    out.write_text(json.dumps({"players": 2, "worlds": 4, "window": 1, "more_worlds": 2, "rows": [kept]}))
    common = ["--worlds", "4", "--window", "1", "--more-worlds", "2", "--json", str(out)]
    assert mod.main(["--games", "2", "--seed", "5", *common]) == 0
    assert played == [(5, 4, 1, 2, 2), (6, 4, 1, 2, 2)]
    assert mod.main(["--games", "3", "--seed", "5", *common]) == 0
    assert [p[0] for p in played] == [5, 6, 7]  # seeds 5 and 6 read back, not played again
    run = json.loads(out.read_text())
    assert [r["seed"] for r in run["rows"]] == [5, 6, 7, 99] and run["rows"][-1] == kept and run["more_worlds"] == 2
    before = out.read_text()
    out_err = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mythic_baths_endgame_search.py"),
                              "--games", "1", "--seed", "5", "--worlds", "8", "--window", "1", "--json", str(out)],
                             capture_output=True, text=True, timeout=120)
    assert out_err.returncode == 2 and out_err.stdout == "" and out_err.stderr.count("\n") == 1
    assert "holds a run with players, worlds, window, more worlds (2, 4, 1, 2), not (2, 8, 1, 0)" in out_err.stderr
    assert out.read_text() == before


def _documented_runs() -> list[list[str]]:
    import re
    import shlex

    text = (ROOT / "docs" / "results.md").read_text()
    cmds = re.findall(r"^python benchmarks/mythic_baths_endgame_search\.py (.*--json .*)$", text, re.M)
    return [shlex.split(c) for c in cmds]


@pytest.mark.parametrize("argv", _documented_runs(), ids=lambda a: a[a.index("--json") + 1].rsplit("/", 1)[-1])
def test_every_documented_run_reads_back_from_its_file_and_gives_the_published_rates(argv: list[str], monkeypatch,
                                                                                     capsys) -> None:
    """docs/results.md's commands, run again, play nothing (their committed --json file holds every seed
    they name) and print the win rates the page publishes."""
    import re

    mod = _module()

    def no_play(*a, **k):
        raise AssertionError(f"seed {a[0]} is missing from the committed file")

    monkeypatch.setattr(mod, "play", no_play)
    argv = [str(ROOT / a) if a.startswith("docs/") else a for a in argv]
    assert mod.main(argv) == 0
    out = capsys.readouterr().out
    page = (ROOT / "docs" / "results.md").read_text()
    for what in ("network alone", "with endgame search"):
        rate = float(re.search(rf"{what}: ([0-9.]+) ", out).group(1))
        assert f"{100 * rate:.1f}%" in page, (what, rate)


def _documented_pairings() -> list[list[str]]:
    import re
    import shlex

    text = (ROOT / "docs" / "results.md").read_text()
    return [shlex.split(c) for c in re.findall(r"^python benchmarks/mythic_baths_endgame_search\.py (--paired .*)$", text, re.M)]


@pytest.mark.parametrize("argv", _documented_pairings(), ids=lambda a: a[1].rsplit("/", 1)[-1])
def test_every_documented_pairing_gives_the_published_figures(argv: list[str], capsys) -> None:
    """docs/results.md's ``--paired`` commands print both settings' win rates and the paired
    difference that the page publishes."""
    import re

    assert argv, "docs/results.md names no --paired command"
    mod = _module()
    assert mod.main([str(ROOT / a) if a.startswith("docs/") else a for a in argv]) == 0
    out = capsys.readouterr().out
    page = " ".join((ROOT / "docs" / "results.md").read_text().split())
    for side in ("A", "B"):
        rate = float(re.search(rf"^{side} \(.*\): ([0-9.]+) ", out, re.M).group(1))
        assert f"{100 * rate:.1f}%" in page, (side, rate)
    m, lo, hi = map(float, re.search(r"paired: ([-+][0-9.]+) \[([-+][0-9.]+), ([-+][0-9.]+)\]", out).groups())
    assert f"{100 * m:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]" in page, (m, lo, hi)
