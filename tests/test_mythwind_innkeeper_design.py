"""The Innkeeper's design report runs on a tiny budget, is seeded, and its figures agree with each other."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _module():
    spec = importlib.util.spec_from_file_location("inn_design_report", ROOT / "benchmarks" / "design" / "mythwind_innkeeper.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_design_report_runs_on_a_tiny_budget_and_its_figures_are_consistent(capsys) -> None:
    mod = _module()
    assert mod.main(["--campaigns", "1", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert mod.main(["--campaigns", "1", "--seed", "5"]) == 0
    assert capsys.readouterr().out == out, "the same command prints the same figures"
    targets = [line for line in out.splitlines() if line.startswith("| ") and line.rstrip().endswith(("| met |", "| missed |"))]
    # 6 income sources, 5 bans, level III, 10 skills, the skills ban, 3 weaker policies
    assert len(targets) == 6 + 5 + 1 + 10 + 1 + 3
    assert ("All targets met: yes" in out) == all(t.endswith("| met |") for t in targets)
    # the figures are those of the campaigns: replay the heuristic's and compare its mean and income shares
    plays = [mod.play("heuristic", 5)]
    mean = np.mean([p["coins"] for p in plays])
    assert f"| heuristic | {mean:.1f} " in out
    earned = sum(p["earned"] for p in plays)
    for src in plays[0]["income"]:
        share = sum(p["income"][src] for p in plays) / earned
        assert re.search(rf"\| income from {src} <= 40% of coins earned \| {100 * share:.1f}% ", out), src
    assert sum(sum(p["income"].values()) for p in plays) == earned


def test_ban_removes_the_banned_rows_for_character_and_workers() -> None:
    mod = _module()
    plays = mod.play("ban_mingle", 3), mod.play("ban_skills", 3)
    assert plays[0]["uses"][mod.ROWS.index("mingle")] == 0 and plays[0]["income"]["adventure"] == 0
    assert plays[1]["skills"] == [] and plays[1]["income"]["skills"] == 0


def test_wilson_and_paired_ban_cost() -> None:
    mod = _module()
    lo, hi = mod.wilson(25, 100)
    assert lo < 0.25 < hi and 0.16 < lo and hi < 0.35
    base, ban = np.array([10.0, 20.0, 30.0]), np.array([9.0, 18.0, 27.0])
    m, lo, hi = mod.ban_cost(base, ban)
    assert abs(m - 0.1) < 1e-9 and lo <= m <= hi


def test_unseated_guests_are_tallied_by_why_once_each(monkeypatch) -> None:
    """Every guest left unseated when seating ends is counted once, under a reason that holds: a
    'service missing' guest has a free slot of its furniture and lacks a service today. The tally
    wraps one env's rules, never the class (other envs in the process, and pickles, stay as they were)."""
    from mythzoo.envs.mythwind_innkeeper.rules import MythwindInnkeeperRules

    mod = _module()
    host = MythwindInnkeeperRules._host
    seen = {"unseated": 0, "service_missing": 0}

    def _host(self, s) -> None:  # named as the step it stands for, so a bound one still pickles
        have = self.services(s)
        for g in s.drawn:
            seen["unseated"] += 1
            free = [d for d in self.inn_view(s).by_type.get(self.gfurn[g], ()) if s.slot_guest[d] < 0]
            if free and not all(have[t] for t in self.gserv[g]):
                seen["service_missing"] += 1
        host(self, s)

    monkeypatch.setattr(MythwindInnkeeperRules, "_host", _host)
    result = mod.play("heuristic", 2)
    why = result["unseated"]
    assert set(why) == set(mod.UNSEATED_WHY) and seen["unseated"] > 0
    assert sum(why.values()) == seen["unseated"]
    assert why["service_missing"] == seen["service_missing"]
    monkeypatch.undo()
    assert MythwindInnkeeperRules._host is host  # play() left the class as it found it


def test_set_overrides_a_heuristic_constant_for_the_run_and_puts_it_back() -> None:
    """``--set NAME.KEY=VALUE`` plays the campaigns with that constant changed (here Rumormonger
    valued far above its shipped worth: the heuristic learns it), and the process's heuristic is
    as shipped afterwards."""
    from mythzoo.envs.mythwind_innkeeper.components import load_data
    from mythzoo.policies.mythwind_innkeeper_heuristic import reading

    mod = _module()
    shipped = dict(reading.OTHER_SKILL_USE), reading.LOSE_VALUE
    rumormonger = [k.key for k in load_data().skills].index("rumormonger")
    base = mod.run(2, 0, 1, ["heuristic"])["heuristic"]
    overrides = [mod.parse_override("OTHER_SKILL_USE.rumormonger=5"), mod.parse_override("LOSE_VALUE=4")]
    changed = mod.run(2, 0, 1, ["heuristic"], overrides)["heuristic"]
    assert not any(rumormonger in r["skills"] for r in base)
    assert all(rumormonger in r["skills"] for r in changed)
    assert (dict(reading.OTHER_SKILL_USE), reading.LOSE_VALUE) == shipped
    assert mod.run(2, 0, 1, ["heuristic"])["heuristic"] == base


def test_set_refuses_what_is_not_a_number_constant_of_the_heuristic(capsys) -> None:
    import pytest

    mod = _module()
    for bad, said in [("LOSE_VALUE", "expected NAME=VALUE"), ("LOSE_VALUE=lots", "is not a number"),
                      ("OTHER_SKILL_USE.juggling=1", "has no entry 'juggling'"), ("NO_SUCH=1", "not a number constant"),
                      ("ADJ=1", "not a number constant"), ("OTHER_SKILL_USE=1", "not a number constant")]:
        with pytest.raises(SystemExit) as e:
            mod.main(["--campaigns", "1", "--configs", "heuristic", "--set", bad])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err, bad
    with pytest.raises(SystemExit):
        mod.main(["--campaigns", "1", "--set", "LOSE_VALUE=4", "--write"])
    assert "cannot be combined with --set" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        mod.main(["--campaigns", "1", "--configs", "heuristic,ban_juggling"])
    assert "unknown configuration(s) ban_juggling" in capsys.readouterr().err


def test_policy_plays_the_same_campaigns_and_its_action_profile_is_printed_beside_the_heuristics(capsys) -> None:
    """Issue 16 asks for the champion's action profile beside the heuristic's: ``--policy`` plays it
    on the report's seeds. The heuristic named as the policy plays exactly the heuristic's
    campaigns (paired difference 0, the same columns); the shipped champion, imported from its
    export file, plays its own (legal: the env would have raised) and is profiled the same way."""
    mod = _module()
    assert mod.main(["--campaigns", "2", "--seed", "3", "--configs", "heuristic", "--policy", "heuristic"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and not line.startswith("|---")]
    table = {r.split(" | ")[0][2:]: r.split(" | ")[1:] for r in rows}
    assert table["minus the heuristic's, paired"][1].startswith("+0.0 [+0.0, +0.0]")
    for name in ("Operate: improve", "Operate: mingle", "dice hired", "learned Charming", "income from seating"):
        h, p = table[name]
        assert h == p.rstrip(" |"), name
    plays = [mod.play("heuristic", s) for s in (3, 4)]
    assert table["Operate: mingle"][0] == f"{np.mean([p['uses'][mod.ROWS.index('mingle')] for p in plays]):.2f}"
    assert table["dice hired"][0] == f"{np.mean([p['hires'] for p in plays]):.2f}" and plays[0]["hires"] > 0

    champion = ROOT / "checkpoints" / "mythwind_innkeeper_v5-ppo-champion.tar.gz"
    assert mod.main(["--campaigns", "1", "--seed", "3", "--configs", "heuristic", "--policy", str(champion)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\| per campaign \(1 campaigns, the same seeds\) \| heuristic \| `[0-9a-f]{12} \(mythwind_innkeeper_v5-ppo-champion\.tar\.gz\)` \|", out)


def test_policy_may_be_the_search_over_a_champion_file_and_repeats(capsys) -> None:
    """``--policy rollouts:W:FILE`` profiles the search over the champion's export file (imported
    as the plain champion is); the search is reseeded per campaign, so the report repeats."""
    mod = _module()
    champion = ROOT / "checkpoints" / "mythwind_innkeeper_v5-ppo-champion.tar.gz"
    outs = []
    for _ in range(2):
        assert mod.main(["--campaigns", "2", "--seed", "3", "--configs", "heuristic", "--policy", f"rollouts:2w2:{champion}"]) == 0
        outs.append(capsys.readouterr().out)
    assert re.search(r"\| heuristic \| `rollouts:2w2:[0-9a-f]{12} \(mythwind_innkeeper_v5-ppo-champion\.tar\.gz\)` \|", outs[0])
    table = [line for line in outs[0].splitlines() if line.startswith("| ")]
    assert table == [line for line in outs[1].splitlines() if line.startswith("| ")]


def test_policy_refuses_a_bad_ref_and_write_in_one_line(capsys) -> None:
    import pytest

    mod = _module()
    for argv, said in [(["--policy", "no_such_policy"], "--policy no_such_policy"),
                       (["--policy", "heuristic", "--write"], "cannot be combined with --policy"),
                       (["--configs", "heuristic,policy"], "unknown configuration(s) policy")]:
        with pytest.raises(SystemExit) as e:
            mod.main(["--campaigns", "1", *argv])
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err and len(err.strip().splitlines()[-1]) > 0, argv


def test_json_keeps_each_campaign_and_a_rerun_reads_them_back_instead_of_replaying(tmp_path, monkeypatch, capsys) -> None:
    """``--json`` keeps every campaign as it ends; the same command again prints the same report
    without playing, a larger ``--campaigns`` plays only the new seeds, a line cut by a stop
    mid-write is played again, and another run's file is refused in one line."""
    import json

    import pytest

    mod = _module()
    path = tmp_path / "run.jsonl"
    argv = ["--seed", "7", "--configs", "heuristic", "--policy", "heuristic", "--json", str(path)]
    assert mod.main(["--campaigns", "2", *argv]) == 0
    first = capsys.readouterr().out
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["run"]["configs"] == ["heuristic", "policy"]
    assert sorted((json.loads(x)["config"], json.loads(x)["seed"]) for x in lines[1:]) == [
        ("heuristic", 7), ("heuristic", 8), ("policy", 7), ("policy", 8)]
    assert json.loads(lines[1])["result"] == mod.play(json.loads(lines[1])["config"], json.loads(lines[1])["seed"])

    played: list[tuple[str, int]] = []
    real = mod.play

    def counting(config: str, seed: int) -> dict:
        played.append((config, seed))
        return real(config, seed)

    monkeypatch.setattr(mod, "play", counting)
    assert mod.main(["--campaigns", "2", *argv]) == 0
    assert played == [] and capsys.readouterr().out == first, "read back, not replayed"
    assert mod.main(["--campaigns", "3", *argv]) == 0
    assert sorted(played) == [("heuristic", 9), ("policy", 9)]
    capsys.readouterr()

    with path.open("a") as f:  # a stop mid-write leaves a cut last line
        f.write('{"config": "heuristic", "seed": 10, "res')
    played.clear()
    assert mod.main(["--campaigns", "4", *argv]) == 0
    assert sorted(played) == [("heuristic", 10), ("policy", 10)]
    assert all(json.loads(x) for x in path.read_text().splitlines()) and len(path.read_text().splitlines()) == 1 + 8
    capsys.readouterr()

    with pytest.raises(SystemExit) as e:
        mod.main(["--campaigns", "1", "--seed", "7", "--configs", "random", "--json", str(path)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "holds another run's campaigns" in err and "Traceback" not in err
    assert len(path.read_text().splitlines()) == 1 + 8, "the refused run changed nothing"


def test_profile_gives_net_coins_and_the_ratio_to_the_heuristic(capsys) -> None:
    """The profile's net coins are the worth less the starting coins (the env's return), and the
    ratio row divides them: the heuristic profiled against itself is exactly 1.000x."""
    from mythzoo.envs.mythwind_innkeeper.components import load_data

    mod = _module()
    assert mod.main(["--campaigns", "2", "--seed", "3", "--configs", "heuristic", "--policy", "heuristic"]) == 0
    out = capsys.readouterr().out
    start = load_data().starting_coins
    net = np.mean([mod.play("heuristic", s)["coins"] - start for s in (3, 4)])
    assert f"| net coins (the return: worth less the {start} starting coins) | {net:.1f} | {net:.1f} |" in out
    assert "| ratio to the heuristic's, net coins; worth | - | 1.000x; 1.000x |" in out


_PROFILE_COMMAND = re.compile(r"python benchmarks/design_report\.py mythwind_innkeeper (--campaigns (\d+) --seed 0 --configs heuristic "
                              r"--policy (\S+) --jobs 2 --json (docs/results_mythwind_innkeeper_\w+\.jsonl))")


def _published_profiles() -> list[tuple[str, ...]]:
    return sorted(set(_PROFILE_COMMAND.findall((ROOT / "docs" / "results.md").read_text())))


def test_the_results_page_publishes_the_search_profiles() -> None:
    files = {f for *_, f in _published_profiles()}
    assert {"docs/results_mythwind_innkeeper_search_profile.jsonl", "docs/results_mythwind_innkeeper_close_calls_profile.jsonl"} <= files


@pytest.mark.parametrize("published", _published_profiles(), ids=lambda p: p[3].split("/")[-1])
def test_a_published_search_profile_is_read_back_by_its_documented_command(published, monkeypatch, capsys, tmp_path) -> None:
    """``docs/results.md`` profiles searches over the champion from committed ``--json`` files: each
    documented command, given a copy of its file, reads the campaigns back (none replayed), the
    file holds every campaign the command names, and the paired difference printed is the file's."""
    import json
    import shutil

    argv_text, campaigns, policy, file = published
    path = ROOT / file
    rows = [json.loads(x) for x in path.read_text().splitlines()[1:]]
    worth = {(r["config"], r["seed"]): r["result"]["coins"] for r in rows}
    assert all((c, s) in worth for c in ("heuristic", "policy") for s in range(int(campaigns))), "every campaign named is kept"
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    mod = _module()

    def refuse(config: str, seed: int) -> dict:
        raise AssertionError(f"replayed {config} {seed}")

    monkeypatch.setattr(mod, "play", refuse)
    argv = argv_text.split()
    argv[argv.index("--campaigns") + 1] = "5"
    argv[argv.index("--policy") + 1] = policy.replace("checkpoints/", f"{ROOT / 'checkpoints'}/")
    argv[argv.index("--json") + 1] = str(copy)
    argv[argv.index("--jobs") + 1] = "1"
    assert mod.main(argv) == 0
    out = capsys.readouterr().out
    d = np.array([worth[("policy", s)] - worth[("heuristic", s)] for s in range(5)], dtype=float)
    m, lo, hi = mod.mean_ci(d)
    assert f"| minus the heuristic's, paired | - | {m:+.1f} [{lo:+.1f}, {hi:+.1f}] |" in out
